"""What the GUI tests share by name: the wait bound, the tab order of the table's controls, and a
manual clock. A plain module (not a conftest): test files import from it.

It imports nothing of Qt, so tests that run the app in a subprocess can use it too.
"""

from __future__ import annotations

from typing import Any

WAIT_MS = 3000

BUTTON_ORDER = (
    "chip10",
    "chip50",
    "chip100",
    "btnAllocate",
    "btnConfirm",
    "btnRepeat",
    "btnReduce",
    "btnRemove",
    "btnRoll",
    "btnReset",
    "btnHelp",
    "btnMute",
    "btnWindow",
    "btnOnline",
    "btnNew",
)


class ManualClock:
    """A ``Clock`` (gui/clock.py) whose beats the test fires: no test waits for a duration."""

    def __init__(self) -> None:
        self.callback: Any = None
        self.paused = False
        self.started: list[int] = []

    def start(self, ms: int, callback: Any) -> None:
        self.callback = callback
        self.started.append(ms)

    def stop(self) -> None:
        self.callback = None

    def pause(self) -> None:
        self.paused = True

    def resume(self) -> None:
        self.paused = False

    @property
    def pending(self) -> bool:
        return self.callback is not None

    def advance(self) -> bool:
        """Fire the pending beat, unless paused; whether one fired."""
        if self.paused or self.callback is None:
            return False
        callback, self.callback = self.callback, None
        callback()
        return True
