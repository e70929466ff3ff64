"""Issue 20's findings on the solo table, replayed by keys on the real QML scene, motion on."""

from __future__ import annotations

import gc
import re

import pytest
from PySide6.QtCore import QObject, QPoint, Qt, qInstallMessageHandler
from PySide6.QtTest import QTest

from tests.gui.support import WAIT_MS, ManualClock

K = Qt.Key


def _focus_on(ui, name: str) -> None:
    """Tab from the table until ``name`` has focus (as a person would)."""
    for _ in range(20):
        if ui.focus_name() == name:
            return
        ui.key(K.Key_Tab)
    raise AssertionError(f"Tab never reached {name}; focus is on {ui.focus_name()}")


def _shown_texts(window) -> list[str]:
    out, stack = [], [window.contentItem()]
    while stack:
        item = stack.pop()
        stack.extend(item.childItems())
        if item.inherits("QQuickText") and item.isVisible():
            out.append(re.sub(r"<[^>]*>", " ", str(item.property("text"))))
    return out


def _rolling(make_ui, label: bytes) -> tuple[object, ManualClock]:
    """A table with motion on whose first come-out (Pass 10) is being thrown now."""
    clock = ManualClock()
    ui = make_ui(motion=True, clock=clock, label=label)
    ui.key(K.Key_Space)
    ui.key(K.Key_Return)
    assert ui.bridge.revealStage == "rolling"
    return ui, clock


def _reveal(ui, clock: ManualClock) -> None:
    """Let the result moment run out, beat by beat."""
    while clock.advance():
        pass
    ui.qtbot.waitUntil(lambda: ui.bridge.revealStage == "", timeout=WAIT_MS)


# ------------------------------------------------------------------ 1. focus
def test_allocate_eleven_times_never_confirms(make_ui) -> None:
    ui = make_ui(motion=True)
    b = ui.bridge
    _focus_on(ui, "btnAllocate")
    for _ in range(11):
        ui.key(K.Key_Space)
    assert b.draftPass == 100 and b.throws == 0  # the 11th press confirmed nothing
    assert ui.focus_name() == "tableArea"  # Allocate turned off: focus went back to the table


def test_roll_by_enter_keeps_focus_off_help(make_ui) -> None:
    clock = ManualClock()
    ui = make_ui(scene="point-reduction", motion=True, clock=clock)
    b = ui.bridge
    _focus_on(ui, "btnRoll")
    ui.key(K.Key_Return)
    assert b.revealStage == "rolling"
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "tableArea", timeout=WAIT_MS)
    _reveal(ui, clock)
    assert ui.focus_name() == "tableArea"
    ui.key(K.Key_Return)
    assert not b.helpOpen


# ------------------------------------------------------------------ 2. the next hand
def test_enter_through_the_point_never_sits_out_the_next_hand(make_ui) -> None:
    clock = ManualClock()
    ui = make_ui(label=b"enter", motion=True, clock=clock)
    b = ui.bridge
    ui.key(K.Key_Space)
    ui.key(K.Key_Return)
    _reveal(ui, clock)
    for _ in range(200):
        if b.phase != "point":
            break
        ui.key(K.Key_Return)
        ui.key(K.Key_Return)  # pressed again while the dice roll: dropped
        _reveal(ui, clock)
    assert b.phase == "come_out" and b.hand == 2
    throws = b.throws
    ui.key(K.Key_Return)  # the first Enter after the result only asks
    assert b.throws == throws and b.draftPass == 0
    assert "Sit out this hand? Enter again" in ui.item("liveText").property("text")
    assert ui.item("btnConfirm").property("text") == "Sit out"


# ------------------------------------------------------------------ 3. pause
def test_pause_freezes_the_result_moment(make_ui) -> None:
    ui, clock = _rolling(make_ui, b"pause")
    b = ui.bridge
    shown = (b.balance, len(b.history), b.revealStage)
    ui.key(K.Key_Escape)
    assert b.paused
    dice = ui.item("dice")
    ui.qtbot.waitUntil(lambda: ui.item("throwAnimation").property("paused"), timeout=WAIT_MS)
    flight = dice.property("flight")
    for _ in range(3):
        assert not clock.advance()  # the beats wait
    ui.frames(3)  # a running animation would have moved the dice
    assert (b.balance, len(b.history), b.revealStage) == shown
    assert dice.property("flight") == flight
    ui.key(K.Key_Escape)
    assert not b.paused
    _reveal(ui, clock)
    assert len(b.history) > shown[1]


# ------------------------------------------------------------------ 4. stale status
def test_no_stale_reason_after_the_dice_or_during_a_come_out_throw(make_ui) -> None:
    ui, clock = _rolling(make_ui, b"stale")
    b = ui.bridge
    # The come-out is still on screen: no point-phase reason on the lines yet.
    assert set(b.lineReasons.values()) == {""}
    assert not any("locked while the point" in t for t in _shown_texts(ui.window))
    ui.key(K.Key_Space)  # refused: the dice are rolling
    assert "rolling" in b.status
    _reveal(ui, clock)
    assert "rolling" not in b.status and "rolling" not in ui.item("liveText").property("text")


# ------------------------------------------------------------------ 5. layout
def test_no_zero_chip_is_left_on_dont_pass_after_remove(make_ui) -> None:
    ui = make_ui(scene="point-reduction", motion=True)
    b = ui.bridge
    _focus_on(ui, "btnRemove")
    ui.key(K.Key_Return)
    assert b.draftDontPass == 0
    assert not ui.item("chip_dont_pass").isVisible()
    assert ui.item("refund_dont_pass").isVisible()


def test_hover_on_a_dimmed_button_says_why_then_a_tooltip_after_the_delay(make_ui) -> None:
    """The status line says why at once; the button's own tool tip follows after the
    platform's delay (issue 38, finding 4: on 7617d3d no tip ever showed)."""
    ui = make_ui(motion=True)
    b = ui.bridge
    assert not ui.item("btnReset").isEnabled()

    def hover() -> bool:
        # the pointer goes to the button where it is now (a loaded machine may lay it out late),
        # from a corner: Qt drops a move to where the pointer already is, and an earlier test in
        # this process may have left it on that very spot
        QTest.mouseMove(ui.window, QPoint(1, 1))
        QTest.mouseMove(ui.window, ui.center("btnReset"))
        return bool(b.notice.startswith("Reset is off."))

    ui.qtbot.waitUntil(hover, timeout=WAIT_MS)

    def tips() -> list[QObject]:
        return [
            o
            for o in ui.window.findChildren(QObject)
            if o.inherits("QQuickToolTip") and o.property("visible")
        ]

    assert tips() == []  # not at once: after the platform's tool-tip delay
    ui.qtbot.waitUntil(lambda: len(tips()) == 1, timeout=WAIT_MS)
    (tip,) = tips()
    assert tip.property("text") == b.reasons["reset"] and tip.property("text")
    assert ui.item("btnReset").property("reasonShown")
    QTest.mouseMove(ui.window, QPoint(2, 2))
    ui.qtbot.waitUntil(lambda: tips() == [], timeout=WAIT_MS)


def test_the_felt_message_never_covers_a_line(make_ui) -> None:
    clock = ManualClock()
    ui = make_ui(motion=True, clock=clock, label=b"felt")
    b = ui.bridge
    for _ in range(60):
        ui.key(K.Key_Space)
        ui.key(K.Key_Return)
        _reveal(ui, clock)
        if b.phase == "point":
            break
    assert b.feltMessage.startswith("Point")
    title = ui.item("feltTitle")
    assert title.property("text") == b.feltMessage
    for name in ("linePass", "lineDontPass"):
        line = ui.item(name)
        top = line.mapToScene(line.boundingRect().topLeft()).y()
        bottom = title.mapToScene(title.boundingRect().bottomLeft()).y()
        assert bottom <= top + 0.5


# ------------------------------------------------------------------ 6. words
def test_the_footer_speaks_of_the_keys_of_this_phase(make_ui) -> None:
    assert "Space allocates 10" in make_ui().item("footer").property("text")
    for scene in ("point-reduction", "result"):
        assert "Space allocates" not in make_ui(scene=scene).item("footer").property("text")


def test_the_footer_says_what_space_and_enter_do_where_the_focus_is(make_ui) -> None:
    """On the table Space allocates the chip; on a button Space and Enter press that button
    (issue 30: the footer said "Space adds 50" with the focus on a side button)."""
    from PySide6.QtCore import Qt as K

    ui = make_ui()
    footer = ui.item("footer")
    assert "Space allocates 10" in footer.property("text")
    ui.item("btnHelp").forceActiveFocus()
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "btnHelp", timeout=3000)
    text = footer.property("text")
    assert "Space or Enter presses Help (F1)" in text and "allocates" not in text
    ui.item("chip50").forceActiveFocus()
    ui.qtbot.waitUntil(lambda: "presses Chip 50" in footer.property("text"), timeout=3000)
    ui.key(K.Key_Space)  # the footer's word holds: Space pressed the chip
    assert ui.bridge.chip == 50
    ui.item("tableArea").forceActiveFocus()
    ui.qtbot.waitUntil(lambda: "Space allocates 50" in footer.property("text"), timeout=3000)


def test_a_throw_in_flight_says_its_contract_once(make_ui) -> None:
    """A sealed contract is said once: "Contract 30", never "Contract 30 · Draft 30"."""
    ui = make_ui(scene="throw", motion=True)
    assert ui.item("amounts_pass").property("text") == "Draft 50"  # thrown from a draft
    # the come-out of an online seat whose choice is sealed while the dice fly
    ui.bridge.publish(contractPass=30, draftPass=30, contractDontPass=20, draftDontPass=10)
    ui.settle()
    assert ui.item("amounts_pass").property("text") == "Contract 30"
    assert ui.item("amounts_dont_pass").property("text") == "Contract 20 · Draft 10"


LONG_ROUND_STATUS = (
    "Rolled 5 + 6 = 11: Pass wins 20 (+20), Don't Pass loses 10 (−10). "
    "Come-out for hand 2: allocate, then Confirm."
)
"""An online status after a throw: its result, then the next round's words (issue 30 saw it
cut at "Come-out for hand 2: allocate…")."""


@pytest.mark.parametrize("size", [(844, 390), (390, 844), (360, 640)])
def test_a_long_status_is_read_whole(make_ui, size) -> None:
    ui = make_ui(size=size)
    ui.bridge.publish(status=LONG_ROUND_STATUS)
    ui.settle()
    live = ui.item("liveText")
    assert live.property("text") == LONG_ROUND_STATUS
    assert not live.property("truncated")


def test_the_hand_limit_is_said_once(make_ui) -> None:
    ui = make_ui(motion=True)
    for _ in range(11):
        ui.key(K.Key_Space)
    said = " ".join(_shown_texts(ui.window))
    assert said.count("At most 100 points") == 1


def test_one_minus_sign_on_the_felt_and_in_the_history(make_ui) -> None:
    ui = make_ui(scene="result")
    rows = [r["text"] for r in ui.bridge.history.rows]
    assert any("(\u2212" in r for r in rows) and not any("(-" in r for r in rows)


# ------------------------------------------------------------------ 8. teardown
def test_dropping_the_bridge_first_prints_no_qml_error(qapp, tmp_path) -> None:
    from PySide6.QtCore import QEvent, QSettings

    from pointline.gui.app import load
    from pointline.gui.bridge import TableBridge
    from pointline.gui.tools.scenes import counter_nonces

    errors: list[str] = []

    def handler(mode, context, message) -> None:
        if "TypeError" in message or "of null" in message:
            errors.append(message)

    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    bridge = TableBridge(counter_nonces(b"drop"), settings=settings)
    loaded = load(bridge, (844, 390))
    window, engine = loaded.window, loaded.engine
    previous = qInstallMessageHandler(handler)
    try:
        del loaded, bridge
        gc.collect()
        qapp.processEvents()
        window.show()
        qapp.processEvents()
        window.close()
        engine.deleteLater()
        qapp.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        qapp.processEvents()
    finally:
        qInstallMessageHandler(previous)
    assert errors == []
