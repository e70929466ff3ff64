"""A blip is not a departure (issue 43): a stall or a dropped connection, through a stall
proxy on loopback (bench/_stallproxy.py), heals, and the session completes with matched
receipts and transcripts that verify OK.

Time is scaled down here (pings every 0.3 s, 0.5 s for a pong, 1.5 s stalls) so the suite stays
fast; ``python -m bench stalls`` plays the card's sizes (5 s stalls, 2 s / 3 s pings) 50 times.
Every wait is on a condition (the session's end), never on a duration: the stall's length is
the network condition under test, not a wait.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bench._stallproxy import StallProxy
from pointline.net.client import _connection
from pointline.net.client._events import Reconnected, Reconnecting
from pointline.net.client._headless import describe
from pointline.net.client._relay_client import (
    RelayClient,
    RoundOpened,
)
from pointline.net.protocol._peer import Peer
from pointline.net.relay._server import RunningRelay
from tests.net.support import (
    PASSWORD,
    RELAXED,
    assert_complete,
    one_room,
    random_chooser,
    relay,
    run,
    start_room,
    until,
)

STALL = 1.5  # seconds: longer than a ping and its pong (0.8 s), so the connection is dropped
PINGS = {"ping_interval": 0.3, "ping_timeout": 0.5}
Payload = dict[str, Any]


@pytest.fixture(autouse=True)
def quick_pings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The client's pings scaled like the relay's (``PINGS``)."""
    monkeypatch.setattr(_connection, "PING_INTERVAL", PINGS["ping_interval"])
    monkeypatch.setattr(_connection, "PING_TIMEOUT", PINGS["ping_timeout"])
    monkeypatch.setattr(_connection, "CLOSE_TIMEOUT", 0.3)


@asynccontextmanager
async def proxied(tmp_path: Path) -> AsyncIterator[tuple[RunningRelay, StallProxy]]:
    async with relay(tmp_path, **PINGS) as running:
        proxy = await StallProxy.to(running.url)
        try:
            yield running, proxy
        finally:
            await proxy.close()


_names = [0]


async def signed_up(url: str, seats: int) -> list[RelayClient]:
    _names[0] += 1
    clients = [await RelayClient.connect(url, timeouts=RELAXED) for _ in range(seats)]
    for i, c in enumerate(clients):
        await c.signup(f"st{_names[0]}_{i}", PASSWORD)
    return clients


def at(kind: str, throw: int | None, act: Callable[[], None]) -> Callable[[Payload], list[Payload]]:
    """An ``outbound`` hook that does ``act`` once, as the first frame of ``kind`` (for
    ``throw``, when given) leaves: the frame itself then goes into the stall."""
    done: list[bool] = []

    def hook(payload: Payload) -> list[Payload]:
        if not done and payload.get("kind") == kind and throw in (None, payload.get("throw")):
            done.append(True)
            act()
        return [payload]

    return hook


async def play_all(clients: list[RelayClient], log: list[object]) -> list[Peer]:
    async def play(i: int, c: RelayClient) -> Peer:
        choose = random_chooser(70 + i)
        async for event in c.events():
            log.append(event)
            peer = c.peer
            if isinstance(event, RoundOpened) and peer is not None and not peer.is_finished:
                c.commit(choose(peer.table, peer.seat))
        assert c.peer is not None
        return c.peer

    try:
        return list(await asyncio.gather(*(play(i, c) for i, c in enumerate(clients))))
    finally:
        for c in clients:
            await c.close()


@pytest.mark.parametrize(
    ("seats", "kind"),
    [(2, "commit"), (2, "reveal"), (2, "receipt"), (8, "reveal")],
    ids=["2 seats, commit", "2 seats, reveal", "2 seats, receipts", "8 seats, reveal"],
)
def test_a_stall_at_any_step_ends_no_session(tmp_path: Path, seats: int, kind: str) -> None:
    """Every packet held both ways for ``STALL`` seconds as seat 1's frame of that step leaves:
    both sides notice the silence, the clients reconnect and take their seats back, what was
    missed is sent again, and the session completes."""

    async def scenario() -> None:
        async with proxied(tmp_path) as (_running, proxy):
            clients = await signed_up(proxy.url, seats)
            await one_room(clients)
            await start_room(clients)
            clients[0].outbound = at(
                kind,
                3 if kind != "receipt" else None,  # type: ignore[method-assign]
                lambda: proxy.stall(STALL),
            )
            log: list[object] = []
            peers = await play_all(clients, log)
            assert proxy.stalls == 1
            assert_complete(clients, peers)
            # the connections were dropped and taken up again, not just slow
            assert sum(c.reconnects for c in clients) >= 1
            assert any(isinstance(e, Reconnected) for e in log)

    run(scenario(), timeout=60)


def test_a_connection_dropped_mid_hand_heals(tmp_path: Path) -> None:
    """Every socket reset at seat 1's commit of throw 3 (an access point change): the clients
    reconnect, their unacknowledged frames go again, the session completes."""

    async def scenario() -> None:
        async with proxied(tmp_path) as (running, proxy):
            clients = await signed_up(proxy.url, 2)
            await one_room(clients)
            await start_room(clients)
            clients[0].outbound = at("commit", 3, proxy.drop)  # type: ignore[method-assign]
            log: list[object] = []
            peers = await play_all(clients, log)
            assert proxy.drops == 1
            assert_complete(clients, peers)
            assert all(c.reconnects == 1 for c in clients)
            assert running.relay.core.resumed == 2
            assert not any(type(e).__name__ == "MemberDeparted" for e in log)

    run(scenario(), timeout=60)


def test_a_connection_dropped_in_the_lobby_keeps_the_seats(tmp_path: Path) -> None:
    """Both sockets reset while the room waits for its start: the seats are held, both take
    theirs back, and the room starts and completes as if nothing happened."""

    async def scenario() -> None:
        async with proxied(tmp_path) as (running, proxy):
            clients = await signed_up(proxy.url, 2)
            room = await one_room(clients)
            proxy.drop()
            await until(lambda: all(c.reconnects == 1 for c in clients), what="the reconnects")
            await until(lambda: running.relay.core.resumed == 2, what="both seats taken back")
            assert [c.room.code if c.room else None for c in clients] == [room.code] * 2
            await start_room(clients)
            peers = await play_all(clients, [])
            assert_complete(clients, peers)

    run(scenario(), timeout=60)


def test_reconnecting_reads_as_words() -> None:
    assert describe(Reconnecting("keepalive ping timeout")) == "reconnecting…"
    assert describe(Reconnected(2)) is None  # nothing more is said when it comes back
