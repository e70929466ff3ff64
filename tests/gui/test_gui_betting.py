"""Betting in one move: chips of 10 / 50 / 100 and Repeat last bet, all decided by the kernel."""

from __future__ import annotations

from PySide6.QtCore import Qt

from pointline.gui.betting import CHIP_VALUES, chip_rejection
from pointline.kernel import Allocate, Code, Line, Table
from tests.gui.support import WAIT_MS

K = Qt.Key


def test_the_chips_are_one_unit_five_units_and_the_hand_limit() -> None:
    assert CHIP_VALUES == (10, 50, 100)


def test_a_chip_is_refused_whole_when_any_ten_of_it_would_be(make_ui) -> None:
    ui = make_ui()
    b = ui.bridge
    ui.click("chip50")
    assert b.chip == 50 and ui.item("btnAllocate").property("text") == "Allocate 50"
    ui.click("linePass")  # a tap on a line places the selected chip there
    assert b.draftPass == 50
    ui.key(K.Key_Space)  # Space places the selected chip on the selected line
    assert b.draftPass == 100
    before = b.table.ledger_length(0)
    ui.key(K.Key_Down)
    ui.click("chip10")
    ui.key(K.Key_Space)  # over the hand limit: nothing at all is placed
    assert b.draftDontPass == 0 and b.table.ledger_length(0) == before
    assert b.status == Code.HAND_LIMIT.text
    ui.key(K.Key_Backspace)
    ui.click("chip100")
    ui.click("lineDontPass")
    assert b.draftDontPass == 100 and b.draftPass == 0


def test_chip_rejection_is_the_kernels_first_refusal() -> None:
    table = Table(seats=1)
    for _ in range(6):
        table.push(Allocate(0, Line.PASS))
    assert chip_rejection(table, 0, Line.DONT_PASS, 50) is Code.HAND_LIMIT
    assert chip_rejection(table, 0, Line.DONT_PASS, 10) is None
    assert table.draft(0).pass_amount == 60  # trying a chip changes nothing


def test_repeat_last_bet_places_the_last_hands_contracts_with_one_key(make_ui) -> None:
    ui = make_ui(label=b"repeat")
    b = ui.bridge
    assert not ui.item("btnRepeat").isEnabled()  # no earlier bet yet
    ui.key(K.Key_R)
    assert b.draftPass == 0
    ui.key(K.Key_Up)
    ui.key(K.Key_Space)
    ui.key(K.Key_Space)
    ui.key(K.Key_Down)
    ui.key(K.Key_Space)
    ui.key(K.Key_Return)  # Pass 20, Don't Pass 10
    while b.hand == 1:
        ui.key(K.Key_Return)
    ui.qtbot.waitUntil(lambda: ui.item("btnRepeat").isEnabled(), timeout=WAIT_MS)
    assert "Pass 20 and Don't Pass 10" in ui.item("btnRepeat").property("hint")
    ui.key(K.Key_R)
    assert (b.draftPass, b.draftDontPass) == (20, 10)
    assert not ui.item("btnRepeat").isEnabled()  # chips on the lines: nothing to repeat
