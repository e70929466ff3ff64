"""The table: 1 to 8 seats sharing one pair of dice, one point and one session.

``Table`` is stepped by ``push``; every step is decided by one row of
``kernel.rules.TRANSITIONS``. A rejected action raises ``MalformedAction`` or
``IllegalAction`` and leaves the table exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from kernel.actions import (
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
from kernel.errors import IllegalAction, MalformedAction
from kernel.ledger import (
    ContractChanged,
    Contracted,
    Entry,
    Refunded,
    Settled,
    ThrowSeen,
    Voided,
)
from kernel.rules import (
    CODES_BY_NAME,
    TRANSITIONS,
    Code,
    Effect,
    Guard,
    Transition,
    When,
)
from kernel.values import (
    ABORT_REASONS,
    HAND_LIMIT,
    HANDS_PER_SESSION,
    MAX_SEATS,
    MIN_SEATS,
    STARTING_POINTS,
    THROW_CAP,
    UNIT,
    EndReason,
    Line,
    Outcome,
    Phase,
)


@dataclass(frozen=True, slots=True)
class Contracts:
    """Amounts on the two lines."""

    pass_amount: int = 0
    dont_pass_amount: int = 0

    @property
    def total(self) -> int:
        return self.pass_amount + self.dont_pass_amount

    def on(self, line: Line) -> int:
        return self.pass_amount if line is Line.PASS else self.dont_pass_amount


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
class Result:
    """A completed session: final points per seat and their competition ranks (1, 1, 3)."""

    final: tuple[int, ...]
    ranks: tuple[int, ...]

    @property
    def standings(self) -> tuple[int, ...]:
        """Seats ranked highest first; tied seats keep seat order."""
        return tuple(sorted(range(len(self.final)), key=lambda s: (-self.final[s], s)))


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
_POINTS: tuple[int | None, ...] = (None, 4, 5, 6, 8, 9, 10)
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

_RETURNED = {Outcome.WIN: 2, Outcome.PUSH: 1, Outcome.LOSS: 0}
"""What a settled line gives back, as a multiple of its contract (R16)."""
_NET = {Outcome.WIN: 1, Outcome.PUSH: 0, Outcome.LOSS: -1}
"""A settled line's net, as a multiple of its contract (R16)."""

GuardFn = Callable[["Table", "_Seat", Any], bool]
EffectFn = Callable[["Table", "_Seat", Any, "_Step"], None]


class _Step:
    """A row of the transition table bound to the functions that check and apply it."""

    __slots__ = ("checks", "effect", "reject", "row", "settles")

    def __init__(self, row: Transition) -> None:
        self.row = row
        self.checks: tuple[tuple[GuardFn, Code], ...] = tuple(
            (_GUARD_FNS[g], g.code) for g in row.guards
        )
        self.effect: EffectFn | None = (
            None if row.effect is None else _EFFECT_FNS[row.effect]
        )
        self.reject = row.reject
        po, do = row.pass_outcome, row.dont_pass_outcome
        self.settles = (
            None
            if po is None or do is None
            else (po, _RETURNED[po], _NET[po], do, _RETURNED[do], _NET[do])
        )


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
            raise MalformedAction(
                Code.BAD_SEAT.code, f"a table has 1 to 8 seats, not {seats!r}"
            )
        if not isinstance(table_id, str):
            raise MalformedAction(Code.BAD_ACTION.code, "the table id is a string")
        self.table_id = table_id
        self._seats = [_Seat() for _ in range(seats)]
        self._phase = Phase.COME_OUT
        self._phase_key = Phase.COME_OUT.value
        self._steps = _STEPS[self._phase_key]
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
        return self._phase is Phase.COMPLETE or self._phase is Phase.ENDED

    @property
    def ending(self) -> Ending | None:
        """Why the session ended without a result, or None."""
        return self._ending

    @property
    def result(self) -> Result | None:
        """The result of a completed session, else None."""
        if self._phase is not Phase.COMPLETE:
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
            if (
                type(d1) is not int
                or type(d2) is not int
                or not (1 <= d1 <= 6 and 1 <= d2 <= 6)
            ):
                raise MalformedAction(Code.BAD_DIE.code, Code.BAD_DIE.text)
            by_point = _THROW_STEPS.get(self._phase_key)
            if by_point is None:
                return self._steps[Throw], None
            return by_point[self._point][d1 + d2], None
        step = self._steps.get(cls)
        if step is None:
            raise MalformedAction(Code.BAD_ACTION.code, f"not an action: {action!r}")
        if cls is Abort:
            if action.reason not in ABORT_REASONS:  # type: ignore[union-attr]
                raise MalformedAction(Code.BAD_REASON.code, Code.BAD_REASON.text)
            seat = action.seat  # type: ignore[union-attr]
            if seat is not None and (
                type(seat) is not int or not 0 <= seat < len(self._seats)
            ):
                raise MalformedAction(Code.BAD_SEAT.code, Code.BAD_SEAT.text)
            return step, None
        seat = action.seat  # type: ignore[union-attr]
        if type(seat) is not int or not 0 <= seat < len(self._seats):
            raise MalformedAction(Code.BAD_SEAT.code, Code.BAD_SEAT.text)
        if cls is Allocate:
            if type(action.line) is not Line:  # type: ignore[union-attr]
                raise MalformedAction(Code.BAD_LINE.code, Code.BAD_LINE.text)
            amount = action.amount  # type: ignore[union-attr]
            if type(amount) is not int or amount <= 0 or amount % UNIT:
                raise MalformedAction(Code.BAD_AMOUNT.code, Code.BAD_AMOUNT.text)
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
            return CODES_BY_NAME[error.code]
        for check, code in step.checks:
            if not check(self, seat, action):  # type: ignore[arg-type]
                return code
        return step.reject

    def is_legal(self, action: Action) -> bool:
        return self.rejection(action) is None

    def legal_actions(self, seat: int) -> list[SeatAction]:
        """What ``seat`` may do now, in button order (Allocate Pass, Allocate Don't Pass, …)."""
        candidates: list[SeatAction] = [
            Allocate(seat, Line.PASS),
            Allocate(seat, Line.DONT_PASS),
            Reset(seat),
            Confirm(seat),
            ReduceDontPass(seat),
            RemoveDontPass(seat),
            Roll(seat),
        ]
        return [a for a in candidates if self.rejection(a) is None]

    def legal_throws(self) -> Iterator[Throw]:
        """All 36 throws when the dice are due, else none."""
        if self.is_chance_turn:
            for d1 in range(1, 7):
                for d2 in range(1, 7):
                    yield Throw(d1, d2)

    # ----------------------------------------------------------------- stepping
    def push(self, action: Action) -> None:
        """Apply ``action``, or raise ``MalformedAction``/``IllegalAction`` and change nothing."""
        step, seat = self._resolve(action)
        for check, code in step.checks:
            if not check(self, seat, action):  # type: ignore[arg-type]
                raise IllegalAction(code.code, code.text)
        effect = step.effect
        if effect is None:
            reject = step.reject
            assert reject is not None
            raise IllegalAction(reject.code, reject.text)
        effect(self, seat, action, step)  # type: ignore[arg-type]

    def _enter(self, phase: Phase) -> None:
        self._phase = phase
        key = phase._value_
        self._phase_key = key
        self._steps = _STEPS[key]

    def _throw(self, step: _Step, throw: Throw) -> None:
        self._throws += 1
        n = self._throws
        hand = self._resolved + 1
        seen = ThrowSeen(
            hand,
            n,
            throw.die1,
            throw.die2,
            throw.die1 + throw.die2,
            self._phase,
            self._point,
        )
        effect = step.row.effect
        for s in self._seats:
            s.ledger.append(seen)
            s.sealed = False
        if step.settles is not None:
            po, pr, pn, do, dr, dn = step.settles
            for s in self._seats:
                amount = s.pass_
                if amount:
                    s.ledger.append(
                        Settled(
                            hand, n, Line.PASS, amount, po, amount * pr, amount * pn
                        )
                    )
                    s.balance += amount * pr
                amount = s.dp
                if amount:
                    s.ledger.append(
                        Settled(
                            hand,
                            n,
                            Line.DONT_PASS,
                            amount,
                            do,
                            amount * dr,
                            amount * dn,
                        )
                    )
                    s.balance += amount * dr
                s.pass_ = s.dp = s.draft_pass = s.draft_dp = 0
            self._point = None
            self._resolved += 1
            if self._resolved == HANDS_PER_SESSION:
                self._enter(Phase.COMPLETE)
                return
            self._enter(Phase.COME_OUT)
        elif effect is Effect.ESTABLISH_POINT:
            self._point = throw.die1 + throw.die2
            self._enter(Phase.POINT)
        if n >= THROW_CAP:
            self._void(Ending(EndReason.THROW_CAP))

    def _void(self, ending: Ending) -> None:
        hand = self.hand
        reason = ending.reason
        for s in self._seats:
            if s.pass_:
                s.ledger.append(Voided(hand, Line.PASS, s.pass_, reason))
                s.balance += s.pass_
            if s.dp:
                s.ledger.append(Voided(hand, Line.DONT_PASS, s.dp, reason))
                s.balance += s.dp
            s.pass_ = s.dp = s.draft_pass = s.draft_dp = 0
            s.sealed = False
        self._point = None
        self._enter(Phase.ENDED)
        self._ending = ending


# ---------------------------------------------------------------------- guards and effects
# Each guard of kernel.rules.Guard and each effect of kernel.rules.Effect is one function here.


def _every_seat_sealed(t: Table, s: _Seat, a: Any) -> bool:
    for seat in t._seats:
        if not seat.sealed:
            return False
    return True


_GUARD_FNS: dict[Guard, GuardFn] = {
    Guard.SEAT_OPEN: lambda t, s, a: not s.sealed,
    Guard.WITHIN_HAND_LIMIT: lambda t, s, a: (
        s.draft_pass + s.draft_dp + a.amount <= HAND_LIMIT
    ),
    Guard.WITHIN_BALANCE: lambda t, s, a: (
        s.draft_pass + s.draft_dp + a.amount <= s.balance
    ),
    Guard.LINE_IS_DONT_PASS: lambda t, s, a: a.line is Line.DONT_PASS,
    Guard.DONT_PASS_PREPARED: lambda t, s, a: s.draft_dp >= UNIT,
    Guard.DRAFT_CHANGED: lambda t, s, a: s.draft_pass != s.pass_ or s.draft_dp != s.dp,
    Guard.EVERY_SEAT_SEALED: _every_seat_sealed,
}


def _add_to_draft(t: Table, s: _Seat, a: Any, step: _Step) -> None:
    if a.line is Line.PASS:
        s.draft_pass += a.amount
    else:
        s.draft_dp += a.amount


def _restore_draft(t: Table, s: _Seat, a: Any, step: _Step) -> None:
    s.draft_pass = s.pass_
    s.draft_dp = s.dp


def _seal_contracts(t: Table, s: _Seat, a: Any, step: _Step) -> None:
    s.ledger.append(Contracted(t._resolved + 1, s.draft_pass, s.draft_dp))
    s.pass_ = s.draft_pass
    s.dp = s.draft_dp
    s.balance -= s.pass_ + s.dp
    s.sealed = True


def _prepare_reduction(t: Table, s: _Seat, a: Any, step: _Step) -> None:
    s.draft_dp -= UNIT


def _prepare_removal(t: Table, s: _Seat, a: Any, step: _Step) -> None:
    s.draft_dp = 0


def _seal_roll(t: Table, s: _Seat, a: Any, step: _Step) -> None:
    reduced = s.dp - s.draft_dp
    if reduced:
        hand, throw = t._resolved + 1, t._throws + 1
        s.ledger.append(ContractChanged(hand, throw, Line.DONT_PASS, s.dp, s.draft_dp))
        s.ledger.append(Refunded(hand, throw, reduced))
        s.balance += reduced
        s.dp = s.draft_dp
    s.sealed = True


def _apply_throw(t: Table, s: _Seat, a: Any, step: _Step) -> None:
    t._throw(step, a)


def _void_hand(t: Table, s: _Seat, a: Any, step: _Step) -> None:
    t._void(Ending(a.reason, a.seat))


_EFFECT_FNS: dict[Effect, EffectFn] = {
    Effect.ADD_TO_DRAFT: _add_to_draft,
    Effect.RESTORE_DRAFT: _restore_draft,
    Effect.SEAL_CONTRACTS: _seal_contracts,
    Effect.PREPARE_REDUCTION: _prepare_reduction,
    Effect.PREPARE_REMOVAL: _prepare_removal,
    Effect.SEAL_ROLL: _seal_roll,
    Effect.SETTLE_HAND: _apply_throw,
    Effect.ESTABLISH_POINT: _apply_throw,
    Effect.KEEP_POINT: _apply_throw,
    Effect.VOID_HAND: _void_hand,
}


def _compile() -> tuple[
    dict[str, dict[type, _Step]], dict[str, dict[int | None, list[_Step]]]
]:
    """Index the rows: one step per (phase, action class), and per (phase, point, total) for
    throws in live phases. Fails at import if two rows ever apply at once or one is missing."""
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
                            raise AssertionError(
                                f"two rows for {row.phase} {point} {total}"
                            )
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
_STEPS, _THROW_STEPS = _compile()
