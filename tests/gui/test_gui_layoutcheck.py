"""The layout checker catches what it claims to, and the solo table passes it at every size."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QByteArray, QObject, QUrl
from PySide6.QtQml import QQmlApplicationEngine

from pointline.gui.tools.layoutcheck import (
    SIZES,
    check_window,
    contrast_ratio,
    moved_controls,
    run_check,
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


@pytest.mark.timeout(400)  # 10 scenes x 9 sizes: about 50 s alone, longer beside another worker
def test_every_solo_scene_is_clean_at_every_size(qapp) -> None:
    lines: list[str] = []
    problems = run_check(SIZES, solo_scenes=SCENES, online_scenes=(), out=lines.append)
    assert problems == 0, "\n".join(lines)
    assert lines[-1] == f"layout: {len(SCENES)} scenes × {len(SIZES)} sizes, 0 problems"


def test_every_online_scene_is_clean_on_phones_and_a_desktop(qapp, tmp_path, monkeypatch) -> None:
    from pointline.gui.online.texts import ONLINE_SCENES

    monkeypatch.setenv("POINTLINE_DATA_DIR", str(tmp_path / "data"))
    sizes = [(360, 640), (844, 390), (1280, 720)]
    lines: list[str] = []
    problems = run_check(sizes, solo_scenes=(), online_scenes=ONLINE_SCENES, out=lines.append)
    assert problems == 0, "\n".join(lines)


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


def test_the_online_check_leaves_no_task_pending(tmp_path) -> None:
    """Every online scene's players end with it: no "Task was destroyed but it is pending!"."""
    import os
    import subprocess
    import sys

    script = (
        "from pointline.gui.tools.layoutcheck import run_check\n"
        "run_check([(1280, 720)], solo_scenes=(), out=lambda _: None)\n"
    )
    env = {**os.environ, "POINTLINE_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stderr
    assert "Task was destroyed but it is pending" not in done.stderr
    assert "Traceback" not in done.stderr
