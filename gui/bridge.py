"""The solo table for QML: a ``SeatTable`` on one kernel table, plus what only solo has.

QML never decides legality: every control's enabled state and its reason come from
``Table.rejection`` (chips through ``gui.betting``). The bridge also refuses every submission
while paused, under Help, or while a throw's result is being shown, so nothing reaches the
kernel then, whatever QML does. After every change it publishes its state (``_sync``); each
property notifies on its own. A throw's result shows beat by beat (``gui.moment``, the same
``ResultMoment`` as online); the bridge says what each beat shows.
"""

from __future__ import annotations

from typing import Any, ClassVar

from PySide6.QtCore import Property, QObject, QSettings, Qt, Signal, Slot
from PySide6.QtQml import QmlElement, QmlUncreatable

from pointline.gui.betting import (
    CHIP_VALUES,
    action_reason,
    chip_actions,
    kernel_action,
    line_reasons,
    repeat_actions,
    why_now,
)
from pointline.gui.clock import Clock, QtClock
from pointline.gui.device import fake_insets, is_mobile
from pointline.gui.extras import Extras  # gui-extras: Stats, the guide, the close question
from pointline.gui.history import (
    ThrowWords,
    draft_words,
    end_reason,
    history_rows,
    line_flights,
    line_outcomes,
    reason_words,
    repeat_text,
    result_text,
    throw_words,
)
from pointline.gui.moment import ResultMoment, reduce_motion_setting
from pointline.gui.seat_table import QVARIANT_MAP, SeatTable, state_property
from pointline.gui.seat_view import seat_view
from pointline.gui.session import SEAT, NonceSource, SoloSession, fresh_nonce
from pointline.gui.sound import Sounds
from pointline.gui.texts import ACTION_LABELS, SOLO_WORDS, TEXTS, keys_hint, sit_out_ask
from pointline.kernel import (
    HANDS_PER_SESSION,
    POINT_NUMBERS,
    STARTING_POINTS,
    THROW_CAP,
    Abort,
    Action,
    EndReason,
    Entry,
    Line,
    Outcome,
    Phase,
    PointlineError,
    Table,
    ThrowSeen,
)

__all__ = ["ACTIONS", "WINDOW_MODES", "TableBridge"]

QML_IMPORT_NAME = "Pointline.Seat"
QML_IMPORT_MAJOR_VERSION = 1

WINDOW_MODES = ("standard", "theater", "fullscreen")
ACTIONS = ("allocate", "confirm", "reset", "reduce", "remove", "roll")


@QmlElement
@QmlUncreatable("From Python.")
class TableBridge(SeatTable):  # type: ignore[operator]  # PySide6 stubs: decorator
    """One solo table for QML (see ``SeatTable`` for the properties the table view reads)."""

    DEFAULTS: ClassVar[dict[str, Any]] = {
        **SeatTable.DEFAULTS,
        "paused": False,
        "askingNewSession": False,
        "muted": False,
        "windowMode": "standard",
        "helpOpen": False,
        "whyNow": "",
    }
    pausedChanged = Signal()
    askingNewSessionChanged = Signal()
    mutedChanged = Signal()
    windowModeChanged = Signal()
    helpOpenChanged = Signal()
    whyNowChanged = Signal()
    soundPlayed = Signal(str)
    onlineRequested = Signal()
    """The person chose Play online: the app opens the online window (gui/app.py)."""

    paused = state_property(bool, "paused", pausedChanged)
    askingNewSession = state_property(bool, "askingNewSession", askingNewSessionChanged)
    muted = state_property(bool, "muted", mutedChanged)
    windowMode = state_property(str, "windowMode", windowModeChanged)
    helpOpen = state_property(bool, "helpOpen", helpOpenChanged)
    whyNow = state_property(str, "whyNow", whyNowChanged)
    """Why each dimmed control is off now, one sentence a line (Help shows it: F1)."""
    insetsChanged = Signal()
    insets = Property(QVARIANT_MAP, lambda self: self._insets, notify=insetsChanged)
    """Extra safe-area insets (tests fake a notch); QML adds Qt's own SafeArea margins."""

    def set_insets(self, insets: dict[str, int]) -> None:
        """Fake safe-area insets (the layout check and the screenshots: each phone size its
        own, portrait and sideways in one run)."""
        self._insets = dict(insets)
        self.insetsChanged.emit()

    def __init__(
        self,
        nonce_source: NonceSource = fresh_nonce,
        settings: QSettings | None = None,
        sounds: Sounds | None = None,
        clock: Clock | None = None,
    ) -> None:
        super().__init__()
        self._nonce_source = nonce_source
        self._settings = settings or QSettings("Pointline", "Pointline Table")
        self.sounds = sounds or Sounds()
        self.sounds.muted = self._settings.value("muted", False, type=bool) is True
        self.session = SoloSession(nonce_source)
        self._line = Line.PASS
        self._chip = CHIP_VALUES[0]
        self._paused = False
        self._help = False
        self._asking = False
        self._mode = "standard"
        self._notice = ""
        self._sit_out_armed = False
        self._need_release = False
        self._said = ""
        self._dice = (0, 0)
        self._serial = 0
        self._moment = ResultMoment(
            self, reduce_motion=reduce_motion_setting(self._settings), clock=clock or QtClock(self)
        )
        self._moment.stageChanged.connect(self._on_beat)
        self._last_beat = ""
        self._shown: Table | None = None
        """The table as it was before the throw being revealed (None: show the live table)."""
        self._outcomes: dict[str, str] = {}
        self._felt_message = ""
        self._pending = ThrowWords((0, 0), "", "", "", [])
        self._next_outcomes: dict[str, str] = {}
        self._next_flights: dict[str, int] = {}
        self._mobile = is_mobile()
        self._insets = fake_insets()
        self._extras = Extras(self)  # gui-extras: records finished sessions (gui/extras.py)
        self.publish(
            hands=HANDS_PER_SESSION,
            throwCap=THROW_CAP,
            chipValues=list(CHIP_VALUES),
            mobile=self._mobile,
            texts=TEXTS,
            pointNumbers=list(POINT_NUMBERS),
            startingPoints=STARTING_POINTS,
        )
        self._announce(SOLO_WORDS["newSession"])
        self._sync()

    # ------------------------------------------------------------------ state
    @property
    def table(self) -> Table:
        """The live table (the kernel's state)."""
        return self.session.table

    @property
    def shown(self) -> Table:
        """The table the screen shows: the pre-throw table while a throw is being revealed."""
        return self._shown if self._shown is not None else self.session.table

    @property
    def submissions(self) -> int:
        """How many actions reached the kernel this session."""
        return self.session.actions

    def _blocked(self) -> str:
        if self._extras.covering:  # gui-extras: Stats, the guide or the close question is open
            return self._extras.covering
        if self._moment.beat:
            return SOLO_WORDS["revealing"]
        if self._asking:
            return SOLO_WORDS["asking"]
        if self._help:
            return SOLO_WORDS["help"]
        if self._paused:
            return SOLO_WORDS["paused"]
        return ""

    def reason(self, name: str, blocking: bool = True) -> str:
        """Why a control is off now, in the kernel's words ("" when it is on); with
        ``blocking=False`` the kernel's reason even while paused, under Help or revealing."""
        blocked = self._blocked() if blocking else ""
        if blocked:
            return blocked
        return action_reason(self.table, SEAT, name, self._line, self._chip)

    def _line_reasons(self) -> dict[str, str]:
        if self._moment.beat:
            return {"pass": "", "dont_pass": ""}
        return line_reasons(self.table, SEAT, self._chip, self._line, self._notice)

    def _status(self, reasons: dict[str, str]) -> str:
        if self._paused and not self._help:
            return SOLO_WORDS["pausedShort"]
        if self._notice:
            return self._notice
        if self._sit_out_armed:
            return sit_out_ask(self._mobile)
        return self._said

    def refresh(self) -> None:
        """Publish again after something outside the table changed what is legal (a card)."""
        self._sync()

    def _sync(self) -> None:
        """Publish the whole state (each property notifies only when it changed)."""
        t = self.shown
        reasons = {n: self.reason(n) for n in (*ACTIONS, "repeat")}
        sits_out = t.phase is Phase.COME_OUT and t.draft(SEAT).total == 0 and not reasons["confirm"]
        self.publish(
            **seat_view(t, SEAT).values(),
            selectedLine=str(self._line.value),
            chip=self._chip,
            legal={n: not r for n, r in reasons.items()},
            reasons=reasons,
            lineReasons=self._line_reasons(),
            lineOutcomes=dict(self._outcomes),
            lineFlights=dict(self._next_flights) if self._outcomes else {},
            die1=self._dice[0],
            die2=self._dice[1],
            rollSerial=self._serial,
            revealStage=self._moment.beat,
            feltMessage=self._felt_message,
            notice=self._notice,
            confirmLabel=ACTION_LABELS["sitOut"] if sits_out else ACTION_LABELS["confirm"],
            reduceMotion=self._moment.reduceMotion,
            isOver=t.is_over,
            resultText=result_text(t, SEAT),
            endReason=end_reason(t),
            repeatText=repeat_text(self.table, SEAT),
            keysHint=keys_hint(t.phase, self._mobile, self._chip),
            paused=self._paused,
            askingNewSession=self._asking,
            muted=self.sounds.muted,
            windowMode=self._mode,
            helpOpen=self._help,
            whyNow=why_now(self.table, SEAT, self._line, self._chip),
        )
        self.publish(status=self._status(reasons))
        self._history.set_rows(history_rows(t.seat(SEAT).ledger))

    def _announce(self, text: str, short: str = "") -> None:
        """Say ``text`` to screen readers; the status line shows ``short`` (else ``text``)."""
        self._said = short or text
        self.publish(announcement=text)

    def _play(self, name: str) -> None:
        if self.sounds.play(name):
            self.soundPlayed.emit(name)

    # ------------------------------------------------------------------ submitting
    def _refuse(self, text: str) -> bool:
        self._notice = text
        self._announce(text)
        self._sync()
        return False

    def _submit_all(self, actions: list[Action], throws: bool) -> bool:
        """Submit kernel actions (all were checked first); reveal a throw if one came."""
        # The pre-throw table is shown while a throw is revealed: copied only when one can come.
        before = self.table.copy() if throws else self.table
        entries: tuple[Entry, ...] = ()
        try:
            for action in actions:
                entries += self.session.submit(action)
        except PointlineError as error:
            return self._refuse(error.text)
        self._notice = ""
        self._sit_out_armed = False
        self._outcomes = {}
        self._felt_message = ""
        if not any(isinstance(e, ThrowSeen) for e in entries):
            self._announce(draft_words(self.table, SEAT))
            self._sync()
            return True
        self._throw(before, entries)
        return True

    @Slot(str, result=bool)
    def act(self, name: str) -> bool:
        """Submit the named action (``allocate`` places the selected chip)."""
        if name not in ACTIONS:
            raise ValueError(f"an action is one of {ACTIONS}, not {name!r}")
        if name == "allocate":
            return self.placeChip(str(self._line.value))
        reason = self.reason(name)
        if reason:
            return self._refuse(reason)
        if name == "confirm" and self.table.draft(SEAT).total == 0 and not self._sit_out_armed:
            # An empty Confirm sits out: it needs a second, deliberate press.
            self._sit_out_armed = True
            self._notice = ""
            self._sync()
            self.announced.emit(sit_out_ask(self._mobile))
            return False
        action = kernel_action(SEAT, name)
        return self._submit_all([action], self.table.would_throw(action))

    @Slot(str, result=bool)
    def placeChip(self, line: str) -> bool:
        """Put the selected chip on ``line``: all of it, or nothing if the kernel refuses any."""
        self._line = Line(line)
        reason = self.reason("allocate")
        if reason:
            return self._refuse(reason)
        return self._submit_all(list(chip_actions(SEAT, self._line, self._chip)), False)

    @Slot(result=bool)
    def repeatLastBet(self) -> bool:
        reason = self.reason("repeat")
        if reason:
            return self._refuse(reason)
        return self._submit_all(list(repeat_actions(self.table, SEAT)), False)

    @Slot(str, result=bool)
    def tableKey(self, key: str) -> bool:
        """Space or Enter on the table: place the chip / confirm at come-out, roll at the point.

        A key whose press threw the dice acts again only after it was released.
        """
        if self._need_release:
            return False
        before = self._serial
        if self.table.phase is Phase.POINT:
            done = self.act("roll")
        else:
            done = self.act("allocate") if key == "space" else self.act("confirm")
        self._need_release = self._serial != before
        return done

    @Slot()
    def keyReleased(self) -> None:
        self._need_release = False

    @Slot(str)
    def selectLine(self, name: str) -> None:
        self._line = Line(name)
        self._sit_out_armed = False
        self._sync()

    @Slot(int)
    def selectChip(self, amount: int) -> None:
        if amount not in CHIP_VALUES:
            raise ValueError(f"a chip is one of {CHIP_VALUES}, not {amount!r}")
        self._chip = amount
        self._notice = ""
        self._sync()

    @Slot(str)
    def explain(self, action: str) -> None:
        """A tap, hover or key on a control that is off: say why in the status line."""
        reason = self.reason(action)
        label = ACTION_LABELS.get(action, action)
        self._notice = f"{label} is off. {reason}" if reason else ""
        if reason:
            self._announce(self._notice)
        self._sync()

    # ------------------------------------------------------------------ the result moment
    def _throw(self, before: Table, entries: tuple[Entry, ...]) -> None:
        """A throw: reveal it (dice, outcomes, balance, then history), or show it at once."""
        said = throw_words(self.table, SEAT, entries)
        self._dice = said.dice
        self._serial += 1
        self._pending = said
        self._next_outcomes = line_outcomes(entries)
        self._next_flights = line_flights(entries)
        self._play("dice")
        self.rolled.emit()
        self._shown = before
        self._said = SOLO_WORDS["rolling"]
        self._moment.start(bool(self._next_outcomes))
        self._freeze_if_blocked()

    def _on_beat(self) -> None:
        """Show the beat the result moment is at (its clock drives it; QML only draws it)."""
        beat, before, self._last_beat = self._moment.beat, self._last_beat, self._moment.beat
        if beat == "outcome":
            self._outcomes = self._next_outcomes
            self._sound_outcome()
        elif beat == "count":
            if before != "outcome":  # shown at once (skipped, reduce motion): sound it now
                self._sound_outcome()
            self._settle()
        elif self._notice.endswith(SOLO_WORDS["revealing"]):
            self._notice = ""  # a refusal said while the dice rolled is stale now
        self._sync()

    def _sound_outcome(self) -> None:
        outcomes = self._pending.outcomes
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
        self._felt_message = self._pending.felt
        self._announce(self._pending.announcement, self._pending.status)

    def _freeze_if_blocked(self) -> None:
        """Pause, Help and the new-session question freeze the result moment where it is."""
        if self._paused or self._help or self._asking:
            self._moment.pause()
        else:
            self._moment.resume()

    def hold_outcome(self) -> bool:
        """Stop the result moment at its outcome beat, if this throw has one (scenes use it)."""
        return self._moment.hold_outcome()

    def hold(self) -> None:
        """Stop the result moment at its current beat (the scenes' pictures use it)."""
        self._moment.hold()

    @Slot()
    def finishReveal(self) -> None:
        """Skip to the end of the current result moment (every remaining beat shows at once)."""
        self._moment.finish()

    # ------------------------------------------------------------------ solo slots
    def _set_blockers(self, *, paused: bool, help_open: bool, asking: bool) -> None:
        self._paused, self._help, self._asking = paused, help_open, asking
        self._notice = ""
        self._need_release = False  # a card took the keys: the next press is a fresh one
        self._freeze_if_blocked()
        self._sync()

    extras = Property(QObject, lambda self: self._extras, constant=True)  # gui-extras
    """Stats, the first-hand guide and the close question (gui/extras.py)."""

    @Slot()
    def askNewSession(self) -> None:
        """New session: at once when nothing is in play, else ask first (cancel keeps all)."""
        t = self.table
        untouched = t.throws == 0 and t.draft(SEAT).total == 0
        if untouched or t.is_over:
            self.newSession()
        else:
            self._set_blockers(paused=self._paused, help_open=self._help, asking=True)

    @Slot()
    def cancelNewSession(self) -> None:
        self._set_blockers(paused=self._paused, help_open=self._help, asking=False)

    @Slot()
    def confirmNewSession(self) -> None:
        self._asking = False
        self.newSession()

    @Slot()
    def openHelp(self) -> None:
        self._set_blockers(paused=self._paused, help_open=True, asking=self._asking)

    @Slot()
    def closeHelp(self) -> None:
        self._set_blockers(paused=self._paused, help_open=False, asking=self._asking)

    @Slot()
    def escape(self) -> None:
        """Escape cancels the new-session question, closes Help, else pauses or resumes."""
        if self._extras.escape():  # gui-extras: closes the guide, Stats or the close question
            return
        if self._asking:
            self.cancelNewSession()
        elif self._help:
            self.closeHelp()
        else:
            paused = not self._paused
            self._announce(SOLO_WORDS["pausedShort"] if paused else SOLO_WORDS["resumed"])
            self._set_blockers(paused=paused, help_open=False, asking=False)

    @Slot()
    def back(self) -> None:
        """Android's Back: the question or Help closes, else solo pauses or resumes."""
        self.escape()

    @Slot()
    def resume(self) -> None:
        self._set_blockers(paused=False, help_open=self._help, asking=self._asking)

    @Slot()
    def playOnline(self) -> None:
        """Leave for online play: a session in progress pauses and waits for the return."""
        self.finishReveal()
        t = self.table
        paused = self._paused or (not t.is_over and bool(t.throws or t.draft(SEAT).total))
        self._set_blockers(paused=paused, help_open=False, asking=False)
        self.onlineRequested.emit()

    @Slot()
    def toggleMute(self) -> None:
        self.sounds.muted = not self.sounds.muted
        self._settings.setValue("muted", self.sounds.muted)
        self._settings.sync()
        self._announce(SOLO_WORDS["soundOff"] if self.sounds.muted else SOLO_WORDS["soundOn"])
        self._sync()

    @Slot(bool)
    def setReduceMotion(self, on: bool) -> None:
        """Reduce motion: dice, outcomes and the balance appear at once (remembered)."""
        self._settings.setValue("reduceMotion", bool(on))
        self._settings.sync()
        self._moment.set_reduce_motion(bool(on))  # a moment showing ends at once
        self._announce("Reduce motion on" if on else "Reduce motion off")
        self._sync()

    @Slot(str)
    def setWindowMode(self, mode: str) -> None:
        if mode not in WINDOW_MODES:
            raise ValueError(f"window mode is one of {WINDOW_MODES}, not {mode!r}")
        self._mode = mode
        self._sync()

    @Slot()
    def cycleWindowMode(self) -> None:
        self.setWindowMode(WINDOW_MODES[(WINDOW_MODES.index(self._mode) + 1) % 3])

    @Slot()
    def newSession(self) -> None:
        """A new session restores the starting points; nothing carries over."""
        self._moment.cancel()
        self._shown = None
        self._outcomes = {}
        self._felt_message = ""
        self.session = SoloSession(self._nonce_source)
        self._dice = (0, 0)
        self._serial = 0
        self._sit_out_armed = False
        self._need_release = False
        self._announce(SOLO_WORDS["newSession"])
        self._set_blockers(paused=False, help_open=self._help, asking=False)

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
            self._set_blockers(paused=True, help_open=self._help, asking=self._asking)

    def end_without_result(self, reason: EndReason) -> None:
        """End the session without a result (the 'ended' scene uses it)."""
        self.finishReveal()
        self.table.push(Abort(reason, None))
        self._announce(f"Session ended without a result: {reason_words(reason)}.")
        self._sync()
