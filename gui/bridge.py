"""The thin bridge between QML and the kernel: state and legal actions as Qt properties.

QML never decides legality: every button's enabled state and its reason come from
``Table.rejection``. The bridge also refuses every submission while paused or under Help,
so nothing reaches the kernel then, whatever QML does.
"""

from __future__ import annotations

from PySide6.QtCore import Property, QObject, QSettings, Qt, Signal, Slot

from gui.history import REASON_WORDS, chart_samples, entry_text, settlement_words
from gui.session import SEAT, NonceSource, SoloSession, fresh_nonce
from gui.sound import Sounds
from kernel import (
    HANDS_PER_SESSION,
    THROW_CAP,
    Abort,
    Action,
    Allocate,
    Confirm,
    EndReason,
    Line,
    Outcome,
    Phase,
    PointlineError,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
)
from kernel.ledger import Settled, ThrowSeen

PAUSED_TEXT = "Paused: press Escape or Resume to continue."
HELP_TEXT = "Help is open: close it to play."
ASK_TEXT = "Answer the new-session question first."
WINDOW_MODES = ("standard", "theater", "fullscreen")
ACTIONS = ("allocate", "confirm", "reset", "reduce", "remove", "roll")


class TableBridge(QObject):
    """One solo table for QML. All state properties notify through ``changed``."""

    changed = Signal()
    announced = Signal(str)
    rolled = Signal()
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
        self._line = Line.PASS
        self._paused = False
        self._help = False
        self._asking = False
        self._mode = "standard"
        self._announcement = "New session: 1,000 free fictional points. Allocate, then confirm."
        self._notice = ""
        self._dice = (0, 0)
        self._serial = 0
        self.submissions = 0
        """How many actions reached the kernel (tests check that blur or resize adds none)."""

    # ------------------------------------------------------------------ helpers
    @property
    def table(self):  # type: ignore[no-untyped-def]
        return self.session.table

    def _action(self, name: str) -> Action:
        return {
            "allocate": lambda: Allocate(SEAT, self._line),
            "confirm": lambda: Confirm(SEAT),
            "reset": lambda: Reset(SEAT),
            "reduce": lambda: ReduceDontPass(SEAT),
            "remove": lambda: RemoveDontPass(SEAT),
            "roll": lambda: Roll(SEAT),
        }[name]()

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
            self._notice = str(error.args[1]) if len(error.args) > 1 else str(error)
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
                words.append(f"Point is {t.point}")
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

    def _selected(self) -> str:
        return str(self._line.value)

    def _legal(self) -> dict[str, bool]:
        return {name: not self.reason(name) for name in ACTIONS}

    def _reasons(self) -> dict[str, str]:
        return {name: self.reason(name) for name in ACTIONS}

    def _line_reasons(self) -> dict[str, str]:
        """Why Allocate is refused on each line now (the table shows it on the felt)."""
        if self.table.is_over:
            return {"pass": "", "dont_pass": ""}
        out = {}
        for line in Line:
            code = self.table.rejection(Allocate(SEAT, line))
            out[line.value] = "" if code is None else code.text
        return out

    def _history(self) -> list[dict[str, str]]:
        rows = []
        for entry in self.table.seat(SEAT).ledger:
            kind, text = entry_text(entry)
            rows.append({"kind": kind, "text": text})
        return rows

    def _chart(self) -> list[int]:
        return chart_samples(self.table.seat(SEAT).ledger)

    def _result_text(self) -> str:
        result = self.table.result
        if result is None:
            return ""
        return f"Final points {result.final[SEAT]:,} · rank {result.ranks[SEAT]} of 1"

    def _end_reason(self) -> str:
        ending = self.table.ending
        return "" if ending is None else REASON_WORDS[ending.reason]

    phase = Property(str, _phase, notify=changed)
    point = Property(int, _point, notify=changed)
    balance = Property(int, _balance, notify=changed)
    hand = Property(int, _hand, notify=changed)
    hands = Property(int, lambda self: HANDS_PER_SESSION, constant=True)
    throws = Property(int, _throws, notify=changed)
    throwCap = Property(int, lambda self: THROW_CAP, constant=True)
    draftPass = Property(int, _draft_pass, notify=changed)
    draftDontPass = Property(int, _draft_dp, notify=changed)
    contractPass = Property(int, _contract_pass, notify=changed)
    contractDontPass = Property(int, _contract_dp, notify=changed)
    selectedLine = Property(str, _selected, notify=changed)
    legal = Property("QVariantMap", _legal, notify=changed)
    reasons = Property("QVariantMap", _reasons, notify=changed)
    lineReasons = Property("QVariantMap", _line_reasons, notify=changed)
    history = Property("QVariantList", _history, notify=changed)
    chart = Property("QVariantList", _chart, notify=changed)
    resultText = Property(str, _result_text, notify=changed)
    endReason = Property(str, _end_reason, notify=changed)
    die1 = Property(int, lambda self: self._dice[0], notify=changed)
    die2 = Property(int, lambda self: self._dice[1], notify=changed)
    rollSerial = Property(int, lambda self: self._serial, notify=changed)
    paused = Property(bool, lambda self: self._paused, notify=changed)
    helpOpen = Property(bool, lambda self: self._help, notify=changed)
    askingNewSession = Property(bool, lambda self: self._asking, notify=changed)
    muted = Property(bool, lambda self: self.sounds.muted, notify=changed)
    windowMode = Property(str, lambda self: self._mode, notify=changed)
    announcement = Property(str, lambda self: self._announcement, notify=changed)
    notice = Property(str, lambda self: self._notice, notify=changed)
    isOver = Property(bool, lambda self: self.table.is_over, notify=changed)

    # ------------------------------------------------------------------ slots
    @Slot(str)
    def selectLine(self, name: str) -> None:
        """Select a line for Allocate (selection is not a submission)."""
        self._line = Line(name)
        self.changed.emit()

    @Slot()
    def toggleLine(self) -> None:
        self._line = Line.DONT_PASS if self._line is Line.PASS else Line.PASS
        self.changed.emit()

    @Slot(result=bool)
    def allocate(self) -> bool:
        return self._submit("allocate")

    @Slot(result=bool)
    def confirm(self) -> bool:
        return self._submit("confirm")

    @Slot(result=bool)
    def reset(self) -> bool:
        return self._submit("reset")

    @Slot(result=bool)
    def reduceDontPass(self) -> bool:
        return self._submit("reduce")

    @Slot(result=bool)
    def removeDontPass(self) -> bool:
        return self._submit("remove")

    @Slot(result=bool)
    def roll(self) -> bool:
        return self._submit("roll")

    @Slot(str, result=bool)
    def tableKey(self, key: str) -> bool:
        """Space or Enter pressed on the table itself: allocate/confirm, or roll."""
        if self.table.phase is Phase.POINT:
            return self.roll()
        return self.allocate() if key == "space" else self.confirm()

    @Slot()
    def openHelp(self) -> None:
        self._help = True
        self.changed.emit()

    @Slot()
    def closeHelp(self) -> None:
        self._help = False
        self.changed.emit()

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
