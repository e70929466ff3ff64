"""My seat at the online table: the draft, the actions, the result moment's beats, the seats and
the table's keys: a part of ``OnlineBridge`` (see gui/online/state.py).
"""

from __future__ import annotations

import contextlib
from typing import Any

from PySide6.QtCore import QSettings, Qt, Slot

from pointline.gui.betting import (
    CHIP_VALUES,
    action_reason,
    chip_actions,
    kernel_action,
    line_reasons,
    repeat_actions,
)
from pointline.gui.bridge import WINDOW_MODES
from pointline.gui.history import (
    chart_samples,
    draft_words,
    history_rows,
    line_flights,
    line_outcomes,
    repeat_text,
    settlement_words,
)
from pointline.gui.online.state import BACKGROUND_STATES, HELP_LIVE, SIT_OUT_ASK, OnlineState
from pointline.gui.online.texts import (
    KEY_HINTS,
    KEY_HINTS_SHORT,
    people,
    seat_label,
)
from pointline.gui.texts import ACTION_LABELS, SOLO_WORDS, TEXTS
from pointline.kernel import (
    HANDS_PER_SESSION,
    POINT_NUMBERS,
    STARTING_POINTS,
    THROW_CAP,
    Action,
    Line,
    Outcome,
    Phase,
    PointlineError,
    Settled,
    current_choice,
)
from pointline.net.errors import ClientError, NetError
from pointline.net.protocol.peer import (
    Step,
    Thrown,
)

__all__ = ["ONLINE_TEXTS", "SEAT_ACTIONS", "TablePart"]

SEAT_ACTIONS = ("allocate", "confirm", "reset", "reduce", "remove", "roll", "repeat")
"""The controls of my seat whose legality the table view shows (the kernel decides each)."""
ONLINE_TEXTS = {
    **TEXTS,
    "historyEmpty": "Your contracts, every throw and every payment appear here.",
}


class TablePart(OnlineState):
    """My seat at the online table, its keys and the leave question."""

    def _fresh_draft(self) -> None:
        table = self.table
        self._draft = None if table is None else table.copy()
        self._committed = False
        self._sit_out_armed = False
        self._notice = ""

    def _on_thrown(self, event: Thrown) -> None:
        """A throw was revealed: its result moment shows it beat by beat (gui/moment)."""
        table = self.table
        assert table is not None
        before = self._draft if self._draft is not None else self.shown
        words = [f"Throw {event.throw}: {event.die1} and {event.die2}, total {event.total}"]
        entries = table.ledger_since(self._seat, self._ledger_mark)
        self._ledger_mark = table.ledger_length(self._seat)
        settled = [e for e in entries if isinstance(e, Settled)]
        words.extend(settlement_words(e) for e in settled)
        outcomes = {e.outcome for e in settled}
        first = [o for o in (Outcome.WIN, Outcome.LOSS, Outcome.PUSH) if o in outcomes]
        self._next_sound = first[0].value if first else ""
        if table.phase is Phase.POINT and event.phase is not Phase.POINT:
            words.append(f"Point is {table.point}")
        self._next_words = ". ".join(words) + "."
        self._next_outcomes = line_outcomes(entries)  # shown on the felt until my next change
        self._next_flights = line_flights(entries)
        self._outcomes = {}
        self._dice = (event.die1, event.die2)
        self._serial += 1
        self._fresh_draft()
        self._shown = before.copy() if before is not None else None
        self._play("dice")
        self._seat_table.rolled.emit()
        self._moment.start(bool(self._next_outcomes))

    def _on_beat(self) -> None:
        """The result moment moved on: outcomes on the felt, then the pay-out, then choices."""
        stage = self._moment.beat
        if stage == "outcome":
            self._outcomes = self._next_outcomes
            self._sound_outcome()
        elif stage == "count":
            self._sound_outcome()
            self._shown = None  # chips pay or are swept, the balance counts
            self._outcomes = self._next_outcomes
            self._announce(self._next_words)
        elif not stage:
            self._shown = None
            if self._after_moment:
                self._after_moment, screen = "", self._after_moment
                self._set(screen=screen)
        self._refresh_countdown()
        self._show_table()

    def _sound_outcome(self) -> None:
        sound, self._next_sound = self._next_sound, ""
        if sound:
            self._play(sound)

    # ------------------------------------------------------------------ the draft
    def _ledger(self) -> Any:
        t = self.shown
        return None if t is None or self._seat < 0 else t.seat(self._seat).ledger

    def reason(self, name: str) -> str:
        """Why an action is refused now ("" when legal): Help, the step, else the kernel."""
        if self._help:
            return HELP_LIVE
        if self._asking_leave:
            return "Answer the question about leaving first."
        peer = self.peer
        if peer is None or self._draft is None:
            return "The session has not started."
        if self._moment.running:
            return SOLO_WORDS["revealing"]  # the same words as on the solo table
        if peer.is_finished or peer.state in (Step.COMPLETE, Step.ENDED):
            return "The session is over."
        if self._committed or peer.has_committed:
            return "Your choice for this throw is committed: waiting for the others."
        if peer.state is not Step.COMMIT:
            return "Waiting for every seat's reveal."
        return action_reason(self._draft, self._seat, name, self._line, self._chip)

    def _plan(self, name: str) -> list[Action]:
        """The kernel actions a control stands for: a chip is several Allocates, all or none."""
        draft = self._draft
        assert draft is not None
        if name == "allocate":
            return list(chip_actions(self._seat, self._line, self._chip))
        if name == "repeat":
            return list(repeat_actions(draft, self._seat))
        return [kernel_action(self._seat, name)]

    def _submit(self, name: str) -> bool:
        why = self.reason(name)
        if why:
            self._notice = why
            self._announce(why)
            return False
        draft, client = self._draft, self.client
        assert draft is not None and client is not None
        action = self._plan(name)[-1] if name in ("confirm", "roll") else None
        if name == "confirm" and self._empty_draft() and not self._sit_out_armed:
            # An empty Confirm sits the hand out: only a second, deliberate press does it.
            self._sit_out_armed = True
            self._notice = SIT_OUT_ASK
            self._announce(SIT_OUT_ASK)
            return False
        self._sit_out_armed = False
        if name in ("confirm", "roll"):
            choice = current_choice(draft, self._seat)
            try:
                client.commit(choice)
            except (PointlineError, NetError, ClientError) as exc:
                self._notice = exc.text
                self._announce(self._notice)
                return False
            assert action is not None
            draft.push(action)
            self.submitted.emit(name)
            self._committed = True
            self._notice = ""
            self._announce(
                f"Committed Pass {choice.pass_amount}, Don't Pass {choice.dont_pass_amount} "
                "for this throw; waiting for the others."
            )
            return True
        for step in self._plan(name):
            draft.push(step)
        self._notice = ""
        self._outcomes = {}
        self._announce(draft_words(draft, self._seat))
        return True

    def _empty_draft(self) -> bool:
        """At come-out with nothing allocated: Confirm would sit this hand out."""
        draft = self._shown if self._shown is not None else self._draft
        if draft is None or self._seat < 0 or draft.phase is not Phase.COME_OUT:
            return False
        d = draft.draft(self._seat)
        return d.pass_amount + d.dont_pass_amount == 0

    def _confirm_label(self) -> str:
        return "Sit out" if self._empty_draft() else "Confirm"

    # ------------------------------------------------------------------ property values
    def _phase(self) -> str:
        t = self.shown
        return "come_out" if t is None else str(t.phase.value)

    def _my(self, what: str) -> int:
        shown = self.shown
        t = self._draft if self._draft is not None and self._shown is None else shown
        if t is None or self._seat < 0:
            return STARTING_POINTS if what == "balance" else 0
        if what == "balance":
            return (shown or t).balance(self._seat)
        if what in ("draftPass", "draftDontPass"):
            d = t.draft(self._seat)
            return d.pass_amount if what == "draftPass" else d.dont_pass_amount
        c = (shown or t).contracts(self._seat)
        return c.pass_amount if what == "contractPass" else c.dont_pass_amount

    def _seat_rows(self) -> list[dict[str, Any]]:
        t, peer = self.shown, self.peer
        if t is None or peer is None:
            return []
        choosing = peer.state is Step.COMMIT and not self._moment.running
        awaiting = set(peer.awaiting) if choosing else set()
        rows = []
        for e in self._roster:
            c = t.contracts(e.seat)
            rows.append(
                {
                    "seat": e.seat,
                    "label": seat_label(e.seat),
                    "name": e.name,
                    "you": e.seat == self._seat,
                    "balance": t.balance(e.seat),
                    "pass": c.pass_amount,
                    "dontPass": c.dont_pass_amount,
                    "awaited": e.seat in awaiting,
                    "status": ("choosing" if e.seat in awaiting else "committed")
                    if choosing
                    else "",
                }
            )
        return rows

    def _awaited_text(self) -> str:
        peer = self.peer
        if peer is None or peer.is_finished:
            return ""
        if self._moment.running:
            return "The result shows first, then the countdown starts."
        if peer.state is Step.RECEIPTS:
            return "Exchanging signed receipts…"
        waiting = sorted(peer.awaiting)
        if not waiting:
            return ""
        names = ["you" if s == self._seat else self._seat_name(s) for s in waiting]
        if self._seat in waiting:  # "you" first: it is the one a person can act on
            names.remove("you")
            names.insert(0, "you")
        step = "choose" if peer.state is Step.COMMIT else "reveal"
        return f"Waiting for {people(names)} to {step}"

    def _key_hints(self) -> str:
        return "" if self._mobile else KEY_HINTS.get(self._screen, "")

    def _key_hints_short(self) -> str:
        return "" if self._mobile else KEY_HINTS_SHORT.get(self._screen, "")

    def _line_reasons(self) -> dict[str, str]:
        """Why the selected chip cannot go on each line now (each reason once, as solo)."""
        draft = self._draft
        if draft is None or self._seat < 0 or self._moment.running:
            return {"pass": "", "dont_pass": ""}
        return line_reasons(draft, self._seat, self._chip, self._line, self._notice)

    # ------------------------------------------------------------------ the table view
    def _seat_constants(self) -> dict[str, Any]:
        return {
            "hands": HANDS_PER_SESSION,
            "throwCap": THROW_CAP,
            "chipValues": list(CHIP_VALUES),
            "mobile": self._mobile,
            "texts": ONLINE_TEXTS,
            "pointNumbers": sorted(POINT_NUMBERS),
            "startingPoints": STARTING_POINTS,
        }

    def _publish_seat(self) -> None:
        """Publish my seat to the table view (each property notifies only when it changed)."""
        shown = self.shown
        reasons = {n: self.reason(n) for n in SEAT_ACTIONS}
        draft, ledger = self._draft, self._ledger()
        amounts = ("balance", "draftPass", "draftDontPass", "contractPass", "contractDontPass")
        self._seat_table.publish(
            **{name: self._my(name) for name in amounts},
            phase=self._phase(),
            point=(shown.point or 0) if shown else 0,
            hand=shown.hand if shown else 1,
            throws=shown.throws if shown else 0,
            legal={n: not r for n, r in reasons.items()},
            reasons=reasons,
            selectedLine=str(self._line.value),
            chip=self._chip,
            lineReasons=self._line_reasons(),
            lineOutcomes=dict(self._outcomes),
            lineFlights=dict(self._next_flights) if self._outcomes else {},
            revealStage=self._moment.beat,
            die1=self._dice[0],
            die2=self._dice[1],
            rollSerial=self._serial,
            notice=self._notice,
            status=self._notice or self._announcement,
            announcement=self._announcement,
            confirmLabel=self._confirm_label(),
            reduceMotion=self._moment.reduceMotion,
            chart=[] if ledger is None else chart_samples(ledger),
            repeatText=repeat_text(draft, self._seat) if draft is not None else "",
            keysHint=self._table_hint(),
        )
        self._seat_table.set_history([] if ledger is None else history_rows(ledger))
        own = {
            "nextThrow": (shown.throws if shown else 0) + 1,
            "committed": self._committed,
            "awaitedText": self._awaited_text(),
        }
        self._put(self._own, own)

    def _table_hint(self) -> str:
        """What the keys do at the table now (screen readers hear it on the table)."""
        if self._phase() == Phase.POINT.value:
            return "Point phase. Enter or Space rolls; the countdown shows the seconds left."
        return (
            f"Come-out. Space places a {self._chip} chip on the selected line, Enter confirms; "
            "the countdown shows the seconds left."
        )

    def seat_act(self, name: str) -> bool:
        """A control of the table view: the named action on my draft (or my commitment)."""
        if name not in SEAT_ACTIONS:
            raise ValueError(f"an action is one of {SEAT_ACTIONS}, not {name!r}")
        done = self._submit(name)
        self._show_table()
        return done

    def seat_key(self, key: str) -> bool:
        return bool(self.tableKey(key))

    def seat_place(self, line: str) -> bool:
        """A tap on a line: during a result moment it only ends the moment (as a fresh key
        press does); else the selected chip goes on that line, all of it or nothing."""
        if self._moment.running:
            self._moment.finish()
            return False
        self._line = Line(line)
        return self.seat_act("allocate")

    def seat_select_line(self, line: str) -> None:
        self._line = Line(line)
        self._show_table()

    def seat_select_chip(self, amount: int) -> None:
        self._chip = amount
        self._notice = ""
        self._show_table()

    def seat_explain(self, action: str) -> None:
        """A tap, hover or key on a control that is off: say why (a tap during the result
        moment ends the moment, as a fresh key press does)."""
        if self._moment.running:
            self._moment.finish()
            return
        why = self.reason(action)
        self._notice = f"{ACTION_LABELS.get(action, action)} is off. {why}" if why else ""
        if self._notice:
            self._announce(self._notice)
        self._show_table()

    # ------------------------------------------------------------------ table slots
    @Slot(str, result=bool)
    def tableKey(self, key: str) -> bool:
        """Space or Enter on the table: allocate/confirm at come-out, roll at the point. During
        a result moment a fresh press only ends the moment (the result shows at once) and
        submits nothing: the next press acts."""
        if self._moment.running:
            self._moment.finish()
            return False
        if self._phase() == Phase.POINT.value:
            return self.seat_act("roll")
        return self.seat_act("allocate" if key == "space" else "confirm")

    @Slot(str)
    def selectLine(self, name: str) -> None:
        """Select a line for Allocate (selection is not a submission)."""
        self.seat_select_line(name)

    @Slot()
    def toggleLine(self) -> None:
        self.seat_select_line("dont_pass" if self._line is Line.PASS else "pass")

    @Slot(result=bool)
    def allocate(self) -> bool:
        return self.seat_act("allocate")

    @Slot(result=bool)
    def confirm(self) -> bool:
        return self.seat_act("confirm")

    @Slot(result=bool)
    def reset(self) -> bool:
        return self.seat_act("reset")

    @Slot(result=bool)
    def reduceDontPass(self) -> bool:
        return self.seat_act("reduce")

    @Slot(result=bool)
    def removeDontPass(self) -> bool:
        return self.seat_act("remove")

    @Slot(result=bool)
    def roll(self) -> bool:
        return self.seat_act("roll")

    @Slot()
    def openHelp(self) -> None:
        self._set(help=True)

    @Slot()
    def closeHelp(self) -> None:
        self._set(help=False)

    @Slot(bool)
    def setReduceMotion(self, on: bool) -> None:
        """Reduce motion: every result shows at once (remembered, as on the solo table)."""
        settings = QSettings("Pointline", "Pointline Table")
        settings.setValue("reduceMotion", bool(on))
        settings.sync()
        self._moment.set_reduce_motion(bool(on))
        self._announce("Reduce motion on" if on else "Reduce motion off")
        self._show_table()

    @Slot()
    def escape(self) -> None:
        """Escape closes Help (or the leave question); online nothing pauses."""
        if self._help:
            self._set(help=False)
        elif self._asking_leave:
            self._set(asking_leave=False)
        elif self._screen == "table":
            self._announce("Online sessions do not pause: the countdown keeps running.")

    @Slot()
    def back(self) -> None:
        """Android Back: closes Help; at the table asks before leaving; in the lobby leaves the
        room (or goes back to the solo table); at sign-in only goes back to the solo table."""
        if self._help:
            self._set(help=False)
        elif self._asking_leave:
            self._set(asking_leave=False)
        elif self._screen == "table":
            self.askLeave()
        elif self._screen == "lobby":
            if self._code:
                self.leaveRoom()
            elif self._on_leave is not None:
                self.leave()
        elif self._screen == "results":
            self.backToLobby()
        elif self._on_leave is not None and not self._busy:
            self.leave()

    @Slot()
    def askLeave(self) -> None:
        """Leaving the table ends the session for everyone: ask first."""
        if self._screen != "table":
            return
        if not self._session_running():
            self.leaveRoom()
            return
        self._set(asking_leave=True)
        self._announce(
            "Leave the table? The session ends for everyone without a result. Choose Leave or Stay."
        )

    @Slot()
    def confirmLeave(self) -> None:
        if not self._asking_leave:
            return
        self._set(asking_leave=False)
        self.leaveRoom()

    @Slot()
    def cancelLeave(self) -> None:
        if self._asking_leave:
            self._set(asking_leave=False)
            self._announce("You stay at the table.")

    @Slot(str)
    def setWindowMode(self, mode: str) -> None:
        """Standard, Theater or Fullscreen: only the window changes, the session is kept."""
        if mode not in WINDOW_MODES:
            raise ValueError(f"window mode is one of {WINDOW_MODES}, not {mode!r}")
        self._set(mode=mode)

    @Slot()
    def cycleWindowMode(self) -> None:
        self.setWindowMode(WINDOW_MODES[(WINDOW_MODES.index(self._mode) + 1) % 3])

    @Slot()
    def toggleMute(self) -> None:
        self._set(muted=not self._muted)
        if self.sounds is not None:
            self.sounds.muted = self._muted
        self._announce("Sound off" if self._muted else "Sound on")

    def applicationStateChanged_(self, state: Qt.ApplicationState) -> None:
        """For ``QGuiApplication.applicationStateChanged`` (it passes the enum member)."""
        self.applicationStateChanged(state.value)

    @Slot(int)
    def applicationStateChanged(self, state: int) -> None:
        """Suspended or Hidden ends a running session without a result (not a focus loss)."""
        if state not in BACKGROUND_STATES:
            return
        peer, client = self.peer, self.client
        if client is None or peer is None or peer.is_finished:
            return
        with contextlib.suppress(ClientError):
            client.background()
        self._show_table()
