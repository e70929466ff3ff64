"""X11's unflagged repeats (issue 30, finding 1), offscreen: the guard in gui/keys.py tells a
held key's release/press pairs from real presses by their event time, not by the flag alone.

On a loaded X server Qt delivers a held key's repeats as a release and a press with one time
stamp and ``isAutoRepeat()`` false (tests/realinput/test_held_keys.py shows it on a real
server); here the same events are built by hand, with their time stamps.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QKeyEvent

from pointline.gui.keys import HELD_MS, PAIR_MS

K = Qt.Key


def _send(ui, kind: QEvent.Type, key: Qt.Key, stamp: int) -> None:
    event = QKeyEvent(kind, key, Qt.KeyboardModifier.NoModifier, "", False)
    event.setTimestamp(stamp)
    QCoreApplication.sendEvent(ui.window, event)


def _unflagged_hold(ui, key: Qt.Key, start: int, repeats: int) -> None:
    """Press at ``start``; X's repeats from 660 ms on, 40 ms apart; the release after them."""
    _send(ui, QEvent.Type.KeyPress, key, start)
    stamp = start + 660
    for _ in range(repeats):
        _send(ui, QEvent.Type.KeyRelease, key, stamp)
        _send(ui, QEvent.Type.KeyPress, key, stamp)  # the same server time: one repeat
        stamp += 40
    _send(ui, QEvent.Type.KeyRelease, key, stamp)
    QCoreApplication.processEvents()


def test_unflagged_repeats_of_a_held_space_add_one_chip(make_ui) -> None:
    ui = make_ui()
    ui.key(K.Key_Up)
    _unflagged_hold(ui, K.Key_Space, 10_000, repeats=6)
    assert ui.bridge.draftPass == 10


def test_unflagged_repeats_of_a_held_enter_throw_once(make_ui) -> None:
    ui = make_ui()
    b = ui.bridge
    ui.key(K.Key_Up)
    ui.key(K.Key_Space)
    _unflagged_hold(ui, K.Key_Return, 20_000, repeats=8)
    assert b.throws == 1 and b.submissions == 2  # Allocate, then Confirm and its throw


def test_quick_real_presses_are_not_taken_for_repeats(make_ui) -> None:
    ui = make_ui()
    ui.key(K.Key_Up)
    # A program's instant clicks: press and release in the same millisecond, the next press too.
    for _ in range(3):
        _send(ui, QEvent.Type.KeyPress, K.Key_Space, 30_000)
        _send(ui, QEvent.Type.KeyRelease, K.Key_Space, 30_000)
    # A finger: held a while, released, pressed again a little later than a repeat pair.
    _send(ui, QEvent.Type.KeyPress, K.Key_Space, 31_000)
    _send(ui, QEvent.Type.KeyRelease, K.Key_Space, 31_000 + HELD_MS + 200)
    _send(ui, QEvent.Type.KeyPress, K.Key_Space, 31_000 + HELD_MS + 200 + PAIR_MS + 1)
    _send(ui, QEvent.Type.KeyRelease, K.Key_Space, 31_000 + HELD_MS + 400)
    QCoreApplication.processEvents()
    assert ui.bridge.draftPass == 50
