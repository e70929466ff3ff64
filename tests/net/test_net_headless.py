"""The headless player's words: plain English, seats counted from 1, never a Python object."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest

from pointline.kernel import Choice, EndReason, Phase, Result
from pointline.net.client._headless import NOT_STARTED, describe, main
from pointline.net.client._relay_client import (
    ClientError,
    Disconnected,
    MemberDeparted,
    RelayClient,
    RelayError,
    SessionStarted,
    TranscriptSaved,
    play,
    steady_choice,
)
from pointline.net.errors import ClientCode
from pointline.net.protocol._peer import (
    AllCommitted,
    HandResolved,
    ReceiptsIncomplete,
    ReceiptsMatched,
    ReceiptsMismatch,
    Revealed,
    RoundOpened,
    SessionComplete,
    SessionEnded,
    ThrowCommitted,
    Thrown,
)
from pointline.net.protocol._wire import Redirect, RosterEntry, encode
from tests.net.support import PASSWORD, RELAXED, relay, run, until

ROSTER = (RosterEntry(0, "alice", "a" * 64), RosterEntry(1, "bob", "b" * 64))


def test_every_event_reads_as_words_with_seats_from_1() -> None:
    said = {
        "start": describe(SessionStarted("ABC234", "t", 1, ROSTER, Path("x.jsonl"))),
        "throw": describe(Thrown(3, 4, 2, 6, Phase.POINT, 6)),
        "hand": describe(HandResolved(2)),
        "complete": describe(SessionComplete(Result((1010, 990), (1, 2)))),
        "ended": describe(
            SessionEnded(EndReason.BAD_SIGNATURE, 2, reporter=2, proven=False, accused=0)
        ),
        "deadline": describe(SessionEnded(EndReason.DEADLINE, 0, reporter=1)),
        "matched": describe(ReceiptsMatched(2)),
        "mismatch": describe(ReceiptsMismatch((0,))),
        "incomplete": describe(ReceiptsIncomplete(EndReason.DEPARTURE, 1)),
        "left": describe(MemberDeparted(0, "alice")),
        "relay": describe(RelayError("room_closed", "The room closed.")),
        "gone": describe(Disconnected("connection lost (1006)")),
        "saved": describe(TranscriptSaved(Path("/d/t.jsonl"))),
    }
    assert said["start"] == "room ABC234 started: you are Seat 2 of 2"
    assert said["throw"] == "throw 3: 4 and 2, 6; the point is 6"
    assert said["complete"] == (
        "session complete: Seat 1 1,010 points, rank 1; Seat 2 990 points, rank 2"
    )
    assert said["ended"] == (
        "session ended without a result: Seat 3 reported a bad signature from Seat 1; not proven"
    )
    assert said["deadline"] == (
        "session ended without a result: Seat 2 reported that Seat 1's move did not arrive in "
        "time (its connection or the seat); another seat may have seen the session complete"
    )
    assert said["incomplete"] == (
        "the receipt exchange stopped (a departure from Seat 2 (reported)); the result stands; "
        "another seat may have seen the session end without a result"
    )
    assert said["mismatch"] == "receipts differ from yours: Seat 1"
    assert said["left"] == "alice (Seat 1) left"
    for words in said.values():
        assert words is not None
        plain = words.replace("'s ", "s ")  # a possessive is words; a repr's quote is not
        for machine in ("EndReason", "Phase.", "(seat", "=", "<", "None", "'"):
            assert machine not in plain, words
    quiet = (
        RoundOpened(1, 45.0),
        ThrowCommitted(0, 1),
        AllCommitted(1),
        Revealed(0, 1, Choice(10, 0)),
    )
    assert [describe(e) for e in quiet] == [None, None, None, None]


def test_the_headless_player_prints_words_and_seats_from_1_through_a_whole_session(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m pointline.net.client --join CODE``'s ``main``, in a thread of this process,
    against a real relay: every line it prints is plain words with seats counted from 1."""

    async def scenario() -> None:
        async with relay(tmp_path) as running:
            host = await RelayClient.connect(running.url, RELAXED)
            await host.signup("host_1", PASSWORD)
            room = await host.create_room()
            argv = ["--url", running.url, "--name", "guest_1", "--password", PASSWORD]
            argv += ["--signup", "--join", room.code, "--wait", "10"]
            guest = asyncio.ensure_future(asyncio.to_thread(main, argv))  # its own loop
            await until(lambda: len(host.roster) == 2)
            await host.start()
            await play(host, steady_choice, timeout=30)
            assert await asyncio.wait_for(guest, 30) == 0
            await host.close()

    run(scenario(), timeout=60)
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == f"joined room {lines[0].split()[2]} as Seat 2; waiting for the start"
    assert "room " in out and "started: you are Seat 2 of 2" in out
    assert "throw 1: " in out and "session complete: Seat 1 " in out and "; Seat 2 " in out
    assert "receipts matched: all 2 signed receipts agree" in out
    for machine in ("Seat 0", "EndReason", "Phase.", "(seat", "<", "None", "'", "{"):
        assert machine not in out, (machine, out)


# ---- the client under faults (issue 37: D1, D2, D4) -----------------------------------------
LOST_SENTENCE = "The relay connection was lost."
"""The README's "the relay connection was lost", as a sentence of its own."""


def test_a_redirect_to_a_dead_relay_logs_nothing_a_player_sees(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """D1: with no logging configured, Python prints a record at or above its last-resort
    handler's level (WARNING) to stderr, unprefixed; a redirect is the operator's business."""

    async def scenario() -> None:
        client = RelayClient.__new__(RelayClient)
        client.url = "ws://relay1.example.org:8765"

        async def dead(url: str) -> None:
            raise ClientError(ClientCode.UNREACHABLE, f"nothing answers at {url}")

        client._reconnect = dead  # type: ignore[assignment]
        await client._follow("ws://127.0.0.1:9")
        assert client.url == "ws://relay1.example.org:8765"  # stays where it asked

    caplog.set_level(logging.DEBUG, logger="pointline")
    run(scenario())
    said = [r for r in caplog.records if "cannot be reached" in r.getMessage()]
    assert said, "the redirect is still logged for an operator"
    assert all(r.levelno < logging.lastResort.level for r in said)  # type: ignore[union-attr]


def test_a_joiner_whose_wait_runs_out_says_so_in_its_own_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """D2: the joiner waited for the start, not for people: not the creator's words, and
    with the prefix every line on its standard error carries."""

    async def scenario() -> int:
        async with relay(tmp_path) as running:
            host = await RelayClient.connect(running.url, RELAXED)
            await host.signup("host_2", PASSWORD)
            room = await host.create_room()  # and never started
            argv = ["--url", running.url, "--name", "guest_2", "--password", PASSWORD]
            argv += ["--signup", "--join", room.code, "--wait", "0.5"]
            code = await asyncio.wait_for(asyncio.to_thread(main, argv), 30)
            await host.close()
            return code

    assert run(scenario(), timeout=60) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [f"pointline-client: {NOT_STARTED.format(wait=0.5)}"]
    assert "Nobody else joined" not in err


def test_a_redirect_target_that_drops_the_connection_says_the_relay_connection_was_lost() -> None:
    """D4: relay A sends the client to B; B completes the websocket handshake and drops the
    connection. The request cut short, and any request after the drop, say the README's
    words, never "The connection to the relay is closed." (which is for a close of its own)."""
    from websockets.asyncio.server import ServerConnection, serve

    async def dropper(ws: ServerConnection) -> None:
        await ws.close(1011)

    async def scenario() -> None:
        async with serve(dropper, "127.0.0.1", 0) as b:
            b_url = f"ws://127.0.0.1:{b.sockets[0].getsockname()[1]}"

            async def redirecting(ws: ServerConnection) -> None:
                async for text in ws:
                    asked = json.loads(text)
                    await ws.send(encode(Redirect(b_url, asked["id"])))

            async with serve(redirecting, "127.0.0.1", 0) as a:
                a_url = f"ws://127.0.0.1:{a.sockets[0].getsockname()[1]}"
                client = await RelayClient.connect(a_url, RELAXED)
                client.token = "t" * 43  # signed in (the fake relay reads no token)
                with pytest.raises(ClientError) as cut:
                    await client.create_room()
                assert (cut.value.code, cut.value.text) == (ClientCode.CLOSED, LOST_SENTENCE)
                await asyncio.wait_for(client.closed.wait(), 10)
                with pytest.raises(ClientError) as after:
                    await client.join_room("ABC234")
                assert (after.value.code, after.value.text) == (ClientCode.CLOSED, LOST_SENTENCE)
                assert client.connection_lost
                await client.close()

    run(scenario(), timeout=30)
