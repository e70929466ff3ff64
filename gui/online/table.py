"""My seat at the online table: the draft, the actions, the result moment's beats, the seats.

``OnlineTable`` is ``OnlineBridge.table``. My choices for a throw are a local draft: a copy of
the peer's kernel table on which Allocate/Reset/Reduce/Remove are applied for my seat only (the
kernel's rejection words say why anything is refused). Confirm (come-out) or Roll (point phase)
commits the draft's choice through ``RelayClient.commit``; the shared table, dice and point only
ever come from the peer's own reconstruction.

What the felt shows of my seat is the table presenter's (``gui.presenter.TablePresenter``, the
one solo and the replay use too) on the peer's table with my draft as the table actions go to,
published into ``seatTable`` (an ``OnlineSeat``). A revealed throw (``on_thrown``) starts the
result moment; its beats (``on_beat``) show the outcomes, then the pay-out, then the next choice.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Property, QObject, QSettings, Signal, Slot

from pointline.gui.betting import chip_actions, kernel_action, repeat_actions
from pointline.gui.history import callout_words, draft_words, history_rows, settlement_words
from pointline.gui.online.from_net import (
    ClientError,
    NetError,
    RoundOpened,
    SessionComplete,
    SessionStarted,
    Step,
    Thrown,
)
from pointline.gui.online.lobby import Lobby
from pointline.gui.online.models import RowsModel
from pointline.gui.online.seat import OnlineSeat
from pointline.gui.online.state import HELP_LIVE, SEAT_KEYS, SIT_OUT_ASK, Link, Part
from pointline.gui.online.texts import people, seat_label
from pointline.gui.presenter import TABLE_ACTIONS, TablePresenter
from pointline.gui.seat_table import state_property
from pointline.gui.texts import TEXTS, moment_reason
from pointline.kernel import (
    Action,
    Line,
    Phase,
    PointlineError,
    Refunded,
    Settled,
    Table,
    ThrowSeen,
    current_choice,
)

__all__ = ["ONLINE_TEXTS", "SEAT_ACTIONS", "OnlineTable"]

SEAT_ACTIONS = TABLE_ACTIONS
"""The controls of my seat whose legality the table view shows (the kernel decides each)."""
ONLINE_TEXTS = {
    **TEXTS,
    "historyEmpty": "Your contracts, every throw and every payment appear here.",
}


def table_hint(phase: Phase, mobile: bool, chip: int) -> str:
    """What the keys do at the online table now (screen readers hear it on the table)."""
    if phase is Phase.POINT:
        return "Point phase. Enter or Space rolls; the countdown shows the seconds left."
    return (
        f"Come-out. Space places a {chip} chip on the selected line, Enter confirms; "
        "the countdown shows the seconds left."
    )


class OnlineTable(Part):
    """My seat at the online table; the felt itself reads ``seatTable``."""

    nextThrowChanged = Signal()
    committedChanged = Signal()
    awaitedTextChanged = Signal()
    submitted = Signal(str)
    """A choice of mine reached the client (``confirm`` or ``roll``): one per commitment."""

    def __init__(self, shell: Link, lobby: Lobby, parent: QObject | None = None) -> None:
        super().__init__(shell, parent)
        self._lobby = lobby
        self.view: Table | None = None
        """The peer's reconstruction as of the last event (``Peer.table`` copies: cached)."""
        self._draft: Table | None = None
        self._committed = False
        self.ledger_mark = 0
        self.presenter = TablePresenter(table_hint, mobile=shell.on_mobile)
        """What the table screen shows (gui/presenter.py); actions go to the Peer."""
        self._announcement = ""
        self._greeting = ""
        """The session's first words, said with the table as it takes the focus (``greet``)."""
        self.after_moment = ""
        """The screen to show when the moment ends (the last throw completed the session)."""
        self.seat_table = OnlineSeat(self, self)
        self.seat_table.publish(**TablePresenter.constants(ONLINE_TEXTS, shell.on_mobile))
        self._seats = RowsModel(SEAT_KEYS, self)
        events = shell.events  # the events this table owns; it publishes after each
        events.subscribe(object, self.on_event)  # any event may move the peer's table
        events.subscribe(SessionStarted, self.on_started)
        events.subscribe(RoundOpened, self.on_round)
        events.subscribe(Thrown, self.on_thrown)
        events.subscribe(SessionComplete, self.on_complete)
        events.shared.connect(self.publish)

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
        return self.presenter.shown(self.view)

    def refresh_view(self, screen: str) -> None:
        """Read the peer's table again (the results keep the last table in sight)."""
        peer = self.shell.peer
        if peer is None:
            if screen != "results":
                self.view = None
            return
        self.view = peer.table

    def on_event(self, _event: object) -> None:
        """Any relay event: read the peer's table again (it may have moved)."""
        self.refresh_view(self.shell.screen_name)

    def on_started(self, _event: SessionStarted) -> None:
        self.start()

    def on_round(self, _event: RoundOpened) -> None:
        """A round opened: a fresh draft; its words are said now, or at the pay-out of the
        throw whose result is still showing. The first round's are not: the session's first
        words, still waiting for the table's focus, say it (allocate, then confirm), and the
        table's name says the hand and the phase (``greet``)."""
        self.fresh_draft()
        if self._greeting:
            return
        if self.shell.result_moment.running:
            self.add_words(self.round_words())
        else:
            self.shell.announce(self.round_words())

    def on_complete(self, _event: SessionComplete) -> None:
        """The session completed: the results show once the last throw's result has shown."""
        if self.shell.result_moment.running:
            self.after_moment = "results"

    def start(self) -> None:
        """A session started: nothing committed, no ledger seen yet."""
        self._committed = False
        self.ledger_mark = 0
        self.presenter.outcomes = {}

    def clear_session(self) -> None:
        """Back to the lobby: nothing of the last session stays on the felt."""
        self._greeting = ""
        self.presenter.clear()
        self.after_moment = ""
        self._draft = None
        self.view = None

    def fresh_draft(self) -> None:
        table = self.view
        self._draft = None if table is None else table.copy()
        self._committed = False
        self.presenter.sit_out_armed = False
        self.presenter.notice = ""

    def add_words(self, words: str) -> None:
        """Said at the pay-out of the throw whose result is showing (the next round's words)."""
        self.presenter.add_words(words)

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
        self.publish()

    def greet(self, text: str) -> None:
        """The session's first words: on the status line, and said with the table when it takes
        the focus, as the first words of its description (the keys follow them), never as a
        Notification. They come with a whole new screen, and Orca 43 skips every Notification
        it meets in that flood of events (more than 50 queued) and prunes the queued ones at the
        table's focus event; the focus event itself it always presents, reading the table's
        name and description then (issue 40). The table's description holds still while it has
        the focus (TableView's tableArea), so they are said once; the seat's first action drops
        them (``_acted``), and the description is the keys alone once the focus leaves."""
        self._greeting = text
        self.publish()

    def _acted(self) -> None:
        """The seat acted at the table: the session's first words were heard with it."""
        self._greeting = ""

    # ------------------------------------------------------------------ the result moment
    def on_thrown(self, event: Thrown) -> None:
        """A throw was revealed: its result moment shows it beat by beat (gui/moment)."""
        table, seat = self.view, self._lobby.seat
        assert table is not None
        self._greeting = ""  # a throw came: the session's first words are behind us
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
        words.extend(refunds)  # sealed by this throw's commitment: said after its dice
        words.extend(settlement_words(e) for e in settled)
        if settled:  # a line was paid or swept: the balance it left (issue 40)
            words.append(f"Balance {table.balance(seat):,}")
        if table.phase is Phase.POINT and event.phase is not Phase.POINT:
            words.append(f"Point is {table.point}")
        before = before.copy() if before is not None else None
        self.fresh_draft()
        # the throw as my ledger saw it (its phase and point before it; ``event`` has them after)
        seen = next((e for e in entries if isinstance(e, ThrowSeen)), None)
        settles = self.presenter.start_throw(
            before,
            (event.die1, event.die2),
            entries,
            say=". ".join(words) + ".",
            callout="" if seen is None else callout_words(seen),
        )
        self.shell.play("dice")
        self.seat_table.rolled.emit()
        self.shell.result_moment.start(settles)

    def on_beat(self) -> None:
        """The result moment moved on: outcomes on the felt, then the pay-out, then choices."""
        beat = self.presenter.beat(self.shell.result_moment.beat)
        if beat.sound:
            self.shell.play(beat.sound)
        if beat.say:  # chips pay or are swept, the balance counts
            self.shell.announce(beat.say)
        if beat.ended and self.after_moment:
            self.after_moment, screen = "", self.after_moment
            self.shell.set_screen(screen)
        self.shell.refresh_countdown()
        self.publish()

    # ------------------------------------------------------------------ the draft
    def _blocked(self) -> str:
        """Why every action is refused now ("" none): Help, the question, the step."""
        shell = self.shell
        if shell.help_open:
            return HELP_LIVE
        if shell.asking_leave:
            return "Answer the question about leaving first."
        peer = shell.peer
        if peer is None or self._draft is None:
            return "The session has not started."
        if shell.result_moment.running:
            return moment_reason(shell.result_moment.landed)  # the words of the solo table
        if peer.is_finished or peer.state in (Step.COMPLETE, Step.ENDED):
            return "The session is over."
        if self._committed or peer.has_committed:
            return "Your choice for this throw is committed: waiting for the others."
        if peer.state is not Step.COMMIT:
            return "Waiting for every seat's reveal."
        return ""

    def reason(self, name: str) -> str:
        """Why an action is refused now ("" when legal): Help, the step, else the kernel."""
        return self.presenter.reason(self._draft, self._lobby.seat, name, self._blocked())

    def _plan(self, name: str) -> list[Action]:
        """The kernel actions a control stands for: a chip is several Allocates, all or none."""
        draft, seat = self._draft, self._lobby.seat
        assert draft is not None
        if name == "allocate":
            return list(chip_actions(seat, self.presenter.line, self.presenter.chip))
        if name == "repeat":
            return list(repeat_actions(draft, seat))
        return [kernel_action(seat, name)]

    def _submit(self, name: str) -> bool:
        self._acted()
        why = self.reason(name)
        if why:
            self.presenter.notice = why
            self.shell.announce(why)
            return False
        draft, client, seat = self._draft, self.shell.client, self._lobby.seat
        assert draft is not None and client is not None
        action = self._plan(name)[-1] if name in ("confirm", "roll") else None
        if name == "confirm" and self.presenter.arm_sit_out(draft, seat):
            # An empty Confirm sits the hand out: only a second, deliberate press does it.
            self.presenter.notice = SIT_OUT_ASK
            self.shell.announce(SIT_OUT_ASK)
            return False
        self.presenter.sit_out_armed = False
        if name in ("confirm", "roll"):
            choice = current_choice(draft, seat)
            try:
                client.commit(choice)
            except (PointlineError, NetError, ClientError) as exc:
                self.presenter.notice = exc.text
                self.shell.announce(self.presenter.notice)
                return False
            assert action is not None
            draft.push(action)
            self.submitted.emit(name)
            self._committed = True
            self.presenter.notice = ""
            self.shell.announce(
                f"Committed Pass {choice.pass_amount}, Don't Pass {choice.dont_pass_amount} "
                "for this throw; waiting for the others."
            )
            return True
        for step in self._plan(name):
            draft.push(step)
        self.presenter.notice = ""
        self.presenter.outcomes = {}
        self.shell.announce(draft_words(draft, seat))
        return True

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

    def publish(self) -> None:
        """Publish my seat to the table view (the presenter's values), the seats and my own
        properties (each property and each row notifies only when it changed)."""
        moment, ledger = self.shell.result_moment, self.ledger()
        values = self.presenter.values(
            self.view,
            self._lobby.seat,
            acting=self._draft,
            stage=moment.beat,
            blocked=self._blocked(),
            reduce_motion=moment.reduce_motion,
            landed=moment.landed,
            announcement=self._announcement,
            status=self._greeting or self._announcement,
        )
        if self._greeting:  # said with the table as it takes the focus (``greet``)
            values["keysHint"] = f"{self._greeting} {values['keysHint']}"
        self.seat_table.present(values)
        self.seat_table.set_history([] if ledger is None else history_rows(ledger))
        self._seats.set_rows(self._seat_rows())
        self.put(
            nextThrow=self.seat_table.value("throws") + 1,
            committed=self._committed,
            awaitedText=self._awaited_text(),
        )

    # ------------------------------------------------------------------ the seat's slots
    def seat_act(self, name: str) -> bool:
        """A control of the table view: the named action on my draft (or my commitment)."""
        if name not in SEAT_ACTIONS:
            raise ValueError(f"an action is one of {SEAT_ACTIONS}, not {name!r}")
        self.shell.result_moment.drop_callout()  # the last callout goes with the next action
        done = self._submit(name)
        self.publish()
        return done

    def seat_key(self, key: str) -> bool:
        return bool(self.tableKey(key))

    def seat_place(self, line: str) -> bool:
        """A tap on a line: during a result moment it only ends the moment (as a fresh key
        press does); else the selected chip goes on that line, all of it or nothing."""
        if self.shell.result_moment.running:
            self.shell.result_moment.finish()
            return False
        self.presenter.line = Line(line)
        return self.seat_act("allocate")

    def seat_skip(self) -> None:
        """A tap on the felt during a throw's result: it shows at once; nothing is submitted."""
        self.shell.result_moment.finish()

    def seat_select_line(self, line: str) -> None:
        self.presenter.line = Line(line)
        self.publish()

    def seat_select_chip(self, amount: int) -> None:
        self.presenter.select(chip=amount)
        self.publish()

    def seat_explain(self, action: str) -> None:
        """A tap, hover or key on a control that is off: say why (a tap during the result
        moment ends the moment, as a fresh key press does)."""
        if self.shell.result_moment.running:
            self.shell.result_moment.finish()
            return
        if self.presenter.explain(self.reason(action), action):
            self.shell.announce(self.presenter.notice)
        self.publish()

    # ------------------------------------------------------------------ slots
    @Slot(str, result=bool)
    def tableKey(self, key: str) -> bool:
        """Space or Enter on the table: allocate/confirm at come-out, roll at the point. During
        a result moment a fresh press only ends the moment (the result shows at once) and
        submits nothing: the next press acts."""
        if self.shell.result_moment.running:
            self.shell.result_moment.finish()
            return False
        return self.seat_act(self.presenter.key(self.shown, key))

    @Slot(str)
    def selectLine(self, name: str) -> None:
        """Select a line for Allocate (selection is not a submission)."""
        self.seat_select_line(name)

    @Slot()
    def toggleLine(self) -> None:
        self.seat_select_line("dont_pass" if self.presenter.line is Line.PASS else "pass")

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
        self.publish()
