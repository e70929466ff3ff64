"""The one table presenter: a kernel ``Table`` and a seat in, everything the table screen shows out.

No Qt here (a test imports this module and finds no PySide6 loaded). ``TablePresenter`` keeps
what a seat's screen holds beyond the kernel (the selected line and chip, the notice, the
sit-out question, the dice, the roll serial, the throw being revealed and its beats) and turns
it, with a kernel table, into the value of every ``SeatTable`` property (``PROPERTIES``):
selection, chip, drafts, the reveal's beats, dice, outcomes, reasons, words, legal actions, the
confirm label, the repeat text, the keys hint, what Space and Enter do, the result moment.

Solo, online and replay present the same way and differ only in where actions go (the kernel,
the ``Peer``, nowhere) and in the words of their keys hint: each passes the table its actions
would go to (``acting``: solo's live table, the online draft, none in a replay), the table
shown (the pre-throw table while a throw is revealed: ``TablePresenter.before``), and why
everything is refused now (``blocked``: Help, pause, the replay), and publishes
``TablePresenter.values`` into its ``SeatTable`` (``gui.seat_table``), which declares one Qt
property per row of ``PROPERTIES``. The rules stay in the kernel (``gui.betting`` asks it), the
words in ``gui.texts`` and ``gui.history``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pointline.gui.betting import CHIP_VALUES, action_reason, line_reasons
from pointline.gui.history import (
    end_reason,
    line_flights,
    line_outcomes,
    repeat_text,
    result_text,
)
from pointline.gui.seat_view import SeatView, seat_view
from pointline.gui.texts import ACTION_LABELS, SOLO_WORDS
from pointline.kernel import (
    HANDS_PER_SESSION,
    POINT_NUMBERS,
    STARTING_POINTS,
    THROW_CAP,
    Entry,
    Line,
    Outcome,
    Phase,
    Settled,
    Table,
)

__all__ = [
    "PROPERTIES",
    "TABLE_ACTIONS",
    "Beat",
    "KeysHint",
    "TablePresenter",
    "key_action",
]

TABLE_ACTIONS = ("allocate", "confirm", "reset", "reduce", "remove", "roll", "repeat")
"""The table's controls whose legality and reason the view shows (the kernel decides each)."""

PROPERTIES: dict[str, tuple[type, Any]] = {
    "phase": (str, "come_out"),
    "point": (int, 0),
    "balance": (int, 0),
    "hand": (int, 1),
    "hands": (int, 0),
    "throws": (int, 0),
    "throwCap": (int, 0),
    "draftPass": (int, 0),
    "draftDontPass": (int, 0),
    "contractPass": (int, 0),
    "contractDontPass": (int, 0),
    "selectedLine": (str, "pass"),
    "legal": (dict, {}),
    "reasons": (dict, {}),
    "lineReasons": (dict, {}),
    "lineOutcomes": (dict, {}),
    "lineFlights": (dict, {}),
    "die1": (int, 0),
    "die2": (int, 0),
    "rollSerial": (int, 0),
    "revealStage": (str, ""),
    "feltMessage": (str, ""),
    "callout": (str, ""),
    "announcement": (str, ""),
    "notice": (str, ""),
    "status": (str, ""),
    "confirmLabel": (str, "Confirm"),
    "reduceMotion": (bool, False),
    "isOver": (bool, False),
    "resultText": (str, ""),
    "endReason": (str, ""),
    "chart": (list, []),
    "chip": (int, 10),
    "chipValues": (list, []),
    "repeatText": (str, ""),
    "keysHint": (str, ""),
    "mobile": (bool, False),
    "texts": (dict, {}),
    "pointNumbers": (list, []),
    "startingPoints": (int, 0),
    "comeOut": (bool, True),
    "pointPhase": (bool, False),
    "feltTitle": (str, "Come-out"),
    "lineRefunds": (dict, {}),
    "endTitle": (str, ""),
    "endNote": (str, ""),
    "summary": (str, ""),
}
"""Every property of the table screen: its Python type (dict and list are QML maps and lists)
and its value before anything is presented. ``SeatTable`` declares one Qt property and one
notify signal per row; ``TablePresenter.values`` and ``constants`` give a value for every row.

``phase`` ("come_out", "point", "complete", "ended"); ``legal`` and ``reasons`` are keyed by
``TABLE_ACTIONS``; ``lineReasons``: why the selected chip cannot go on each line ("" when it
can); ``lineOutcomes``: each line's outcome after a throw ("+20", "−10", "push", "refund 10");
``lineFlights``: the chips each outcome slides (``history.line_flights``); ``rollSerial``: one
more per throw; ``revealStage``: the result moment's beat ("" idle, "rolling", "outcome",
"count"); ``callout``: the total and what it did, large over the felt once the dice land ("" before
they land and once the moment is over); ``announcement``: what screen readers hear; ``notice``: a
reason shown on demand;
``status``: the status line; ``confirmLabel``: "Confirm" or "Sit out"; ``chart``: balance
samples; ``texts``: labels built from the kernel's constants; ``comeOut`` and ``pointPhase``:
the phase as QML uses it (it compares no phase); ``lineRefunds``: what a prepared reduction
gives back; ``endTitle`` and ``endNote``: the words over a finished session's chart."""

KeysHint = Callable[[Phase, bool, int], str]
"""The footer's words for what the keys do (phase, on a phone, the selected chip): each screen's
own (solo pauses, online counts down, a replay steps)."""


def key_action(phase: Phase, key: str) -> str:
    """What Space or Enter pressed on the table does: roll at the point; at come-out Space
    places the chip and Enter confirms."""
    if phase is Phase.POINT:
        return "roll"
    return "allocate" if key == "space" else "confirm"


def first_outcome(entries: Iterable[Entry]) -> str:
    """The outcome a throw sounds like ("win" over "loss" over "push"; "" when none settled)."""
    seen = {e.outcome for e in entries if isinstance(e, Settled)}
    first = [o for o in (Outcome.WIN, Outcome.LOSS, Outcome.PUSH) if o in seen]
    return first[0].value if first else ""


@dataclass(frozen=True)
class Beat:
    """What a beat of the result moment asks of the screen's owner (nothing else changes)."""

    sound: str = ""
    """A sound to play now ("" none)."""
    say: str = ""
    """Words to announce now ("" none): the throw's result, at the pay-out."""
    status: str = ""
    """The status line's shorter form of ``say`` ("" the same)."""
    ended: bool = False
    """The moment ended (idle again)."""


@dataclass
class _Throw:
    """The throw being revealed: what its beats show."""

    outcomes: dict[str, str] = field(default_factory=dict)
    flights: dict[str, int] = field(default_factory=dict)
    sound: str = ""
    say: str = ""
    status: str = ""
    felt: str = ""
    callout: str = ""


class TablePresenter:
    """One seat's table screen, without Qt (see the module docstring)."""

    def __init__(self, hint: KeysHint, *, mobile: bool = False, shows_end: bool = True) -> None:
        self.hint = hint
        self.mobile = mobile
        self.shows_end = shows_end
        """The felt turns into the session's result when it is over (solo); online the results
        screen shows it, in a replay the verdict."""
        self.line = Line.PASS
        self.chip = CHIP_VALUES[0]
        self.notice = ""
        """A refusal or a reason shown on demand ("" none)."""
        self.sit_out_armed = False
        """Confirm was pressed once on an empty draft: the next press sits the hand out."""
        self.dice = (0, 0)
        self.serial = 0
        self.before: Table | None = None
        """The table as it was before the throw being revealed (None: show the live table)."""
        self.outcomes: dict[str, str] = {}
        """Each line's outcome shown on the felt ({} none)."""
        self.felt_message = ""
        self._throw = _Throw()

    # ------------------------------------------------------------------ constants
    @staticmethod
    def constants(texts: dict[str, str], mobile: bool) -> dict[str, Any]:
        """The properties that never change at a table (numbers from the kernel, the texts)."""
        return {
            "hands": HANDS_PER_SESSION,
            "throwCap": THROW_CAP,
            "chipValues": list(CHIP_VALUES),
            "mobile": mobile,
            "texts": texts,
            "pointNumbers": sorted(POINT_NUMBERS),
            "startingPoints": STARTING_POINTS,
        }

    # ------------------------------------------------------------------ choices
    def shown(self, live: Table | None) -> Table | None:
        """The table the screen shows: the pre-throw table while a throw is revealed."""
        return self.before if self.before is not None else live

    def select(self, line: str | Line | None = None, chip: int | None = None) -> None:
        """Select a line or a chip (selection is not a submission)."""
        if line is not None:
            self.line = Line(line)
            self.sit_out_armed = False
        if chip is not None:
            if chip not in CHIP_VALUES:
                raise ValueError(f"a chip is one of {CHIP_VALUES}, not {chip!r}")
            self.chip = chip
            self.notice = ""

    def reason(self, acting: Table | None, seat: int, name: str, blocked: str = "") -> str:
        """Why the control ``name`` is off now ("" when on): ``blocked`` first, else the
        kernel's words on the table the action would go to."""
        if blocked:
            return blocked
        if acting is None or seat < 0:
            return "The session has not started."
        return action_reason(acting, seat, name, self.line, self.chip)

    def explain(self, reason: str, action: str) -> str:
        """The notice for a tap, hover or key on a control that is off ("" when it is on)."""
        self.notice = f"{ACTION_LABELS.get(action, action)} is off. {reason}" if reason else ""
        return self.notice

    @staticmethod
    def sits_out(table: Table | None, seat: int) -> bool:
        """At come-out with nothing allocated: Confirm would sit this hand out."""
        if table is None or seat < 0 or table.phase is not Phase.COME_OUT:
            return False
        return table.draft(seat).total == 0

    def arm_sit_out(self, acting: Table | None, seat: int) -> bool:
        """An empty Confirm asks first: True when this press only asks (arms the question)."""
        if self.sits_out(acting, seat) and not self.sit_out_armed:
            self.sit_out_armed = True
            return True
        self.sit_out_armed = False
        return False

    # ------------------------------------------------------------------ the result moment
    def start_throw(
        self,
        before: Table | None,
        dice: tuple[int, int],
        entries: Iterable[Entry],
        *,
        say: str,
        status: str = "",
        felt: str = "",
        callout: str = "",
    ) -> bool:
        """A throw was revealed: ``before`` shows until its pay-out; ``callout`` shows once the
        dice land. Returns whether a line settled (the moment then has an outcome beat)."""
        entries = tuple(entries)
        self.dice = dice
        self.serial += 1
        self.before = before
        self.outcomes = {}
        self.felt_message = ""
        self._throw = _Throw(
            line_outcomes(entries),
            line_flights(entries),
            first_outcome(entries),
            say,
            status,
            felt,
            callout,
        )
        return bool(self._throw.outcomes)

    def show_throw(self, dice: tuple[int, int], entries: Iterable[Entry], *, moved: bool) -> None:
        """A replay's step: the throw's dice and outcomes at once (``moved``: one step forward,
        so the dice fly and the chips slide; else nothing moves)."""
        self.start_throw(None, dice, entries, say="")
        self.beat("count")
        if not moved:
            self.serial -= 1
            self._throw.flights = {}

    def show_no_throw(self) -> None:
        """A replay before its first throw: no dice, no outcomes."""
        self.dice = (0, 0)
        self.outcomes = {}
        self._throw = _Throw()

    @property
    def settles(self) -> bool:
        """The last throw revealed settled a line (its moment has an outcome beat)."""
        return bool(self._throw.outcomes)

    def add_words(self, words: str) -> None:
        """More to say at the pay-out of the throw being revealed (the next round's words)."""
        self._throw.say = f"{self._throw.say} {words}"

    def _sound(self) -> str:
        sound, self._throw.sound = self._throw.sound, ""
        return sound

    def beat(self, stage: str) -> Beat:
        """The result moment is at ``stage``: outcomes on the felt, then the pay-out (the live
        table shows, the result is said), then idle."""
        if stage == "outcome":
            self.outcomes = self._throw.outcomes
            return Beat(sound=self._sound())
        if stage == "count":
            self.before = None
            self.outcomes = self._throw.outcomes
            self.felt_message = self._throw.felt
            return Beat(self._sound(), self._throw.say, self._throw.status)
        if not stage:
            self.before = None
            return Beat(ended=True)
        return Beat()

    def clear(self) -> None:
        """A new session (or back to the lobby): nothing of the last one stays on the felt."""
        self.before = None
        self.outcomes = {}
        self.felt_message = ""
        self.dice = (0, 0)
        self.serial = 0
        self.sit_out_armed = False
        self.notice = ""
        self._throw = _Throw()

    # ------------------------------------------------------------------ the screen
    def values(
        self,
        live: Table | None,
        seat: int,
        *,
        acting: Table | None,
        stage: str = "",
        blocked: str = "",
        reduce_motion: bool = False,
        announcement: str = "",
        status: str = "",
        held: str = "",
        view: SeatView | None = None,
        landed: bool = False,
    ) -> dict[str, Any]:
        """Every ``SeatTable`` property but the constants: ``live`` is the table as it is now
        (the peer's reconstruction online), ``acting`` the one the seat's actions go to (None:
        nowhere), ``stage`` the result moment's beat, ``blocked`` why every action is refused
        now, ``status`` the status line when no notice takes it, ``held`` a state that takes it
        before the notice (solo's pause), ``view`` the kernel's part when it is not the seat view
        of the table shown (a replay's step shows the contracts its throw decided), ``landed``
        the result moment's dice have landed (``ResultMoment.landed``): the callout shows.

        While the dice roll the status line says so; once they land, until the pay-out says
        the result, it says what the callout says (never "rolling" over landed dice)."""
        shown = self.shown(live)
        revealing = self.before is not None
        reasons = {n: self.reason(acting, seat, n, blocked) for n in TABLE_ACTIONS}
        if view is None:
            view = seat_view(shown, seat, drafts=None if revealing else acting)
        ends = self.shows_end and shown is not None and shown.is_over
        mine = ends and shown is not None and 0 <= seat < shown.seat_count
        asks = self.sits_out(shown if revealing else acting, seat) and not reasons["confirm"]
        quiet = stage or acting is None or seat < 0
        callout = self._throw.callout if landed else ""
        if stage == "rolling":
            status = SOLO_WORDS["rolling"]
        elif stage == "outcome" and callout:
            status = callout
        return {
            **view.values(),
            "selectedLine": str(self.line.value),
            "chip": self.chip,
            "legal": {n: not r for n, r in reasons.items()},
            "reasons": reasons,
            "lineReasons": {"pass": "", "dont_pass": ""}
            if quiet or acting is None
            else line_reasons(acting, seat, self.chip, self.line, self.notice),
            "lineOutcomes": dict(self.outcomes),
            "lineFlights": dict(self._throw.flights) if self.outcomes else {},
            "die1": self.dice[0],
            "die2": self.dice[1],
            "rollSerial": self.serial,
            "revealStage": stage,
            "feltMessage": self.felt_message,
            "callout": callout,
            "announcement": announcement,
            "notice": self.notice,
            "status": held or self.notice or status,
            "confirmLabel": ACTION_LABELS["sitOut" if asks else "confirm"],
            "reduceMotion": reduce_motion,
            "isOver": ends,
            "resultText": result_text(shown, seat) if mine and shown is not None else "",
            "endReason": end_reason(shown) if ends and shown is not None else "",
            "repeatText": repeat_text(acting, seat) if acting is not None and seat >= 0 else "",
            "keysHint": self.hint(Phase(view.phase), self.mobile, self.chip),
        }

    def key(self, acting: Table | None, key: str) -> str:
        """The action Space or Enter on the table stands for now (``key_action``)."""
        phase = acting.phase if acting is not None else Phase.COME_OUT
        return key_action(phase, key)
