"""A held key acts once: key auto-repeat never submits anything, on any platform.

``AutoRepeatGuard`` is an event filter installed on every Pointline window. It swallows the
repeats of the keys that act (Space, Enter, Return, Backspace, Delete, Escape, F1, M, R and
Android's Back) before any QML handler, Shortcut or focused button sees them; held arrow keys
still move the selection. One guard serves the solo and the online windows, and it is the one
place that decides: QML handlers do not look at ``isAutoRepeat`` themselves.

A repeat reaches a window in one of two shapes:

* a press (or a release and a press) that the platform flags as auto-repeated: Windows, macOS,
  Android and Wayland flag every repeat, and X11 does when Qt finds the pair in time;
* on X11, a release and a press that are *not* flagged. The X server repeats a held key by
  sending a release and a press with the same server time; Qt's xcb backend flags them only if
  the press is already in its event queue when it reads the release, and on a loaded machine it
  often is not (measured under Xvfb with two CPU hogs: every repeat of a held Return came
  unflagged, and one five-second hold threw 12 to 17 times).

So the guard does not rest on the flag alone. A press of an acting key that follows a release
of the same key within ``PAIR_MS`` of event time, after the key had been down for at least
``HELD_MS``, is the second half of a repeat and is dropped: the key is still held. A finger
cannot release and press a key again within a few milliseconds, and no keyboard repeats a key
sooner than ``HELD_MS`` after it went down; a program's instant clicks (press and release in
the same millisecond, as Qt's own test clicks are) are never taken for a repeat. The release
itself is delivered at once: a focused button that clicks on Space's release clicks once, at the
first repeat, and the later real release finds nothing pressed. (Holding each release back until
its press could come would make every click wait on a timer, for no action saved.)
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent

__all__ = ["ACTING_KEYS", "HELD_MS", "PAIR_MS", "AutoRepeatGuard", "guard_auto_repeat"]

ACTING_KEYS = frozenset(
    {
        Qt.Key.Key_Space,
        Qt.Key.Key_Return,
        Qt.Key.Key_Enter,
        Qt.Key.Key_Backspace,
        Qt.Key.Key_Delete,
        Qt.Key.Key_Escape,
        Qt.Key.Key_F1,
        Qt.Key.Key_M,
        Qt.Key.Key_R,
        Qt.Key.Key_Back,
    }
)

PAIR_MS = 3
"""A release and a press of one key this close in event time can be one auto-repeat (X gives
both the same server time)."""

HELD_MS = 50
"""How long a key must have been down before a release/press pair of it can be a repeat
(keyboards wait 100 ms or more before the first repeat; X's default is 660 ms)."""

_KEY_EVENTS = (QEvent.Type.KeyPress, QEvent.Type.KeyRelease, QEvent.Type.ShortcutOverride)


class AutoRepeatGuard(QObject):
    """Drops the repeats of the acting keys; counts the presses and releases it dropped."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.dropped = 0
        self._down: dict[int, int] = {}  # key -> time stamp of the press that acted
        self._released: dict[int, int] = {}  # key -> time stamp of its last release

    def _is_repeat_press(self, event: QKeyEvent) -> bool:
        if event.isAutoRepeat():
            return True
        key, stamp = event.key(), event.timestamp()
        down, released = self._down.get(key), self._released.get(key)
        return (
            down is not None
            and released is not None
            and 0 <= stamp - released <= PAIR_MS
            and released - down >= HELD_MS
        )

    def _pressed(self, key: int, stamp: int) -> None:
        self._down[key] = stamp
        self._released.pop(key, None)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in _KEY_EVENTS or not isinstance(event, QKeyEvent):
            return False
        key = event.key()
        if Qt.Key(key) not in ACTING_KEYS:
            return False
        if kind == QEvent.Type.ShortcutOverride:  # before the press: a Shortcut may take it
            if self._is_repeat_press(event):
                event.accept()  # accepted: no Shortcut fires; the press that follows is dropped
                return True
            self._pressed(key, event.timestamp())
            return False
        if kind == QEvent.Type.KeyPress:
            if self._is_repeat_press(event):
                self.dropped += 1
                return True
            self._pressed(key, event.timestamp())
            return False
        if event.isAutoRepeat():  # a flagged repeat's release
            self.dropped += 1
            return True
        self._released[key] = event.timestamp()
        return False


def guard_auto_repeat(window: QObject) -> AutoRepeatGuard:
    """Install the guard on ``window`` (it lives as long as the window)."""
    guard = AutoRepeatGuard(window)
    window.installEventFilter(guard)
    return guard
