"""The rest of a first play's findings on the solo table: chart labels, history wording, the
sound button, leaving fullscreen, large sizes (issue "A table that plays like a finished game")."""

from __future__ import annotations

from PySide6.QtCore import QObject, QPointF, Qt

from tests.gui.support import WAIT_MS

K = Qt.Key


def _chart_labels(ui) -> dict[str, float]:
    """Each chart label's text -> the y of its centre, in the chart's coordinates."""
    chart = ui.item("chart")
    return {
        str(child.property("text")): child.y() + child.height() / 2
        for child in chart.childItems()
        if child.inherits("QQuickText") and child.isVisible()
    }


def test_the_chart_labels_name_the_range_it_is_drawn_against(make_ui) -> None:
    ui = make_ui(scene="result")
    chart = ui.item("chart")
    samples = ui.bridge.chart
    labels = _chart_labels(ui)
    start = "start 1,000"
    assert start in labels
    lo, hi = chart.property("lo"), chart.property("hi")
    assert lo <= min(samples) and hi >= max(samples)  # every sample inside the drawn range
    # The start label sits at the dashed start line, the extremes at the top and bottom.
    y_start = chart.yOf(1000)
    assert abs(labels[start] - (y_start - 8)) < 16
    for value in (lo, hi):
        if value != 1000:
            name = f"{value:,}"
            assert name in labels and abs(labels[name] - chart.yOf(value)) < 2
    assert "low 1,000" not in labels and not any(t.startswith("rank") for t in labels)


def test_history_names_each_hand_and_keeps_it_in_sight(make_ui) -> None:
    ui = make_ui(scene="result")
    rows = ui.bridge.history.rows
    assert rows[0] == {"kind": "hand", "text": "Hand 1", "hand": "1"}
    assert sum(r["kind"] == "hand" for r in rows) == 5
    assert not any("original" in r["text"] for r in rows)
    assert any(r["text"].startswith("Contracts: Pass 30") for r in rows)
    # Scrolled so that a hand's later row is at the top, that hand stays named above it: one
    # heading pinned at the list's top, no second copy of it and no blank row under it.
    history = ui.window.findChild(QObject, "historyList")
    origin = history.property("originY")
    top = -1
    for offset in range(40, int(history.property("contentHeight")), 9):
        history.setProperty("contentY", origin + offset)
        top = history.indexAt(4, origin + offset + 30)
        if top >= 0 and rows[top]["kind"] != "hand":
            break
    assert top >= 0 and rows[top]["kind"] != "hand"
    list_top = history.mapToScene(QPointF(0, 0)).y()

    def pinned() -> list[str]:
        out = []
        stack = [history]
        while stack:
            item = stack.pop()
            stack.extend(item.childItems())
            if item.objectName() == "handHeading" and item.isVisible():
                y = item.mapToScene(QPointF(0, 0)).y()
                if list_top - 1 <= y <= list_top + 1:
                    out.append(item.property("section"))
        return out

    ui.qtbot.waitUntil(lambda: pinned() == [rows[top]["hand"]], timeout=WAIT_MS)


def test_the_sound_button_says_what_it_does(make_ui) -> None:
    ui = make_ui()
    b = ui.bridge
    button = ui.item("btnMute")
    assert button.property("text") == ("Turn sound on (M)" if b.muted else "Mute sound (M)")
    ui.key(K.Key_M)
    assert button.property("text") == ("Turn sound on (M)" if b.muted else "Mute sound (M)")


def test_escape_in_fullscreen_pauses_and_offers_the_way_out(make_ui) -> None:
    ui = make_ui()
    b = ui.bridge
    b.setWindowMode("fullscreen")
    assert "leaves full screen" in ui.item("footer").property("text")
    ui.key(K.Key_Escape)
    assert b.paused
    leave = ui.item("btnLeaveFullscreen")
    assert leave.isVisible()
    ui.click("btnLeaveFullscreen")
    assert b.windowMode == "standard" and b.paused and b.submissions == 0
    b.setWindowMode("theater")
    assert not leave.isVisible()


def test_large_windows_use_larger_type(make_ui) -> None:
    small = make_ui(size=(1280, 720))
    large = make_ui(size=(2560, 1440))
    fs_small = small.window.property("fs")
    fs_large = large.window.property("fs")
    assert fs_large > fs_small * 1.3
    puck = large.item("puck")
    assert puck.width() >= fs_large * 3.1  # the puck keeps its size in its row


def test_an_empty_history_keeps_its_heading_and_hint_at_the_top(make_ui) -> None:
    from PySide6.QtCore import QRectF

    ui = make_ui(size=(844, 390))
    panel = ui.item("history")
    hint = ui.item("historyEmpty")
    top = panel.mapRectToScene(QRectF(0, 0, panel.width(), panel.height())).top()
    hint_top = hint.mapRectToScene(QRectF(0, 0, hint.width(), hint.height())).top()
    assert hint.isVisible() and hint_top - top < ui.window.property("fs") * 4
