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


def _history_slivers(ui) -> list[str]:
    """Rows and headings of the history of which only a part shows: inside the list, outside
    the pinned heading (a heading's inline copy counts as a row)."""
    view = ui.item("historyList")
    top, bottom = _scene_span(view)
    children = [c for c in view.property("contentItem").childItems() if c.isVisible()]
    spans = [(c, *_scene_span(c)) for c in children if c.height() > 0]
    pinned = [s for s in spans if s[0].objectName() == "handHeading" and abs(s[1] - top) < 0.5]
    assert pinned, "no hand heading pinned at the top of the list"
    covered = max(s[2] for s in pinned)
    slivers = []
    for item, y0, y1 in spans:
        if any(item is s[0] for s in pinned):
            continue
        shown = max(0.0, min(y1, bottom) - max(y0, covered))
        if 0.5 < shown < (y1 - y0) - 0.5:
            text = item.property("text") or "Hand " + str(item.property("section"))
            slivers.append(f"{text!r}: {shown:.0f} of {y1 - y0:.0f} px shown")
    return slivers


def _scene_span(item) -> tuple[float, float]:
    r = item.mapRectToScene(QRectF(0, 0, item.width(), item.height()))
    return r.y(), r.y() + r.height()


@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
def test_the_pinned_hand_heading_never_shows_a_sliver_of_a_row(make_ui, size) -> None:
    """A whole session on a phone: after every throw the history rests at its end with each
    row either whole or out of sight, none cut by the pinned heading (#20)."""
    ui = make_ui(size=size, label=b"hist")
    b = ui.bridge
    scrolled = 0
    while b.phase in ("come_out", "point"):
        if b.phase == "come_out":
            b.selectLine("pass")
            assert b.act("allocate")
            assert b.act("confirm")
        else:
            assert b.act("roll")
        ui.frames(2)  # the list has taken the new rows and come to rest
        if ui.item("historyList").property("contentHeight") > ui.item("historyList").height():
            assert _history_slivers(ui) == [], f"after throw {b.throws}"
            scrolled += 1
    assert scrolled >= 3, "the history never grew past its panel"
