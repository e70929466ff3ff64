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
  often is not (measured under Xvfb: every repeat of a held Return arrived unflagged).

So the guard does not rest on the flag alone. It holds each release of an acting key back for a
short grace (``RELEASE_GRACE_MS``); a press of the same key with the same time stamp (within
``PAIR_MS``) that follows it is the other half of a repeat, and both are dropped: the key is
still held. Otherwise the release is delivered when the grace ends, or at once before any other
key event, so the order of keys is kept. A press that pairs with a release already delivered
(the grace ended first, the machine was that slow) is still dropped by its time stamp. A real
finger cannot release and press a key again within ``PAIR_MS``.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent

__all__ = ["ACTING_KEYS", "PAIR_MS", "RELEASE_GRACE_MS", "AutoRepeatGuard", "guard_auto_repeat"]

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
"""A release and a press of one key this close in event time are one auto-repeat (X gives
both the same server time)."""

RELEASE_GRACE_MS = 25
"""How long a release of an acting key waits for the press that would make it a repeat."""

_KEY_EVENTS = (QEvent.Type.KeyPress, QEvent.Type.KeyRelease, QEvent.Type.ShortcutOverride)
_FLUSH_EVENTS = (QEvent.Type.FocusOut, QEvent.Type.WindowDeactivate, QEvent.Type.Hide)


@dataclass
class _Release:
    event: QKeyEvent
    stamp: int


class AutoRepeatGuard(QObject):
    """Drops the repeats of the acting keys; counts the events it dropped."""

    def __init__(self, window: QObject) -> None:
        super().__init__(window)
        self._window = window
        self.dropped = 0
        self._pending: dict[int, _Release] = {}  # key -> its held-back release
        self._delivered: dict[int, int] = {}  # key -> time stamp of its last delivered release
        self._delivering = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(RELEASE_GRACE_MS)
        self._timer.timeout.connect(self.flush)

    def _pairs(self, key: int, stamp: int) -> bool:
        """Whether a press of ``key`` at ``stamp`` is the second half of a release/press pair."""
        pending = self._pending.get(key)
        if pending is not None and 0 <= stamp - pending.stamp <= PAIR_MS:
            return True
        last = self._delivered.get(key)
        return last is not None and 0 <= stamp - last <= PAIR_MS

    def _is_repeat_press(self, event: QKeyEvent) -> bool:
        return event.isAutoRepeat() or self._pairs(event.key(), event.timestamp())

    def flush(self) -> None:
        """Deliver every held-back release now (in the order they came)."""
        pending, self._pending = self._pending, {}
        self._timer.stop()
        for key, release in pending.items():
            self._delivered[key] = release.stamp
            self._delivering = True
            try:
                QCoreApplication.sendEvent(self._window, release.event)
            finally:
                self._delivering = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in _FLUSH_EVENTS and watched is self._window:
            self.flush()
            return False
        if self._delivering or kind not in _KEY_EVENTS or not isinstance(event, QKeyEvent):
            return False
        key = event.key()
        if Qt.Key(key) not in ACTING_KEYS:
            self.flush()  # a held-back release goes before any other key, as it came
            return False
        if kind == QEvent.Type.ShortcutOverride:
            if self._is_repeat_press(event):
                event.accept()  # accepted: no Shortcut fires; the press that follows is dropped
                return True
            self.flush()
            return False
        if kind == QEvent.Type.KeyPress:
            if self._is_repeat_press(event):
                if self._pending.pop(key, None) is not None:  # the pair cancels out: still held
                    self.dropped += 1
                self.dropped += 1
                return True
            self.flush()  # a fresh press: a release held back before it is real
            self._delivered.pop(key, None)
            return False
        # KeyRelease
        if event.isAutoRepeat():
            self.dropped += 1
            return True
        self.flush()
        self._pending[key] = _Release(event.clone(), event.timestamp())
        self._timer.start()
        return True


def guard_auto_repeat(window: QObject) -> AutoRepeatGuard:
    """Install the guard on ``window`` (it lives as long as the window)."""
    guard = AutoRepeatGuard(window)
    window.installEventFilter(guard)
    return guard
