"""The thin bridge between QML and the kernel: state and legal actions as Qt properties.

QML never decides legality: every button's enabled state and its reason come from
``Table.rejection``. The bridge also refuses every submission while paused or under Help,
so nothing reaches the kernel then, whatever QML does.
"""

from __future__ import annotations

import os

from PySide6.QtCore import Property, QObject, QSettings, Qt, QTimer, Signal, Slot

from pointline.gui.controls import QVARIANT_LIST, QVARIANT_MAP, SeatControls
from pointline.gui.device import fake_insets, is_mobile
from pointline.gui.extras import Extras  # gui-extras: Stats, the guide, the close question
from pointline.gui.history import REASON_WORDS, draft_words, line_outcomes, settlement_words
from pointline.gui.session import SEAT, NonceSource, SoloSession, fresh_nonce
from pointline.gui.sound import Sounds
from pointline.gui.texts import TEXTS
from pointline.kernel import (
    POINT_NUMBERS,
    STARTING_POINTS,
    Abort,
    EndReason,
    Outcome,
    Phase,
    PointlineError,
    Table,
)
from pointline.kernel.ledger import Entry, Settled, ThrowSeen

PAUSED_TEXT = "Paused: press Escape or Resume to continue."
HELP_TEXT = "Help is open: close it to play."
ASK_TEXT = "Answer the new-session question first."
REVEAL_TEXT = "The dice are rolling: wait for the result."
WINDOW_MODES = ("standard", "theater", "fullscreen")

ROLL_MS = 700
"""How long the dice tumble before they settle (the result moment's first beat)."""
OUTCOME_MS = 1100
"""How long each line's outcome shows over its chips before they pay or are swept."""
COUNT_MS = 600
"""How long the balance counts to its new value; input is locked until it ends."""


class TableBridge(SeatControls, QObject):
    """One solo table for QML. All state properties notify through ``changed``."""

    soundPlayed = Signal(str)
    onlineRequested = Signal()
    """The person chose Play online: the app opens the online window (gui/app.py)."""

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
        self.sounds.muted = self._settings.value("muted", False, type=bool) is True
        self.session = SoloSession(nonce_source)
        self._paused = False
        self._asking = False
        self._mode = "standard"
        self._announcement = "New session: 1,000 free fictional points. Allocate, then confirm."
        self.submissions = 0
        """How many actions reached the kernel (tests check that blur or resize adds none)."""
        forced = os.environ.get("POINTLINE_REDUCE_MOTION", "")
        self._reduce_motion = forced == "1" or (
            forced != "0" and self._settings.value("reduceMotion", False, type=bool) is True
        )
        self._shown: Table | None = None
        """The table as it was before the throw being revealed (None: show the live table)."""
        self._stage = ""
        self._outcomes: dict[str, str] = {}
        self._felt_message = ""
        self._pending: tuple[str, list[Outcome]] = ("", [])
        self._next_outcomes: dict[str, str] = {}
        self._next_felt = ""
        self._mobile = is_mobile()
        self._insets = fake_insets()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._advance)
        self._extras = Extras(self)  # gui-extras: records finished sessions (gui/extras.py)

    # ------------------------------------------------------------------ helpers
    @property
    def table(self) -> Table:
        """The live table (the kernel's state)."""
        return self.session.table

    @property
    def shown(self) -> Table:
        """The table the screen shows: the pre-throw table while a throw is being revealed."""
        return self._shown if self._shown is not None else self.session.table

    def _seat_index(self) -> int:
        return SEAT

    def _choice_table(self):  # type: ignore[no-untyped-def]
        return self.table

    def _ledger(self):  # type: ignore[no-untyped-def]
        return self.shown.seat(SEAT).ledger

    def _blocked(self) -> str:
        if self._extras.covering:  # gui-extras: Stats, the guide or the close question is open
            return self._extras.covering
        if self._stage:
            return REVEAL_TEXT
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
        # The pre-throw table is shown while a throw is revealed: copied only when one can come.
        before = self.table.copy() if name in ("confirm", "roll") else self.table
        try:
            entries = self.session.submit(action)
        except PointlineError as error:
            self._notice = error.text
            self._announce(self._notice)
            self.changed.emit()
            return False
        self.submissions += 1
        self._notice = ""
        self._outcomes = {}
        self._felt_message = ""
        if not any(isinstance(e, ThrowSeen) for e in entries):
            self._announce(draft_words(self.table, SEAT))
            self.changed.emit()
            return True
        self._throw(before, entries)
        return True

    def _throw(self, before: Table, entries: tuple[Entry, ...]) -> None:
        """A throw: reveal it (dice, outcomes, balance, then history), or show it at once."""
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
        t = self.table
        felt = ""
        if t.phase is Phase.POINT and not outcomes:
            felt = f"Point {t.point} is ON — Space or Enter rolls"
            words.append(felt)
        elif t.phase is Phase.COME_OUT and outcomes:
            words.append(f"Hand {t.hands_resolved} resolved; come-out for hand {t.hand}")
            felt = f"Hand {t.hands_resolved} resolved — place chips for hand {t.hand}"
        if t.phase is Phase.COMPLETE:
            words.append(f"Session complete: final points {t.balance(SEAT):,}")
        elif t.phase is Phase.ENDED:
            words.append("Session ended without a result")
        self._pending = (". ".join(words) + ".", outcomes)
        self._next_outcomes = line_outcomes(entries)
        self._next_felt = felt
        self._play("dice")
        self.rolled.emit()
        if self._reduce_motion:
            self._finish_reveal()
            return
        self._shown = before
        self._stage = "rolling"
        self.changed.emit()
        self._timer.start(ROLL_MS)

    def _advance(self) -> None:
        """The next beat of the result moment (a QTimer drives it; QML only draws it)."""
        if self._stage == "rolling" and self._next_outcomes:
            self._stage = "outcome"
            self._outcomes = self._next_outcomes
            self._sound_outcome()
            self.changed.emit()
            self._timer.start(OUTCOME_MS)
        elif self._stage in ("rolling", "outcome"):
            self._stage = "count"
            self._settle()
            self.changed.emit()
            self._timer.start(COUNT_MS)
        else:
            self._stage = ""
            self.changed.emit()

    def _sound_outcome(self) -> None:
        outcomes = self._pending[1]
        if Outcome.WIN in outcomes:
            self._play("win")
        elif Outcome.LOSS in outcomes:
            self._play("loss")
        elif Outcome.PUSH in outcomes:
            self._play("push")

    def _settle(self) -> None:
        """Chips pay or are swept: the live table is shown, the result is announced."""
        self._shown = None
        self._outcomes = self._next_outcomes
        self._felt_message = self._next_felt
        self._announce(self._pending[0])

    def _finish_reveal(self) -> None:
        """Show the whole result at once (reduce motion, a new session, or a test)."""
        self._timer.stop()
        if self._stage in ("", "rolling"):
            self._sound_outcome()
        if self._stage != "count":
            self._settle()
        self._stage = ""
        self.changed.emit()

    # ------------------------------------------------------------------ properties
    def _phase(self) -> str:
        return str(self.shown.phase.value)

    def _point(self) -> int:
        return self.shown.point or 0

    def _balance(self) -> int:
        return self.shown.balance(SEAT)

    def _hand(self) -> int:
        return self.shown.hand

    def _throws(self) -> int:
        return self.shown.throws

    def _draft_pass(self) -> int:
        return self.shown.draft(SEAT).pass_amount

    def _draft_dp(self) -> int:
        return self.shown.draft(SEAT).dont_pass_amount

    def _contract_pass(self) -> int:
        return self.shown.contracts(SEAT).pass_amount

    def _contract_dp(self) -> int:
        return self.shown.contracts(SEAT).dont_pass_amount

    def _result_text(self) -> str:
        result = self.shown.result
        if result is None:
            return ""
        final = result.final[SEAT]
        change = final - STARTING_POINTS
        verdict = "up" if change > 0 else "down" if change < 0 else "even"
        amount = f" {abs(change):,}" if change else ""
        return f"Final points {final:,} — {verdict}{amount} on the 1,000 you started with"

    def _end_reason(self) -> str:
        ending = self.shown.ending
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
    isOver = Property(bool, lambda self: self.shown.is_over, notify=SeatControls.changed)
    revealStage = Property(str, lambda self: self._stage, notify=SeatControls.changed)
    """"" when idle; "rolling", "outcome", "count" during a throw's result moment."""
    lineOutcomes = Property(QVARIANT_MAP, lambda self: self._outcomes, notify=SeatControls.changed)
    """Each line's outcome on the felt after a throw ("+20", "−10", "push", "refund 10")."""
    feltMessage = Property(str, lambda self: self._felt_message, notify=SeatControls.changed)
    """A message on the felt after a throw, e.g. "Point 6 is ON — Space or Enter rolls"."""
    reduceMotion = Property(bool, lambda self: self._reduce_motion, notify=SeatControls.changed)
    """Every animation instant (remembered; POINTLINE_REDUCE_MOTION=1/0 forces it)."""
    mobile = Property(bool, lambda self: self._mobile, constant=True)
    """A phone or tablet: desktop-only controls and key hints are hidden."""
    insets = Property(QVARIANT_MAP, lambda self: self._insets, constant=True)
    """Extra safe-area insets (tests fake a notch); QML adds Qt's own SafeArea margins."""
    extras = Property(QObject, lambda self: self._extras, constant=True)  # gui-extras
    texts = Property(QVARIANT_MAP, lambda self: TEXTS, constant=True)
    """Help, mottos and labels built from the kernel's constants (gui/texts.py)."""
    startingPoints = Property(int, lambda self: STARTING_POINTS, constant=True)
    pointNumbers = Property(QVARIANT_LIST, lambda self: list(POINT_NUMBERS), constant=True)
    """The point boxes on the felt, from the kernel (QML keeps no copy of the rules)."""

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
        if self._extras.escape():  # gui-extras: closes the guide, Stats or the close question
            return
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
    def playOnline(self) -> None:
        """Leave for online play: a session in progress pauses and waits for the return."""
        self.finishReveal()
        if not self.table.is_over and (self.table.throws or self.table.draft(SEAT).total):
            self._paused = True
        self._help = False
        self._asking = False
        self.changed.emit()
        self.onlineRequested.emit()

    @Slot()
    def back(self) -> None:
        """Android's Back: the question or Help closes, else solo pauses or resumes."""
        self.escape()

    @Slot(str, str)
    def explain(self, label: str, reason: str) -> None:
        """A tap on a button that is off: say why, in the status line and to screen readers."""
        self._notice = f"{label} — not now: {reason}"
        self._announce(self._notice)
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

    @Slot(bool)
    def setReduceMotion(self, on: bool) -> None:
        """Reduce motion: dice, outcomes and the balance appear at once (remembered)."""
        self._reduce_motion = bool(on)
        self._settings.setValue("reduceMotion", self._reduce_motion)
        self._settings.sync()
        if self._reduce_motion and self._stage:
            self._finish_reveal()
        self._announce("Reduce motion on" if on else "Reduce motion off")
        self.changed.emit()

    def hold_outcome(self) -> bool:
        """Stop the result moment at its outcome beat, if this throw has one (scenes use it)."""
        if self._stage != "rolling" or not self._next_outcomes:
            return False
        self._advance()
        self._timer.stop()
        return True

    @Slot()
    def finishReveal(self) -> None:
        """Skip to the end of the current result moment (tests and scenes)."""
        if self._stage:
            self._finish_reveal()

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
        self._timer.stop()
        self._stage = ""
        self._shown = None
        self._outcomes = {}
        self._felt_message = ""
        self.session = SoloSession(self._nonce_source)
        self._dice = (0, 0)
        self._serial = 0
        self._paused = False
        self._notice = ""
        self._announce("New session: 1,000 free fictional points.")
        self.changed.emit()

    @Slot(int)
    def applicationStateChanged(self, state: int) -> None:
        """Going to the background pauses solo and never submits anything.

        On a phone, Inactive (a call, the notification shade) pauses too; on a desktop it only
        means another window has focus, which never pauses or submits.
        """
        background = [
            Qt.ApplicationState.ApplicationSuspended.value,
            Qt.ApplicationState.ApplicationHidden.value,
        ]
        if self._mobile:
            background.append(Qt.ApplicationState.ApplicationInactive.value)
        if state in background and not self.table.is_over:
            self._paused = True
            self.changed.emit()

    def end_without_result(self, reason: EndReason) -> None:
        """End the session without a result (the online layer and the 'ended' scene use it)."""
        self.finishReveal()
        self.table.push(Abort(reason, None))
        self._announce(f"Session ended without a result: {REASON_WORDS[reason]}.")
        self.changed.emit()
