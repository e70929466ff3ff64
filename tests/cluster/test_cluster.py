"""Relays as a cluster on real Redis and PostgreSQL servers (``conftest.py``, ``bench/servers.py``).

Two and three relays; sign in on one and join a room another owns; a full eight-seat session
spread over three relays; a new room going to the least-loaded relay; kill -9 of a relay, of
Redis and of PostgreSQL mid-session (each: the right ending, nothing lost, recovery); the
lock-out and rate limits across relays; a token revoked on one relay refused on another.
"""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import redis.asyncio

from bench.servers import PostgresServer, RedisServer
from pointline.net.client._relay_client import ClientError, RelayClient
from pointline.net.client._verify_command import verify_transcript
from pointline.net.protocol._peer import RoundOpened
from pointline.net.relay._accounts import FAST_HASH, Accounts
from pointline.net.relay._store_pg import PostgresDatabase
from tests.cluster.support import (
    ROOT,
    TTL,
    Backends,
    RelayProcess,
    names,
    relay_processes,
    relays,
    signed_in,
    until,
    whole_session,
)
from tests.net.support import PASSWORD, one_room, run, start_room


def test_sign_in_on_one_relay_and_join_a_room_another_relay_owns(
    tmp_path: Path, backends: Backends
) -> None:
    async def scenario() -> None:
        async with relays(tmp_path, backends, 2) as (a, b):
            creator = await signed_in(b.url)
            room = await creator.create_room()
            assert b.relay.rooms.get(room.code) is not None  # B holds the room
            await until(lambda: a.relay.router is not None and a.relay.router.presence.peers)
            joiner = await signed_in(a.url)  # signed in on A ...
            joined = await joiner.join_room(room.code)  # ... and sent to B with its token
            assert joined.code == room.code and joined.seat == 1
            assert joiner.url == b.url and a.relay.router is not None
            assert a.relay.router.redirected == 1 and a.relay.rooms.get(room.code) is None
            assert [e.name for e in b.relay.rooms.get(room.code).roster()] == [  # type: ignore[union-attr]
                creator.name,
                joiner.name,
            ]
            assert a.relay.key.public_hex == b.relay.key.public_hex  # one roster key
            await whole_session([creator, joiner])
            with pytest.raises(ClientError) as caught:  # an unknown code is still no_room
                await (await signed_in(a.url)).join_room("ZZZZZZ")
            assert caught.value.code == "no_room"

    run(scenario(), 60)


def test_a_full_eight_seat_session_spread_over_three_relays(
    tmp_path: Path, backends: Backends
) -> None:
    async def scenario() -> None:
        async with relays(tmp_path, backends, 3) as running:
            clients = [await signed_in(running[i % 3].url) for i in range(8)]
            room = await one_room(clients)
            owner = [r for r in running if r.relay.rooms.get(room.code) is not None]
            assert len(owner) == 1 and {c.url for c in clients} == {owner[0].url}
            assert owner[0].relay.rooms.seats() == 8
            await whole_session(clients)

    run(scenario(), 90)


def test_a_new_room_goes_to_the_least_loaded_relay(tmp_path: Path, backends: Backends) -> None:
    async def scenario() -> None:
        async with relays(tmp_path, backends, 2) as (a, b):
            crowd = [await signed_in(a.url) for _ in range(8)]
            await one_room(crowd)
            assert a.relay.rooms.seats() == 8 and b.relay.rooms.seats() == 0
            assert b.relay.router is not None
            await until(
                lambda: (
                    b.relay.router.presence.peers  # B saw A's load
                    and next(iter(b.relay.router.presence.peers.values())).load == 8
                )
            )
            assert a.relay.router is not None
            await until(
                lambda: (
                    next(iter(a.relay.router.presence.peers.values())).load == 0
                    and a.relay.router.presence.peers
                )
            )
            newcomer = await signed_in(a.url)
            fresh = await newcomer.create_room()  # asked on A (8 seats), made on B (none)
            assert newcomer.url == b.url and b.relay.rooms.get(fresh.code) is not None
            again = await signed_in(b.url)
            assert (await again.create_room()).code in b.relay.rooms.codes()  # B keeps its own
            for c in [*crowd, newcomer, again]:
                await c.close()

    run(scenario(), 60)


def test_a_token_revoked_on_one_relay_is_refused_on_another(
    tmp_path: Path, backends: Backends
) -> None:
    async def scenario() -> None:
        async with relays(tmp_path, backends, 2) as (a, b):
            on_a = await signed_in(a.url, "revoked_one")
            token = on_a.token
            assert token is not None
            on_b = await RelayClient.connect(b.url)
            on_b.token = token  # the same token works on B ...
            room = await on_b.create_room()
            assert room.code
            await on_b.leave()
            await on_a.signout()  # ... until A revokes it
            on_b2 = await RelayClient.connect(b.url)
            on_b2.token = token
            with pytest.raises(ClientError) as caught:
                await on_b2.create_room()
            assert caught.value.code == "bad_token"
            fresh = await on_b2.signin("revoked_one", PASSWORD)  # a password change on B ...
            await on_b2.change_password(PASSWORD, "another-pass-1")
            on_a2 = await RelayClient.connect(a.url)
            on_a2.token = fresh
            with pytest.raises(ClientError) as caught:  # ... revokes the older token on A
                await on_a2.create_room()
            assert caught.value.code == "bad_token"
            for c in (on_a, on_b, on_b2, on_a2):
                await c.close()

    run(scenario(), 60)


def test_lock_out_and_sign_in_limits_hold_across_relays(tmp_path: Path, backends: Backends) -> None:
    async def scenario() -> None:
        async with relays(tmp_path, backends, 2, failures_per_name=3, auth_per_address=8) as (
            a,
            b,
        ):
            owner = await signed_in(a.url, "locked_name")  # 1 sign-up from 127.0.0.1
            guesses = [await RelayClient.connect(r.url) for r in (a, b, a)]
            for client in guesses:  # three wrong passwords, on two relays
                with pytest.raises(ClientError) as caught:
                    await client.signin("locked_name", "wrong-password")
                assert caught.value.code == "bad_credentials"
            late = await RelayClient.connect(b.url)
            with pytest.raises(ClientError) as caught:  # the 4th, on B: locked out
                await late.signin("locked_name", PASSWORD)
            assert caught.value.code == "signin_limited"
            # 5 sign-in attempts so far from this address; 3 more are allowed on either relay
            more = [await RelayClient.connect(r.url) for r in (b, a, b, a)]
            for client in more[:3]:
                await client.signup(f"lim{next(names)}", PASSWORD)
            with pytest.raises(ClientError) as caught:  # the 9th from 127.0.0.1, cluster-wide
                await more[3].signup(f"lim{next(names)}", PASSWORD)
            assert caught.value.code == "signin_limited"
            assert "address" in caught.value.text
            for c in (owner, *guesses, late, *more):
                await c.close()

    run(scenario(), 60)


def ended_relay_lost(client: RelayClient) -> None:
    assert client.peer is not None and client.peer.result is None
    assert client.transcript_path is not None and client.transcript_path.exists()
    report = verify_transcript(client.transcript_path)
    # verify re-checks what was signed and says how it ended: the relay was lost, no ranks;
    # every record checks, but the rest of the session is not in the file: INCOMPLETE
    assert report.ok and not report.complete, report.text()
    assert report.text().startswith("INCOMPLETE: "), report.text()
    assert "the relay was lost before the first throw" in report.summary, report.summary
    assert "every record up to there checks" in report.summary
    assert report.final is None and report.ranks is None


async def vanished(url: str, key: str, timeout: float) -> None:
    """Wait until Redis drops ``key`` (it expires or is deleted), told by Redis's own keyspace
    notification; a ``TimeoutError`` after ``timeout`` seconds."""
    directory = redis.asyncio.Redis.from_url(url, decode_responses=True)
    try:
        await directory.config_set("notify-keyspace-events", "Kgx")  # g: del, x: expired
        async with directory.pubsub() as notices, asyncio.timeout(timeout):
            await notices.subscribe(f"__keyspace@0__:{key}")
            if not await directory.exists(key):  # gone before the subscription took
                return
            async for notice in notices.listen():
                if notice["type"] == "message" and notice["data"] in ("expired", "del"):
                    return
    finally:
        await directory.aclose()


def test_kill_9_of_a_relay_mid_session(tmp_path: Path, backends: Backends) -> None:
    async def scenario() -> None:
        with relay_processes(backends, 2) as (a, b):
            assert "room directory in Redis" in a.line
            players = [await signed_in(b.url) for _ in range(2)]
            room = await one_room(players)
            await start_room(players)
            for p in players:  # the first round is open at every seat: kill B
                while not isinstance(await p.next_event(10), RoundOpened):
                    pass
            b.kill()
            killed = asyncio.get_running_loop().time()
            for p in players:
                await p.wait_finished(10)
                ended_relay_lost(p)
                assert p.connection_lost
            # a new room is made on the surviving relay at once ...
            survivor = await signed_in(a.url)
            fresh = await survivor.create_room()
            assert survivor.url == a.url and fresh.code != room.code
            # ... the dead relay's room leaves the directory within the TTL ...
            seeker = await signed_in(a.url)
            await vanished(backends.presence, f"pointline:room:{room.code}", TTL + 2)
            assert asyncio.get_running_loop().time() - killed <= TTL + 1.5
            with pytest.raises(ClientError) as caught:
                await seeker.join_room(room.code)
            assert caught.value.code == "no_room"
            # ... and nothing in PostgreSQL is lost: both players sign in again on A
            for p in players:
                assert p.name is not None
                again = await RelayClient.connect(a.url)
                assert await again.signin(p.name, PASSWORD)
                await again.close()
            # ... and a relay started again joins the cluster: rooms there are found from A
            back = RelayProcess(backends)
            try:
                host = await signed_in(back.url)
                there = await host.create_room()
                guest = await signed_in(a.url)
                joined = await guest.join_room(there.code)  # its code is in the directory
                assert joined.code == there.code and guest.url == back.url
                for c in (host, guest):
                    await c.close()
            finally:
                back.stop()
            for c in (*players, survivor, seeker):
                await c.close()

    run(scenario(), 60)


def test_kill_9_of_redis_mid_session(
    tmp_path: Path, own_redis: RedisServer, shared_postgres: PostgresServer
) -> None:
    backends = Backends(shared_postgres.new_database(), own_redis.url)

    async def scenario() -> None:
        async with relays(tmp_path, backends, 2) as (a, b):
            players = [await signed_in(a.url) for _ in range(2)]
            await one_room(players)
            elsewhere = await signed_in(b.url)
            other_room = await elsewhere.create_room()
            await start_room(players)
            own_redis.kill()
            # frames never cross Redis: the session in flight completes with its result
            await whole_session(players, started=True)
            # a room on another relay cannot be found meanwhile: a plain "try again"
            seeker = await signed_in(a.url)
            with pytest.raises(ClientError) as caught:
                await seeker.join_room(other_room.code)
            assert caught.value.code == "busy" and "directory" in caught.value.text
            local = await signed_in(a.url)  # rooms on this relay still work
            assert (await local.create_room()).code in a.relay.rooms.codes()
            own_redis.start()  # recovery: the next heartbeat writes the directory again
            assert a.relay.router is not None
            await until(lambda: a.relay.router.presence.available and a.relay.router.presence.peers)
            joined = await seeker.join_room(other_room.code)
            assert joined.code == other_room.code and seeker.url == b.url
            for c in (elsewhere, seeker, local):
                await c.close()

    run(scenario(), 60)


def test_kill_9_of_postgresql_mid_session(
    tmp_path: Path, own_postgres: PostgresServer, shared_redis: RedisServer
) -> None:
    backends = Backends(own_postgres.new_database(), shared_redis.url)

    redis.Redis.from_url(shared_redis.url).flushall()

    async def scenario() -> None:
        async with relays(tmp_path, backends, 2) as (a, _b):
            players = [await signed_in(a.url, f"pgkill{i}") for i in range(2)]
            await one_room(players)
            await start_room(players)
            own_postgres.kill()
            await whole_session(players, started=True)  # tokens were checked at the door
            newcomer = await RelayClient.connect(a.url)
            with pytest.raises(ClientError) as caught:  # sign-ins wait for the database
                await newcomer.signin("pgkill0", PASSWORD)
            assert caught.value.code == "busy" and "accounts database" in caught.value.text
            own_postgres.start()  # recovery: the next request connects again
            token = await newcomer.signin("pgkill0", PASSWORD)
            assert token and (await newcomer.create_room()).code
            await newcomer.close()

    run(scenario(), 60)
    accounts = Accounts(PostgresDatabase(backends.store), FAST_HASH)
    try:  # nothing was lost
        assert accounts.count() == 2
    finally:
        accounts.close()


def test_migrate_copies_a_sqlite_relays_accounts_into_postgresql(
    tmp_path: Path, backends: Backends
) -> None:
    path = tmp_path / "old.sqlite3"
    old = Accounts(path, FAST_HASH)
    old.signup("from_sqlite", PASSWORD)
    _, token = old.signin("from_sqlite", PASSWORD)
    key = old.relay_key().public_hex
    old.close()
    command = [sys.executable, "-m", "pointline.net.relay", "migrate", "--store", backends.store]
    done = subprocess.run(
        [*command, "--from-sqlite", str(path)], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert "copied 1 accounts" in done.stdout and "relay key was copied" in done.stdout
    assert "postgres@" in done.stdout and "Traceback" not in done.stderr
    again = subprocess.run(
        [*command, "--from-sqlite", str(path)], capture_output=True, text=True, cwd=ROOT
    )
    assert "copied 0 accounts (1 names were there already" in again.stdout
    printed = subprocess.run(  # every relay of the cluster signs with the copied key
        [sys.executable, "-m", "pointline.net.relay", "--print-key", "--store", backends.store],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert printed.stdout.strip() == key
    accounts = Accounts(PostgresDatabase(backends.store), FAST_HASH)
    try:
        assert accounts.count() == 1 and accounts.schema_version == 2
        assert accounts.lookup(token) == "from_sqlite"  # signed in as before
        assert accounts.signin("from_sqlite", PASSWORD)[0] == "from_sqlite"
        assert accounts.relay_key().public_hex == key  # old transcripts still verify
    finally:
        accounts.close()
    assert sqlite3.connect(path).execute("SELECT COUNT(*) FROM accounts").fetchone()[0] == 1


def test_a_store_that_cannot_be_reached_is_said_in_plain_words(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pointline.net.relay",
            "--port",
            "0",
            "--store",
            "postgresql://nobody@127.0.0.1:9/none",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=30,
    )
    assert done.returncode == 2
    assert "cannot reach its accounts database" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_room_closed_by_its_creators_leave_is_released_from_the_directory(
    tmp_path: Path, backends: Backends
) -> None:
    """A ``leave`` that closes a room frees its code in Redis at once (the release is a
    background call of the core inside a request: the driver starts it, it does not treat it as
    a store call whose coroutine nobody awaits), not when the heartbeat's TTL runs out."""

    async def scenario() -> None:
        async with relays(tmp_path, backends, 1) as (a,):
            creator = await signed_in(a.url)
            room = await creator.create_room()
            router = a.relay.router
            assert router is not None
            assert await router.presence.owner(room.code) == router.presence.public_url
            await creator.leave()
            owners: list[str | None] = []

            async def released() -> bool:
                owners.append(await router.presence.owner(room.code))
                return owners[-1] is None

            async with asyncio.timeout(TTL / 2):
                while not await released():
                    await asyncio.sleep(0.05)
            await creator.close()

    run(scenario(), 60)
