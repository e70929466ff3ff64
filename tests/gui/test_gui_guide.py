"""The first-hand guide: shown once on first launch (remembered in the data folder), skipped by
Escape or Back, reopened from Help, pointing at the lines, Allocate, Confirm and Roll, and never
submitting anything."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPointF, QSettings, Qt

from pointline.gui.bridge import TableBridge
from pointline.gui.extras import GUIDE_STEPS, extras_of
from pointline.gui.tools.scenes import counter_nonces
from pointline.net.paths import ENV_DATA_DIR

WAIT_MS = 3000


def _bridge(tmp_path: Path) -> TableBridge:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    return TableBridge(counter_nonces(b"guide"), settings=settings)


def test_the_guide_shows_on_first_launch_only(
    qapp: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path / "data"))
    first = _bridge(tmp_path)
    extras_of(first).start()  # what the app does at start-up
    assert extras_of(first).property("guideOpen") is True
    assert extras_of(first).ask_before_closing  # the app asks before closing mid-session
    assert (tmp_path / "data" / "guide.json").is_file()  # shown once: remembered already
    again = _bridge(tmp_path)
    extras_of(again).start()
    assert extras_of(again).property("guideOpen") is False


def test_an_unreadable_guide_file_just_shows_the_guide_again(
    qapp: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "guide.json").write_bytes(b"\xff{not json")
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path / "data"))
    bridge = _bridge(tmp_path)
    extras_of(bridge).start()
    assert extras_of(bridge).property("guideOpen") is True


def _open(ui: Any) -> Any:
    extras = extras_of(ui.bridge)
    extras.openGuide()
    overlay = ui.item("guideOverlay")
    ui.qtbot.waitUntil(lambda: overlay.property("visible"), timeout=WAIT_MS)
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "btnGuideNext", timeout=WAIT_MS)
    return extras


def test_nothing_behind_the_guide_can_be_played(make_ui: Any) -> None:
    ui = make_ui(label=b"guide-inert")
    _open(ui)
    keys = [Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Backspace, Qt.Key.Key_Delete]
    for key in [*keys, Qt.Key.Key_Down, Qt.Key.Key_Up]:  # Space and Enter take Next
        ui.key(key)
    for name in ("lineDontPass", "btnAllocate", "btnConfirm", "btnNew"):
        ui.click(name)  # the guide's blocker takes the press
    assert ui.item("guideOverlay").property("visible")
    assert ui.bridge.submissions == 0
    assert ui.bridge.draftPass + ui.bridge.draftDontPass == 0 and ui.bridge.throws == 0
    assert ui.bridge.reasons["allocate"]  # the bridge itself refuses while the guide is open


def test_escape_and_back_skip_the_guide(make_ui: Any) -> None:
    ui = make_ui(label=b"guide-skip")
    for key in (Qt.Key.Key_Escape, Qt.Key.Key_Back):
        _open(ui)
        ui.key(Qt.Key.Key_Tab)
        ui.key(key)
        ui.qtbot.waitUntil(lambda: not ui.item("guideOverlay").property("visible"), timeout=WAIT_MS)
        assert not ui.bridge.paused  # the key closed the guide, nothing else
        ui.qtbot.waitUntil(lambda: ui.focus_name() == "tableArea", timeout=WAIT_MS)
    assert ui.bridge.submissions == 0


def test_each_step_points_at_its_control_and_done_closes(make_ui: Any) -> None:
    ui = make_ui(label=b"guide-steps")
    extras = _open(ui)
    ring = ui.item("guideRing")
    for n, step in enumerate(GUIDE_STEPS):
        ui.qtbot.waitUntil(lambda n=n: extras.property("guideStep") == n, timeout=WAIT_MS)
        assert ui.item("guideText").property("text") == step["text"]
        for name in step["target"].split():  # the ring goes around every one
            target = ui.item(name)
            ui.qtbot.waitUntil(lambda t=target: _inside(_rect(t), _rect(ring)), timeout=WAIT_MS)
        for _ in range(3):  # Tab stays inside the guide
            ui.key(Qt.Key.Key_Tab)
            assert ui.focus_name() in ("btnGuideSkip", "btnGuideBack", "btnGuideNext")
        ui.click("btnGuideNext")
    ui.qtbot.waitUntil(lambda: not ui.item("guideOverlay").property("visible"), timeout=WAIT_MS)
    assert ui.bridge.submissions == 0


def test_the_guide_reopens_from_help(make_ui: Any) -> None:
    ui = make_ui(label=b"guide-help")
    ui.key(Qt.Key.Key_F1)
    ui.qtbot.waitUntil(lambda: ui.item("helpOverlay").property("visible"), timeout=WAIT_MS)
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "btnHelpClose", timeout=WAIT_MS)
    ui.click("btnHelpGuide")  # a click leaves the focus where it was (issue 38)
    ui.qtbot.waitUntil(lambda: ui.item("guideOverlay").property("visible"), timeout=WAIT_MS)
    ui.key(Qt.Key.Key_Escape)
    ui.qtbot.waitUntil(lambda: not ui.item("guideOverlay").property("visible"), timeout=WAIT_MS)
    assert ui.item("helpOverlay").property("visible")  # back where it was opened
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "btnHelpClose", timeout=WAIT_MS)
    for _ in range(12):  # by keys: Tab to the guide's button, Enter, Escape: back on it
        if ui.focus_name() == "btnHelpGuide":
            break
        ui.key(Qt.Key.Key_Tab)
    ui.key(Qt.Key.Key_Return)
    ui.qtbot.waitUntil(lambda: ui.item("guideOverlay").property("visible"), timeout=WAIT_MS)
    ui.key(Qt.Key.Key_Escape)
    ui.qtbot.waitUntil(lambda: not ui.item("guideOverlay").property("visible"), timeout=WAIT_MS)
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "btnHelpGuide", timeout=WAIT_MS)


def _steps(bridge: TableBridge) -> list[tuple[str, str]]:
    """Each step's sentence and target, the guide walked from its start."""
    extras = extras_of(bridge)
    extras.openGuide()
    seen = []
    for _ in GUIDE_STEPS:
        seen.append((extras.guideText, extras.guideTarget))
        extras.nextGuide()
    return seen


def _rect(item: Any) -> tuple[float, float, float, float]:
    p = item.mapToScene(QPointF(0, 0))
    return (p.x(), p.y(), float(item.width()), float(item.height()))


def _inside(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return (
        b[0] <= a[0] and b[1] <= a[1] and a[0] + a[2] <= b[0] + b[2] and a[1] + a[3] <= b[1] + b[3]
    )


def _apart(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]


@pytest.mark.parametrize("size", [(844, 390), (390, 844), (1280, 720)])
def test_the_guide_card_never_covers_what_its_step_explains(
    make_ui: Any, size: tuple[int, int]
) -> None:
    """Issue 39: "the guide never covers what it explains": at each step the card lies clear of
    every control the ring goes around (the two lines together), a phone in phone mode (its
    insets: the card stays in the safe area too), a desktop as one."""
    from pointline.gui.tools.phone import insets_of, profile_env, safe_rect

    with profile_env(size):
        ui = make_ui(size=size, label=b"guide-apart")
    extras = _open(ui)
    ring, card = ui.item("guideRing"), ui.item("guideCard")
    safe = safe_rect(size, insets_of(size))
    for n in range(len(GUIDE_STEPS)):
        ui.qtbot.waitUntil(lambda n=n: extras.property("guideStep") == n, timeout=WAIT_MS)
        names = str(extras.property("guideTarget")).split()
        if "two lines" in str(extras.property("guideTitle")):  # it explains both: it rings both
            assert {"linePass", "lineDontPass"} <= set(names), names
        for name in names:
            target = ui.item(name)
            ui.qtbot.waitUntil(lambda t=target: _inside(_rect(t), _rect(ring)), timeout=WAIT_MS)
            assert _apart(_rect(card), _rect(target)), (n, name, _rect(card), _rect(target))
        assert _inside(_rect(card), safe), (n, _rect(card), safe)
        ui.click("btnGuideNext")
    assert ui.bridge.submissions == 0


def test_on_a_phone_the_guide_speaks_of_taps_and_points_at_the_menu(
    qapp: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39: "the guide ... speaks of taps on a phone": no step there names a key, and the
    last step points at the menu that holds Help (a phone's table has no Help button)."""
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "1")
    phone = _steps(_bridge(tmp_path))
    keys = re.compile(r"\b(Enter|Space|Esc|arrow keys?|Tab)\b")
    assert all(not keys.search(text) for text, _ in phone), phone
    assert phone[-1][1] == "btnMenu" and "menu" in phone[-1][0], phone[-1]
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "0")
    desktop = _steps(_bridge(tmp_path))
    assert "arrow keys" in desktop[1][0] and desktop[-1][1] == "btnHelp", desktop
