"""The table: 1 to 8 seats sharing one pair of dice, one point and one session.

``Table`` is stepped by ``push``; every step is decided by one row of
``kernel.rules.TRANSITIONS``. A rejected action raises ``MalformedAction`` or
``IllegalAction`` and leaves the table exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from pointline.kernel.actions import (
    Abort,
    Action,
    ActionKind,
    Allocate,
    Confirm,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    SeatAction,
    Throw,
)
from pointline.kernel.errors import IllegalAction, MalformedAction
from pointline.kernel.ledger import (
    ContractChanged,
    Contracted,
    Entry,
    Refunded,
    Settled,
    ThrowSeen,
    Voided,
)
from pointline.kernel.rules import (
    TRANSITIONS,
    Code,
    Effect,
    Guard,
    Transition,
    When,
)
from pointline.kernel.values import (
    ABORT_REASONS,
    HAND_LIMIT,
    HANDS_PER_SESSION,
    MAX_SEATS,
    MIN_SEATS,
    NET_MULTIPLE,
    POINT_NUMBERS,
    RETURNED_MULTIPLE,
    STARTING_POINTS,
    THROW_CAP,
    UNIT,
    EndReason,
    Line,
    Phase,
)

# Enum members bound once: looking one up on its class (``Phase.COMPLETE``) goes through the
# enum metaclass and costs several times a plain global on the hot path.
_PASS, _DP = Line.PASS, Line.DONT_PASS
_COME_OUT, _COMPLETE, _ENDED = Phase.COME_OUT, Phase.COMPLETE, Phase.ENDED


@dataclass(frozen=True, slots=True)
class Contracts:
    """Amounts on the two lines."""

    pass_amount: int = 0
    dont_pass_amount: int = 0

    @property
    def total(self) -> int:
        return self.pass_amount + self.dont_pass_amount

    def on(self, line: Line) -> int:
        return self.pass_amount if line is _PASS else self.dont_pass_amount


@dataclass(frozen=True, slots=True)
class SeatState:
    """A snapshot of one seat: balance, open draft, current contracts and ledger."""

    seat: int
    balance: int
    draft: Contracts
    contracts: Contracts
    sealed: bool
    ledger: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class Ending:
    """Why a session ended without a result, and the seat it names (if any)."""

    reason: EndReason
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat's line of a result: the seat (from 0), its final points and its rank."""

    seat: int
    points: int
    rank: int


@dataclass(frozen=True, slots=True)
class Result:
    """A completed session: final points per seat and their competition ranks (1, 1, 3)."""

    final: tuple[int, ...]
    ranks: tuple[int, ...]

    @property
    def standings(self) -> tuple[int, ...]:
        """Seats ranked highest first; tied seats keep seat order."""
        return tuple(sorted(range(len(self.final)), key=lambda s: (-self.final[s], s)))

    @property
    def ranking(self) -> tuple[Standing, ...]:
        """Every seat's seat, points and rank, in rank order (ties in seat order): what a
        results screen lists, top to bottom, with no sorting of its own."""
        return tuple(Standing(s, self.final[s], self.ranks[s]) for s in self.standings)


def competition_ranks(points: tuple[int, ...]) -> tuple[int, ...]:
    """Rank 1 for the highest; tied seats share a rank and the next rank skips (1, 1, 3)."""
    return tuple(1 + sum(1 for other in points if other > mine) for mine in points)


class _Seat:
    __slots__ = ("balance", "dp", "draft_dp", "draft_pass", "ledger", "pass_", "sealed")

    def __init__(self) -> None:
        self.balance = STARTING_POINTS
        self.draft_pass = 0
        self.draft_dp = 0
        self.pass_ = 0
        self.dp = 0
        self.sealed = False
        self.ledger: list[Entry] = []

    def clone(self) -> _Seat:
        other = _Seat()
        other.balance = self.balance
        other.draft_pass = self.draft_pass
        other.draft_dp = self.draft_dp
        other.pass_ = self.pass_
        other.dp = self.dp
        other.sealed = self.sealed
        other.ledger = list(self.ledger)
        return other


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
_POINTS: tuple[int | None, ...] = (None, *sorted(POINT_NUMBERS))
_CLASS_OF_KIND: dict[ActionKind, type] = {
    ActionKind.ALLOCATE: Allocate,
    ActionKind.RESET: Reset,
    ActionKind.CONFIRM: Confirm,
    ActionKind.REDUCE_DONT_PASS: ReduceDontPass,
    ActionKind.REMOVE_DONT_PASS: RemoveDontPass,
    ActionKind.ROLL: Roll,
    ActionKind.THROW: Throw,
    ActionKind.ABORT: Abort,
}
_ACTION_TYPES = frozenset(_CLASS_OF_KIND.values())

_RETURNED = RETURNED_MULTIPLE
_NET = NET_MULTIPLE


class _Step:
    """One row of the transition table, looked up: its guards as functions with their codes,
    its effect as a function (or its rejection code), and a settling row's figures."""

    __slots__ = ("checks", "effect", "reject", "row", "settles")

    def __init__(self, row: Transition) -> None:
        self.row = row
        self.checks: tuple[tuple[GuardFn, Code], ...] = tuple(
            (GUARDS[g], g.code) for g in row.guards
        )
        self.effect: EffectFn | None = None if row.effect is None else EFFECTS[row.effect]
        self.reject = row.reject
        po, do = row.pass_outcome, row.dont_pass_outcome
        self.settles = (
            None
            if po is None or do is None
            else (po, _RETURNED[po], _NET[po], do, _RETURNED[do], _NET[do])
        )

    def verdict(self, table: Table, seat: _Seat | None, action: Any) -> Code | None:
        """The code this row rejects ``action`` with now, or None if it applies."""
        for guard, code in self.checks:
            if not guard(table, seat, action):
                return code
        return self.reject


class Table:
    """A pass-line table of 1 to 8 seats sharing the dice, for one session of five hands.

    Seats are numbered from 0. ``push`` applies an action; ``legal_actions`` lists what a seat
    may do now; ``awaiting`` lists the seats the dice wait for.
    """

    __slots__ = (
        "_ending",
        "_phase",
        "_phase_key",
        "_point",
        "_resolved",
        "_seats",
        "_steps",
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
        self._seats = [_Seat() for _ in range(seats)]
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
        other = Table.__new__(Table)
        other.table_id = self.table_id
        other._seats = [s.clone() for s in self._seats]
        other._phase = self._phase
        other._phase_key = self._phase_key
        other._steps = self._steps
        other._point = self._point
        other._throws = self._throws
        other._resolved = self._resolved
        other._ending = self._ending
        return other

    # ----------------------------------------------------------------- legality
    def _resolve(self, action: Action) -> tuple[_Step, _Seat | None]:
        """The step that decides ``action`` now, and the seat it names; raises if ill formed."""
        cls = type(action)
        if cls is Throw:
            d1, d2 = action.die1, action.die2  # type: ignore[union-attr]
            if type(d1) is not int or type(d2) is not int or not (1 <= d1 <= 6 and 1 <= d2 <= 6):
                raise MalformedAction(Code.BAD_DIE, Code.BAD_DIE.text)
            by_point = _THROW_STEPS.get(self._phase_key)
            if by_point is None:
                return self._steps[Throw], None
            return by_point[self._point][d1 + d2], None
        step = self._steps.get(cls)
        if step is None:
            raise MalformedAction(Code.BAD_ACTION, Code.BAD_ACTION.text)
        if cls is Abort:
            reason = action.reason  # type: ignore[union-attr]
            if type(reason) is not EndReason or reason not in ABORT_REASONS:
                raise MalformedAction(Code.BAD_REASON, Code.BAD_REASON.text)
            seat = action.seat  # type: ignore[union-attr]
            if seat is not None and (type(seat) is not int or not 0 <= seat < len(self._seats)):
                raise MalformedAction(Code.BAD_SEAT, Code.BAD_SEAT.text)
            return step, None
        seat = action.seat  # type: ignore[union-attr]
        if type(seat) is not int or not 0 <= seat < len(self._seats):
            raise MalformedAction(Code.BAD_SEAT, Code.BAD_SEAT.text)
        if cls is Allocate:
            if type(action.line) is not Line:  # type: ignore[union-attr]
                raise MalformedAction(Code.BAD_LINE, Code.BAD_LINE.text)
            amount = action.amount  # type: ignore[union-attr]
            if type(amount) is not int or amount <= 0 or amount % UNIT:
                raise MalformedAction(Code.BAD_AMOUNT, Code.BAD_AMOUNT.text)
        return step, self._seats[seat]

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

        The deciding row is looked up (``_resolve``), its guards are checked in order, and then
        its effect applies; a row without an effect rejects with its own code."""
        step, seat = self._resolve(action)
        for guard, code in step.checks:
            if not guard(self, seat, action):
                raise IllegalAction(code, code.text)
        effect = step.effect
        if effect is None:
            rejected = step.reject
            assert rejected is not None
            raise IllegalAction(rejected, rejected.text)
        effect(self, seat, action, step)

    def _enter(self, phase: Phase) -> None:
        self._phase = phase
        key = phase._value_
        self._phase_key = key
        self._steps = _STEPS[key]

    def _void(self, ending: Ending) -> None:
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
        self._enter(_ENDED)
        self._ending = ending


# ---------------------------------------------------------------------- guards
# Each guard of kernel.rules.Guard as a plain function of the table ``t``, the named seat ``s``
# and the action ``a``. A row's guards are checked in the row's order; the first that fails
# rejects the action with its code.


def _seat_open(t: Table, s: _Seat, a: Any) -> bool:
    return not s.sealed


def _within_hand_limit(t: Table, s: _Seat, a: Allocate) -> bool:
    return s.draft_pass + s.draft_dp + a.amount <= HAND_LIMIT


def _within_balance(t: Table, s: _Seat, a: Allocate) -> bool:
    return s.draft_pass + s.draft_dp + a.amount <= s.balance


def _line_is_dont_pass(t: Table, s: _Seat, a: Any) -> bool:
    return a.line is _DP


def _dont_pass_prepared(t: Table, s: _Seat, a: Any) -> bool:
    return s.draft_dp >= UNIT


def _draft_changed(t: Table, s: _Seat, a: Any) -> bool:
    return s.draft_pass != s.pass_ or s.draft_dp != s.dp


def _every_seat_sealed(t: Table, s: _Seat, a: Any) -> bool:
    return all(x.sealed for x in t._seats)


GuardFn = Callable[[Table, Any, Any], bool]
GUARDS: dict[Guard, GuardFn] = {
    Guard.SEAT_OPEN: _seat_open,
    Guard.WITHIN_HAND_LIMIT: _within_hand_limit,
    Guard.WITHIN_BALANCE: _within_balance,
    Guard.LINE_IS_DONT_PASS: _line_is_dont_pass,
    Guard.DONT_PASS_PREPARED: _dont_pass_prepared,
    Guard.DRAFT_CHANGED: _draft_changed,
    Guard.EVERY_SEAT_SEALED: _every_seat_sealed,
}
"""Every guard, keyed by the enum the rows name it with."""


# ---------------------------------------------------------------------- effects
# Each effect of kernel.rules.Effect as a plain function of the table, the named seat (None for
# throws and aborts), the action and the deciding step (a settling row carries its outcomes).


def _add_to_draft(t: Table, s: _Seat, a: Any, step: _Step) -> None:
    """R3: Allocate adds its amount to the named line of the draft."""
    if a.line is _PASS:
        s.draft_pass += a.amount
    else:
        s.draft_dp += a.amount


def _restore_draft(t: Table, s: _Seat, a: Any, step: _Step) -> None:
    """R6: Reset puts the draft back to what the seat last sealed."""
    s.draft_pass = s.pass_
    s.draft_dp = s.dp


def _seal_contracts(t: Table, s: _Seat, a: Any, step: _Step) -> None:
    """R7: Confirm seals the draft as the hand's original contracts (empty: sit out)."""
    p = s.pass_ = s.draft_pass
    d = s.dp = s.draft_dp
    s.ledger.append(_new(Contracted, (t._resolved + 1, p, d)))
    s.balance -= p + d
    s.sealed = True


def _prepare_reduction(t: Table, s: _Seat, a: Any, step: _Step) -> None:
    """R14: prepare Don't Pass down by 10."""
    s.draft_dp -= UNIT


def _prepare_removal(t: Table, s: _Seat, a: Any, step: _Step) -> None:
    """R14: prepare Don't Pass down to 0."""
    s.draft_dp = 0


def _seal_roll(t: Table, s: _Seat, a: Any, step: _Step) -> None:
    """R15: Roll seals; the reduced part of Don't Pass comes back as a refund, no profit."""
    reduced = s.dp - s.draft_dp
    if reduced:
        hand = t._resolved + 1
        throw = t._throws + 1
        s.ledger.append(_new(ContractChanged, (hand, throw, _DP, s.dp, s.draft_dp)))
        s.ledger.append(_new(Refunded, (hand, throw, reduced)))
        s.balance += reduced
        s.dp = s.draft_dp
    s.sealed = True


def see_throw(t: Table, a: Throw) -> None:
    """Every throw: count it, write it to every seat's ledger, open every seat again.

    Public for tools that build positions play cannot reach (the conformance suite's invalid
    documents); play itself reaches it only through ``Table.push``."""
    n = t._throws = t._throws + 1
    d1, d2 = a.die1, a.die2
    seen = _new(ThrowSeen, (t._resolved + 1, n, d1, d2, d1 + d2, t._phase, t._point))
    for x in t._seats:
        x.ledger.append(seen)
        x.sealed = False


_see_throw = see_throw
"""The older, private name of ``see_throw``."""


def _cap(t: Table) -> None:
    """R23: after a throw that did not complete the session, the 128th ends it."""
    if t._throws >= THROW_CAP:
        t._void(_CAP_ENDING)


def _settle_hand(t: Table, s: None, a: Any, step: _Step) -> None:
    """R10-R12, R16: settle every seat's lines by the row's outcomes, then the next hand."""
    see_throw(t, a)
    hand, n = t._resolved + 1, t._throws
    po, pr, pn, do, dr, dn = step.settles  # type: ignore[misc]
    for x in t._seats:
        amount = x.pass_
        if amount:
            x.ledger.append(_new(Settled, (hand, n, _PASS, amount, po, amount * pr, amount * pn)))
            x.balance += amount * pr
        amount = x.dp
        if amount:
            x.ledger.append(_new(Settled, (hand, n, _DP, amount, do, amount * dr, amount * dn)))
            x.balance += amount * dr
        x.pass_ = x.dp = x.draft_pass = x.draft_dp = 0
    t._point = None
    t._resolved = hand
    if hand == HANDS_PER_SESSION:
        t._enter(_COMPLETE)
        return
    t._enter(_COME_OUT)
    _cap(t)


def _establish_point(t: Table, s: None, a: Any, step: _Step) -> None:
    """R10: a come-out 4, 5, 6, 8, 9 or 10 becomes the point."""
    see_throw(t, a)
    t._point = a.die1 + a.die2
    t._enter(_POINT)
    _cap(t)


def _keep_point(t: Table, s: None, a: Any, step: _Step) -> None:
    """R12: any other total in the point phase changes nothing but the throw count."""
    see_throw(t, a)
    _cap(t)


def _void_hand(t: Table, s: None, a: Any, step: _Step) -> None:
    """R24: an abort voids the hand in flight and ends the session without a result."""
    t._void(Ending(a.reason, a.seat))


EffectFn = Callable[[Table, Any, Any, "_Step"], None]
EFFECTS: dict[Effect, EffectFn] = {
    Effect.ADD_TO_DRAFT: _add_to_draft,
    Effect.RESTORE_DRAFT: _restore_draft,
    Effect.SEAL_CONTRACTS: _seal_contracts,
    Effect.PREPARE_REDUCTION: _prepare_reduction,
    Effect.PREPARE_REMOVAL: _prepare_removal,
    Effect.SEAL_ROLL: _seal_roll,
    Effect.SETTLE_HAND: _settle_hand,
    Effect.ESTABLISH_POINT: _establish_point,
    Effect.KEEP_POINT: _keep_point,
    Effect.VOID_HAND: _void_hand,
}
"""Every effect, keyed by the enum the rows name it with."""

_new = tuple.__new__
"""Ledger entries are built with ``tuple.__new__`` directly: the named tuples' own ``__new__``
is Python code, and a throw makes one entry per seat."""
_CAP_ENDING = Ending(EndReason.THROW_CAP)
_POINT = Phase.POINT


# ---------------------------------------------------------------------- indexing the rows
def _index() -> tuple[dict[str, dict[type, _Step]], dict[str, dict[int | None, list[_Step]]]]:
    """One step per (phase, action class), and per (phase, point, total) for throws in live
    phases. Fails at import if two rows ever apply at once or one is missing."""
    steps: dict[str, dict[type, _Step]] = {p.value: {} for p in Phase}
    throws: dict[str, dict[int | None, list[_Step]]] = {}
    for row in TRANSITIONS:
        cls = _CLASS_OF_KIND[row.kind]
        step = _Step(row)
        if row.kind is ActionKind.THROW and row.when is not When.ALWAYS:
            by_point = throws.setdefault(row.phase.value, {})
            for point in _POINTS if row.phase is Phase.POINT else (None,):
                slots = by_point.setdefault(point, [_NO_STEP] * 13)
                for total in range(2, 13):
                    if row.when.holds(total, point):
                        if slots[total] is not _NO_STEP:
                            raise AssertionError(f"two rows for {row.phase} {point} {total}")
                        slots[total] = step
        else:
            if cls in steps[row.phase.value]:
                raise AssertionError(f"two rows for {row.phase} {row.kind}")
            steps[row.phase.value][cls] = step
    for phase in Phase:
        for kind, cls in _CLASS_OF_KIND.items():
            live_throw = kind is ActionKind.THROW and phase.value in throws
            if not live_throw and cls not in steps[phase.value]:
                raise AssertionError(f"no row for {phase} {kind}")
    for by_point in throws.values():
        for slots in by_point.values():
            if any(slot is _NO_STEP for slot in slots[2:]):
                raise AssertionError("a throw total without a row")
    return steps, throws


_NO_STEP = object.__new__(_Step)
_STEPS, _THROW_STEPS = _index()
