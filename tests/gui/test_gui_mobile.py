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


# ---------------------------------------------------------------- issue 39: made for a phone
def _centre(ui, name: str) -> tuple[float, float]:
    r = _rect(ui.item(name))
    return r.center().x(), r.center().y()


def _phone(monkeypatch, size: tuple[int, int]) -> dict[str, int]:
    from pointline.gui.device import phone_insets

    insets = phone_insets(size)
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "1")
    monkeypatch.setenv(
        "POINTLINE_FAKE_INSETS",
        ",".join(str(insets[k]) for k in ("top", "right", "bottom", "left")),
    )
    return insets


def test_a_phone_sideways_gives_the_thumbs_the_chips_and_one_large_main_action(
    make_ui, monkeypatch
) -> None:
    insets = _phone(monkeypatch, (844, 390))
    ui = make_ui(size=(844, 390))
    ui.frames()
    safe_w = 844 - insets["left"] - insets["right"]
    # the chips at the left edge, Confirm at the right edge, both low enough for a thumb
    for chip in ("chip10", "chip50", "chip100"):
        x, y = _centre(ui, chip)
        assert x - insets["left"] < safe_w * 0.25 and y > 390 * 0.4, chip
    x, y = _centre(ui, "btnConfirm")
    assert x - insets["left"] > safe_w * 0.75 and y > 390 * 0.4
    # the main action is the largest control; the others beside it are smaller
    confirm = _rect(ui.item("btnConfirm"))
    for name in ("btnAllocate", "btnRepeat", "btnReset", "btnHistory", "btnMenu"):
        other = _rect(ui.item(name))
        assert other.width() * other.height() < confirm.width() * confirm.height(), name
    # the dice are at least 64 px
    assert ui.item("dice").property("size") >= 64
    # the felt takes at least half of the safe area
    felt = _rect(ui.item("felt"))
    assert felt.width() * felt.height() >= 0.5 * safe_w * (390 - insets["bottom"])
    # Help, sound and New session wait in the menu; the history in its drawer
    assert not ui.item("btnNew").isVisible() and not ui.item("btnHelp").isVisible()
    ui.click("btnMenu")
    ui.qtbot.waitUntil(lambda: ui.item("menu").property("opened"), timeout=WAIT_MS)
    assert ui.item("btnNew").isVisible() and ui.item("btnHelp").isVisible()
    ui.click("btnMenuClose")
    ui.qtbot.waitUntil(lambda: not ui.item("menu").property("visible"), timeout=WAIT_MS)
    ui.click("btnHistory")
    ui.qtbot.waitUntil(lambda: ui.item("historyDrawer").property("opened"), timeout=WAIT_MS)
    assert ui.item("historyInDrawer").isVisible()
    assert ui.bridge.submissions == 0  # opening them plays nothing


def test_roll_takes_confirms_place_and_play_again_follows_a_session(make_ui, monkeypatch) -> None:
    _phone(monkeypatch, (390, 844))
    come_out = make_ui(size=(390, 844))
    come_out.frames()
    confirm = _rect(come_out.item("btnConfirm"))
    assert confirm.center().y() > 844 * 2 / 3 and confirm.width() > 390 * 0.8  # full width, low
    point = make_ui(size=(390, 844), scene="point-reduction")
    point.frames()
    assert _rect(point.item("btnRoll")) == confirm  # the main action keeps its place
    over = make_ui(size=(390, 844), scene="result")
    over.frames()
    assert not over.item("btnRoll").isVisible() and not over.item("btnConfirm").isVisible()
    again = over.item("btnPlayAgain")
    assert again.isVisible() and again.isEnabled() and again.property("text") == "Play again"
    assert _rect(again) == confirm
    over.click("btnPlayAgain")
    # nothing in play: a new session at once, as New session does
    assert over.bridge.throws == 0 and over.bridge.balance == 1000 and not over.bridge.isOver


def test_portrait_and_sideways_get_their_own_insets_in_one_run(make_ui, monkeypatch) -> None:
    from pointline.gui.device import phone_insets

    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "1")
    ui = make_ui(size=(390, 844))
    ui.bridge.set_insets(phone_insets((390, 844)))
    ui.frames()
    assert _rect(ui.item("header")).top() >= 47
    ui.resize(844, 390)
    ui.bridge.set_insets(phone_insets((844, 390)))
    ui.frames()
    header = _rect(ui.item("header"))
    assert header.top() < 47 and header.left() >= 47 and header.right() <= 844 - 47


def test_a_phone_screenshot_paints_the_insets_black() -> None:
    from PySide6.QtGui import QColor, QImage

    from pointline.gui.tools.phone import black_bars

    image = QImage(100, 60, QImage.Format.Format_RGB32)
    image.fill(QColor("#ffffff"))
    out = black_bars(image, {"top": 5, "right": 10, "bottom": 7, "left": 3})
    assert QColor(out.pixel(50, 2)).name() == "#000000"
    assert QColor(out.pixel(95, 30)).name() == "#000000"
    assert QColor(out.pixel(50, 56)).name() == "#000000"
    assert QColor(out.pixel(1, 30)).name() == "#000000"
    assert QColor(out.pixel(50, 30)).name() == "#ffffff"  # the safe area itself untouched
