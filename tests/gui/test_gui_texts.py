"""The table's rule sentences come from the kernel's transition table, and agree with play; the
words of an ending come from the one table the net layer keeps."""

from __future__ import annotations

from pointline.gui.history import entry_text, reason_words
from pointline.gui.texts import DP_LOSES, DP_PUSHES, DP_WINS, PASS_LOSES, PASS_WINS, TEXTS
from pointline.kernel import (
    ENDING_WORDS,
    Allocate,
    Confirm,
    EndReason,
    Line,
    Outcome,
    Settled,
    Table,
    Throw,
    Voided,
)
from pointline.net.protocol._events import ending_text, late_move_text


def _come_out(total: int) -> dict[Line, Outcome]:
    table = Table(seats=1)
    table.push(Allocate(0, Line.PASS))
    table.push(Allocate(0, Line.DONT_PASS))
    table.push(Confirm(0))
    die1 = min(6, total - 1)
    table.push(Throw(die1, total - die1))
    return {e.line: e.outcome for e in table.seat(0).ledger if isinstance(e, Settled)}


def test_the_come_out_words_say_what_the_kernel_does() -> None:
    for total in range(2, 13):
        got = _come_out(total)
        assert (got.get(Line.PASS) is Outcome.WIN) == (total in PASS_WINS), total
        assert (got.get(Line.PASS) is Outcome.LOSS) == (total in PASS_LOSES), total
        assert (got.get(Line.DONT_PASS) is Outcome.WIN) == (total in DP_WINS), total
        assert (got.get(Line.DONT_PASS) is Outcome.LOSS) == (total in DP_LOSES), total
        assert (got.get(Line.DONT_PASS) is Outcome.PUSH) == (total in DP_PUSHES), total


def test_help_and_mottos_name_those_totals() -> None:
    assert "Pass wins on 7 or 11 and loses on 2, 3 or 12" in TEXTS["helpHtml"]
    assert TEXTS["passMotto"].startswith("COME-OUT 7 · 11 WIN")
    assert "BAR 12" in TEXTS["dontPassMotto"]


def test_every_ending_is_worded_in_the_one_table_the_app_and_the_protocol_share() -> None:
    """The history's void lines, the result view and stats say an ending's ``clause``; the online
    endings (``ending_text``) its ``cause``: both from ``ENDING_WORDS``, one row a reason."""
    assert set(ENDING_WORDS) == set(EndReason)
    for reason, words in ENDING_WORDS.items():
        assert reason_words(reason) == words.clause
        kind, text = entry_text(Voided(1, Line.PASS, 20, reason))
        assert (kind, text) == ("void", f"Pass 20 void, returned: {words.clause}")
        worded = ending_text(reason, 1, None, True)
        # a seat's missed deadline is said as its late move (issue 43: net's LATE_MOVE)
        late = reason is EndReason.DEADLINE
        assert worded.startswith(late_move_text(1) if late else words.cause), worded
