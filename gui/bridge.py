"""The thin bridge between QML and the kernel: state and legal actions as Qt properties.

QML never decides legality: every button's enabled state and its reason come from
``Table.rejection``. The bridge also refuses every submission while paused or under Help,
so nothing reaches the kernel then, whatever QML does.
"""

from __future__ import annotations

from PySide6.QtCore import Property, QObject, QSettings, Qt, Signal, Slot

from pointline.gui.controls import SeatControls
from pointline.gui.history import REASON_WORDS, settlement_words
from pointline.gui.session import SEAT, NonceSource, SoloSession, fresh_nonce
from pointline.gui.sound import Sounds
from pointline.kernel import (
    STARTING_POINTS,
    Abort,
    EndReason,
    Outcome,
    Phase,
    PointlineError,
)
from pointline.kernel.ledger import Settled, ThrowSeen

PAUSED_TEXT = "Paused: press Escape or Resume to continue."
HELP_TEXT = "Help is open: close it to play."
ASK_TEXT = "Answer the new-session question first."
WINDOW_MODES = ("standard", "theater", "fullscreen")


class TableBridge(SeatControls, QObject):
    """One solo table for QML. All state properties notify through ``changed``."""

    soundPlayed = Signal(str)

    def __init__(
        self,
        nonce_source: NonceSource = fresh_nonce,
        settings: QSettings | None = None,
        sounds: Sounds | None = None,
    ) -> None:
        super().__init__()
        self._nonce_source = nonce_source
        self._settings = settings or QSettings("Pointline", "Pointline Table")
        self.sounds = sounds or Sounds()
        self.sounds.muted = self._settings.value("muted", False, type=bool)
        self.session = SoloSession(nonce_source)
        self._paused = False
        self._asking = False
        self._mode = "standard"
        self._announcement = "New session: 1,000 free fictional points. Allocate, then confirm."
        self.submissions = 0
        """How many actions reached the kernel (tests check that blur or resize adds none)."""

    # ------------------------------------------------------------------ helpers
    @property
    def table(self):  # type: ignore[no-untyped-def]
        return self.session.table

    def _seat_index(self) -> int:
        return SEAT

    def _choice_table(self):  # type: ignore[no-untyped-def]
        return self.table

    def _ledger(self):  # type: ignore[no-untyped-def]
        return self.table.seat(SEAT).ledger

    def _blocked(self) -> str:
        if self._asking:
            return ASK_TEXT
        if self._help:
            return HELP_TEXT
        if self._paused:
            return PAUSED_TEXT
        return ""

    def reason(self, name: str) -> str:
        """Why an action is not legal now, in the kernel's words ("" when it is legal)."""
        blocked = self._blocked()
        if blocked:
            return blocked
        code = self.table.rejection(self._action(name))
        return "" if code is None else code.text

    def _announce(self, text: str) -> None:
        self._announcement = text
        self.announced.emit(text)

    def _play(self, name: str) -> None:
        if self.sounds.play(name):
            self.soundPlayed.emit(name)

    def _submit(self, name: str) -> bool:
        blocked = self._blocked()
        if blocked:
            self._notice = blocked
            self.changed.emit()
            return False
        action = self._action(name)
        try:
            entries = self.session.submit(action)
        except PointlineError as error:
            self._notice = error.text
            self._announce(self._notice)
            self.changed.emit()
            return False
        self.submissions += 1
        self._notice = ""
        words: list[str] = []
        outcomes: list[Outcome] = []
        for entry in entries:
            if isinstance(entry, ThrowSeen):
                self._dice = (entry.die1, entry.die2)
                self._serial += 1
                words.append(f"Rolled {entry.die1} and {entry.die2}, total {entry.total}")
            elif isinstance(entry, Settled):
                words.append(settlement_words(entry))
                outcomes.append(entry.outcome)
        if self._serial and any(isinstance(e, ThrowSeen) for e in entries):
            t = self.table
            if t.phase is Phase.POINT and not outcomes:
                words.append(f"Point {t.point} is ON — Space or Enter rolls")
            elif t.phase is Phase.COME_OUT and outcomes:
                words.append(f"Hand {t.hands_resolved} resolved; come-out for hand {t.hand}")
            if t.phase is Phase.COMPLETE:
                words.append(f"Session complete: final points {t.balance(SEAT):,}")
            elif t.phase is Phase.ENDED:
                words.append("Session ended without a result")
            self._announce(". ".join(words) + ".")
            self._play("dice")
            if Outcome.WIN in outcomes:
                self._play("win")
            elif Outcome.LOSS in outcomes:
                self._play("loss")
            elif Outcome.PUSH in outcomes:
                self._play("push")
            self.rolled.emit()
        else:
            d = self.table.draft(SEAT)
            self._announce(f"Draft: Pass {d.pass_amount}, Don't Pass {d.dont_pass_amount}")
        self.changed.emit()
        return True

    # ------------------------------------------------------------------ properties
    def _phase(self) -> str:
        return str(self.table.phase.value)

    def _point(self) -> int:
        return self.table.point or 0

    def _balance(self) -> int:
        return self.table.balance(SEAT)

    def _hand(self) -> int:
        return self.table.hand

    def _throws(self) -> int:
        return self.table.throws

    def _draft_pass(self) -> int:
        return self.table.draft(SEAT).pass_amount

    def _draft_dp(self) -> int:
        return self.table.draft(SEAT).dont_pass_amount

    def _contract_pass(self) -> int:
        return self.table.contracts(SEAT).pass_amount

    def _contract_dp(self) -> int:
        return self.table.contracts(SEAT).dont_pass_amount

    def _result_text(self) -> str:
        result = self.table.result
        if result is None:
            return ""
        final = result.final[SEAT]
        change = final - STARTING_POINTS
        verdict = "up" if change > 0 else "down" if change < 0 else "even"
        amount = f" {abs(change):,}" if change else ""
        return f"Final points {final:,} — {verdict}{amount} on the 1,000 you started with"

    def _end_reason(self) -> str:
        ending = self.table.ending
        return "" if ending is None else REASON_WORDS[ending.reason]

    point = Property(int, _point, notify=SeatControls.changed)
    balance = Property(int, _balance, notify=SeatControls.changed)
    hand = Property(int, _hand, notify=SeatControls.changed)
    throws = Property(int, _throws, notify=SeatControls.changed)
    draftPass = Property(int, _draft_pass, notify=SeatControls.changed)
    draftDontPass = Property(int, _draft_dp, notify=SeatControls.changed)
    contractPass = Property(int, _contract_pass, notify=SeatControls.changed)
    contractDontPass = Property(int, _contract_dp, notify=SeatControls.changed)
    resultText = Property(str, _result_text, notify=SeatControls.changed)
    endReason = Property(str, _end_reason, notify=SeatControls.changed)
    paused = Property(bool, lambda self: self._paused, notify=SeatControls.changed)
    askingNewSession = Property(bool, lambda self: self._asking, notify=SeatControls.changed)
    muted = Property(bool, lambda self: self.sounds.muted, notify=SeatControls.changed)
    windowMode = Property(str, lambda self: self._mode, notify=SeatControls.changed)
    isOver = Property(bool, lambda self: self.table.is_over, notify=SeatControls.changed)

    # ------------------------------------------------------------------ slots
    @Slot()
    def askNewSession(self) -> None:
        """New session: at once when nothing is in play, else ask first (cancel keeps all)."""
        t = self.table
        untouched = t.throws == 0 and t.draft(SEAT).total == 0
        if untouched or t.is_over:
            self.newSession()
        else:
            self._asking = True
            self.changed.emit()

    @Slot()
    def cancelNewSession(self) -> None:
        self._asking = False
        self.changed.emit()

    @Slot()
    def confirmNewSession(self) -> None:
        self._asking = False
        self.newSession()

    @Slot()
    def escape(self) -> None:
        """Escape cancels the new-session question, closes Help, else pauses or resumes."""
        if self._asking:
            self._asking = False
        elif self._help:
            self._help = False
        else:
            self._paused = not self._paused
            self._announce("Paused" if self._paused else "Resumed")
        self._notice = ""
        self.changed.emit()

    @Slot()
    def resume(self) -> None:
        self._paused = False
        self._notice = ""
        self.changed.emit()

    @Slot()
    def toggleMute(self) -> None:
        self.sounds.muted = not self.sounds.muted
        self._settings.setValue("muted", self.sounds.muted)
        self._settings.sync()
        self._announce("Sound off" if self.sounds.muted else "Sound on")
        self.changed.emit()

    @Slot(str)
    def setWindowMode(self, mode: str) -> None:
        if mode not in WINDOW_MODES:
            raise ValueError(f"window mode is one of {WINDOW_MODES}, not {mode!r}")
        self._mode = mode
        self.changed.emit()

    @Slot()
    def cycleWindowMode(self) -> None:
        self.setWindowMode(WINDOW_MODES[(WINDOW_MODES.index(self._mode) + 1) % 3])

    @Slot()
    def newSession(self) -> None:
        """A new session restores 1,000 points; nothing carries over."""
        self.session = SoloSession(self._nonce_source)
        self._dice = (0, 0)
        self._serial = 0
        self._paused = False
        self._notice = ""
        self._announce("New session: 1,000 free fictional points.")
        self.changed.emit()

    @Slot(int)
    def applicationStateChanged(self, state: int) -> None:
        """Going to the background pauses solo and never submits anything."""
        if state in (
            Qt.ApplicationState.ApplicationSuspended.value,
            Qt.ApplicationState.ApplicationHidden.value,
        ):
            self._paused = True
            self.changed.emit()

    def end_without_result(self, reason: EndReason) -> None:
        """End the session without a result (the online layer and the 'ended' scene use it)."""
        self.table.push(Abort(reason, None))
        self._announce(f"Session ended without a result: {REASON_WORDS[reason]}.")
        self.changed.emit()
