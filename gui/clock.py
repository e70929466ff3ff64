"""The clock a table's result moment runs on: one pending beat that can be paused.

``Clock`` is what a bridge needs; ``QtClock`` runs it on a single-shot ``QTimer``. A test may
pass its own ``Clock`` and fire the beats when its conditions hold, so no test waits for a
wall-clock duration.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QObject, QTimer

__all__ = ["Clock", "QtClock"]


class Clock(Protocol):
    """One pending callback at a time; ``pause`` freezes it, ``resume`` lets it run out."""

    def start(self, ms: int, callback: Callable[[], None]) -> None: ...

    def stop(self) -> None: ...

    def pause(self) -> None: ...

    def resume(self) -> None: ...

    @property
    def pending(self) -> bool: ...


class QtClock:
    """A ``Clock`` on a single-shot QTimer owned by ``parent``."""

    def __init__(self, parent: QObject | None = None) -> None:
        self._timer = QTimer(parent)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._fire)
        self._callback: Callable[[], None] | None = None
        self._left = -1
        """Milliseconds left on a paused beat (-1: not paused)."""

    def _fire(self) -> None:
        callback, self._callback = self._callback, None
        if callback is not None:
            callback()

    def start(self, ms: int, callback: Callable[[], None]) -> None:
        self._callback = callback
        self._left = -1
        self._timer.start(ms)

    def stop(self) -> None:
        self._timer.stop()
        self._callback = None
        self._left = -1

    def pause(self) -> None:
        if self._timer.isActive():
            self._left = max(0, self._timer.remainingTime())
            self._timer.stop()

    def resume(self) -> None:
        if self._left >= 0 and self._callback is not None:
            self._timer.start(self._left)
        self._left = -1

    @property
    def pending(self) -> bool:
        return self._callback is not None
