"""Fixtures for the real QML table, offscreen: an engine per test, key and mouse helpers."""

from __future__ import annotations

import math
import os
import time

os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ.setdefault("QT_API", "pyside6")
os.environ["QT_QUICK_CONTROLS_STYLE"] = "Basic"
os.environ["QT_LOGGING_RULES"] = "qt.multimedia*=false;qt.qpa.*=false"

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, QPointF, QSettings, Qt
from PySide6.QtQuick import QQuickItem
from PySide6.QtTest import QTest

from pointline.gui.app import load
from pointline.gui.bridge import TableBridge
from pointline.gui.keys import PAIR_MS
from pointline.gui.tools.scenes import counter_nonces, prepare
from tests.gui.support import BUTTON_ORDER, WAIT_MS, ManualClock


@dataclass
class Ui:
    """A loaded table: the bridge, the QQuickWindow and helpers to drive it like a person."""

    bridge: TableBridge
    window: Any
    engine: Any
    qtbot: Any
    _released: float = field(default=0.0, init=False, repr=False)  # the last key's release

    def item(self, name: str) -> QQuickItem:
        found = self.window.findChild(QObject, name)
        assert found is not None, f"no item named {name}"
        return found

    def focus_name(self) -> str:
        item = self.window.activeFocusItem()
        return "" if item is None else item.objectName()

    def settle(self) -> None:
        """Deliver what an input posted (focus moves, deferred calls): no time passes."""
        QCoreApplication.processEvents()

    def frames(self, count: int = 1) -> None:
        """Wait until ``count`` new frames are drawn: the scene is polished and laid out, and
        an animation that runs would have moved on."""
        for _ in range(count):
            with self.qtbot.waitSignal(self.window.frameSwapped, timeout=WAIT_MS):
                self.window.update()

    def key(
        self, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
    ) -> None:
        """Press and release ``key`` as a person does: never again within ``PAIR_MS`` of the
        last release. QTest stamps each event with the time it is sent, so a press that took a
        loaded machine more than ``HELD_MS`` to handle, followed at once by the next press, had
        exactly the stamps of a held key's repeat, and gui/keys.py dropped it (1 run in 60)."""
        gap = PAIR_MS + 2 - (time.monotonic() - self._released) * 1000
        if gap > 0:
            QTest.qWait(math.ceil(gap))
        QTest.keyClick(self.window, key, modifier)
        self._released = time.monotonic()
        self.settle()

    def center(self, name: str) -> QPoint:
        item = self.item(name)
        p = item.mapToScene(QPointF(item.width() / 2, item.height() / 2))
        return QPoint(round(p.x()), round(p.y()))

    def click(self, name: str) -> None:
        """Click the centre of ``name`` where it is drawn: a frame first, so a button that a
        state change has just shown or moved is laid out before its centre is read (under load
        the layout's polish can lag behind the state that changed it)."""
        item = self.item(name)
        assert item.isVisible(), f"{name} is not visible"
        self.frames()
        QTest.mouseClick(
            self.window,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
            self.center(name),
        )
        self.settle()

    def resize(self, w: int, h: int) -> None:
        self.window.resize(w, h)
        self.qtbot.waitUntil(
            lambda: self.window.width() == w and self.window.height() == h, timeout=WAIT_MS
        )
        self.frames()  # drawn at the new size: laid out

    def legal_buttons(self) -> list[str]:
        return [n for n in BUTTON_ORDER if self.item(n).isEnabled() and self.item(n).isVisible()]


@pytest.fixture
def make_ui(qapp: Any, qtbot: Any, tmp_path: Any) -> Iterator[Any]:
    made: list[Ui] = []

    def make(
        size: tuple[int, int] = (1280, 720),
        scene: str | None = None,
        label: bytes = b"test",
        motion: bool = False,
        clock: ManualClock | None = None,
    ) -> Ui:
        """A table; ``motion=False`` (reduce motion) shows each throw's result at once;
        ``clock``: the result moment's beats fire when the test says."""
        settings = QSettings(str(tmp_path / f"settings{len(made)}.ini"), QSettings.Format.IniFormat)
        settings.setValue("reduceMotion", not motion)
        extra = {} if clock is None else {"clock": clock}
        bridge = TableBridge(counter_nonces(label), settings=settings, **extra)
        if scene is not None:
            prepare(bridge, scene)
        loaded = load(bridge, size)
        window = loaded.window
        window.show()
        window.requestActivate()
        qtbot.waitUntil(lambda: window.isExposed() and window.isActive(), timeout=WAIT_MS)
        ui = Ui(bridge, window, loaded.engine, qtbot)
        qtbot.waitUntil(lambda: ui.focus_name() == "tableArea", timeout=WAIT_MS)
        made.append(ui)
        return ui

    yield make
    for ui in made:
        ui.window.close()
        ui.engine.deleteLater()
    # Delete the engines while their bridges are still alive, so no binding sees a null bridge.
    qapp.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    qapp.processEvents()
    made.clear()
