"""A real throw: the dice travel and land, chips slide to the line and back; Reduce motion
makes both instant."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.gui.support import WAIT_MS, ManualClock

K = Qt.Key


def test_dice_travel_and_land_and_chips_slide_to_the_line(make_ui) -> None:
    clock = ManualClock()
    ui = make_ui(motion=True, clock=clock, label=b"flight")
    flyer = ui.item("flyer_pass")
    ui.key(K.Key_Space)  # a chip slides from the balance to Pass
    ui.qtbot.waitUntil(lambda: flyer.isVisible(), timeout=WAIT_MS)
    ui.qtbot.waitUntil(lambda: not flyer.isVisible(), timeout=WAIT_MS)
    dice = ui.item("dice")
    ui.key(K.Key_Return)
    ui.qtbot.waitUntil(lambda: dice.property("flight") < 1, timeout=WAIT_MS)
    ui.qtbot.waitUntil(lambda: dice.property("flight") == 1, timeout=WAIT_MS)  # landed
    assert ui.item("throwAnimation").property("running") is False


def test_a_settled_chip_slides_back_to_the_balance(make_ui) -> None:
    clock = ManualClock()
    ui = make_ui(motion=True, clock=clock, label=b"settle")
    b = ui.bridge
    flyers = (ui.item("flyer_pass"), ui.item("flyer_dont_pass"))
    for _ in range(60):
        ui.key(K.Key_Space)
        ui.qtbot.waitUntil(lambda: not flyers[0].isVisible(), timeout=WAIT_MS)
        ui.key(K.Key_Return if b.phase == "come_out" else K.Key_Space)
        while b.revealStage != "count" and clock.advance():
            pass
        if b.revealStage == "count":
            break
        b.skipMoment()
    assert b.revealStage == "count" and b.lineOutcomes
    ui.qtbot.waitUntil(lambda: any(f.isVisible() for f in flyers), timeout=WAIT_MS)
    # Each chip carries what its line returns (or loses), as the bridge decided it.
    for line, flyer in zip(("pass", "dont_pass"), flyers, strict=True):
        flight = b.lineFlights.get(line, 0)
        assert flyer.isVisible() == (flight != 0)
        if flight:
            assert flyer.property("amount") == abs(flight)


def test_reduce_motion_makes_the_throw_instant(make_ui) -> None:
    ui = make_ui(motion=False)
    dice, flyer = ui.item("dice"), ui.item("flyer_pass")
    ui.key(K.Key_Space)
    assert not flyer.isVisible()
    ui.key(K.Key_Return)
    assert ui.bridge.revealStage == "" and ui.bridge.throws == 1  # shown at once
    assert dice.property("flight") == 1 and not ui.item("throwAnimation").property("running")
    assert not flyer.isVisible()
