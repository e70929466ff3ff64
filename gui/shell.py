"""The window's shell, written once (issue 38): what the one window carries whatever screen is
on top of it — the safe-area insets, the window mode, the sound, Help, the pause and the close
question (gui/close_question.py).

``Shell`` is one small QObject per window (the frame reads it as ``frame.shell``); each of its
properties has its own notify signal, emitted only when the value changed. The screens (the solo
table, the online screens) share their window's shell: a window mode chosen on the solo table is
still the mode online, the sound is muted once for the whole app, and a phone's insets are the
same for every screen. A screen reads and changes the shell; what a change means to a screen (the
solo table freezes its result moment under Help or the pause) the screen decides by listening to
the shell's signals.

``shell_face(vars(), names)`` declares, in a screen's class body, the shell's properties the
screen's QML reads on the screen itself (``bridge.insets``, ``online.windowMode``...): each
forwards to the shell and notifies through its own signal (``link_shell`` connects them).
The shell's pause is the solo table's and the replay's: online never pauses (the card).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Property, QObject, QSettings, Signal, Slot

from pointline.gui.close_question import CloseQuestion
from pointline.gui.device import fake_insets, font_scale, is_mobile
from pointline.gui.history import is_draft_words
from pointline.gui.seat_table import QVARIANT_MAP
from pointline.gui.texts import SOLO_WORDS

__all__ = ["SHELL_PROPERTIES", "WINDOW_MODES", "Shell", "link_shell", "shell_face"]

WINDOW_MODES = ("standard", "theater", "fullscreen")
"""Standard, Theater (maximized, the table filling it) and Fullscreen: only the window changes."""

SHELL_PROPERTIES: dict[str, Any] = {
    "insets": QVARIANT_MAP,
    "windowMode": str,
    "muted": bool,
    "helpOpen": bool,
    "paused": bool,
}
"""The shell's properties (each with its own ``<name>Changed`` signal) and their Qt types."""


class Shell(QObject):
    """One window's shell (see the module docstring)."""

    insetsChanged = Signal()
    windowModeChanged = Signal()
    mutedChanged = Signal()
    helpOpenChanged = Signal()
    pausedChanged = Signal()
    wordsDropped = Signal()
    """The words still waiting to be said are stale (``drop_waiting_words``; the frame's
    announcer drops them)."""

    def __init__(
        self,
        sounds: Any = None,
        settings: QSettings | None = None,
        parent: QObject | None = None,
    ) -> None:
        """``sounds``: the app's ``gui.sound.Sounds`` (its ``muted`` is the sound's state);
        ``settings``: where muting is remembered (None: not remembered, as in tests)."""
        super().__init__(parent)
        self.sounds = sounds
        self._settings = settings
        self._muted = bool(getattr(sounds, "muted", False))
        self._insets = fake_insets()
        self._mode = "standard"
        self._help = False
        self._paused = False
        self.mobile = is_mobile()
        """Android or iOS (or POINTLINE_FORCE_MOBILE=1): desktop-only controls are hidden."""
        self.font_scale = font_scale()
        """The text size the system asks for (``gui.device.font_scale``), read once."""
        self.close_question = CloseQuestion(self)
        """The window's one close question (gui/close_question.py): every screen asks through
        it."""

    # ------------------------------------------------------------------ read from Python
    @property
    def muted_now(self) -> bool:
        """Whether the sound is off (the app's ``Sounds`` decides when there is one)."""
        return bool(self.sounds.muted) if self.sounds is not None else self._muted

    @property
    def help_open(self) -> bool:
        return self._help

    @property
    def is_paused(self) -> bool:
        return self._paused

    @property
    def mode(self) -> str:
        return self._mode

    def sound_words(self) -> str:
        """What toggling the sound says ("Sound off." / "Sound on."), solo's words everywhere."""
        return SOLO_WORDS["soundOff" if self.muted_now else "soundOn"]

    # ------------------------------------------------------------------ properties
    insets = Property(QVARIANT_MAP, lambda self: self._insets, notify=insetsChanged)
    """Extra safe-area insets (tests fake a notch); QML adds Qt's own SafeArea margins."""
    windowMode = Property(str, lambda self: self._mode, notify=windowModeChanged)
    muted = Property(bool, lambda self: self.muted_now, notify=mutedChanged)
    helpOpen = Property(bool, lambda self: self._help, notify=helpOpenChanged)
    paused = Property(bool, lambda self: self._paused, notify=pausedChanged)
    closeQuestion = Property(QObject, lambda self: self.close_question, constant=True)
    """The close question (the frame asks it when the window closes)."""

    # ------------------------------------------------------------------ changing it
    def set_insets(self, insets: dict[str, int]) -> None:
        """Fake safe-area insets (the layout check and the screenshots: each phone size its
        own, portrait and sideways in one run)."""
        insets = dict(insets)
        if insets != self._insets:
            self._insets = insets
            self.insetsChanged.emit()

    @Slot(str)
    def setWindowMode(self, mode: str) -> None:
        """Standard, Theater or Fullscreen: only the window changes, every screen is kept."""
        if mode not in WINDOW_MODES:
            raise ValueError(f"window mode is one of {WINDOW_MODES}, not {mode!r}")
        if mode != self._mode:
            self._mode = mode
            self.windowModeChanged.emit()

    @Slot()
    def cycleWindowMode(self) -> None:
        self.setWindowMode(WINDOW_MODES[(WINDOW_MODES.index(self._mode) + 1) % len(WINDOW_MODES)])

    def drop_waiting_words(self) -> None:
        """Words still waiting to be said describe a screen the player has left at once (a
        room that started before its words went out): they are not said (Announcer.drop)."""
        self.wordsDropped.emit()

    @Slot(str, result=bool)
    def replaceable(self, text: str) -> bool:
        """Whether announced words may give way to newer words of their kind while they still
        wait to be said (a draft: quick Space presses; Announcer.qml)."""
        return is_draft_words(text)

    def toggle_mute(self) -> str:
        """Sound off or on for the whole app (remembered when the shell has settings); returns
        what to say (the screen says it through its own announcement)."""
        self._muted = not self.muted_now
        if self.sounds is not None:
            self.sounds.muted = self._muted
        if self._settings is not None:
            self._settings.setValue("muted", self._muted)
            self._settings.sync()
        self.mutedChanged.emit()
        return self.sound_words()

    def set_help(self, shown: bool) -> None:
        if shown != self._help:
            self._help = shown
            self.helpOpenChanged.emit()

    def set_paused(self, paused: bool) -> None:
        """The pause (solo and replay; online never pauses)."""
        if paused != self._paused:
            self._paused = paused
            self.pausedChanged.emit()


def _forward(kind: Any, name: str, signal: Any) -> Any:
    return Property(kind, lambda self: getattr(self.shell, name), notify=signal)


def _set_window_mode(self: Any, mode: str) -> None:
    self.shell.setWindowMode(mode)


def _cycle_window_mode(self: Any) -> None:
    self.shell.cycleWindowMode()


def shell_face(namespace: dict[str, Any], names: tuple[str, ...]) -> None:
    """Declare, in a screen's class body, the shell properties ``names`` on the screen itself
    (each reads ``self.shell`` and notifies through its own ``<name>Changed`` signal, connected
    by ``link_shell``) and the window-mode slots its QML calls (``setWindowMode(mode)``,
    ``cycleWindowMode()``), which go to the shell."""
    for name in names:
        signal = namespace[f"{name}Changed"] = Signal()
        namespace[name] = _forward(SHELL_PROPERTIES[name], name, signal)
    namespace["setWindowMode"] = Slot(str, name="setWindowMode")(_set_window_mode)
    namespace["cycleWindowMode"] = Slot(name="cycleWindowMode")(_cycle_window_mode)


def link_shell(screen: QObject, shell: Shell, names: tuple[str, ...]) -> None:
    """Connect the shell's notify signals of ``names`` to ``screen``'s own (``shell_face``)."""
    for name in names:
        getattr(shell, f"{name}Changed").connect(getattr(screen, f"{name}Changed"))
