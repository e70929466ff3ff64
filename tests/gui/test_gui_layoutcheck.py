"""The layout checker catches what it claims to, and the solo table passes it at every size."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QByteArray, QUrl
from PySide6.QtQml import QQmlApplicationEngine

from pointline.gui.layoutcheck import SIZES, check_window, contrast_ratio, run_check
from pointline.gui.scenes import SCENES

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


def test_contrast_ratio_matches_wcag() -> None:
    assert round(contrast_ratio((0, 0, 0), (255, 255, 255)), 1) == 21.0
    assert contrast_ratio((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)


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
