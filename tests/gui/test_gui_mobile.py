"""Phone behaviour, testable offscreen: 48 px targets, Back, hidden desktop controls, safe
areas, background and the tap that explains a dimmed button (issues 10 and 11)."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QRectF, Qt

from pointline.gui.tools.extras_scenes import EXTRA_SCENES, prepare_extra  # gui-extras
from pointline.gui.tools.layoutcheck import check_window
from pointline.gui.tools.scenes import SCENES
from tests.gui.support import WAIT_MS

K = Qt.Key
PHONES = [(390, 844), (844, 390)]


def _rect(item) -> QRectF:
    return item.mapRectToScene(QRectF(0, 0, item.width(), item.height()))


@pytest.mark.parametrize("size", PHONES)
def test_every_enabled_target_is_at_least_48_px(make_ui, size, monkeypatch) -> None:
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "1")
    for scene in ("come-out-draft", "point-reduction", "result"):
        ui = make_ui(size=size, scene=scene)
        ui.frames()  # laid out at the phone size
        small = [p for p in check_window(ui.window) if p.kind == "small target"]
        assert small == [], small


@pytest.mark.parametrize("size", PHONES)
def test_desktop_controls_are_hidden_on_a_phone(make_ui, size, monkeypatch) -> None:
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "1")
    ui = make_ui(size=size)
    assert ui.bridge.mobile
    assert not ui.item("btnWindow").isVisible()
    footer = ui.item("footer").property("text")
    assert "F1" not in footer and "Esc" not in footer
    assert "(M)" not in ui.item("btnMute").property("text")
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "0")
    desktop = make_ui(size=size)
    assert desktop.item("btnWindow").isVisible()


@pytest.mark.parametrize("size", PHONES)
def test_back_closes_help_then_pauses_never_quits(make_ui, size, monkeypatch) -> None:
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "1")
    ui = make_ui(size=size)
    b = ui.bridge
    b.selectLine("pass")
    b.act("allocate")
    b.openHelp()
    ui.key(K.Key_Back)
    assert not b.helpOpen and not b.paused and ui.window.isVisible()
    ui.key(K.Key_Back)
    assert b.paused and ui.item("pauseOverlay").property("visible") and ui.window.isVisible()
    ui.key(K.Key_Back)
    assert not b.paused
    b.askNewSession()
    assert b.askingNewSession
    ui.key(K.Key_Back)
    assert not b.askingNewSession and b.draftPass == 10  # Back is Cancel: nothing lost
    assert b.submissions == 1


@pytest.mark.parametrize("size", PHONES)
def test_layout_stays_inside_faked_safe_area_insets(make_ui, size, monkeypatch) -> None:
    monkeypatch.setenv("POINTLINE_FAKE_INSETS", "47,0,34,0")
    ui = make_ui(size=size)
    height = ui.window.height()
    header = _rect(ui.item("header"))
    footer = _rect(ui.item("footer"))
    assert header.top() >= 47
    assert footer.bottom() <= height - 34
    for name in ("btnAllocate", "btnConfirm", "btnNew"):
        r = _rect(ui.item(name))
        assert r.top() >= 47 and r.bottom() <= height - 34, name
    monkeypatch.delenv("POINTLINE_FAKE_INSETS")
    plain = make_ui(size=size)
    assert _rect(plain.item("header")).top() < 47


def test_background_pauses_solo_on_a_phone_and_inactive_only_there(make_ui, monkeypatch) -> None:
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "1")
    ui = make_ui(size=(390, 844))
    ui.bridge.applicationStateChanged(Qt.ApplicationState.ApplicationInactive.value)
    assert ui.bridge.paused and ui.bridge.submissions == 0
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "0")
    desk = make_ui()
    desk.bridge.applicationStateChanged(Qt.ApplicationState.ApplicationInactive.value)
    assert not desk.bridge.paused  # another window took focus: nothing happens
    desk.bridge.applicationStateChanged(Qt.ApplicationState.ApplicationSuspended.value)
    assert desk.bridge.paused and desk.bridge.submissions == 0


@pytest.mark.parametrize("size", [*PHONES, (1280, 720)])
def test_tapping_a_dimmed_button_says_why(make_ui, size) -> None:
    ui = make_ui(size=size)
    b = ui.bridge
    assert not ui.item("btnReset").isEnabled()
    assert "There is nothing to reset" not in ui.item("liveText").property("text")
    ui.click("btnReset")
    assert b.notice.startswith("Reset is off. ") and b.submissions == 0
    assert b.notice[len("Reset is off. ") :] == b.reasons["reset"]
    assert ui.item("liveText").property("text") == b.notice


def test_reasons_are_on_demand_in_help_not_always_on_screen(make_ui) -> None:
    ui = make_ui(size=(390, 844))
    shown = " ".join(_texts(ui.window))
    assert ui.bridge.reasons["reset"] and ui.bridge.reasons["reset"] not in shown
    assert "Not now" not in shown
    ui.key(K.Key_F1)
    ui.qtbot.waitUntil(lambda: ui.item("whyNow").isVisible(), timeout=WAIT_MS)
    why = ui.item("whyNow").property("text")
    assert "Reset: There is nothing to reset." in why


def test_focus_moves_on_when_the_focused_button_turns_off(make_ui) -> None:
    ui = make_ui(scene="point-reduction")
    b = ui.bridge
    remove = ui.item("btnRemove")
    remove.forceActiveFocus()
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "btnRemove", timeout=WAIT_MS)
    ui.key(K.Key_Return)
    assert b.draftDontPass == 0 and not remove.isEnabled()
    # Focus goes back to the table (the selected line), not to a neighbouring action.
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "tableArea", timeout=WAIT_MS)


_CODE = re.compile(r"\b[a-z]+_[a-z_]+\b|^[a-z_]+: ")


def _texts(window) -> list[str]:
    """Every visible text in the window's item tree (visual children, not QObject children)."""
    out = []
    stack = [window.contentItem()]
    while stack:
        item = stack.pop()
        stack.extend(item.childItems())
        if item.inherits("QQuickText") and item.isVisible():
            out.append(str(item.property("text")))
    return out


@pytest.mark.parametrize("scene", SCENES)
def test_no_machine_code_reaches_a_player(make_ui, scene) -> None:
    if scene == "help":  # the fixture waits for the table's focus, so Help opens after
        ui = make_ui(size=(844, 390), scene="come-out-draft")
        ui.bridge.openHelp()
        ui.qtbot.waitUntil(lambda: ui.item("helpOverlay").property("visible"), timeout=WAIT_MS)
    elif scene in EXTRA_SCENES:  # gui-extras: Stats and the guide open after, as Help does
        ui = make_ui(size=(844, 390))
        prepare_extra(ui.bridge, scene)
        ui.qtbot.waitUntil(lambda: ui.item(scene + "Overlay").property("opened"), timeout=WAIT_MS)
    else:
        ui = make_ui(size=(844, 390), scene=scene, motion=scene == "result-moment")
    texts = _texts(ui.window)
    assert texts
    for text in texts:
        plain = re.sub(r"<[^>]*>", " ", text)
        assert not _CODE.search(plain), plain


def test_the_pause_card_dims_everything_and_says_it_once(make_ui) -> None:
    ui = make_ui(size=(1280, 720))
    ui.key(K.Key_Escape)
    card = ui.item("pauseOverlay")
    ui.qtbot.waitUntil(lambda: card.property("opened"), timeout=WAIT_MS)
    assert card.property("modal") is True  # the whole window behind it is dimmed and inert
    shown = " ".join(_texts(ui.window))
    assert shown.count("Paused:") == 0
    assert ui.item("liveText").property("text") == "Paused."


def test_a_reduction_is_one_stack_with_its_refund(make_ui) -> None:
    ui = make_ui(scene="point-reduction")
    b = ui.bridge
    assert b.draftDontPass == b.contractDontPass - 10
    chip = ui.item("chip_dont_pass")
    assert chip.isVisible() and chip.property("amount") == b.draftDontPass
    assert not ui.item("draftChip_dont_pass").isVisible()
    texts = " ".join(_texts(ui.window))
    assert "refund 10 when you roll" in texts and "10 back" in texts
