"""The table's rule sentences come from the kernel's transition table, and agree with play; the
words of an ending come from the one table the net layer keeps."""

from __future__ import annotations

from pointline.gui.history import entry_text, reason_words
from pointline.gui.texts import (
    DP_LOSES,
    DP_PUSHES,
    DP_WINS,
    PASS_LOSES,
    PASS_WINS,
    TEXTS,
    keys_hint,
    line_rule,
)
from pointline.kernel import (
    ENDING_WORDS,
    Allocate,
    Confirm,
    EndReason,
    Line,
    Outcome,
    Phase,
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


def test_help_and_the_lines_rules_name_those_totals() -> None:
    assert "Pass wins on 7 or 11 and loses on 2, 3 or 12" in TEXTS["helpHtml"]
    assert line_rule("pass", Phase.COME_OUT) == "Wins on 7, 11 · loses on 2, 3, 12 · pays\u00a01:1"
    assert line_rule("dont_pass", Phase.COME_OUT) == (
        "Wins on 2, 3 · loses on 7, 11 · 12 pushes · pays\u00a01:1"
    )
    assert line_rule("pass", Phase.POINT, 6) == "Wins on 6 before 7 · pays\u00a01:1"
    assert line_rule("dont_pass", Phase.POINT, 4) == "Wins on 7 before 4 · pays\u00a01:1"
    # QML reads the same words (it puts the point's number for {point})
    assert TEXTS["rulePassPoint"].replace("{point}", "6") == line_rule("pass", Phase.POINT, 6)
    assert TEXTS["ruleDontPassComeOut"] == line_rule("dont_pass", Phase.COME_OUT)


def test_a_phone_after_a_session_is_told_the_main_action() -> None:
    assert keys_hint(Phase.COMPLETE, mobile=True, chip=10) == "Tap Play again to start again"
    assert keys_hint(Phase.ENDED, mobile=True, chip=10) == "Tap Play again to start again"
    assert keys_hint(Phase.POINT, mobile=True, chip=10) == "Tap Roll"


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
