"""The window's close question, kept once (issues 38 and 41).

Closing the window mid-session asks first: a closed session is never resumed (the card rules
out offline reload), and online closing ends a session or a hosted table for everyone.
``CloseQuestion`` is one small QObject per window, the shell's (``shell.closeQuestion``): its
one state (asked or not, its words, approved) serves every screen. Each screen tells it, once,
how it would ask (``set_asker``): the solo table while a session is in play, the online screens
while guests sit at my table or a session I sit in runs. The frame (Frame.qml's ``onClosing``)
asks on the screen that counts (``ask(screen)``); ``CloseAsk.qml`` shows the question on that
screen; Keep playing (or Escape) cancels it; Close the app confirms it, and the frame closes the
window on ``approved``. Once approved, nothing asks again: the window is closing. Its words are
``gui.texts.CLOSE_WORDS``, and the footer's while it is asked ``gui.texts.close_keys``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Property, QObject, Signal, Slot

from pointline.gui.seat_table import QVARIANT_MAP
from pointline.gui.texts import CLOSE_WORDS, close_keys

__all__ = ["Asking", "CloseQuestion"]


@dataclass(frozen=True)
class Asking:
    """What a screen asks before the window closes: the question, what Close the app does
    there (``hint``) and what the screen does first when the person closes after all."""

    text: str
    hint: str
    on_confirm: Callable[[], None] | None = None


Asker = Callable[[], Asking | None]
"""A screen's way of asking: its question now, or None (nothing would be lost: close at once)."""


class CloseQuestion(QObject):
    """The close question of one window (see the module docstring)."""

    changed = Signal()
    approved = Signal()
    """The person chose Close the app: the window closes (the frame listens)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._askers: dict[str, Asker] = {}
        self._asking: Asking | None = None
        self._screen = ""
        self._approved = False

    def set_asker(self, screen: str, asker: Asker) -> None:
        """How ``screen`` ("solo", "online") asks; a screen shown anew replaces its old asker."""
        self._askers[screen] = asker

    # ------------------------------------------------------------------ what QML reads
    asked = Property(bool, lambda self: self._asking is not None, notify=changed)
    """The question is open (on the screen that asked)."""
    text = Property(str, lambda self: self._asking.text if self._asking else "", notify=changed)
    """The question of the screen that asked ("" while nothing is asked)."""
    hint = Property(str, lambda self: self._asking.hint if self._asking else "", notify=changed)
    """What Close the app does on that screen."""
    words = Property(QVARIANT_MAP, lambda self: dict(CLOSE_WORDS), constant=True)
    """The question's own words (its title and buttons: ``gui.texts.CLOSE_WORDS``)."""

    @Slot(str, result=str)
    def keys(self, button: str) -> str:
        """The footer's words while the question is open (``button``: the focused button)."""
        return close_keys(button)

    # ------------------------------------------------------------------ asking and answering
    @Slot(str, result=bool)
    def ask(self, screen: str) -> bool:
        """The window is closing: True (keep it open, the question shows on ``screen``) when
        that screen has something to ask; False (close at once) when it has not, when the
        question is already open, or when closing was already approved."""
        if self._approved or self._asking is not None:
            return False
        asker = self._askers.get(screen)
        asking = asker() if asker is not None else None
        if asking is None:
            return False
        self._asking, self._screen = asking, screen
        self.changed.emit()
        return True

    def reword(self, screen: str, text: str) -> None:
        """The question ``screen`` asks changed while open (a guest came or went)."""
        asking = self._asking
        if asking is not None and self._screen == screen and asking.text != text:
            self._asking = Asking(text, asking.hint, asking.on_confirm)
            self.changed.emit()

    @Slot()
    def cancel(self) -> None:
        """Keep playing (or Escape, or Back): everything stays as it was."""
        if self._asking is not None:
            self._asking, self._screen = None, ""
            self.changed.emit()

    @Slot()
    def confirm(self) -> None:
        """Close the app: the screen's last act first, then the window closes."""
        asking = self._asking
        if asking is None:
            return
        if asking.on_confirm is not None:
            asking.on_confirm()
        self._asking, self._screen = None, ""
        self._approved = True
        self.changed.emit()
        self.approved.emit()
