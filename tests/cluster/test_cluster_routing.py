"""Routing in a cluster: the ``redirect`` frame, a redirect to a relay that cannot be reached,
and the headless ``pointline-client`` following a redirect with no new step."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from pointline.net.client._relay_client import ClientError, RelayClient, RelayError, connect_trusted
from pointline.net.client._trust import KnownRelays, relay_address
from pointline.net.errors import ClientCode
from pointline.net.protocol._keys import SigningKey
from pointline.net.protocol._wire import Redirect, WireError, encode, parse_relay
from pointline.net.relay._presence import Peer
from tests.cluster.support import (
    ROOT,
    Backends,
    names,
    relay_processes,
    relays,
    signed_in,
    whole_session,
)
from tests.net.support import PASSWORD, RELAXED, one_room, run

GHOST = "ws://127.0.0.1:9"  # nothing listens on port 9 (discard)


def test_a_redirect_frame_round_trips_and_only_names_a_websocket_address() -> None:
    frame = Redirect("wss://relay2.example.org:8765", 7)
    assert parse_relay(encode(frame)) == frame
    for bad in ('{"op":"redirect","url":"http://x"}', '{"op":"redirect","url":1}'):
        with pytest.raises(WireError) as caught:
            parse_relay(bad)
        assert caught.value.code.value == "bad_frame"
    with pytest.raises(WireError):
        parse_relay('{"op":"redirect"}')


def test_a_redirect_to_a_relay_that_cannot_be_reached_stays_where_it_asked(
    tmp_path: Path, backends: Backends
) -> None:
    async def scenario() -> None:
        async with relays(tmp_path, backends, 1) as (a,):
            crowd = [await signed_in(a.url) for _ in range(8)]
            await one_room(crowd)
            router = a.relay.router
            assert router is not None
            # a relay that just died is still listed (within its TTL) and looks idle
            router.presence.peers["ghost"] = Peer("ghost", GHOST, 0)
            newcomer = await signed_in(a.url)
            made = await newcomer.create_room()  # sent to the ghost, back here, made here
            assert newcomer.url == a.url and made.code in a.relay.rooms.codes()
            assert router.redirected == 1
            await router.presence.redis.set("pointline:room:GHOST2", GHOST)
            seeker = await signed_in(a.url)
            with pytest.raises(ClientError) as caught:
                await seeker.join_room("ghost2")
            assert caught.value.code == "no_room" and "cannot be reached" in caught.value.text
            assert not seeker.closed.is_set()  # still connected and signed in
            for c in (*crowd, newcomer, seeker):
                await c.close()

    run(scenario(), 60)


def test_a_client_on_wss_never_follows_a_redirect_to_plain_ws() -> None:
    async def scenario() -> None:
        client = RelayClient.__new__(RelayClient)
        client.url = "wss://relay1.example.org:8765"
        called: list[str] = []

        async def reconnect(url: str) -> None:
            called.append(url)

        client._reconnect = reconnect  # type: ignore[assignment]
        await client._follow("ws://relay2.example.org:8765")
        assert called == [] and client.url == "wss://relay1.example.org:8765"

    run(scenario())


def test_the_headless_client_follows_a_redirect_with_no_new_step(backends: Backends) -> None:
    with relay_processes(backends, 2) as (a, b):
        base = [sys.executable, "-m", "pointline.net.client", "--password", "headless-pass"]
        creator = subprocess.Popen(
            [*base, "--url", b.url, "--name", "headless_a", "--signup", "--seats", "2"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert creator.stdout is not None
        line = creator.stdout.readline()
        assert line.startswith("room code: "), line
        code = line.split()[2]
        joiner = subprocess.run(  # asks relay A for a room that relay B holds
            [*base, "--url", a.url, "--name", "headless_b", "--signup", "--join", code],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
        out, err = creator.communicate(timeout=60)
        assert joiner.returncode == 0, joiner.stderr
        assert creator.returncode == 0, err
        assert f"joined room {code}" in joiner.stdout
        assert "session complete" in joiner.stdout and "session complete" in out
        assert "redirect" not in joiner.stdout.lower()  # nothing of the cluster is shown


def test_a_redirect_to_a_dead_relay_shows_the_player_nothing_of_it(backends: Backends) -> None:
    """D1 (issue 37): the room's relay in the directory is dead; the headless joiner tries it,
    stays where it asked and says so with its own prefix, and no unprefixed line (Python's
    last-resort log handler) reaches its standard error."""
    import redis

    with relay_processes(backends, 1) as (a,):
        directory = redis.Redis.from_url(backends.presence, decode_responses=True)
        directory.set("pointline:room:GHOST3", GHOST)
        argv = ["--url", a.url, "--name", f"ghost_{next(names)}", "--password", "headless-pass"]
        argv += ["--signup", "--join", "GHOST3"]
        try:
            joiner = subprocess.run(
                [sys.executable, "-m", "pointline.net.client", *argv],
                capture_output=True,
                text=True,
                cwd=ROOT,
                timeout=60,
            )
        finally:
            directory.delete("pointline:room:GHOST3")
            directory.close()
    lines = joiner.stderr.splitlines()
    assert joiner.returncode == 2 and lines, joiner.stderr
    assert all(line.startswith("pointline-client: ") for line in lines), joiner.stderr
    assert "127.0.0.1:9" not in joiner.stderr  # the redirect's address is the relay's business


def test_a_relay_that_stops_cleanly_leaves_the_directory_at_once(
    tmp_path: Path, backends: Backends
) -> None:
    import redis.asyncio

    from pointline.net.relay._cluster import ClusterConfig
    from pointline.net.relay._server import running_relay
    from tests.cluster.support import relay_config

    async def scenario() -> None:
        directory = redis.asyncio.Redis.from_url(backends.presence, decode_responses=True)
        cluster = ClusterConfig(backends.store, backends.presence, None, 60.0)
        async with running_relay(tmp_path / "x.db", config=relay_config(), cluster=cluster) as r:
            creator = await signed_in(r.url)
            room = await creator.create_room()
            assert await directory.get(f"pointline:room:{room.code}") == r.url
            assert len(await directory.keys("pointline:relay:*")) == 1
        assert await directory.keys("pointline:*") == []  # not 60 s later: now
        await creator.close()
        await directory.aclose()

    run(scenario())


def _redirected_with_pinning(tmp_path: Path, backends: Backends, b_key: SigningKey | None) -> None:
    """A player pins relay A's key at sign-up (trust on first use, keyed by A's address), joins
    a room relay B holds (redirected there, as the app does) and the creator on B starts it.
    With ``b_key`` B signs rosters with that key instead of the cluster's (a stand-in relay)."""
    known = KnownRelays(tmp_path / "trust")

    async def scenario() -> None:
        async with relays(tmp_path, backends, 2) as (a, b):
            assert a.relay.key.public_hex == b.relay.key.public_hex  # one key, in PostgreSQL
            if b_key is not None:
                b.relay.key = b_key
            creator = await signed_in(b.url)
            joiner = await connect_trusted(a.url, known, timeouts=RELAXED)
            await joiner.signup(f"pin{next(names)}", PASSWORD)
            address = relay_address(a.url)
            assert known.relay_key(address) == a.relay.key.public_hex
            room = await creator.create_room()
            assert creator.url == b.url
            await joiner.join_room(room.code)
            assert joiner.url == b.url  # redirected: the room lives on B
            await creator.start()
            if b_key is None:
                await joiner.wait_started(10)
                await whole_session([creator, joiner], started=True)
            else:
                async with asyncio.timeout(10):
                    while not isinstance(event := await joiner.next_event(10), RelayError):
                        pass
                assert event.code == ClientCode.BAD_ROSTER_SIGNATURE
                assert "not signed by the relay key this device pinned" in event.message
                assert joiner.peer is None  # no session was started on B's roster
                for c in (creator, joiner):
                    await c.close()
            # the pin is A's key, untouched, and nothing was pinned for B's address
            assert known.relay_key(address) == a.relay.key.public_hex
            assert known.relay_key(relay_address(b.url)) is None

    run(scenario(), 60)


def test_a_redirect_inside_the_cluster_plays_with_no_key_warning(
    tmp_path: Path, backends: Backends
) -> None:
    _redirected_with_pinning(tmp_path, backends, None)


def test_a_redirect_to_a_relay_with_another_key_is_warned_about(
    tmp_path: Path, backends: Backends
) -> None:
    _redirected_with_pinning(tmp_path, backends, SigningKey.generate())
