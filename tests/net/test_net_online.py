"""Whole online sessions: a real relay on loopback, real websocket clients, real deadlines."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from net.client import ClientError, RelayClient
from tests.net.conftest import run
from tests.net.test_net_online_harness import (
    PASSWORD,
    TIMEOUTS,
    assert_complete,
    relay,
    seated,
    session,
)


@pytest.mark.parametrize("seats", [2, 8])
def test_a_complete_session_gives_every_client_the_same_result(tmp_path: Path, seats: int) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            clients, peers = await session(running.url, seats, seed=seats)
            assert_complete(clients, peers)
            assert all(p.table.hands_resolved == 5 for p in peers)
            # every peer reconstructed every seat's ledger the same way
            for seat in range(seats):
                ledgers = {tuple(p.table.ledger_since(seat, 0)) for p in peers}
                assert len(ledgers) == 1

    run(scenario(), timeout=60)


def test_two_rooms_on_one_relay_run_at_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            (c1, p1), (c2, p2) = await asyncio.gather(
                session(running.url, 3, seed=5, prefix="a"),
                session(running.url, 2, seed=6, prefix="b"),
            )
            assert_complete(c1, p1)
            assert_complete(c2, p2)
            assert c1[0].started is not None and c2[0].started is not None
            assert c1[0].started.table_id != c2[0].started.table_id

    run(scenario(), timeout=60)


def test_one_member_cannot_start_and_a_ninth_is_refused(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            clients = [await RelayClient.connect(running.url, TIMEOUTS) for _ in range(9)]
            for i, c in enumerate(clients):
                await c.signup(f"nine_{i}", PASSWORD)
            room = await clients[0].create_room()
            with pytest.raises(ClientError) as alone:
                await clients[0].start()
            assert alone.value.code == "too_few"
            for c in clients[1:8]:
                await c.join_room(room.code)
            with pytest.raises(ClientError) as ninth:
                await clients[8].join_room(room.code)
            assert ninth.value.code == "room_full"
            assert clients[8].started is None
            for c in clients:
                await c.close()

    run(scenario())


def test_wrong_password_and_the_same_account_twice_are_refused(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            a, b, twin = [await RelayClient.connect(running.url, TIMEOUTS) for _ in range(3)]
            await a.signup("owner", PASSWORD)
            await b.signup("guest", PASSWORD)
            with pytest.raises(ClientError) as wrong:
                await twin.signin("guest", "not-the-password")
            assert wrong.value.code == "bad_credentials" and twin.token is None
            room = await a.create_room()
            await b.join_room(room.code)
            await twin.signin("guest", PASSWORD)
            with pytest.raises(ClientError) as twice:
                await twin.join_room(room.code)
            assert twice.value.code == "duplicate_account"
            await a.start()
            started = await b.wait_started(5.0)
            assert [m.name for m in started.roster] == ["owner", "guest"]
            for c in (a, b, twin):
                await c.close()

    run(scenario())


def test_commands_before_the_start_are_refused_clearly(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            c = await RelayClient.connect(running.url, TIMEOUTS)
            with pytest.raises(ClientError) as no_token:
                await c.create_room()
            assert no_token.value.code == "bad_token"
            from kernel import Choice

            with pytest.raises(ClientError) as early:
                c.commit(Choice(10, 0))
            assert early.value.code == "not_started"
            await c.close()

    run(scenario())


def test_seated_clients_see_each_other_in_the_roster(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            clients = await seated(running.url, 4)
            keys = [c.signing_key.public_hex for c in clients if c.signing_key]
            for c in clients:
                assert c.started is not None
                assert [m.session_key for m in c.started.roster] == keys
            for c in clients:
                await c.close()

    run(scenario())
