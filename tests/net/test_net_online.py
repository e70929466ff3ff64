"""Whole online sessions: a real relay on loopback, real websocket clients, real deadlines."""

from __future__ import annotations

import asyncio
import json
import os
import re
import ssl
import sys
from pathlib import Path

import pytest

from pointline.kernel import Choice, EndReason
from pointline.net.client._relay_client import ClientError, RelayClient
from pointline.net.client._verify_command import verify_transcript
from pointline.net.protocol._peer import Peer, RoundOpened, ThrowCommitted, Thrown
from tests.net.support import (
    PASSWORD,
    RELAXED,
    TIMEOUTS,
    assert_complete,
    assert_transcripts,
    next_event,
    play,
    random_chooser,
    relay,
    run,
    seated,
    self_signed,
    session,
    tls_relay,
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


def _ends(peer: object) -> tuple[object, object]:
    assert isinstance(peer, Peer) and peer.ending is not None
    return peer.ending.reason, peer.ending.seat


def test_leaving_mid_session_ends_it_for_everyone_and_every_transcript_verifies(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            clients = await seated(running.url, 3, timeouts=RELAXED)
            leaver = clients[2]

            async def leave_after_first_throw() -> None:
                async for event in leaver.events():
                    if isinstance(event, Thrown):
                        await leaver.leave()
                    elif leaver.peer is not None and not leaver.peer.has_committed:
                        leaver.commit(random_chooser(3)(leaver.peer.table, leaver.peer.seat))

            peers = await asyncio.gather(
                play(clients[0], random_chooser(1)),
                play(clients[1], random_chooser(2)),
                asyncio.wait_for(leave_after_first_throw(), 20),
            )
            for c in clients:
                await c.close()
            assert _ends(peers[0]) == _ends(peers[1]) == (EndReason.DEPARTURE, 2)
            assert leaver.peer is not None and _ends(leaver.peer) == (EndReason.DEPARTURE, 2)
            assert_transcripts(clients)
            # the leaver's own file holds its signed notice and the ending: verify reads a
            # departure of that seat (OK, as the others' files do), not a lost relay
            assert leaver.transcript_path is not None
            report = verify_transcript(leaver.transcript_path)
            assert report.complete and report.seat == 2, report.text()
            assert report.text().startswith("OK: ") and report.summary.endswith(
                "a departure from Seat 3, reported by that seat itself"
            ), report.text()

    run(scenario())


def test_a_connection_killed_mid_session_reads_as_the_relay_lost(tmp_path: Path) -> None:
    """A connection that drops under the client (no leave) ends its session with no notice:
    its own transcript reads INCOMPLETE, the relay was lost; the other seat sees a departure."""

    async def scenario() -> None:
        # a device that does not come back, on a relay that holds a dropped seat only briefly
        # (a blip that heals: tests/net/test_net_stalls.py)
        async with relay(tmp_path, resume_grace=0.2) as running:
            clients = await seated(running.url, 2, timeouts=RELAXED)
            victim = clients[1]
            victim.resume_patience = 0.0

            async def drop_after_first_throw() -> None:
                async for event in victim.events():
                    if isinstance(event, Thrown):
                        victim.ws.transport.abort()  # the socket dies: no close, no leave
                    elif victim.peer is not None and not victim.peer.has_committed:
                        victim.commit(random_chooser(3)(victim.peer.table, victim.peer.seat))

            peers = await asyncio.gather(
                play(clients[0], random_chooser(1)),
                asyncio.wait_for(drop_after_first_throw(), 20),
            )
            for c in clients:
                await c.close()
            assert _ends(peers[0]) == (EndReason.DEPARTURE, 1)
            assert victim.connection_lost
            assert victim.peer is not None and _ends(victim.peer) == (EndReason.DEPARTURE, 1)
            assert victim.transcript_path is not None
            report = verify_transcript(victim.transcript_path)
            assert report.ok and not report.complete, report.text()
            assert report.text().startswith("INCOMPLETE: ")
            assert "the relay was lost after throw 1;" in report.summary, report.summary
            records = [json.loads(line) for line in victim.transcript_path.read_text().split()]
            assert records[-1]["kind"] == "outcome"
            sent = [json.loads(r["body"]["message"]) for r in records if r["kind"] == "sent"]
            assert sent and all(m["kind"] != "abort" for m in sent), "a lost connection: no notice"

    run(scenario())


def test_a_cancelled_session_still_saves_a_transcript_that_verifies(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            clients = await seated(running.url, 2, timeouts=RELAXED)
            first = clients[1]

            thrown, never = asyncio.Event(), asyncio.Event()

            async def one_throw_then_hang() -> None:
                async for event in first.events():
                    peer = first.peer
                    if isinstance(event, RoundOpened) and peer is not None and event.throw == 1:
                        first.commit(random_chooser(1)(peer.table, peer.seat))
                    if isinstance(event, Thrown):
                        thrown.set()
                        await never.wait()  # never set: the app is busy when it gets cancelled

            tasks = [
                asyncio.ensure_future(play(clients[0], random_chooser(0))),
                asyncio.ensure_future(one_throw_then_hang()),
            ]
            await asyncio.wait_for(thrown.wait(), 10)
            assert first.peer is not None and first.peer.table.throws == 1
            tasks[1].cancel()  # the app's task is cancelled mid-session
            await asyncio.gather(tasks[1], return_exceptions=True)
            await clients[1].close()
            honest = await asyncio.wait_for(tasks[0], 10)
            await clients[0].close()
            assert _ends(honest) == (EndReason.DEPARTURE, 1)
            assert_transcripts(clients)

    run(scenario())


def test_a_loop_torn_down_without_close_leaves_a_complete_transcript_file(
    tmp_path: Path, data_dir: Path
) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            clients = await seated(running.url, 2)
            c = clients[0]
            assert c.peer is not None
            c.commit(random_chooser(1)(c.peer.table, 0))
            seen = await next_event(clients[1], ThrowCommitted)  # the commit is on the wire
            assert seen == ThrowCommitted(0, 1)
            # no close(): asyncio.run cancels the reader tasks when this coroutine returns

    run(scenario())
    files = sorted((data_dir / "transcripts").glob("*.jsonl"))
    assert len(files) == 2
    for path in files:
        report = verify_transcript(path)
        assert report.ok, (path, report.problem)
        assert report.reason is not None  # ended without a result, with a reason


def test_a_session_over_tls(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)

    async def scenario() -> None:
        async with tls_relay(tmp_path, cert, key) as running:
            assert running.url.startswith("wss://")
            trust = ssl.create_default_context(cafile=str(cert))
            url = f"wss://localhost:{running.port}"
            clients = [await RelayClient.connect(url, RELAXED, trust) for _ in range(2)]
            for i, c in enumerate(clients):
                await c.signup(f"tls_{i}", PASSWORD)
            room = await clients[0].create_room()
            await clients[1].join_room(room.code)
            await clients[0].start()
            await clients[1].wait_started(5)
            peers = await asyncio.gather(
                *(play(c, random_chooser(i)) for i, c in enumerate(clients))
            )
            for c in clients:
                await c.close()
            assert_complete(clients, list(peers))

    run(scenario())


def test_two_terminals_a_relay_and_headless_clients(tmp_path: Path, data_dir: Path) -> None:
    """The relay command and two ``python -m pointline.net.client`` players, each a process."""

    env = dict(os.environ)

    async def spawn(*args: str) -> asyncio.subprocess.Process:
        return await asyncio.create_subprocess_exec(
            sys.executable,
            *args,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            env=env,
        )

    async def line_matching(proc: asyncio.subprocess.Process, pattern: str) -> re.Match[str]:
        assert proc.stdout is not None
        while True:
            line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
            assert line, "the process ended early"
            found = re.search(pattern, line)
            if found:
                return found

    async def scenario() -> None:
        relay_proc = await spawn(
            "-m", "pointline.net.relay", "--port", "0", "--db", str(tmp_path / "r.db")
        )
        try:
            url = (await line_matching(relay_proc, r"(ws://\S+)")).group(1)
            common = ["-m", "pointline.net.client", "--url", url, "--signup"]
            alice = await spawn(*common, "--name", "alice", "--password", "alice-secret")
            code = (await line_matching(alice, r"room code: (\w+)")).group(1)
            bob = await spawn(*common, "--name", "bob", "--password", "bob-secret", "--join", code)
            try:
                outputs = await asyncio.wait_for(
                    asyncio.gather(alice.communicate(), bob.communicate()), 60
                )
            except TimeoutError:
                for p in (alice, bob):
                    p.kill()
                raise
            assert [alice.returncode, bob.returncode] == [0, 0], outputs
            for out, _ in outputs:
                text = out.decode()
                assert "session complete" in text and "receipts matched" in text
        finally:
            relay_proc.terminate()
            await asyncio.wait_for(relay_proc.communicate(), 10)

    run(scenario(), timeout=90)
    files = sorted((data_dir / "transcripts").glob("*.jsonl"))
    assert len(files) == 2 and all(verify_transcript(f).ok for f in files)
