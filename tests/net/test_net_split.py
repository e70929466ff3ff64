"""No silent disagreement (issue 43): a forced split, where the last reveal reaches one seat in
time and not the other. Each seat's file checks and says what that seat saw and that another
seat may have seen otherwise; ``pointline verify A B`` explains the difference in one
paragraph."""

from __future__ import annotations

from pathlib import Path

import pytest

from pointline.kernel import EndReason
from pointline.net.client._transcript_file import save_transcript
from pointline.net.client._verify_command import main as verify_main
from pointline.net.client._verify_command import verify_transcript
from pointline.net.protocol._peer import ReceiptsIncomplete, ReceiptStatus, Step
from pointline.net.protocol._split import MAY_HAVE_COMPLETED, MAY_HAVE_ENDED
from tests.net.memnet import Net
from tests.player_words import faults


def split(tmp_path: Path) -> tuple[Net, Path, Path]:
    """Seat 1's reveal of the last throw never reaches Seat 2: Seat 1 completes, Seat 2 ends
    at its reveal deadline (the same seeded session played once first to find that throw)."""
    whole = Net(2, seed=11)
    whole.run()
    last = whole.peers[0].table.throws
    net = Net(2, seed=11)
    cut: list[bool] = []  # from that reveal on, nothing of Seat 1's reaches Seat 2 in time

    def late(frame: dict[str, object]) -> list[dict[str, object]]:
        if frame["kind"] == "reveal" and frame["throw"] == last:
            cut.append(True)
        return [] if cut else [frame]

    net.filters[0] = late
    net.run()
    files = [save_transcript(p.transcript, tmp_path / f"seat{p.seat + 1}.jsonl") for p in net.peers]
    return net, files[0], files[1]


def test_a_split_is_said_by_each_seat_and_explained_by_verify_a_b(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    net, first, second = split(tmp_path)
    done, ended = net.peers
    assert done.state is Step.COMPLETE and done.receipt_status is ReceiptStatus.INCOMPLETE
    assert ended.state is Step.ENDED and ended.ending is not None
    assert (ended.ending.reason, ended.ending.seat) == (EndReason.DEADLINE, 0)
    stopped = [e for e in net.log[0] if isinstance(e, ReceiptsIncomplete)]
    # Seat 1's receipt deadline came first: Seat 2's receipt did not arrive in time
    assert stopped == [ReceiptsIncomplete(EndReason.DEADLINE, 1)] and stopped[0].reporter == 0
    a, b = verify_transcript(first), verify_transcript(second)
    assert a.ok and b.ok
    assert a.summary.endswith(MAY_HAVE_ENDED), a.summary
    assert b.summary.endswith(MAY_HAVE_COMPLETED), b.summary
    assert "Seat 1's move did not arrive in time (its connection or the seat)" in b.summary
    assert verify_main([str(first), str(second)]) == 2
    out = capsys.readouterr().out
    paragraph = out.rstrip("\n").split("\n")[-1]
    assert paragraph.startswith(
        f"Seat 1 saw the session complete after {a.throws} throws, but not every seat's "
        f"receipt came in, while Seat 2 saw it end without a result after {b.throws} throws"
    ), paragraph
    assert "Both files check" in paragraph and "trusted party" in paragraph
    for machine in ("EndReason", "None", "Report(", "{", "\\n"):
        assert machine not in paragraph
    assert faults(paragraph) == [] and faults(a.summary) == faults(b.summary) == []


def test_two_seats_that_agree_say_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    net = Net(2, seed=12)
    net.run()
    files = [save_transcript(p.transcript, tmp_path / f"s{p.seat}.jsonl") for p in net.peers]
    assert verify_main([str(f) for f in files]) == 0
    paragraph = capsys.readouterr().out.rstrip("\n").split("\n")[-1]
    assert paragraph.startswith("Seat 1 and Seat 2 agree: both saw the session complete")
