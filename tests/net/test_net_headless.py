"""The headless player's words: plain English, seats counted from 1, never a Python object."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pointline.kernel import Choice, EndReason, Phase, Result
from pointline.net.client._headless import describe, main
from pointline.net.client._relay_client import (
    Disconnected,
    MemberDeparted,
    RelayClient,
    RelayError,
    SessionStarted,
    TranscriptSaved,
    play,
    steady_choice,
)
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
from pointline.net.protocol._wire import RosterEntry
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
        "session ended without a result: Seat 2 reported a missed deadline from Seat 1"
    )
    assert said["mismatch"] == "receipts differ from yours: Seat 1"
    assert said["left"] == "alice (Seat 1) left"
    for words in said.values():
        assert words is not None
        for machine in ("EndReason", "Phase.", "(seat", "=", "<", "None", "'"):
            assert machine not in words, words
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
