"""Key auto-repeat never submits anything: a held key acts once.

``AutoRepeatGuard`` is an event filter installed on every Pointline window. It swallows the
auto-repeated presses and releases of the keys that act (Space, Enter, Return, Backspace,
Delete), before any QML handler, Shortcut or focused button sees them; held arrow keys still
move the selection. One guard serves the solo and the online windows.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent

__all__ = ["ACTING_KEYS", "AutoRepeatGuard", "guard_auto_repeat"]

ACTING_KEYS = frozenset(
    {
        Qt.Key.Key_Space,
        Qt.Key.Key_Return,
        Qt.Key.Key_Enter,
        Qt.Key.Key_Backspace,
        Qt.Key.Key_Delete,
    }
)


class AutoRepeatGuard(QObject):
    """Drops auto-repeated key events of the acting keys; counts what it dropped."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.dropped = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease)
            and isinstance(event, QKeyEvent)
            and event.isAutoRepeat()
            and Qt.Key(event.key()) in ACTING_KEYS
        ):
            self.dropped += 1
            return True
        return False


def guard_auto_repeat(window: QObject) -> AutoRepeatGuard:
    """Install the guard on ``window`` (it lives as long as the window)."""
    guard = AutoRepeatGuard(window)
    window.installEventFilter(guard)
    return guard
