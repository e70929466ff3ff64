"""The layout checker catches what it claims to, and the solo table passes it at every size."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QByteArray, QObject, QUrl
from PySide6.QtQml import QQmlApplicationEngine

from pointline.gui.bridge import WINDOW_MODES
from pointline.gui.tools.layoutcheck import (
    PHONE_SIDE,
    SIZES,
    check_window,
    contrast_ratio,
    in_thumb_zone,
    measure_window,
    moved_controls,
    run_check,
    steady_areas,
)
from pointline.gui.tools.scenes import SCENES

PLANTED = b"""
import QtQuick
import QtQuick.Controls.Basic
Window {
    width: 400; height: 700; visible: true; color: "#ffffff"
    Button { objectName: "first"; x: 10; y: 10; width: 120; height: 60; text: "One" }
    Button { objectName: "second"; x: 60; y: 40; width: 120; height: 60; text: "Two" }
    Button { objectName: "tiny"; x: 10; y: 200; width: 30; height: 30; text: "3" }
    Text { objectName: "cut"; x: 10; y: 300; width: 60; elide: Text.ElideRight;
           text: "A sentence far too long for sixty pixels" }
    Text { objectName: "pale"; x: 10; y: 400; text: "Pale grey on white"; color: "#cccccc";
           font.pixelSize: 14 }
    Text { objectName: "spill"; x: 300; y: 500; text: "Runs past the right edge of the window" }
    Button { objectName: "fine"; x: 10; y: 600; width: 200; height: 56; text: "Fine" }
}
"""


def _load(qml: bytes) -> tuple[QQmlApplicationEngine, Any]:
    import PySide6.QtQuick  # noqa: F401

    engine = QQmlApplicationEngine()
    engine.loadData(QByteArray(qml), QUrl("planted.qml"))
    window = engine.rootObjects()[0]
    return engine, window


def test_the_checker_catches_planted_problems(qapp, qtbot) -> None:
    engine, window = _load(PLANTED)
    qtbot.waitExposed(window, timeout=3000)
    problems = check_window(window)
    found = {(p.kind, p.where.split(" ")[0]) for p in problems}
    assert ("overlap", "first") in found
    assert ("small target", "tiny") in found  # 400 wide: a phone
    assert ("elided", "cut") in found
    assert ("contrast", "pale") in found
    assert ("clipped", "spill") in found
    assert not any(p.where.startswith("fine") for p in problems)
    window.close()
    del engine


SCROLLING = b"""
import QtQuick
import QtQuick.Controls.Basic
Window {
    width: 400; height: 300; visible: true; color: "#ffffff"
    Flickable {
        objectName: "form"; x: 0; y: 0; width: 400; height: 300; clip: true
        contentHeight: 500
        Button { objectName: "below"; x: 10; y: 400; width: 200; height: 56; text: "Join" }
    }
    Flickable {
        objectName: "stuck"; x: 0; y: 250; width: 400; height: 100; clip: true
        contentHeight: 100
        Button { objectName: "cut"; x: 220; y: 20; width: 150; height: 56; text: "Stuck" }
    }
}
"""


def test_a_control_in_a_page_that_scrolls_is_not_cut_one_that_cannot_scroll_is(qapp, qtbot) -> None:
    """A form taller than its page (a small phone at a large text size) scrolls its controls
    into sight: not a problem. A page that cannot scroll, or runs off the window, excuses
    nothing."""
    engine, window = _load(SCROLLING)
    qtbot.waitExposed(window, timeout=3000)
    found = {(p.kind, p.where.split(" ")[0]) for p in check_window(window)}
    assert not any(where == "below" for _, where in found), found
    assert ("clipped", "cut") in found
    window.close()
    del engine


CARDS = b"""
import QtQuick
import QtQuick.Controls.Basic
Window {
    width: 400; height: 700; visible: true; color: "#ffffff"
    Button { objectName: "first"; x: 10; y: 10; width: 120; height: 60; text: "One" }
    Button { objectName: "second"; x: 60; y: 40; width: 120; height: 60; text: "Two" }
    Popup {
        objectName: "card"; modal: true; x: 20; y: 200; width: 300; height: 200
        background: Rectangle { color: "#203020" }
        Button { objectName: "onCard"; x: 10; y: 10; width: 200; height: 56; text: "Close" }
    }
}
"""


def test_an_open_card_is_checked_alone(qapp, qtbot) -> None:
    """The page is checked while no card is open; a modal card that opens is the only thing
    checked while it is (the page behind it is inert)."""
    engine, window = _load(CARDS)
    qtbot.waitExposed(window, timeout=3000)
    found = {(p.kind, p.where.split(" ")[0]) for p in check_window(window)}
    assert ("overlap", "first") in found
    card = window.findChild(QObject, "card")
    card.setProperty("visible", True)
    qtbot.waitUntil(lambda: card.property("opened"), timeout=3000)
    assert check_window(window) == []
    window.close()
    del engine


def test_contrast_ratio_matches_wcag() -> None:
    assert round(contrast_ratio((0, 0, 0), (255, 255, 255)), 1) == 21.0
    assert contrast_ratio((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)


@pytest.mark.timeout(400)  # 10 scenes x (5 phones + 4 desktops x 3 modes): about 40 s alone
def test_every_solo_scene_is_clean_at_every_size(qapp) -> None:
    """The phones in phone mode (touch, each size's own insets, one mode) meet the design goals
    too; the desktops in their three window modes."""
    lines: list[str] = []
    problems = run_check(SIZES, solo_scenes=SCENES, online_scenes=(), out=lines.append)
    assert problems == 0, "\n".join(lines)
    phones = [s for s in SIZES if min(s) < PHONE_SIDE]
    assert lines[-1] == (
        f"layout: {len(SCENES)} scenes × ({len(phones)} phone sizes in phone mode + "
        f"{len(SIZES) - len(phones)} desktop sizes × {len(WINDOW_MODES)} window modes), "
        "0 problems"
    )
    design = [line for line in lines if ": design: " in line]
    assert len(design) == len(SCENES) * (len(phones) + (len(SIZES) - len(phones)) * 3)
    sideways = [line for line in design if line.startswith("point-reduction 844x390 phone:")]
    assert len(sideways) == 1 and "btnRoll" in sideways[0] and "in the thumb zone" in sideways[0]


def test_every_online_scene_is_clean_on_phones(qapp, tmp_path, monkeypatch) -> None:
    """The phones in phone mode (touch, each size's own insets, one mode: issue 39) meet the
    design goals; the desktop's three window modes are checked by the next test."""
    from pointline.gui.online.texts import ONLINE_SCENES

    monkeypatch.setenv("POINTLINE_DATA_DIR", str(tmp_path / "data"))
    sizes = [(360, 640), (844, 390)]
    lines: list[str] = []
    problems = run_check(sizes, solo_scenes=(), online_scenes=ONLINE_SCENES, out=lines.append)
    assert problems == 0, "\n".join(lines)
    assert lines[-1] == (
        f"layout: {len(ONLINE_SCENES)} scenes × (2 phone sizes in phone mode), 0 problems"
    )
    design = {line.split(": design: ")[0]: line for line in lines if ": design: " in line}
    for scene in ONLINE_SCENES:  # every text on a phone at 11 pt at least, read at 4.5:1
        for size in ("360x640", "844x390"):
            figures = design[f"{scene} {size} phone"]
            smallest = float(figures.split("smallest text ")[1].split(" pt")[0])
            lowest = float(figures.split("lowest contrast ")[1].split(":1")[0])
            assert smallest >= 11 and lowest >= 4.5, figures
    # the main action of the table, the lobby and the results under the thumb, both ways
    for scene, main in (
        ("online-table", "btnRoll"),
        ("online-lobby", "btnStart"),
        ("online-results", "btnBackToLobby"),
    ):
        for size in ("360x640", "844x390"):
            figures = design[f"{scene} {size} phone"]
            assert f"main action {main} at" in figures and "in the thumb zone" in figures, figures


PHONE_SIDEWAYS = b"""
import QtQuick
import QtQuick.Controls.Basic
Window {
    width: 844; height: 390; visible: true; color: "#0b2e20"
    Rectangle { objectName: "felt"; property string designRole: "felt"
                x: FELT_X; y: 10; width: FELT_W; height: 340; color: "#1c7a4d" }
    Button { objectName: "roll"; property string designRole: "main"; text: "Roll"
             x: MAIN_X; y: MAIN_Y; width: 120; height: 64 }
    Text { objectName: "note"; x: 620; y: 20; text: "Free fictional points"; color: "white"
           font.pixelSize: NOTE_PX }
    Button { objectName: "menu"; text: "Menu"; x: MENU_X; y: 20; width: 80; height: 48 }
}
"""
GOOD = {
    b"FELT_X": b"120",
    b"FELT_W": b"480",
    b"MAIN_X": b"660",
    b"MAIN_Y": b"280",
    b"NOTE_PX": b"12",
    b"MENU_X": b"60",
}
INSETS = {"top": 0, "right": 47, "bottom": 21, "left": 47}


def _phone_window(**faults: bytes) -> tuple[QQmlApplicationEngine, Any]:
    qml = PHONE_SIDEWAYS
    for key, value in {**GOOD, **{k.encode(): v for k, v in faults.items()}}.items():
        qml = qml.replace(key, value)
    return _load(qml)


@pytest.mark.parametrize(
    ("fault", "kind", "where"),
    [
        ({"FELT_W": b"300"}, "felt", "felt"),  # 300x340 of 750x369: 37%
        ({"MAIN_X": b"360", "MAIN_Y": b"60"}, "thumb", "roll"),  # the middle of the top
        ({"NOTE_PX": b"10"}, "small text", "note"),
        ({"MENU_X": b"10"}, "under a bar", "menu"),  # under the left inset (the notch)
    ],
)
def test_the_checker_catches_planted_design_faults_on_a_phone(
    qapp, qtbot, fault, kind, where
) -> None:
    engine, window = _phone_window()
    qtbot.waitExposed(window, timeout=3000)
    problems, design = measure_window(window, insets=INSETS)
    assert problems == [], problems  # the good layout: every goal met
    assert design.felt_share == pytest.approx(480 * 340 / (750 * 369), abs=0.001)
    assert design.main_in_zone and design.smallest_pt == 12
    window.close()
    del engine
    engine, window = _phone_window(**fault)
    qtbot.waitExposed(window, timeout=3000)
    found = [(p.kind, p.where) for p in check_window(window, insets=INSETS)]
    assert (kind, where) in found and {k for k, _ in found} == {kind}  # (and a button's label)
    # a desktop window of the same size has no phone goals: only what it shares (a notch has
    # no meaning there)
    assert [p for p in check_window(window, goals=False) if p.kind == kind] == []
    window.close()
    del engine


def test_the_thumb_zone_is_the_outer_quarters_low_sideways_and_the_bottom_third_upright() -> None:
    assert in_thumb_zone(0.9, 0.8, landscape=True) and in_thumb_zone(0.1, 0.5, landscape=True)
    assert not in_thumb_zone(0.5, 0.8, landscape=True)  # the middle column
    assert not in_thumb_zone(0.9, 0.3, landscape=True)  # too high
    assert in_thumb_zone(0.5, 0.7, landscape=False)
    assert not in_thumb_zone(0.5, 0.6, landscape=False)


TEXT_OVER_TEXT = b"""
import QtQuick
Window {
    width: 600; height: 400; visible: true; color: "#203020"
    Text { objectName: "under"; x: 10; y: 10; text: "after throw 8: 860"; color: "white" }
    Text { objectName: "over"; x: 30; y: 14; text: "start 1,000"; color: "white" }
    Text { objectName: "alone"; x: 10; y: 200; text: "Nothing near me"; color: "white" }
}
"""

DOWN_CHART = b"""
import QtQuick
import Pointline
Window {
    width: 520; height: 220; visible: true; color: "#203020"
    BalanceChart {
        objectName: "chart"; anchors.fill: parent; fs: 16; start: 1000
        samples: [1000, 990, 970, 950, 930, 900, 880, 870, 860]
    }
}
"""

MOVING = b"""
import QtQuick
import QtQuick.Controls.Basic
Window {
    width: 400; height: 400; visible: true; color: "#203020"
    property alias status: line.text
    Column {
        width: parent.width
        Text { id: line; objectName: "status"; width: parent.width; wrapMode: Text.WordWrap
               text: "One line"; color: "white" }
        Button { objectName: "mover"; text: "Roll"; width: 100; height: 50 }
    }
}
"""


def test_the_checker_catches_text_over_text_and_a_chart_of_a_losing_session(qapp, qtbot) -> None:
    from pointline.gui.windows import QML_DIR

    engine, window = _load(TEXT_OVER_TEXT)
    qtbot.waitExposed(window, timeout=3000)
    found = {(p.kind, p.where.split(" ")[0]) for p in check_window(window)}
    assert ("text over text", "under") in found or ("text over text", "over") in found
    assert not any(where == "alone" for _, where in found)
    window.close()
    del engine
    import PySide6.QtQuick  # noqa: F401

    engine = QQmlApplicationEngine()
    engine.addImportPath(str(QML_DIR))
    engine.loadData(QByteArray(DOWN_CHART), QUrl("chart.qml"))
    window = engine.rootObjects()[0]
    qtbot.waitExposed(window, timeout=3000)
    last = window.findChild(QObject, "chartLast")
    chart = window.findChild(QObject, "chart")
    # laid out: the chart fills the window and its last label has its text's width
    qtbot.waitUntil(
        lambda: chart.height() == window.height() and last.width() > 0 and last.y() > 0,
        timeout=3000,
    )
    over = [p for p in check_window(window) if p.kind == "text over text"]
    assert over == []
    window.close()
    del engine


def test_the_checker_catches_a_control_that_moves_with_the_status(qapp, qtbot) -> None:
    engine, window = _load(MOVING)
    qtbot.waitExposed(window, timeout=3000)
    moved = moved_controls(
        window,
        lambda: window.setProperty("status", "A status that wraps onto three lines " * 3),
        lambda: window.setProperty("status", "One line"),
    )
    assert [p.kind for p in moved] == ["moved"] and moved[0].where == "mover"
    window.close()
    del engine


def test_every_online_scene_is_clean_on_a_desktop_and_leaves_no_task_pending(tmp_path) -> None:
    """Every online scene at 1280x720 in the three window modes: no problem, and every scene's
    players end with it: no "Task was destroyed but it is pending!"."""
    import os
    import subprocess
    import sys

    script = (
        "from pointline.gui.tools.layoutcheck import run_check\n"
        "raise SystemExit(3 if run_check([(1280, 720)], solo_scenes=()) else 0)\n"
    )
    env = {**os.environ, "POINTLINE_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith(
        f"(1 desktop size × {len(WINDOW_MODES)} window modes), 0 problems"
    ), done.stdout
    assert "Task was destroyed but it is pending" not in done.stderr
    assert "Traceback" not in done.stderr


LINE_OVER_TEXT = b"""
import QtQuick
Window {
    width: 400; height: 300; visible: true; color: "#203020"
    Item {
        objectName: "chart"; x: 0; y: 0; width: 400; height: 300
        // the line as a chart publishes it: x, y pairs in its own coordinates
        property var drawnLine: [10, 290, 200, 20, 390, 150]
        Text { objectName: "crossed"; x: 100; y: 140; text: "start 1,000"; color: "white" }
        Text { objectName: "clear"; x: 10; y: 10; text: "high 1,030"; color: "white" }
    }
}
"""


def test_the_checker_catches_a_line_drawn_through_a_label(qapp, qtbot) -> None:
    engine, window = _load(LINE_OVER_TEXT)
    qtbot.waitExposed(window, timeout=3000)
    found = [p for p in check_window(window) if p.kind == "line over text"]
    assert [p.where for p in found] == ["crossed"]
    window.close()
    del engine


UNEVEN = b"""
import QtQuick
Window {
    width: 400; height: 300; visible: true; color: "#203020"
    component Box: Rectangle {
        property string rules: ""
        property bool roomy: true
        width: 380; height: 100; color: "#135c3b"
        Text { x: 10; y: 10; text: "LINE"; color: "white" }
        Text { x: 10; y: 60; visible: parent.roomy; text: parent.rules; color: "white" }
    }
    Column {
        x: 10; y: 10; spacing: 10
        Box { objectName: "first"; rules: "WINS ON 7 OR 11" }
        Box { objectName: "second"; rules: "WINS ON 2 OR 3, BAR 12"; roomy: false }
        Box { objectName: "third"; rules: "" }
    }
}
"""


def test_the_checker_catches_a_text_one_sibling_leaves_out(qapp, qtbot) -> None:
    """Two boxes of one type, both with rules to show: the second hides its own."""
    engine, window = _load(UNEVEN)
    qtbot.waitExposed(window, timeout=3000)
    found = [p for p in check_window(window) if p.kind == "uneven"]
    assert len(found) == 1 and "WINS ON 2 OR 3" in found[0].where
    second = window.findChild(QObject, "second")
    second.setProperty("roomy", True)
    assert [p for p in check_window(window) if p.kind == "uneven"] == []
    window.close()
    del engine


JUMPING = b"""
import QtQuick
Window {
    id: root
    width: 400; height: 400; visible: true; color: "#203020"
    property alias title: heading.text
    property bool reserved: false
    component LineArea: Rectangle { color: "#135c3b" }
    Column {
        width: parent.width
        Text {
            id: heading; width: parent.width; wrapMode: Text.WordWrap; text: "Come-out"
            color: "white"; font.pixelSize: 20
            height: root.reserved ? 60 : implicitHeight
        }
        LineArea { objectName: "linePass"; width: parent.width; height: 100 }
    }
}
"""


def test_the_checker_catches_a_line_area_that_jumps_with_the_title(qapp, qtbot) -> None:
    engine, window = _load(JUMPING)
    qtbot.waitExposed(window, timeout=3000)
    long = "Hand 3 resolved, place chips for hand 4 " * 2
    change = [
        (
            "the title is long",
            lambda: window.setProperty("title", long),
            lambda: window.setProperty("title", "Come-out"),
        )
    ]
    jumped = steady_areas(window, change)
    assert [(p.kind, p.where) for p in jumped] == [("jumped", "linePass")]
    assert "when the title is long" in jumped[0].detail
    window.setProperty("reserved", True)  # the title keeps its lines whatever it says
    assert steady_areas(window, change) == []
    window.close()
    del engine


MODES = b"""
import QtQuick
Window {
    width: 400; height: 300; visible: true; color: "#203020"
    Text {
        objectName: "footer"; x: 10; y: 10; width: 300; color: "white"; elide: Text.ElideRight
        text: "Esc pauses" + (modes.windowMode === "fullscreen"
                              ? ", the Window button leaves fullscreen and much more" : "")
    }
}
"""


class _Modes(QObject):
    """A bridge's window mode, and no table (``isOver``): what the mode rule needs."""

    from PySide6.QtCore import Property, Signal, Slot

    changed = Signal()
    isOver = True

    def __init__(self) -> None:
        super().__init__()
        self._mode = "standard"

    windowMode = Property(str, lambda self: self._mode, notify=changed)

    @Slot(str)
    def setWindowMode(self, mode: str) -> None:
        self._mode = mode
        self.changed.emit()


def test_the_checker_checks_every_window_mode(qapp, qtbot) -> None:
    """A text cut only in Fullscreen is found: each mode is checked at the size asked for."""
    import PySide6.QtQuick  # noqa: F401

    from pointline.gui.tools.layoutcheck import _check_sizes

    modes = _Modes()
    engine = QQmlApplicationEngine()
    engine.rootContext().setContextProperty("modes", modes)
    engine.loadData(QByteArray(MODES), QUrl("modes.qml"))
    window = engine.rootObjects()[0]
    qtbot.waitExposed(window, timeout=3000)
    seen: list[tuple[str, tuple[int, int], str]] = []

    def report(
        scene: str, size: tuple[int, int], mode: str, problems: list[Any], design: Any = None
    ) -> None:
        seen.extend((mode, (window.width(), window.height()), p.kind) for p in problems)

    _check_sizes("planted", window, [(400, 300)], WINDOW_MODES, report, modes)
    assert seen == [("fullscreen", (400, 300), "elided")]
    window.close()
    del engine


def test_the_text_size_asked_for_scales_the_table(qapp, qtbot, monkeypatch) -> None:
    """POINTLINE_FONT_SCALE (what the layout check runs at) is read once per bridge, only within
    gui.device.FONT_SCALES; the table's texts grow with it, a phone's 15 px floor included."""
    from PySide6.QtQuick import QQuickItem

    from pointline.gui.app import load
    from pointline.gui.bridge import TableBridge
    from pointline.gui.device import font_scale
    from pointline.gui.tools.phone import profile_env

    for raw, want in (("1.3", 1.3), ("", 1.0), ("big", 1.0), ("9", 1.0), ("0.5", 1.0)):
        monkeypatch.setenv("POINTLINE_FONT_SCALE", raw)
        assert font_scale() == want, raw
    sizes: dict[str, float] = {}
    for raw in ("1", "1.3"):
        monkeypatch.setenv("POINTLINE_FONT_SCALE", raw)
        with profile_env((844, 390)):  # a phone on its side
            bridge = TableBridge()
        assert bridge.fontScale == float(raw)
        loaded = load(bridge, (844, 390))
        qtbot.waitExposed(loaded.window, timeout=5000)
        title = loaded.window.findChild(QQuickItem, "feltTitle")
        sizes[raw] = float(title.property("font").pixelSize())
        loaded.window.close()
        loaded.engine.deleteLater()
    assert sizes["1.3"] >= sizes["1"] * 1.25, sizes


TEXT_130 = 1.3
"""The larger system text size the phones are checked at (Android's "Font size" largest
step, iOS's Dynamic Type a step or two up)."""
SCENES_130 = ("come-out-draft", "point-reduction", "result-moment")
"""The scenes where a larger text size once cut or crowded something: the chip rail sideways
(come-out), a refund badge beside a line's title and a throw's outcome badge (upright)."""


@pytest.mark.timeout(300)
def test_the_phones_are_clean_at_130_percent_text(qapp) -> None:
    """Issue 39: the app follows the system's text size and still lays out at 130%: the
    phone sizes both ways, in phone mode with their insets (``--font-scale 1.3``): the iPhone and
    the small Android phone (360x640 and 640x360, where the content once overflowed the safe
    area, the lines were 33 px tall and the point boxes overlapped beside the dice)."""
    lines: list[str] = []
    sizes = [(844, 390), (390, 844), (360, 640), (640, 360)]
    problems = run_check(sizes, SCENES_130, online_scenes=(), out=lines.append, font_scale=TEXT_130)
    assert problems == 0, "\n".join(lines)
    assert lines[-1] == (
        f"layout: {len(SCENES_130)} scenes × (4 phone sizes in phone mode) at 130% text, 0 problems"
    )
    with pytest.raises(ValueError):
        run_check(sizes, SCENES_130, online_scenes=(), out=lines.append, font_scale=3.0)


@pytest.mark.timeout(300)
def test_the_130_percent_pass_catches_a_title_cut_only_at_130_percent(
    qapp, tmp_path, monkeypatch
) -> None:
    """A planted fault: a line's title given two thirds of its text column (as before issue 39's
    fix) fits at 100% and is cut at 130% beside a refund badge; only the 130% pass says so."""
    import shutil

    import pointline.gui.windows as windows

    qml = tmp_path / "qml"
    shutil.copytree(windows.QML_DIR, qml)
    area = qml / "Pointline" / "LineArea.qml"
    source = area.read_text(encoding="utf-8")
    planted = {  # the amounts always beside the title, the title in two thirds of the rest
        "readonly property bool amountsBeside: compact && amountsWords.length > 0 && "
        "titleRoomBeside >= titleLeast.advanceWidth + 2": "readonly property bool "
        "amountsBeside: compact && amountsWords.length > 0",
        "width: area.amountsBeside ? Math.min(implicitWidth, area.titleRoomBeside)": "width: "
        "area.amountsBeside ? Math.min(implicitWidth, area.textWidth * 0.66)",
    }
    for good, bad in planted.items():
        assert good in source, good
        source = source.replace(good, bad)
    area.write_text(source, encoding="utf-8")
    monkeypatch.setattr(windows, "QML_DIR", qml)
    found: dict[float, list[str]] = {}
    for scale in (1.0, TEXT_130):
        lines: list[str] = []
        run_check([(390, 844)], ("point-reduction",), (), lines.append, font_scale=scale)
        found[scale] = [line for line in lines if ": design: " not in line][:-1]
    assert found[1.0] == [], found[1.0]
    assert found[TEXT_130] == [
        'point-reduction 390x844 phone: elided: QQuickText "DON\'T PASS BAR": the text is cut short'
    ], found[TEXT_130]
