"""Geometry: no two visible controls overlap and none is clipped, landscape and portrait."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QRectF

from tests.gui.support import BUTTON_ORDER

SIZES = ((844, 390), (1280, 720), (390, 844), (360, 640), (2560, 1440))
PARTS = (
    "stats",
    "puck",
    "dice",
    "linePass",
    "lineDontPass",
    "resultView",
    "liveText",
    "history",
    "footer",
)


def _rect(ui, name: str) -> QRectF:
    item = ui.item(name)
    return item.mapRectToScene(QRectF(0, 0, item.width(), item.height()))


def _check(ui, w: int, h: int) -> None:
    names = [n for n in (*PARTS, *BUTTON_ORDER) if ui.item(n).isVisible()]
    action = "btnRoll" if ui.bridge.phase == "point" else "btnAllocate"
    assert {action, "btnReset", "history", "footer", "puck", "dice"} <= set(names)
    window = QRectF(0, 0, w, h)
    rects = {n: _rect(ui, n) for n in names}
    for name, r in rects.items():
        assert r.width() > 0 and r.height() > 0, f"{name} has no size at {w}x{h}"
        assert window.adjusted(-0.5, -0.5, 0.5, 0.5).contains(r), f"{name} {r} clipped at {w}x{h}"
    for (a, ra), (b, rb) in itertools.combinations(rects.items(), 2):
        overlap = ra.intersected(rb)
        assert overlap.width() < 0.5 or overlap.height() < 0.5, f"{a} overlaps {b} at {w}x{h}"
    for name in BUTTON_ORDER:
        button = ui.item(name)
        if not button.isVisible():
            continue  # the other phase's actions
        assert button.height() >= 44 and button.width() >= 44, f"{name} under 44 px at {w}x{h}"
        label = button.property("contentItem")
        assert not label.property("truncated"), f"{name} label cut at {w}x{h}"
        assert label.property("contentHeight") <= label.height() + 1, f"{name} label clipped"
    footer = ui.item("footer")
    assert footer.property("implicitHeight") <= footer.height() + 1, f"footer clipped at {w}x{h}"
    for line in ("linePass", "lineDontPass"):
        if ui.item(line).isVisible():
            assert ui.item(line).height() >= 44, f"{line} too small at {w}x{h}"


@pytest.mark.parametrize("scene", [None, "point-reduction", "result"])
def test_no_overlap_or_clipping_at_every_size(make_ui, scene) -> None:
    ui = make_ui(size=SIZES[0], scene=scene)
    for w, h in SIZES:
        ui.resize(w, h)
        _check(ui, w, h)
