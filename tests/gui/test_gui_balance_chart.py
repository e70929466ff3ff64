"""Stats' chart of a session's points (issue 39): it spans at least a tenth of the start each
way (±100 around 1,000), so one lost chip is a small step, not a cliff, and a session that
swings further is drawn whole."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QByteArray, QObject, QUrl
from PySide6.QtQml import QQmlApplicationEngine

from pointline.gui.windows import QML_DIR
from pointline.kernel import STARTING_POINTS

CHART = """
import QtQuick
import Pointline
Window {
    width: 460; height: 220; visible: true; color: "#203020"
    BalanceChart {
        objectName: "chart"; anchors.fill: parent; fs: 14; start: START; samples: [SAMPLES]
    }
}
"""


def _line(chart: Any) -> list[float]:
    """The chart's line as painted (x, y pairs), as the layout check reads it."""
    value = chart.property("drawnLine")
    return list(value.toVariant() if hasattr(value, "toVariant") else value or [])


@pytest.mark.parametrize(
    ("samples", "lo", "hi"),
    [
        ((1000, 990), 900, 1100),  # one lost chip: the ±100 frame, the line near the middle
        ((1000, 1000), 900, 1100),  # a session that sat out
        ((1000, 1200, 760), 760, 1200),  # beyond the frame: the whole session drawn
    ],
)
def test_the_chart_spans_at_least_a_tenth_of_the_start_each_way(
    qapp: Any, qtbot: Any, samples: tuple[int, ...], lo: int, hi: int
) -> None:
    import PySide6.QtQuick  # noqa: F401

    assert STARTING_POINTS == 1000  # the figures above are for the card's start
    engine = QQmlApplicationEngine()
    engine.addImportPath(str(QML_DIR))
    qml = CHART.replace("START", str(STARTING_POINTS)).replace(
        "SAMPLES", ", ".join(map(str, samples))
    )
    engine.loadData(QByteArray(qml.encode()), QUrl("chart.qml"))
    window = engine.rootObjects()[0]
    try:
        chart = window.findChild(QObject, "chart")
        assert (chart.property("lo"), chart.property("hi")) == (lo, hi)
        qtbot.waitUntil(lambda: len(_line(chart)) == 2 * len(samples))
        ys = _line(chart)[1::2]
        drop = abs(ys[-1] - ys[0]) / chart.height()
        if samples == (1000, 990):
            assert drop < 0.1, drop  # a step, not a cliff
    finally:
        window.close()
        del engine
