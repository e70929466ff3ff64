"""The solo table for QML: a ``SeatTable`` on one kernel table, plus what only solo has.

QML never decides legality: every control's enabled state and its reason come from
``Table.rejection`` (chips through ``gui.betting``). The bridge also refuses every submission
while paused, under Help, or while a throw's result is being shown, so nothing reaches the
kernel then, whatever QML does. After every change it publishes its state (``_sync``): what
the table shows is the table presenter's (``gui.presenter``, the same as online and in a
replay), each property notifying on its own. A throw's result shows beat by beat
(``gui.moment``, the same ``ResultMoment`` as online); the presenter says what each beat shows.
"""

from __future__ import annotations

from typing import Any, ClassVar

from PySide6.QtCore import Property, QObject, QSettings, Qt, Signal, Slot
from PySide6.QtQml import QmlElement, QmlUncreatable

from pointline.gui.betting import chip_actions, kernel_action, repeat_actions, why_now
from pointline.gui.clock import Clock, QtClock
from pointline.gui.extras import Extras  # gui-extras: Stats, the guide, the close question
from pointline.gui.history import draft_words, history_rows, reason_words, throw_words
from pointline.gui.moment import ResultMoment, reduce_motion_setting
from pointline.gui.presenter import TablePresenter
from pointline.gui.seat_table import SeatTable, declare
from pointline.gui.session import SEAT, NonceSource, SoloSession, fresh_nonce
from pointline.gui.shell import WINDOW_MODES, Shell, link_shell, shell_face
from pointline.gui.sound import Sounds
from pointline.gui.texts import SOLO_WORDS, TEXTS, keys_hint, moment_reason, sit_out_ask
from pointline.kernel import (
    Abort,
    Action,
    EndReason,
    Entry,
    Line,
    PointlineError,
    Table,
    ThrowSeen,
)

__all__ = ["ACTIONS", "WINDOW_MODES", "TableBridge"]

QML_IMPORT_NAME = "Pointline.Seat"
QML_IMPORT_MAJOR_VERSION = 1

ACTIONS = ("allocate", "confirm", "reset", "reduce", "remove", "roll")


@QmlElement
@QmlUncreatable("From Python.")
class TableBridge(SeatTable):  # type: ignore[operator]  # PySide6 stubs: decorator
    """One solo table for QML (see ``SeatTable`` for the properties the table view reads)."""

    DEFAULTS: ClassVar[dict[str, Any]] = {
        **SeatTable.DEFAULTS,
        **declare(
            vars(),
            {
                "askingNewSession": (bool, False),
                "whyNow": (str, ""),
            },
        ),
    }
    SHELL = ("insets", "windowMode", "muted", "helpOpen", "paused")
    """The window's shell (gui/shell.py) as Main.qml reads it on the bridge."""
    shell_face(vars(), SHELL)
    soundPlayed = Signal(str)
    onlineRequested = Signal()
    """The person chose Play online: the online screens open in the one window (gui/app.py)."""

    # whyNow: why each dimmed control is off now, one sentence a line (Help shows it: F1).
    # the text size asked for (gui.device.font_scale), the shell's, read once
    fontScale = Property(float, lambda self: self.shell.font_scale, constant=True)

    def set_insets(self, insets: dict[str, int]) -> None:
        """Fake safe-area insets (the shell's: the layout check and the screenshots)."""
        self.shell.set_insets(insets)

    def __init__(
        self,
        nonce_source: NonceSource = fresh_nonce,
        settings: QSettings | None = None,
        sounds: Sounds | None = None,
        clock: Clock | None = None,
        shell: Shell | None = None,
    ) -> None:
        """``shell``: the window's (gui/shell.py; default: a new one, remembering muting in
        ``settings``)."""
        super().__init__()
        self._nonce_source = nonce_source
        self._settings = settings or QSettings("Pointline", "Pointline Table")
        self.sounds = sounds or Sounds()
        self.sounds.muted = self._settings.value("muted", False, type=bool) is True
        self.shell = shell or Shell(self.sounds, self._settings, self)
        """The window's shell: insets, window mode, sound, Help and the pause."""
        link_shell(self, self.shell, self.SHELL)
        self.shell.helpOpenChanged.connect(self._blockers_changed)
        self.shell.pausedChanged.connect(self._blockers_changed)
        self.session = SoloSession(nonce_source)
        self._mobile = self.shell.mobile
        self.presenter = TablePresenter(keys_hint, mobile=self._mobile)
        """What the table screen shows (gui/presenter.py); actions go to the kernel."""
        self._asking = False
        self._need_release = False
        self._said = ""
        self._announcement = ""
        self._moment = ResultMoment(
            self, reduce_motion=reduce_motion_setting(self._settings), clock=clock or QtClock(self)
        )
        self._moment.stageChanged.connect(self._on_beat)
        self._extras = Extras(self)  # gui-extras: records finished sessions (gui/extras.py)
        self.publish(**TablePresenter.constants(TEXTS, self._mobile))
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
        shown = self.presenter.shown(self.session.table)
        assert shown is not None
        return shown

    @property
    def submissions(self) -> int:
        """How many actions reached the kernel this session."""
        return self.session.actions

    def _blocked(self) -> str:
        if self._extras.covering:  # gui-extras: Stats, the guide or the close question is open
            return self._extras.covering
        if self._moment.beat:
            return moment_reason(self._moment.landed)
        if self._asking:
            return SOLO_WORDS["asking"]
        if self.shell.help_open:
            return SOLO_WORDS["help"]
        if self.shell.is_paused:
            return SOLO_WORDS["paused"]
        return ""

    def reason(self, name: str, blocking: bool = True) -> str:
        """Why a control is off now, in the kernel's words ("" when it is on); with
        ``blocking=False`` the kernel's reason even while paused, under Help or revealing."""
        return self.presenter.reason(self.table, SEAT, name, self._blocked() if blocking else "")

    def refresh(self) -> None:
        """Publish again after something outside the table changed what is legal (a card)."""
        self._sync()

    def _sync(self) -> None:
        """Publish the whole state (each property notifies only when it changed)."""
        t, p = self.shown, self.presenter
        asked = sit_out_ask(self._mobile) if p.sit_out_armed else ""
        self.present(
            p.values(
                self.table,
                SEAT,
                acting=self.table,
                stage=self._moment.beat,
                blocked=self._blocked(),
                reduce_motion=self._moment.reduce_motion,
                landed=self._moment.landed,
                announcement=self._announcement,
                status=asked or self._said,
                held=SOLO_WORDS["pausedShort"]
                if self.shell.is_paused and not self.shell.help_open
                else "",
            )
        )
        self.publish(
            askingNewSession=self._asking,
            whyNow=why_now(self.table, SEAT, p.line, p.chip),
        )
        self._history.set_rows(history_rows(t.seat(SEAT).ledger))

    def _announce(self, text: str, short: str = "") -> None:
        """Say ``text`` to screen readers; the status line shows ``short`` (else ``text``).
        Every caller publishes afterwards (``_sync``)."""
        self._said = short or text
        self._announcement = text  # published by the caller's _sync, with the rest

    def _play(self, name: str) -> None:
        if self.sounds.play(name):
            self.soundPlayed.emit(name)

    # ------------------------------------------------------------------ submitting
    def _refuse(self, text: str) -> bool:
        self.presenter.notice = text
        self._announce(text)
        self._sync()
        return False

    def _submit_all(self, actions: list[Action], throws: bool) -> bool:
        """Submit kernel actions (all were checked first); reveal a throw if one came."""
        # The pre-throw table is shown while a throw is revealed: copied only when one can come.
        before = self.table.copy() if throws else self.table
        self._moment.drop_callout()  # the last throw's callout goes with the next action
        entries: tuple[Entry, ...] = ()
        try:
            for action in actions:
                entries += self.session.submit(action)
        except PointlineError as error:
            return self._refuse(error.text)
        self.presenter.notice = ""
        self.presenter.sit_out_armed = False
        self.presenter.outcomes = {}
        self.presenter.felt_message = ""
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
            return self.placeChip(str(self.presenter.line.value))
        reason = self.reason(name)
        if reason:
            return self._refuse(reason)
        if name == "confirm" and self.presenter.arm_sit_out(self.table, SEAT):
            # An empty Confirm sits out: it needs a second, deliberate press.
            self.presenter.notice = ""
            self._sync()
            self.announced.emit(sit_out_ask(self._mobile))
            return False
        action = kernel_action(SEAT, name)
        return self._submit_all([action], self.table.would_throw(action))

    @Slot(str, result=bool)
    def placeChip(self, line: str) -> bool:
        """Put the selected chip on ``line``: all of it, or nothing if the kernel refuses any."""
        self.presenter.line = Line(line)
        reason = self.reason("allocate")
        if reason:
            return self._refuse(reason)
        p = self.presenter
        return self._submit_all(list(chip_actions(SEAT, p.line, p.chip)), False)

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
        before = self.presenter.serial
        done = self.act(self.presenter.key(self.table, key))
        self._need_release = self.presenter.serial != before
        return done

    @Slot()
    def keyReleased(self) -> None:
        self._need_release = False

    @Slot(str)
    def selectLine(self, name: str) -> None:
        self.presenter.select(line=name)
        self._sync()

    @Slot(int)
    def selectChip(self, amount: int) -> None:
        self.presenter.select(chip=amount)
        self._sync()

    @Slot(str)
    def explain(self, action: str) -> None:
        """A tap, hover or key on a control that is off: say why in the status line."""
        if self.presenter.explain(self.reason(action), action):
            self._announce(self.presenter.notice)
        self._sync()

    # ------------------------------------------------------------------ the result moment
    def _throw(self, before: Table, entries: tuple[Entry, ...]) -> None:
        """A throw: reveal it (dice, outcomes, balance, then history), or show it at once."""
        said = throw_words(self.table, SEAT, entries)
        settles = self.presenter.start_throw(
            before,
            said.dice,
            entries,
            say=said.announcement,
            status=said.status,
            felt=said.felt,
            callout=said.callout,
        )
        self._play("dice")
        self.rolled.emit()
        self._said = SOLO_WORDS["rolling"]
        self._moment.start(settles)
        self._freeze_if_blocked()

    def _on_beat(self) -> None:
        """Show the beat the result moment is at (its clock drives it; QML only draws it)."""
        beat = self.presenter.beat(self._moment.beat)
        if beat.sound:
            self._play(beat.sound)
        if self.presenter.notice.endswith((SOLO_WORDS["revealing"], SOLO_WORDS["landed"])):
            self.presenter.notice = ""  # a refusal said at an earlier beat is stale now
        if beat.say:  # the pay-out: the live table shows, the result is announced
            self._announce(beat.say, beat.status)
        self._sync()

    def _freeze_if_blocked(self) -> None:
        """Pause, Help and the new-session question freeze the result moment where it is."""
        if self.shell.is_paused or self.shell.help_open or self._asking:
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
    def skipMoment(self) -> None:
        """Skip to the end of the current result moment: every remaining beat shows at once and
        the callout goes (a tap on the felt, a new session, a scene); nothing is submitted."""
        self._moment.finish()

    # ------------------------------------------------------------------ solo slots
    def _set_blockers(
        self,
        *,
        paused: bool | None = None,
        help_open: bool | None = None,
        asking: bool | None = None,
    ) -> None:
        """Change the pause, Help (the window's shell) and the question (None: as it is)."""
        self._asking = self._asking if asking is None else asking
        if paused is not None:
            self.shell.set_paused(paused)
        if help_open is not None:
            self.shell.set_help(help_open)
        self._blockers_changed()

    def _blockers_changed(self) -> None:
        """The pause, Help or the question changed (here or in the window's shell)."""
        self.presenter.notice = ""
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
            self._set_blockers(asking=True)

    @Slot()
    def cancelNewSession(self) -> None:
        self._set_blockers(asking=False)

    @Slot()
    def confirmNewSession(self) -> None:
        self._asking = False
        self.newSession()

    @Slot()
    def openHelp(self) -> None:
        self._set_blockers(help_open=True)

    @Slot()
    def closeHelp(self) -> None:
        self._set_blockers(help_open=False)

    @Slot()
    def escape(self) -> None:
        """Escape cancels the new-session question, closes Help, else pauses or resumes."""
        if self._extras.escape():  # gui-extras: closes the guide, Stats or the close question
            return
        if self._asking:
            self.cancelNewSession()
        elif self.shell.help_open:
            self.closeHelp()
        else:
            paused = not self.shell.is_paused
            self._announce(SOLO_WORDS["pausedShort"] if paused else SOLO_WORDS["resumed"])
            self._set_blockers(paused=paused, help_open=False, asking=False)

    @Slot()
    def back(self) -> None:
        """Android's Back: the question or Help closes, else solo pauses or resumes."""
        self.escape()

    @Slot()
    def resume(self) -> None:
        """Resume (the button, or Enter on it): says so, as Escape does (issue 38, finding 3:
        "Paused." stayed on the status line)."""
        if self.shell.is_paused:
            self._announce(SOLO_WORDS["resumed"])
        self._set_blockers(paused=False)

    @Slot()
    def playOnline(self) -> None:
        """Leave for online play: a session in progress pauses and waits for the return."""
        self.skipMoment()
        t = self.table
        paused = self.shell.is_paused or (not t.is_over and bool(t.throws or t.draft(SEAT).total))
        self._set_blockers(paused=paused, help_open=False, asking=False)
        self.onlineRequested.emit()

    @Slot()
    def toggleMute(self) -> None:
        self._announce(self.shell.toggle_mute())
        self._sync()

    @Slot(bool)
    def setReduceMotion(self, on: bool) -> None:
        """Reduce motion: dice, outcomes and the balance appear at once (remembered)."""
        self._settings.setValue("reduceMotion", bool(on))
        self._settings.sync()
        self._moment.set_reduce_motion(bool(on))  # a moment showing ends at once
        self._announce("Reduce motion on" if on else "Reduce motion off")
        self._sync()

    @Slot()
    def newSession(self) -> None:
        """A new session restores the starting points; nothing carries over."""
        self._moment.cancel()
        self.presenter.clear()
        self.session = SoloSession(self._nonce_source)
        self._need_release = False
        self._announce(SOLO_WORDS["newSession"])
        self._set_blockers(paused=False, asking=False)

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
            self._set_blockers(paused=True)

    def end_without_result(self, reason: EndReason) -> None:
        """End the session without a result (the 'ended' scene uses it)."""
        self.skipMoment()
        self.table.push(Abort(reason, None))
        self._announce(f"Session ended without a result: {reason_words(reason)}.")
        self._sync()
