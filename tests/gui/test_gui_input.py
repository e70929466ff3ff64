"""Input exactly as the card's reading says (``../shared/card/READING.md``, beside the repository):
Tab order, shortcuts, pause, blur, resize, window modes."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QWindow

from tests.gui.support import BUTTON_ORDER, WAIT_MS

K = Qt.Key
SHIFT = Qt.KeyboardModifier.ShiftModifier


def _tab_cycle(ui, modifier=Qt.KeyboardModifier.NoModifier, key=K.Key_Tab) -> list[str]:
    seen: list[str] = []
    for _ in range(len(BUTTON_ORDER) + 2):
        ui.key(key, modifier)
        name = ui.focus_name()
        if name in seen:
            break
        seen.append(name)
    return seen


def _visual_order(ui, names: list[str]) -> list[str]:
    def pos(name):
        item = ui.item(name)
        p = item.mapToScene(item.boundingRect().topLeft())
        return (round(p.y()), round(p.x()))

    return sorted(names, key=pos)


def _check_tab(ui) -> None:
    legal = ui.legal_buttons()
    forward = _tab_cycle(ui)
    assert forward[0] in legal
    start = forward.index(legal[0])
    assert forward[start:] + forward[:start] == legal
    assert legal == _visual_order(ui, legal)
    for name in BUTTON_ORDER:
        item = ui.item(name)
        assert item.property("activeFocusOnTab") == item.isEnabled()
    ui.key(K.Key_Up)
    backward = _tab_cycle(ui, SHIFT, K.Key_Backtab)
    assert sorted(backward) == sorted(legal)
    assert list(reversed(backward)) in [legal[i:] + legal[:i] for i in range(len(legal))]
    ui.key(K.Key_Up)


def test_tab_visits_exactly_the_legal_buttons_in_visual_order(make_ui) -> None:
    ui = make_ui()
    _check_tab(ui)
    assert "btnReset" not in ui.legal_buttons() and "btnRoll" not in ui.legal_buttons()
    ui.key(K.Key_Space)
    _check_tab(ui)
    assert "btnReset" in ui.legal_buttons()
    ui2 = make_ui(scene="point-reduction")
    ui2.window.requestActivate()
    ui2.qtbot.waitUntil(ui2.window.isActive, timeout=WAIT_MS)
    ui2.key(K.Key_Up)
    assert "btnRoll" in ui2.legal_buttons() and "btnAllocate" not in ui2.legal_buttons()
    _check_tab(ui2)


def test_table_keys_and_shortcuts(make_ui) -> None:
    ui = make_ui()
    b = ui.bridge
    ui.key(K.Key_Down)
    assert b.selectedLine == "dont_pass" and ui.focus_name() == "tableArea"
    ui.key(K.Key_Left)
    assert b.selectedLine == "pass"
    ui.key(K.Key_Right)
    assert b.selectedLine == "dont_pass"
    ui.key(K.Key_Up)
    ui.key(K.Key_Space)
    ui.key(K.Key_Space)
    assert b.draftPass == 20
    ui.key(K.Key_Backspace)
    assert b.draftPass == 0
    ui.key(K.Key_Space)
    ui.key(K.Key_Delete)
    assert b.draftPass == 0
    # F1 opens Help; nothing submits under Help; Escape closes it and focus comes back.
    ui.key(K.Key_Space)
    ui.key(K.Key_F1)
    assert b.helpOpen
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "btnHelpClose", timeout=WAIT_MS)
    before = b.submissions
    ui.key(K.Key_Space)  # takes the focused Close button
    assert not b.helpOpen and b.submissions == before and b.draftPass == 10
    ui.key(K.Key_F1)
    ui.key(K.Key_Escape)
    assert not b.helpOpen
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "tableArea", timeout=WAIT_MS)
    # Escape pauses: nothing can be submitted, not even through the bridge.
    ui.key(K.Key_Escape)
    assert b.paused and ui.item("pauseOverlay").property("visible")
    # The pause card takes focus on Resume; the table behind it is inert.
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "btnResume", timeout=WAIT_MS)
    for key in (K.Key_Backspace, K.Key_Delete, K.Key_Up, K.Key_Down):
        ui.key(key)
    assert not b.act("allocate") and not b.act("confirm")
    assert b.submissions == before and b.draftPass == 10 and b.throws == 0
    assert b.selectedLine == "pass"  # arrows do not move the selection under the pause card
    assert b.reasons["confirm"].startswith("Paused")
    ui.key(K.Key_Escape)
    assert not b.paused
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "tableArea", timeout=WAIT_MS)
    # Enter on the focused Resume resumes and submits nothing.
    ui.key(K.Key_Escape)
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "btnResume", timeout=WAIT_MS)
    ui.key(K.Key_Return)
    assert not b.paused and b.submissions == before and b.draftPass == 10
    # M mutes and the choice is remembered.
    muted = b.muted
    ui.key(K.Key_M)
    assert b.muted is not muted
    assert (
        QSettings(b._settings.fileName(), QSettings.Format.IniFormat).value("muted", type=bool)
        is b.muted
    )
    ui.key(K.Key_M)
    assert b.muted is muted
    # A focused button takes Enter and Space.
    for _ in range(10):
        ui.key(K.Key_Tab)
        if ui.focus_name() == "btnAllocate":
            break
    ui.key(K.Key_Return)
    ui.key(K.Key_Space)
    assert b.draftPass == 30
    ui.key(K.Key_Up)
    ui.key(K.Key_Return)  # Enter on the table confirms
    assert b.throws == 1


def test_point_phase_keys_roll_and_explain(make_ui) -> None:
    ui = make_ui(scene="point-reduction")
    b = ui.bridge
    assert b.phase == "point"
    assert b.reasons["allocate"] == "Don't Pass cannot increase once the point is on."
    assert b.lineReasons["pass"] == "Pass is locked while the point is on."
    ui.key(K.Key_Up)
    assert b.reasons["allocate"] == "Pass is locked while the point is on."
    assert ui.item("btnAllocate").isEnabled() is False
    before = b.throws
    ui.key(K.Key_Space)
    assert b.throws == before + 1
    assert b.announcement.startswith("Rolled")


def test_blur_resize_rotation_and_background_submit_nothing(make_ui, qtbot) -> None:
    ui = make_ui(size=(844, 390))
    b = ui.bridge
    ui.key(K.Key_Space)
    ui.key(K.Key_Down)
    ui.key(K.Key_Space)
    before = (b.submissions, b.draftPass, b.draftDontPass, b.table.ledger_length(0))
    for w, h in ((390, 844), (844, 390), (360, 640), (1280, 720)):
        ui.resize(w, h)
    other = QWindow()
    other.resize(200, 200)
    other.show()
    other.requestActivate()
    qtbot.waitUntil(lambda: not ui.window.isActive(), timeout=WAIT_MS)
    other.close()
    b.applicationStateChanged(Qt.ApplicationState.ApplicationSuspended.value)
    assert b.paused
    assert (b.submissions, b.draftPass, b.draftDontPass, b.table.ledger_length(0)) == before
    ui.window.requestActivate()
    qtbot.waitUntil(ui.window.isActive, timeout=WAIT_MS)
    ui.key(K.Key_Escape)
    assert not b.paused
    ui.key(K.Key_Return)
    assert b.table.seat(0).ledger[0].pass_amount == 10


def test_window_modes_keep_session_drafts_and_focus(make_ui, qtbot) -> None:
    ui = make_ui()
    b = ui.bridge
    ui.key(K.Key_Space)
    ui.key(K.Key_Return)
    ui.key(K.Key_Space)  # the next draft or a roll, either way state to keep
    state = (b.phase, b.throws, b.draftPass, b.balance, len(b.history))
    for _ in range(12):
        ui.key(K.Key_Tab)
        if ui.focus_name() == "btnWindow":
            break
    expected = {"theater": 4, "fullscreen": 5, "standard": 2}  # QWindow.Visibility values
    for mode in ("theater", "fullscreen", "standard"):
        ui.key(K.Key_Space)
        assert b.windowMode == mode
        qtbot.waitUntil(lambda m=mode: ui.window.visibility().value == expected[m], timeout=WAIT_MS)
        ui.frames()  # drawn in the new mode
        assert ui.focus_name() == "btnWindow"
        assert (b.phase, b.throws, b.draftPass, b.balance, len(b.history)) == state


def test_new_session_question_cancel_submits_nothing(make_ui, qtbot) -> None:
    ui = make_ui()
    b = ui.bridge
    ui.key(K.Key_Space)
    before = (b.submissions, b.draftPass, b.table.ledger_length(0))
    ui.click("btnNew")
    assert b.askingNewSession
    qtbot.waitUntil(lambda: ui.focus_name() == "btnAskCancel", timeout=WAIT_MS)
    ui.key(K.Key_Backspace)  # no reset behind the question
    ui.key(K.Key_Tab)  # Tab stays inside the question
    assert ui.focus_name() == "btnAskConfirm"
    ui.key(K.Key_Backtab)
    assert ui.focus_name() == "btnAskCancel"
    assert (b.submissions, b.draftPass, b.table.ledger_length(0)) == before
    ui.key(K.Key_Return)  # Enter on Cancel
    assert not b.askingNewSession
    assert (b.submissions, b.draftPass, b.table.ledger_length(0)) == before
    # a click never gives a button the focus (issue 38): back to the table, where Enter confirms
    qtbot.waitUntil(lambda: ui.focus_name() == "tableArea", timeout=WAIT_MS)
    ui.click("btnNew")
    assert b.askingNewSession
    ui.key(K.Key_Escape)  # Escape cancels too
    assert not b.askingNewSession and b.draftPass == before[1] and not b.paused
    ui.click("btnNew")
    ui.click("btnAskConfirm")
    assert b.draftPass == 0 and b.balance == 1000 and not b.askingNewSession
