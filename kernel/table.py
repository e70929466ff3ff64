"""The table: 1 to 8 seats sharing one pair of dice, one point and one session.

``Table`` is stepped by ``push``; every step is decided by one row of
``kernel.rules.TRANSITIONS``. A rejected action raises ``MalformedAction`` or
``IllegalAction`` and leaves the table exactly as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pointline.kernel._state import SeatSlots
from pointline.kernel._steps import (
    CLASS_OF_KIND,
    EFFECTS,
    GUARDS,
    LOOKUPS,
    EffectFn,
    GuardFn,
    Step,
    not_an_action,
    see_throw,
)
from pointline.kernel.actions import (
    SEAT_KINDS,
    Action,
    Allocate,
    Confirm,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    SeatAction,
    Throw,
)
from pointline.kernel.codes import Code
from pointline.kernel.errors import IllegalAction, MalformedAction
from pointline.kernel.ledger import Entry, Voided
from pointline.kernel.rules import TRANSITIONS, Then, Transition
from pointline.kernel.snapshots import (
    Contracts,
    Ending,
    Result,
    SeatState,
    Standing,
    competition_ranks,
)
from pointline.kernel.values import (
    HANDS_PER_SESSION,
    MAX_SEATS,
    MIN_SEATS,
    STARTING_POINTS,
    Line,
    Phase,
)

__all__ = [
    "EFFECTS",
    "GUARDS",
    "Contracts",
    "EffectFn",
    "Ending",
    "GuardFn",
    "Result",
    "SeatState",
    "Standing",
    "Table",
    "competition_ranks",
    "see_throw",
]

_see_throw = see_throw
"""The older, private name of ``see_throw`` (kept for existing callers)."""
_LOOKUPS = LOOKUPS
_not_an_action = not_an_action

# Enum members bound once: looking one up on its class (``Phase.COMPLETE``) goes through the
# enum metaclass and costs several times a plain global on the hot path.
_PASS, _DP = Line.PASS, Line.DONT_PASS
_COME_OUT, _COMPLETE, _ENDED = Phase.COME_OUT, Phase.COMPLETE, Phase.ENDED


def _copy_slots(source: SeatSlots | Table, target: SeatSlots | Table) -> None:
    """Give ``target`` (a bare instance of the same class) every slot value of ``source``."""
    for name in type(source).__slots__:
        setattr(target, name, getattr(source, name))


_LIVE = (Phase.COME_OUT, Phase.POINT)


def _candidates(seat: int) -> tuple[SeatAction, ...]:
    """Every seat action ``legal_actions`` considers, in button order."""
    return (
        Allocate(seat, _PASS),
        Allocate(seat, _DP),
        Reset(seat),
        Confirm(seat),
        ReduceDontPass(seat),
        RemoveDontPass(seat),
        Roll(seat),
    )


_CANDIDATES = tuple(_candidates(seat) for seat in range(MAX_SEATS))
_ALL_THROWS = tuple(Throw(d1, d2) for d1 in range(1, 7) for d2 in range(1, 7))
"""Actions are immutable values, so each seat's candidates are made once."""
_ACTION_TYPES = frozenset(CLASS_OF_KIND.values())
_SEAT_ACTIONS = frozenset(CLASS_OF_KIND[kind] for kind in SEAT_KINDS)
_SEAT_ROWS_STAY = all(
    row.then in (None, Then.STAY) for row in TRANSITIONS if CLASS_OF_KIND[row.kind] in _SEAT_ACTIONS
)
"""Every seat action's row keeps the phase (``Table.try_seat_actions`` relies on it)."""
if not _SEAT_ROWS_STAY:
    raise AssertionError("a seat action's row changes the phase")


class Table:
    """A pass-line table of 1 to 8 seats sharing the dice, for one session of five hands.

    Seats are numbered from 0. ``push`` applies an action; ``legal_actions`` lists what a seat
    may do now; ``awaiting`` lists the seats the dice wait for.
    """

    __slots__ = (
        "_ending",
        "_lookups",
        "_phase",
        "_point",
        "_resolved",
        "_seats",
        "_throws",
        "table_id",
    )

    def __init__(self, seats: int = 1, table_id: str = "solo") -> None:
        if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
            raise MalformedAction(Code.BAD_SEAT, f"A table has 1 to 8 seats, not {seats!r}.")
        if not isinstance(table_id, str):
            raise MalformedAction(Code.BAD_ACTION, "The table id is a string.")
        if not table_id.isascii():
            try:
                table_id.encode("utf-8")
            except UnicodeEncodeError:
                raise MalformedAction(Code.BAD_ACTION, "The table id is Unicode text.") from None
        self.table_id = table_id
        self._seats = [SeatSlots() for _ in range(seats)]
        self._enter(_COME_OUT)
        self._point: int | None = None
        self._throws = 0
        self._resolved = 0
        self._ending: Ending | None = None

    # ----------------------------------------------------------------- reading the table
    @property
    def seat_count(self) -> int:
        return len(self._seats)

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def point(self) -> int | None:
        """The point while it is on, else None."""
        return self._point

    @property
    def throws(self) -> int:
        """Throws made so far in this session (at most 128)."""
        return self._throws

    @property
    def hands_resolved(self) -> int:
        return self._resolved

    @property
    def hand(self) -> int:
        """The number of the hand in play, 1 to 5 (5 once the session is complete)."""
        return min(self._resolved + 1, HANDS_PER_SESSION)

    @property
    def is_over(self) -> bool:
        """Terminal: the session completed or ended without a result."""
        phase = self._phase
        return phase is _COMPLETE or phase is _ENDED

    @property
    def ending(self) -> Ending | None:
        """Why the session ended without a result, or None."""
        return self._ending

    @property
    def result(self) -> Result | None:
        """The result of a completed session, else None."""
        if self._phase is not _COMPLETE:
            return None
        final = tuple(s.balance for s in self._seats)
        return Result(final, competition_ranks(final))

    @property
    def returns(self) -> tuple[int, ...]:
        """Each seat's points won or lost so far against the 1,000 it started with."""
        return tuple(s.balance - STARTING_POINTS for s in self._seats)

    def balance(self, seat: int) -> int:
        return self._seats[seat].balance

    def seat(self, seat: int) -> SeatState:
        s = self._seats[seat]
        return SeatState(
            seat=seat,
            balance=s.balance,
            draft=Contracts(s.draft_pass, s.draft_dp),
            contracts=Contracts(s.pass_, s.dp),
            sealed=s.sealed,
            ledger=tuple(s.ledger),
        )

    @property
    def seats(self) -> tuple[SeatState, ...]:
        return tuple(self.seat(i) for i in range(len(self._seats)))

    def contracts(self, seat: int) -> Contracts:
        """The seat's current (sealed) contracts."""
        s = self._seats[seat]
        return Contracts(s.pass_, s.dp)

    def draft(self, seat: int) -> Contracts:
        """The seat's open draft: what it would seal now."""
        s = self._seats[seat]
        return Contracts(s.draft_pass, s.draft_dp)

    def amounts(self, seat: int) -> tuple[int, int, int, int]:
        """The seat's draft and contracts as plain integers: draft Pass, draft Don't Pass,
        Pass, Don't Pass (``draft`` and ``contracts`` at once, without making two values)."""
        s = self._seats[seat]
        return s.draft_pass, s.draft_dp, s.pass_, s.dp

    def is_sealed(self, seat: int) -> bool:
        return self._seats[seat].sealed

    def ledger_since(self, seat: int, start: int) -> tuple[Entry, ...]:
        """The seat's ledger entries from index ``start`` on."""
        return tuple(self._seats[seat].ledger[start:])

    def ledger_length(self, seat: int) -> int:
        return len(self._seats[seat].ledger)

    @property
    def awaiting(self) -> tuple[int, ...]:
        """Seats that have not sealed their choices for the next throw (none once over)."""
        if self.is_over:
            return ()
        return tuple(i for i, s in enumerate(self._seats) if not s.sealed)

    @property
    def is_chance_turn(self) -> bool:
        """Every seat has sealed: the next action is a throw of the dice."""
        return not self.is_over and all(s.sealed for s in self._seats)

    def copy(self) -> Table:
        return self._with_seats([s.clone() for s in self._seats])

    def try_seat_actions(self, seat: int, actions: Iterable[SeatAction]) -> None:
        """Raise what ``push`` would if ``actions``, pushed in order now, were refused; change
        nothing. Each action must be a seat action naming ``seat``.

        The trial runs on this table with a copy of that one seat put in its place, and the
        seat's own put back whatever happens: a seat action's row changes only the seat it
        names and keeps the phase (``_SEAT_ROWS_STAY`` checks the phase at import; the effects
        in ``kernel._steps`` touch only their seat), so nothing else of the table can change.
        """
        if type(seat) is not int or not 0 <= seat < len(self._seats):
            raise MalformedAction(Code.BAD_SEAT, Code.BAD_SEAT.text)
        seats = self._seats
        own = seats[seat]
        seats[seat] = own.clone()  # the trial seat, in place for the trial's pushes only
        try:
            for action in actions:
                if type(action) not in _SEAT_ACTIONS:
                    raise MalformedAction(Code.BAD_ACTION, Code.BAD_ACTION.text)
                if action.seat != seat:
                    raise MalformedAction(Code.BAD_SEAT, Code.BAD_SEAT.text)
                self.push(action)
        finally:
            seats[seat] = own

    def _with_seats(self, seats: list[SeatSlots]) -> Table:
        """This table with ``seats`` in place of its own (copied or shared by the caller)."""
        other = Table.__new__(Table)
        _copy_slots(self, other)
        other._seats = seats
        return other

    # ----------------------------------------------------------------- legality
    def _resolve(self, action: Action) -> tuple[Step, SeatSlots | None]:
        """The step that decides ``action`` now, and the seat it names; raises if ill formed.

        The phase's lookup for the action's class checks the action's form and finds the step
        (``kernel._steps.LOOKUPS``); ``push`` makes the very same lookup."""
        return self._lookups.get(type(action), _not_an_action)(self, action)

    def row(self, action: Action) -> Transition:
        """The row of the transition table that decides ``action`` now.

        Raises ``MalformedAction`` when the action is ill formed (then no row applies).
        """
        return self._resolve(action)[0].row

    def rejection(self, action: Action) -> Code | None:
        """The code ``push`` would reject ``action`` with now, or None if it is legal."""
        try:
            step, seat = self._resolve(action)
        except MalformedAction as error:
            return error.code
        return step.verdict(self, seat, action)

    def is_legal(self, action: Action) -> bool:
        return self.rejection(action) is None

    def would_throw(self, action: Action) -> bool:
        """Whether pushing ``action`` now seals its seat's choices for the next throw.

        True exactly for a legal action whose row's effect seals (``Effect.seals``: Confirm at
        come-out, Roll on the point), so a caller knows to commit the choice and expect the dice.
        False for anything ill formed or illegal now, and for the throw itself.
        """
        try:
            step, seat = self._resolve(action)
        except MalformedAction:
            return False
        effect = step.row.effect
        return effect is not None and effect.seals and step.verdict(self, seat, action) is None

    def legal_actions(self, seat: int) -> list[SeatAction]:
        """What ``seat`` may do now, in button order (Allocate Pass, Allocate Don't Pass, …)."""
        candidates = _CANDIDATES[seat] if type(seat) is int and 0 <= seat < MAX_SEATS else None
        if candidates is None:
            candidates = _candidates(seat)
        return [a for a in candidates if self.rejection(a) is None]

    def legal_throws(self) -> Iterator[Throw]:
        """All 36 throws when the dice are due, else none."""
        if self.is_chance_turn:
            yield from _ALL_THROWS

    # ----------------------------------------------------------------- stepping
    def push(self, action: Action) -> None:
        """Apply ``action``, or raise ``MalformedAction``/``IllegalAction`` and change nothing.

        The deciding step is looked up as ``_resolve`` does (one lookup of the action's class in
        the phase's ``LOOKUPS``, which checks the action's form), its guards are checked in
        order, and then its effect applies; a row without an effect rejects with its own code.
        The one-line lookup is made here rather than through ``_resolve``, which would add a
        call to every push (a push is nearly all of play's time)."""
        step, seat = self._lookups.get(type(action), _not_an_action)(self, action)
        for guard, code in step.checks:
            if not guard(self, seat, action):
                raise IllegalAction(code, code.text)
        effect = step.effect
        if effect is None:
            rejected = step.reject
            assert rejected is not None
            raise IllegalAction(rejected, rejected.text)
        effect(self, seat, action, step)
        then = step.then
        if then is not None:
            then(self)  # the row's next phase (Transition.then)

    def _enter(self, phase: Phase) -> None:
        self._phase = phase
        key = phase._value_
        self._lookups = _LOOKUPS[key]

    def _void(self, ending: Ending) -> None:
        """Return every contract in play with no profit (recorded as void) and take the ending;
        the phase is the caller's to set (``_end``, or an abort row's ``then``)."""
        hand = self.hand
        reason = ending.reason
        for s in self._seats:
            if s.pass_:
                s.ledger.append(Voided(hand, _PASS, s.pass_, reason))
                s.balance += s.pass_
            if s.dp:
                s.ledger.append(Voided(hand, _DP, s.dp, reason))
                s.balance += s.dp
            s.pass_ = s.dp = s.draft_pass = s.draft_dp = 0
            s.sealed = False
        self._point = None
        self._ending = ending

    def _end(self, ending: Ending) -> None:
        """Void the hand in flight and end the session without a result (R22, R23)."""
        self._void(ending)
        self._enter(_ENDED)
