"""The result moment and the input lock; reduce motion; the felt after a throw (issue 10)."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt

from pointline.gui.bridge import TableBridge
from pointline.gui.history import line_flights, line_outcomes
from pointline.gui.texts import SOLO_WORDS
from pointline.gui.tools.scenes import counter_nonces
from pointline.kernel import EndReason, Line, Outcome
from pointline.kernel.ledger import Refunded, Settled, Voided
from tests.gui.support import WAIT_MS

K = Qt.Key


def _confirm_until_settled(ui) -> None:
    """Play come-outs (Pass 10) until a throw settles a line, leaving its reveal running."""
    b = ui.bridge
    for _ in range(60):
        if b.phase == "point":
            assert b.act("roll")
        else:
            b.selectLine("pass")
            assert b.act("allocate")
            assert b.act("confirm")
        if b.presenter.settles:  # this throw settles something: its result moment is running
            return
        ui.qtbot.waitUntil(lambda: b.revealStage == "", timeout=WAIT_MS)
    raise AssertionError("no settling throw in 60 throws")


def test_a_throw_locks_input_until_its_result_is_shown(make_ui) -> None:
    ui = make_ui(motion=True)
    b = ui.bridge
    history_before = len(b.history)
    b.selectLine("pass")
    b.act("allocate")
    balance_before = b.balance
    assert b.act("confirm")
    # The dice tumble: nothing changes on screen yet and nothing can be submitted.
    assert b.revealStage == "rolling"
    assert b.balance == balance_before and len(b.history) == history_before
    assert all(not legal for legal in b.legal.values())
    assert set(b.reasons.values()) == {SOLO_WORDS["revealing"]}
    submissions = b.submissions
    for key in (K.Key_Return, K.Key_Space, K.Key_Backspace):
        ui.key(key)
    assert not b.act("confirm") and not b.act("roll") and not b.act("allocate")
    assert b.submissions == submissions
    # Then the result shows, the balance counts, history updates, and input opens again.
    ui.qtbot.waitUntil(lambda: b.revealStage == "", timeout=WAIT_MS)
    assert len(b.history) > history_before
    assert any(b.legal.values())
    assert b.announcement.startswith("Rolled")


def test_outcomes_show_on_the_felt_before_the_chips_pay(make_ui) -> None:
    ui = make_ui(motion=True)
    b = ui.bridge
    _confirm_until_settled(ui)
    ui.qtbot.waitUntil(lambda: b.revealStage == "outcome", timeout=WAIT_MS)
    badge = ui.item("outcome_pass")
    assert badge.isVisible()
    assert b.lineOutcomes["pass"] in ("+10", "\u221210", "push")
    assert b.contractPass == 10  # the chip is still on the line while the outcome shows
    ui.qtbot.waitUntil(lambda: b.revealStage == "", timeout=WAIT_MS)
    assert b.contractPass == 0 and badge.isVisible()  # paid or swept; the outcome stays
    b.selectLine("pass")
    assert b.act("allocate")
    assert not badge.isVisible()  # the next action clears it


def test_reduce_motion_shows_everything_at_once_and_is_remembered(make_ui, tmp_path) -> None:
    ui = make_ui(motion=True)
    b = ui.bridge
    b.openHelp()
    ui.click("btnMotion")
    assert b.reduceMotion
    assert QSettings(b._settings.fileName(), QSettings.Format.IniFormat).value(
        "reduceMotion", type=bool
    )
    b.closeHelp()
    b.selectLine("pass")
    b.act("allocate")
    assert b.act("confirm")
    assert b.revealStage == "" and b.throws == 1 and len(b.history) >= 3
    stored = QSettings(b._settings.fileName(), QSettings.Format.IniFormat)
    again = TableBridge(counter_nonces(b"x"), settings=stored)
    assert again.reduceMotion


def test_the_point_is_announced_on_the_felt(make_ui) -> None:
    ui = make_ui()
    b = ui.bridge
    for _ in range(60):
        b.selectLine("pass")
        b.act("allocate")
        b.act("confirm")
        if b.phase == "point":
            break
    assert b.phase == "point"

    assert ui.item("feltTitle").property("text") == b.feltMessage
    assert b.feltMessage == f"Point {b.point} is ON"
    assert "Enter or Space rolls" in ui.item("footer").property("text")


def test_line_outcomes_words() -> None:
    entries = (
        Refunded(1, 3, 10),
        Settled(1, 3, Line.DONT_PASS, 20, Outcome.WIN, 40, 20),
        Settled(1, 3, Line.PASS, 30, Outcome.LOSS, 0, -30),
    )
    assert line_outcomes(entries) == {"dont_pass": "refund 10 · +20", "pass": "\u221230"}
    push = Settled(1, 1, Line.DONT_PASS, 10, Outcome.PUSH, 10, 0)
    assert line_outcomes((push,)) == {"dont_pass": "push"}


def test_line_flights_slide_what_each_line_returns_or_loses() -> None:
    entries = (
        Refunded(1, 3, 10),
        Settled(1, 3, Line.DONT_PASS, 20, Outcome.WIN, 40, 20),
        Settled(1, 3, Line.PASS, 30, Outcome.LOSS, 0, -30),
    )
    # The refund and the win go back together; the lost Pass contract is swept off.
    assert line_flights(entries) == {"dont_pass": 50, "pass": -30}
    push = Settled(1, 1, Line.DONT_PASS, 15, Outcome.PUSH, 15, 0)
    assert line_flights((push,)) == {"dont_pass": 15}  # the whole stake, not a fixed chip
    assert line_flights((Voided(2, Line.PASS, 25, EndReason.THROW_CAP),)) == {"pass": 25}
