"""The countdown a seat sees for its choice: whole seconds left to the protocol's deadline.

A small QObject with one property, ``secondsLeft``, emitted by its setter only when the whole
number changes. Its clock is injected (the app passes the event loop's ``time``, the clock the
protocol's deadlines are kept in); tests pass a clock they move by hand and wait on the
property, so no test sleeps for a second to pass. A ``QTimer`` re-reads the clock while a
deadline is set; nothing else polls.

``nearing`` is the one warning per deadline: emitted once, with the seconds shown, when they first
come down to ``warn_at`` (never for a deadline that starts that near, nor while held), so a
screen reader hears "5 seconds to choose" once, never a tick a second.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import Property, QObject, QTimer, Signal, Slot
from PySide6.QtQml import QmlElement, QmlUncreatable

__all__ = ["Clock", "Countdown"]

QML_IMPORT_NAME = "Pointline.Online"
QML_IMPORT_MAJOR_VERSION = 1

Clock = Callable[[], float]
TICK_MS = 100
"""How often the clock is read while a deadline runs (the shown number changes once a second)."""


@QmlElement
@QmlUncreatable("the online bridge owns the countdown")
class Countdown(QObject):  # type: ignore[operator]  # PySide6 stubs: QmlUncreatable
    """Seconds left to ``deadline`` on ``clock`` (0: none, or hidden while the result shows)."""

    secondsLeftChanged = Signal()
    nearing = Signal(int)
    """The deadline is ``warn_at`` seconds away or less (the seconds shown): once per deadline."""

    def __init__(self, clock: Clock, parent: QObject | None = None, warn_at: int = 0) -> None:
        super().__init__(parent)
        self._clock = clock
        self._warn_at = warn_at
        self._warned = True
        """Whether this deadline's warning is behind us (or it never gets one)."""
        self._deadline: float | None = None
        self._held = False
        self._left = 0
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self.refresh)

    def _set_left(self, value: int) -> None:
        if value != self._left:
            self._left = value
            self.secondsLeftChanged.emit()

    secondsLeft = Property(int, lambda self: self._left, notify=secondsLeftChanged)

    @property
    def clock(self) -> Clock:
        return self._clock

    def set_clock(self, clock: Clock) -> None:
        """Read another clock (a new connection's loop); the shown number follows it."""
        self._clock = clock
        self.refresh()

    def run_to(self, deadline: float | None) -> None:
        """Count down to ``deadline`` (a time on the clock), or stop when None."""
        if deadline != self._deadline:  # a new deadline: warned of only if it starts far off
            self._warned = deadline is None or deadline - self._clock() <= self._warn_at
        self._deadline = deadline
        if deadline is None:
            self._timer.stop()
        elif not self._timer.isActive():
            self._timer.start()
        self.refresh()

    def hold(self, held: bool) -> None:
        """While held (a result moment shows) the countdown is hidden; it resumes after."""
        self._held = held
        self.refresh()

    @Slot()
    def refresh(self) -> None:
        if self._deadline is None or self._held:
            self._set_left(0)
            return
        left = self._deadline - self._clock()
        self._set_left(max(0, math.ceil(left)))
        if not self._warned and 0 < self._left <= self._warn_at:
            self._warned = True
            self.nearing.emit(self._left)
        if left <= 0:
            self._timer.stop()
