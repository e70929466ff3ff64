"""My seat at the online table: the draft, the actions, the result moment's beats, the seats.

``OnlineTable`` is ``OnlineBridge.table``. My choices for a throw are a local draft: a copy of
the peer's kernel table on which Allocate/Reset/Reduce/Remove are applied for my seat only (the
kernel's rejection words say why anything is refused). Confirm (come-out) or Roll (point phase)
commits the draft's choice through ``RelayClient.commit``; the shared table, dice and point only
ever come from the peer's own reconstruction.

What the felt shows of my seat is published into ``seatTable`` (an ``OnlineSeat``, the
``SeatTable`` the shared ``TableView.qml`` reads) by ``publish``: the kernel's part from
``gui.seat_view.seat_view``, the same function the solo table uses. A revealed throw
(``on_thrown``) starts the result moment; its beats (``on_beat``) show the outcomes, then the
pay-out, then the next choice.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Property, QObject, QSettings, Signal, Slot

from pointline.gui.betting import (
    CHIP_VALUES,
    action_reason,
    chip_actions,
    kernel_action,
    line_reasons,
    repeat_actions,
)
from pointline.gui.history import (
    draft_words,
    history_rows,
    line_flights,
    line_outcomes,
    repeat_text,
    settlement_words,
)
from pointline.gui.online.from_net import ClientError, NetError, Step, Thrown
from pointline.gui.online.lobby import Lobby
from pointline.gui.online.models import RowsModel
from pointline.gui.online.seat import OnlineSeat
from pointline.gui.online.state import HELP_LIVE, SEAT_KEYS, SIT_OUT_ASK, Part, Shell
from pointline.gui.online.texts import people, seat_label
from pointline.gui.seat_table import state_property
from pointline.gui.seat_view import seat_view
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
    Refunded,
    Settled,
    Table,
    current_choice,
)

__all__ = ["ONLINE_TEXTS", "SEAT_ACTIONS", "OnlineTable"]

SEAT_ACTIONS = ("allocate", "confirm", "reset", "reduce", "remove", "roll", "repeat")
"""The controls of my seat whose legality the table view shows (the kernel decides each)."""
ONLINE_TEXTS = {
    **TEXTS,
    "historyEmpty": "Your contracts, every throw and every payment appear here.",
}


class OnlineTable(Part):
    """My seat at the online table; the felt itself reads ``seatTable``."""

    nextThrowChanged = Signal()
    committedChanged = Signal()
    awaitedTextChanged = Signal()
    submitted = Signal(str)
    """A choice of mine reached the client (``confirm`` or ``roll``): one per commitment."""

    def __init__(self, shell: Shell, lobby: Lobby, parent: QObject | None = None) -> None:
        super().__init__(shell, parent)
        self._lobby = lobby
        self.view: Table | None = None
        """The peer's reconstruction as of the last event (``Peer.table`` copies: cached)."""
        self._draft: Table | None = None
        self._shown: Table | None = None
        """My table as it was before the throw whose result moment is showing (else None)."""
        self._committed = False
        self._sit_out_armed = False
        """Confirm was pressed once on an empty draft: the next press sits the hand out."""
        self.ledger_mark = 0
        self._outcomes: dict[str, str] = {}
        self._line = Line.PASS
        self._chip = CHIP_VALUES[0]
        self.notice = ""
        self._announcement = ""
        self._dice = (0, 0)
        self._serial = 0
        self._next_outcomes: dict[str, str] = {}
        self._next_flights: dict[str, int] = {}
        self.next_words = ""
        self._next_sound = ""
        self.after_moment = ""
        """The screen to show when the moment ends (the last throw completed the session)."""
        self.seat_table = OnlineSeat(self, self)
        self.seat_table.publish(
            hands=HANDS_PER_SESSION,
            throwCap=THROW_CAP,
            chipValues=list(CHIP_VALUES),
            mobile=shell.on_mobile,
            texts=ONLINE_TEXTS,
            pointNumbers=sorted(POINT_NUMBERS),
            startingPoints=STARTING_POINTS,
        )
        self._seats = RowsModel(SEAT_KEYS, self)

    nextThrow = state_property(int, "nextThrow", nextThrowChanged)
    """The number of the throw being chosen for, as people count throws."""
    committed = state_property(bool, "committed", committedChanged)
    awaitedText = state_property(str, "awaitedText", awaitedTextChanged)
    seats = Property(QObject, lambda self: self._seats, constant=True)
    """Every seat at the table (a ``RowsModel`` with the roles of ``SEAT_KEYS``)."""
    history = Property(QObject, lambda self: self.seat_table.history, constant=True)
    """My ledger in words (the seat's ``HistoryModel``)."""

    # ------------------------------------------------------------------ state
    @property
    def shown(self) -> Table | None:
        """The table the screen shows: my pre-throw table while a result moment runs."""
        return self._shown if self._shown is not None else self.view

    def refresh_view(self, screen: str) -> None:
        """Read the peer's table again (the results keep the last table in sight)."""
        peer = self.shell.peer
        if peer is None:
            if screen != "results":
                self.view = None
            return
        self.view = peer.table

    def start(self) -> None:
        """A session started: nothing committed, no ledger seen yet."""
        self._committed = False
        self.ledger_mark = 0
        self._outcomes = {}

    def clear_session(self) -> None:
        """Back to the lobby: nothing of the last session stays on the felt."""
        self._shown = None
        self.after_moment = ""
        self._draft = None
        self.view = None
        self._dice = (0, 0)
        self._serial = 0
        self.notice = ""

    def fresh_draft(self) -> None:
        table = self.view
        self._draft = None if table is None else table.copy()
        self._committed = False
        self._sit_out_armed = False
        self.notice = ""

    def round_words(self) -> str:
        table = self.view
        if table is None:
            return ""
        if table.phase is Phase.POINT:
            return f"Point {table.point}: prepare Don't Pass if you like, then Roll."
        return f"Come-out for hand {table.hand}: allocate, then Confirm."

    def ledger(self) -> Any:
        t, seat = self.shown, self._lobby.seat
        return None if t is None or seat < 0 else t.seat(seat).ledger

    def announce(self, text: str) -> None:
        """Say ``text`` to screen readers (and on the status line)."""
        self._announcement = text
        self.seat_table.publish(announcement=text, status=self.notice or text)

    # ------------------------------------------------------------------ the result moment
    def on_thrown(self, event: Thrown) -> None:
        """A throw was revealed: its result moment shows it beat by beat (gui/moment)."""
        table, seat = self.view, self._lobby.seat
        assert table is not None
        before = self._draft if self._draft is not None else self.shown
        words = [f"Throw {event.throw}: {event.die1} and {event.die2}, total {event.total}"]
        entries = table.ledger_since(seat, self.ledger_mark)
        self.ledger_mark = table.ledger_length(seat)
        settled = [e for e in entries if isinstance(e, Settled)]
        refunds = [
            f"Don't Pass {e.amount} refunded (no profit)"
            for e in entries
            if isinstance(e, Refunded)
        ]
        words[:0] = refunds  # sealed by this throw's commitment: said before its dice
        words.extend(settlement_words(e) for e in settled)
        if settled:  # a line was paid or swept: the balance it left (issue 40)
            words.append(f"Balance {table.balance(seat):,}")
        outcomes = {e.outcome for e in settled}
        first = [o for o in (Outcome.WIN, Outcome.LOSS, Outcome.PUSH) if o in outcomes]
        self._next_sound = first[0].value if first else ""
        if table.phase is Phase.POINT and event.phase is not Phase.POINT:
            words.append(f"Point is {table.point}")
        self.next_words = ". ".join(words) + "."
        self._next_outcomes = line_outcomes(entries)  # shown on the felt until my next change
        self._next_flights = line_flights(entries)
        self._outcomes = {}
        self._dice = (event.die1, event.die2)
        self._serial += 1
        self.fresh_draft()
        self._shown = before.copy() if before is not None else None
        self.shell.play("dice")
        self.seat_table.rolled.emit()
        self.shell.result_moment.start(bool(self._next_outcomes))

    def on_beat(self) -> None:
        """The result moment moved on: outcomes on the felt, then the pay-out, then choices."""
        stage = self.shell.result_moment.beat
        if stage == "outcome":
            self._outcomes = self._next_outcomes
            self._sound_outcome()
        elif stage == "count":
            self._sound_outcome()
            self._shown = None  # chips pay or are swept, the balance counts
            self._outcomes = self._next_outcomes
            self.shell.announce(self.next_words)
        elif not stage:
            self._shown = None
            if self.after_moment:
                self.after_moment, screen = "", self.after_moment
                self.shell.set_screen(screen)
        self.shell.refresh_countdown()
        self.shell.show()

    def _sound_outcome(self) -> None:
        sound, self._next_sound = self._next_sound, ""
        if sound:
            self.shell.play(sound)

    # ------------------------------------------------------------------ the draft
    def reason(self, name: str) -> str:
        """Why an action is refused now ("" when legal): Help, the step, else the kernel."""
        shell = self.shell
        if shell.help_open:
            return HELP_LIVE
        if shell.asking_leave:
            return "Answer the question about leaving first."
        peer = shell.peer
        if peer is None or self._draft is None:
            return "The session has not started."
        if shell.result_moment.running:
            return SOLO_WORDS["revealing"]  # the same words as on the solo table
        if peer.is_finished or peer.state in (Step.COMPLETE, Step.ENDED):
            return "The session is over."
        if self._committed or peer.has_committed:
            return "Your choice for this throw is committed: waiting for the others."
        if peer.state is not Step.COMMIT:
            return "Waiting for every seat's reveal."
        return action_reason(self._draft, self._lobby.seat, name, self._line, self._chip)

    def _plan(self, name: str) -> list[Action]:
        """The kernel actions a control stands for: a chip is several Allocates, all or none."""
        draft, seat = self._draft, self._lobby.seat
        assert draft is not None
        if name == "allocate":
            return list(chip_actions(seat, self._line, self._chip))
        if name == "repeat":
            return list(repeat_actions(draft, seat))
        return [kernel_action(seat, name)]

    def _submit(self, name: str) -> bool:
        why = self.reason(name)
        if why:
            self.notice = why
            self.shell.announce(why)
            return False
        draft, client, seat = self._draft, self.shell.client, self._lobby.seat
        assert draft is not None and client is not None
        action = self._plan(name)[-1] if name in ("confirm", "roll") else None
        if name == "confirm" and self._empty_draft() and not self._sit_out_armed:
            # An empty Confirm sits the hand out: only a second, deliberate press does it.
            self._sit_out_armed = True
            self.notice = SIT_OUT_ASK
            self.shell.announce(SIT_OUT_ASK)
            return False
        self._sit_out_armed = False
        if name in ("confirm", "roll"):
            choice = current_choice(draft, seat)
            try:
                client.commit(choice)
            except (PointlineError, NetError, ClientError) as exc:
                self.notice = exc.text
                self.shell.announce(self.notice)
                return False
            assert action is not None
            draft.push(action)
            self.submitted.emit(name)
            self._committed = True
            self.notice = ""
            self.shell.announce(
                f"Committed Pass {choice.pass_amount}, Don't Pass {choice.dont_pass_amount} "
                "for this throw; waiting for the others."
            )
            return True
        for step in self._plan(name):
            draft.push(step)
        self.notice = ""
        self._outcomes = {}
        self.shell.announce(draft_words(draft, seat))
        return True

    def _empty_draft(self) -> bool:
        """At come-out with nothing allocated: Confirm would sit this hand out."""
        draft, seat = (self._shown if self._shown is not None else self._draft), self._lobby.seat
        if draft is None or seat < 0 or draft.phase is not Phase.COME_OUT:
            return False
        d = draft.draft(seat)
        return d.pass_amount + d.dont_pass_amount == 0

    # ------------------------------------------------------------------ publishing
    def _seat_rows(self) -> list[dict[str, Any]]:
        t, peer, mine = self.shown, self.shell.peer, self._lobby.seat
        if t is None or peer is None:
            return []
        choosing = peer.state is Step.COMMIT and not self.shell.result_moment.running
        awaiting = set(peer.awaiting) if choosing else set()
        rows = []
        for e in self._lobby.entries:
            c = t.contracts(e.seat)
            rows.append(
                {
                    "seat": e.seat,
                    "label": seat_label(e.seat),
                    "name": e.name,
                    "you": e.seat == mine,
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
        peer, mine = self.shell.peer, self._lobby.seat
        if peer is None or peer.is_finished:
            return ""
        if self.shell.result_moment.running:
            return "The result shows first, then the countdown starts."
        if peer.state is Step.RECEIPTS:
            return "Exchanging signed receipts…"
        waiting = sorted(peer.awaiting)
        if not waiting:
            return ""
        names = ["you" if s == mine else self._lobby.seat_name(s) for s in waiting]
        if mine in waiting:  # "you" first: it is the one a person can act on
            names.remove("you")
            names.insert(0, "you")
        step = "choose" if peer.state is Step.COMMIT else "reveal"
        return f"Waiting for {people(names)} to {step}"

    def _line_reasons(self) -> dict[str, str]:
        """Why the selected chip cannot go on each line now (each reason once, as solo)."""
        draft, seat = self._draft, self._lobby.seat
        if draft is None or seat < 0 or self.shell.result_moment.running:
            return {"pass": "", "dont_pass": ""}
        return line_reasons(draft, seat, self._chip, self._line, self.notice)

    def _table_hint(self, phase: Phase) -> str:
        """What the keys do at the table now (screen readers hear it on the table)."""
        if phase is Phase.POINT:
            return "Point phase. Enter or Space rolls; the countdown shows the seconds left."
        return (
            f"Come-out. Space places a {self._chip} chip on the selected line, Enter confirms; "
            "the countdown shows the seconds left."
        )

    def publish(self) -> None:
        """Publish my seat to the table view, the seats and my own properties (each property
        and each row notifies only when it changed)."""
        shown, seat, moment = self.shown, self._lobby.seat, self.shell.result_moment
        reasons = {n: self.reason(n) for n in SEAT_ACTIONS}
        draft, ledger = self._draft, self.ledger()
        view = seat_view(shown, seat, drafts=self._draft if self._shown is None else None)
        self.seat_table.publish(
            **view.values(),
            legal={n: not r for n, r in reasons.items()},
            reasons=reasons,
            selectedLine=str(self._line.value),
            chip=self._chip,
            lineReasons=self._line_reasons(),
            lineOutcomes=dict(self._outcomes),
            lineFlights=dict(self._next_flights) if self._outcomes else {},
            revealStage=moment.beat,
            die1=self._dice[0],
            die2=self._dice[1],
            rollSerial=self._serial,
            notice=self.notice,
            status=self.notice or self._announcement,
            announcement=self._announcement,
            confirmLabel=ACTION_LABELS["sitOut" if self._empty_draft() else "confirm"],
            reduceMotion=moment.reduceMotion,
            repeatText=repeat_text(draft, seat) if draft is not None else "",
            keysHint=self._table_hint(Phase(view.phase)),
        )
        self.seat_table.set_history([] if ledger is None else history_rows(ledger))
        self._seats.set_rows(self._seat_rows())
        self.put(
            nextThrow=view.throws + 1,
            committed=self._committed,
            awaitedText=self._awaited_text(),
        )

    # ------------------------------------------------------------------ the seat's slots
    def seat_act(self, name: str) -> bool:
        """A control of the table view: the named action on my draft (or my commitment)."""
        if name not in SEAT_ACTIONS:
            raise ValueError(f"an action is one of {SEAT_ACTIONS}, not {name!r}")
        done = self._submit(name)
        self.shell.show()
        return done

    def seat_key(self, key: str) -> bool:
        return bool(self.tableKey(key))

    def seat_place(self, line: str) -> bool:
        """A tap on a line: during a result moment it only ends the moment (as a fresh key
        press does); else the selected chip goes on that line, all of it or nothing."""
        if self.shell.result_moment.running:
            self.shell.result_moment.finish()
            return False
        self._line = Line(line)
        return self.seat_act("allocate")

    def seat_select_line(self, line: str) -> None:
        self._line = Line(line)
        self.shell.show()

    def seat_select_chip(self, amount: int) -> None:
        self._chip = amount
        self.notice = ""
        self.shell.show()

    def seat_explain(self, action: str) -> None:
        """A tap, hover or key on a control that is off: say why (a tap during the result
        moment ends the moment, as a fresh key press does)."""
        if self.shell.result_moment.running:
            self.shell.result_moment.finish()
            return
        why = self.reason(action)
        self.notice = f"{ACTION_LABELS.get(action, action)} is off. {why}" if why else ""
        if self.notice:
            self.shell.announce(self.notice)
        self.shell.show()

    # ------------------------------------------------------------------ slots
    @Slot(str, result=bool)
    def tableKey(self, key: str) -> bool:
        """Space or Enter on the table: allocate/confirm at come-out, roll at the point. During
        a result moment a fresh press only ends the moment (the result shows at once) and
        submits nothing: the next press acts."""
        if self.shell.result_moment.running:
            self.shell.result_moment.finish()
            return False
        shown = self.shown
        if shown is not None and shown.phase is Phase.POINT:
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

    @Slot(bool)
    def setReduceMotion(self, on: bool) -> None:
        """Reduce motion: every result shows at once (remembered, as on the solo table)."""
        settings = QSettings("Pointline", "Pointline Table")
        settings.setValue("reduceMotion", bool(on))
        settings.sync()
        self.shell.result_moment.set_reduce_motion(bool(on))
        self.shell.announce("Reduce motion on" if on else "Reduce motion off")
        self.shell.show()
