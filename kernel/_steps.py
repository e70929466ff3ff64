"""The rows of ``kernel.rules.TRANSITIONS`` made executable (private to ``kernel.table``).

Each ``Guard`` is a plain function of the table, the named seat and the action; each ``Effect``
a plain function that changes the table; each ``Then`` the step to the row's next phase, which
``Table.push`` takes after the effect (so no effect decides the phase). ``STEPS`` and
``THROW_STEPS`` index one ``Step`` per phase and action class (and per point and total for the
throws of a live phase); the index fails at import if two rows ever apply at once or one is
missing.

``LOOKUPS`` is the one path from an action to its step: per phase and action class, a function
that checks the action's form (its dice, seat, line, amount or reason, refusing with
``MalformedAction``) and returns the step that decides it with the seat it names. ``Table``
looks an action's class up there once, for ``push`` and for every reader alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from pointline.kernel._state import SeatSlots, TableState
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
from pointline.kernel.codes import Code
from pointline.kernel.errors import MalformedAction
from pointline.kernel.ledger import ContractChanged, Contracted, Refunded, Settled, ThrowSeen
from pointline.kernel.rules import TRANSITIONS, Effect, Guard, Then, Transition, When
from pointline.kernel.snapshots import Ending
from pointline.kernel.values import (
    ABORT_REASONS,
    HAND_LIMIT,
    HANDS_PER_SESSION,
    NET_MULTIPLE,
    POINT_NUMBERS,
    RETURNED_MULTIPLE,
    THROW_CAP,
    UNIT,
    EndReason,
    Line,
    Phase,
)

__all__ = [
    "CLASS_OF_KIND",
    "EFFECTS",
    "GUARDS",
    "LOOKUPS",
    "STEPS",
    "THENS",
    "THROW_STEPS",
    "EffectFn",
    "GuardFn",
    "LookupFn",
    "Step",
    "ThenFn",
    "see_throw",
]

_PASS, _DP = Line.PASS, Line.DONT_PASS
_COME_OUT, _POINT, _COMPLETE, _ENDED = Phase.COME_OUT, Phase.POINT, Phase.COMPLETE, Phase.ENDED
_new = tuple.__new__
"""Ledger entries are built with ``tuple.__new__`` directly: the named tuples' own ``__new__``
is Python code, and a throw makes one entry per seat."""
_CAP_ENDING = Ending(EndReason.THROW_CAP)

GuardFn = Callable[[TableState, SeatSlots | None, Action], bool]
"""A guard as the table calls it: the seat is None for throws and aborts."""
EffectFn = Callable[[TableState, SeatSlots | None, Action, "Step"], None]
ThenFn = Callable[[TableState], None]


class Step:
    """One row of the transition table, looked up: its guards as functions with their codes,
    its effect as a function (or its rejection code), a settling row's figures, and the step
    to its next phase."""

    __slots__ = ("checks", "effect", "reject", "row", "settles", "then")

    def __init__(self, row: Transition) -> None:
        self.row = row
        self.checks: tuple[tuple[GuardFn, Code], ...] = tuple(
            (GUARDS[g], g.code) for g in row.guards
        )
        self.effect: EffectFn | None = None if row.effect is None else EFFECTS[row.effect]
        self.reject = row.reject
        self.then: ThenFn | None = None if row.then is None else THENS[row.then]
        po, do = row.pass_outcome, row.dont_pass_outcome
        self.settles = (
            None
            if po is None or do is None
            else (
                po,
                RETURNED_MULTIPLE[po],
                NET_MULTIPLE[po],
                do,
                RETURNED_MULTIPLE[do],
                NET_MULTIPLE[do],
            )
        )

    def verdict(self, table: TableState, seat: SeatSlots | None, action: Action) -> Code | None:
        """The code this row rejects ``action`` with now, or None if it applies."""
        for guard, code in self.checks:
            if not guard(table, seat, action):
                return code
        return self.reject


# ---------------------------------------------------------------------- guards
# Each guard names in its signature what its rows guarantee: a seat action's guard gets the seat
# it names (the table has checked it), an Allocate row's guard gets an Allocate.


def _seat_open(t: TableState, s: SeatSlots, a: SeatAction) -> bool:
    return not s.sealed


def _within_hand_limit(t: TableState, s: SeatSlots, a: Allocate) -> bool:
    return s.draft_pass + s.draft_dp + a.amount <= HAND_LIMIT


def _within_balance(t: TableState, s: SeatSlots, a: Allocate) -> bool:
    return s.draft_pass + s.draft_dp + a.amount <= s.balance


def _line_is_dont_pass(t: TableState, s: SeatSlots, a: Allocate) -> bool:
    return a.line is _DP


def _dont_pass_prepared(t: TableState, s: SeatSlots, a: SeatAction) -> bool:
    return s.draft_dp >= UNIT


def _draft_changed(t: TableState, s: SeatSlots, a: SeatAction) -> bool:
    return s.draft_pass != s.pass_ or s.draft_dp != s.dp


def _every_seat_sealed(t: TableState, s: None, a: Throw) -> bool:
    for x in t._seats:  # noqa: SIM110 (a loop, not all() over a generator: run on every throw)
        if not x.sealed:
            return False
    return True


GUARDS: dict[Guard, GuardFn] = {
    # cast: each function's narrower signature is what the rows that name its guard guarantee
    Guard.SEAT_OPEN: cast(GuardFn, _seat_open),
    Guard.WITHIN_HAND_LIMIT: cast(GuardFn, _within_hand_limit),
    Guard.WITHIN_BALANCE: cast(GuardFn, _within_balance),
    Guard.LINE_IS_DONT_PASS: cast(GuardFn, _line_is_dont_pass),
    Guard.DONT_PASS_PREPARED: cast(GuardFn, _dont_pass_prepared),
    Guard.DRAFT_CHANGED: cast(GuardFn, _draft_changed),
    Guard.EVERY_SEAT_SEALED: cast(GuardFn, _every_seat_sealed),
}
"""Every guard, keyed by the enum the rows name it with."""


# ---------------------------------------------------------------------- effects
# Each effect of kernel.rules.Effect as a plain function of the table, the named seat (None for
# throws and aborts), the action and the deciding step (a settling row carries its outcomes).
# Effects change seats, ledgers and counts; the phase after them is the row's ``then``.
# A seat action's effect changes only the seat it names (``Table.try_seat_actions`` shares the
# others with the table it tries on).


def _add_to_draft(t: TableState, s: SeatSlots, a: Allocate, step: Step) -> None:
    """R4 (amounts by R3): Allocate adds its amount to the named line of the draft."""
    if a.line is _PASS:
        s.draft_pass += a.amount
    else:
        s.draft_dp += a.amount


def _restore_draft(t: TableState, s: SeatSlots, a: Reset, step: Step) -> None:
    """R6: Reset puts the draft back to what the seat last sealed."""
    s.draft_pass = s.pass_
    s.draft_dp = s.dp


def _seal_contracts(t: TableState, s: SeatSlots, a: Confirm, step: Step) -> None:
    """R5, R7: Confirm seals the draft as the hand's original contracts (empty: sit out)."""
    p = s.pass_ = s.draft_pass
    d = s.dp = s.draft_dp
    s.ledger.append(_new(Contracted, (t._resolved + 1, p, d)))
    s.balance -= p + d
    s.sealed = True


def _prepare_reduction(t: TableState, s: SeatSlots, a: ReduceDontPass, step: Step) -> None:
    """R14: prepare Don't Pass down by 10."""
    s.draft_dp -= UNIT


def _prepare_removal(t: TableState, s: SeatSlots, a: RemoveDontPass, step: Step) -> None:
    """R14: prepare Don't Pass down to 0."""
    s.draft_dp = 0


def _seal_roll(t: TableState, s: SeatSlots, a: Roll, step: Step) -> None:
    """R12, R15: Roll seals; the reduced part of Don't Pass comes back as a refund, no profit."""
    reduced = s.dp - s.draft_dp
    if reduced:
        hand = t._resolved + 1
        throw = t._throws + 1
        s.ledger.append(_new(ContractChanged, (hand, throw, _DP, s.dp, s.draft_dp)))
        s.ledger.append(_new(Refunded, (hand, throw, reduced)))
        s.balance += reduced
        s.dp = s.draft_dp
    s.sealed = True


def see_throw(t: TableState, a: Throw) -> None:
    """R8, R24: every throw is counted, written to every seat's ledger, and opens every seat.

    Public for tools that build positions play cannot reach (the conformance suite's invalid
    documents); play itself reaches it only through ``Table.push``."""
    n = t._throws = t._throws + 1
    d1, d2 = a.die1, a.die2
    seen = _new(ThrowSeen, (t._resolved + 1, n, d1, d2, d1 + d2, t._phase, t._point))
    for x in t._seats:
        x.ledger.append(seen)
        x.sealed = False


def _settle_hand(t: TableState, s: None, a: Throw, step: Step) -> None:
    """R9, R10, R18 (R16, R17): settle every seat's lines by the row's outcomes; the hand is
    resolved."""
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


def _establish_point(t: TableState, s: None, a: Throw, step: Step) -> None:
    """R11: a come-out 4, 5, 6, 8, 9 or 10 becomes the point."""
    see_throw(t, a)
    t._point = a.die1 + a.die2


def _keep_point(t: TableState, s: None, a: Throw, step: Step) -> None:
    """R19: any other total in the point phase changes nothing but the throw count."""
    see_throw(t, a)


def _void_hand(t: TableState, s: None, a: Abort, step: Step) -> None:
    """R23: an abort voids the hand in flight; the session has an ending, not a result."""
    t._void(Ending(a.reason, a.seat))


EFFECTS: dict[Effect, EffectFn] = {
    # cast: as for GUARDS, each signature is what the rows naming the effect guarantee
    Effect.ADD_TO_DRAFT: cast(EffectFn, _add_to_draft),
    Effect.RESTORE_DRAFT: cast(EffectFn, _restore_draft),
    Effect.SEAL_CONTRACTS: cast(EffectFn, _seal_contracts),
    Effect.PREPARE_REDUCTION: cast(EffectFn, _prepare_reduction),
    Effect.PREPARE_REMOVAL: cast(EffectFn, _prepare_removal),
    Effect.SEAL_ROLL: cast(EffectFn, _seal_roll),
    Effect.SETTLE_HAND: cast(EffectFn, _settle_hand),
    Effect.ESTABLISH_POINT: cast(EffectFn, _establish_point),
    Effect.KEEP_POINT: cast(EffectFn, _keep_point),
    Effect.VOID_HAND: cast(EffectFn, _void_hand),
}
"""Every effect, keyed by the enum the rows name it with."""


# ---------------------------------------------------------------------- the next phase
def _cap(t: TableState) -> None:
    """R22: after a throw that did not complete the session, the 128th ends it."""
    if t._throws >= THROW_CAP:
        t._end(_CAP_ENDING)


def _to_point(t: TableState) -> None:
    t._enter(_POINT)
    _cap(t)


def _next_hand(t: TableState) -> None:
    if t._resolved == HANDS_PER_SESSION:
        t._enter(_COMPLETE)  # R20: the fifth resolution completes the session
        return
    t._enter(_COME_OUT)
    _cap(t)


def _ended(t: TableState) -> None:
    t._enter(_ENDED)


THENS: dict[Then, ThenFn | None] = {
    Then.STAY: None,
    Then.POINT: _to_point,
    Then.SAME_POINT: _cap,
    Then.NEXT_HAND: _next_hand,
    Then.ENDED: _ended,
}
"""Every next phase, keyed by the enum the rows name it with (None: the phase stays)."""


# ---------------------------------------------------------------------- indexing the rows
CLASS_OF_KIND: dict[ActionKind, type] = {
    ActionKind.ALLOCATE: Allocate,
    ActionKind.RESET: Reset,
    ActionKind.CONFIRM: Confirm,
    ActionKind.REDUCE_DONT_PASS: ReduceDontPass,
    ActionKind.REMOVE_DONT_PASS: RemoveDontPass,
    ActionKind.ROLL: Roll,
    ActionKind.THROW: Throw,
    ActionKind.ABORT: Abort,
}
_POINTS: tuple[int | None, ...] = (None, *sorted(POINT_NUMBERS))


def _index() -> tuple[dict[str, dict[type, Step]], dict[str, dict[int | None, list[Step]]]]:
    """One step per (phase, action class), and per (phase, point, total) for throws in live
    phases. Fails at import if two rows ever apply at once or one is missing."""
    steps: dict[str, dict[type, Step]] = {p.value: {} for p in Phase}
    throws: dict[str, dict[int | None, list[Step]]] = {}
    for row in TRANSITIONS:
        cls = CLASS_OF_KIND[row.kind]
        step = Step(row)
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
        for kind, cls in CLASS_OF_KIND.items():
            live_throw = kind is ActionKind.THROW and phase.value in throws
            if not live_throw and cls not in steps[phase.value]:
                raise AssertionError(f"no row for {phase} {kind}")
    for by_point in throws.values():
        for slots in by_point.values():
            if any(slot is _NO_STEP for slot in slots[2:]):
                raise AssertionError("a throw total without a row")
    return steps, throws


_NO_STEP = object.__new__(Step)
STEPS, THROW_STEPS = _index()


# ---------------------------------------------------------------------- one lookup path
LookupFn = Callable[[TableState, Action], tuple[Step, SeatSlots | None]]
"""How a phase finds the step that decides an action of one class: it checks the action's form
(``MalformedAction`` when it could never be legal) and returns the step with the seat the action
names (None for throws and aborts). The table calls it without knowing the class."""

# Codes and words bound once (an enum member's attribute goes through the enum's descriptors).
_BAD_DIE, _BAD_DIE_TEXT = Code.BAD_DIE, Code.BAD_DIE.text
_BAD_SEAT, _BAD_SEAT_TEXT = Code.BAD_SEAT, Code.BAD_SEAT.text
_BAD_LINE, _BAD_LINE_TEXT = Code.BAD_LINE, Code.BAD_LINE.text
_BAD_AMOUNT, _BAD_AMOUNT_TEXT = Code.BAD_AMOUNT, Code.BAD_AMOUNT.text
_BAD_REASON, _BAD_REASON_TEXT = Code.BAD_REASON, Code.BAD_REASON.text
_BAD_ACTION, _BAD_ACTION_TEXT = Code.BAD_ACTION, Code.BAD_ACTION.text


def not_an_action(t: TableState, a: object) -> tuple[Step, SeatSlots | None]:
    """What the table does with a value of a class no phase has a row for: refuses it."""
    raise MalformedAction(_BAD_ACTION, _BAD_ACTION_TEXT)


def _throw_by_total(by_point: dict[int | None, list[Step]]) -> LookupFn:
    """A live phase's throws: the faces checked, the step found by the point and the total
    (each answer a ready pair, so a throw builds nothing to find its step)."""
    pairs = {point: [(step, None) for step in slots] for point, slots in by_point.items()}

    def lookup(t: TableState, a: Throw) -> tuple[Step, None]:
        d1, d2 = a.die1, a.die2
        if type(d1) is not int or type(d2) is not int or not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise MalformedAction(_BAD_DIE, _BAD_DIE_TEXT)
        return pairs[t._point][d1 + d2]

    return cast(LookupFn, lookup)


def _throw_any_total(step: Step) -> LookupFn:
    """A throw in a phase whose one row takes every total (a session that is over)."""
    pair = (step, None)

    def lookup(t: TableState, a: Throw) -> tuple[Step, None]:
        d1, d2 = a.die1, a.die2
        if type(d1) is not int or type(d2) is not int or not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise MalformedAction(_BAD_DIE, _BAD_DIE_TEXT)
        return pair

    return cast(LookupFn, lookup)


def _seat_choice(step: Step) -> LookupFn:
    """A seat action that names only its seat: the seat checked and handed to the step."""

    def lookup(t: TableState, a: SeatAction) -> tuple[Step, SeatSlots]:
        index = a.seat
        seats = t._seats
        if type(index) is not int or not 0 <= index < len(seats):
            raise MalformedAction(_BAD_SEAT, _BAD_SEAT_TEXT)
        return step, seats[index]

    return cast(LookupFn, lookup)


def _allocation(step: Step) -> LookupFn:
    """Allocate: its seat, then its line, then its amount (a positive multiple of 10)."""

    def lookup(t: TableState, a: Allocate) -> tuple[Step, SeatSlots]:
        index = a.seat
        seats = t._seats
        if type(index) is not int or not 0 <= index < len(seats):
            raise MalformedAction(_BAD_SEAT, _BAD_SEAT_TEXT)
        if type(a.line) is not Line:
            raise MalformedAction(_BAD_LINE, _BAD_LINE_TEXT)
        amount = a.amount
        if type(amount) is not int or amount <= 0 or amount % UNIT:
            raise MalformedAction(_BAD_AMOUNT, _BAD_AMOUNT_TEXT)
        return step, seats[index]

    return cast(LookupFn, lookup)


def _abort(step: Step) -> LookupFn:
    """Abort: its reason (never the throw cap, which only the 128th throw brings), then the seat
    it may name; the step gets no seat."""
    pair = (step, None)

    def lookup(t: TableState, a: Abort) -> tuple[Step, None]:
        reason = a.reason
        if type(reason) is not EndReason or reason not in ABORT_REASONS:
            raise MalformedAction(_BAD_REASON, _BAD_REASON_TEXT)
        seat = a.seat
        if seat is not None and (type(seat) is not int or not 0 <= seat < len(t._seats)):
            raise MalformedAction(_BAD_SEAT, _BAD_SEAT_TEXT)
        return pair

    return cast(LookupFn, lookup)


_FORM: dict[type, Callable[[Step], LookupFn]] = {
    Allocate: _allocation,
    Reset: _seat_choice,
    Confirm: _seat_choice,
    ReduceDontPass: _seat_choice,
    RemoveDontPass: _seat_choice,
    Roll: _seat_choice,
    Throw: _throw_any_total,
    Abort: _abort,
}
"""Each action class's form check, wrapped around the step a phase decides it with."""


def _lookups() -> dict[str, dict[type, LookupFn]]:
    lookups: dict[str, dict[type, LookupFn]] = {}
    for phase in Phase:
        key = phase.value
        by_class = {cls: _FORM[cls](step) for cls, step in STEPS[key].items()}
        if key in THROW_STEPS:
            by_class[Throw] = _throw_by_total(THROW_STEPS[key])
        if set(by_class) != set(CLASS_OF_KIND.values()):
            raise AssertionError(f"no lookup for some action in {phase}")
        lookups[key] = by_class
    return lookups


LOOKUPS = _lookups()
"""Per phase (its value) and action class, the function that finds the deciding step."""
