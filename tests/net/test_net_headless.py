"""The headless player's words: plain English, seats counted from 1, never a Python object."""

from __future__ import annotations

from pathlib import Path

from pointline.kernel import Choice, EndReason, Phase, Result
from pointline.net.client import (
    Disconnected,
    MemberDeparted,
    RelayError,
    SessionStarted,
    TranscriptSaved,
)
from pointline.net.headless import describe
from pointline.net.protocol import (
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
from pointline.net.wire import RosterEntry

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
