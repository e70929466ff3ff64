"""An abstract table in z3, and the card's rules as a transition relation.

This module is written from the card and its reading (``../shared/card/READING.md``, beside
the repository), not from ``kernel/table.py``: the kernel's transition table is used only to
name the rows (phase, action kind, totals) and the codes they reject with. Every guard and
effect below is the rule in z3 terms.

A state is a table (phase, point, throws, resolved hands, ending reason) and its seats
(balance, draft on each line, current contracts on each line, sealed, plus ghost counters
that the card's conservation rule talks about: points lost, net points won, and the hand's
original contracts). An action is a kind and its fields as integers. The same functions build
formulas over symbolic variables (for the proofs) and over concrete values (for the
cross-check against the kernel).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

import z3

from pointline.kernel import ActionKind, Code, EndReason, Outcome, Phase, When

__all__ = [
    "ABORTABLE",
    "ACTION_FIELDS",
    "ALL_SEALED",
    "BALANCE_OK",
    "CAP",
    "CHANGED",
    "COME_OUT",
    "COMPLETE",
    "DONT_PASS_NAMED",
    "ENDED",
    "HANDS",
    "HAND_LIMIT",
    "HAND_OK",
    "LINE_DONT_PASS",
    "LINE_PASS",
    "NO_REASON",
    "NO_SEAT",
    "PHASES",
    "PHASE_NUM",
    "POINT",
    "POINT_TOTALS",
    "PREPARED",
    "REASONS",
    "REASON_NUM",
    "SEAT_FIELDS",
    "SEAT_OPEN",
    "SPEC_ROWS",
    "START",
    "TABLE_FIELDS",
    "UNIT",
    "ActionVars",
    "EffectFn",
    "Expr",
    "GuardFn",
    "K",
    "Key",
    "L",
    "RowSpec",
    "SeatVars",
    "TableVars",
    "U",
    "W",
    "acting",
    "after",
    "confirmed",
    "enabled",
    "equal",
    "initial",
    "ite_seat",
    "ite_table",
    "keys_for",
    "live",
    "make_table",
    "malformed_checks",
    "rejection_code",
    "selects",
    "settle",
    "step",
    "symbolic_action",
    "symbolic_table",
    "update_acting",
    "well_formed",
    "when_holds",
]

Expr = Any
"""A z3 expression (z3 ships no type stubs)."""

# ---------------------------------------------------------------------- the card's numbers
START = 1000  # R1
UNIT = 10  # R3
HAND_LIMIT = 100  # R3
HANDS = 5  # R20
CAP = 128  # R22
POINT_TOTALS = (4, 5, 6, 8, 9, 10)  # R11

PHASES = (Phase.COME_OUT, Phase.POINT, Phase.COMPLETE, Phase.ENDED)
PHASE_NUM = {p: i for i, p in enumerate(PHASES)}
COME_OUT, POINT, COMPLETE, ENDED = 0, 1, 2, 3
REASONS = tuple(EndReason)
REASON_NUM = {r: i for i, r in enumerate(REASONS)}
NO_REASON = -1
NO_SEAT = -1_000_000
"""An Abort that names no seat (kept apart from every integer a caller could give)."""
LINE_PASS, LINE_DONT_PASS = 0, 1


@dataclass(frozen=True)
class SeatVars:
    """One seat. ``losses``/``wins`` and ``orig_*`` are ghost counters (not kernel fields)."""

    balance: Expr
    draft_pass: Expr
    draft_dp: Expr
    pass_: Expr
    dp: Expr
    sealed: Expr
    losses: Expr
    wins: Expr
    orig_pass: Expr
    orig_dp: Expr


@dataclass(frozen=True)
class TableVars:
    phase: Expr
    point: Expr
    throws: Expr
    resolved: Expr
    reason: Expr
    seats: tuple[SeatVars, ...]


@dataclass(frozen=True)
class ActionVars:
    """Fields of an action as integers: the line is 0 (Pass) or 1 (Don't Pass)."""

    seat: Expr
    line: Expr
    amount: Expr
    die1: Expr
    die2: Expr
    reason: Expr
    abort_seat: Expr

    @property
    def total(self) -> Expr:
        return self.die1 + self.die2


SEAT_FIELDS = tuple(f.name for f in fields(SeatVars))
TABLE_FIELDS = ("phase", "point", "throws", "resolved", "reason")
ACTION_FIELDS = tuple(f.name for f in fields(ActionVars))


def make_table(values: list[Expr], seats: tuple[SeatVars, ...]) -> TableVars:
    """A table from its fields in ``TABLE_FIELDS`` order and its seats."""
    phase, point, throws, resolved, reason = values
    return TableVars(phase, point, throws, resolved, reason, seats)


def symbolic_table(n: int, tag: str) -> TableVars:
    """Fresh z3 variables for a table of ``n`` seats."""
    seats = tuple(
        SeatVars(
            *(
                z3.Bool(f"{tag}.s{i}.{name}") if name == "sealed" else z3.Int(f"{tag}.s{i}.{name}")
                for name in SEAT_FIELDS
            )
        )
        for i in range(n)
    )
    return make_table([z3.Int(f"{tag}.{name}") for name in TABLE_FIELDS], seats)


def symbolic_action(tag: str) -> ActionVars:
    return ActionVars(*(z3.Int(f"{tag}.{name}") for name in ACTION_FIELDS))


def initial(n: int) -> TableVars:
    """R1, R2: every seat at 1,000 with nothing drafted or contracted; come-out, no point."""
    zero = z3.IntVal(0)
    seat = SeatVars(
        z3.IntVal(START), zero, zero, zero, zero, z3.BoolVal(False), zero, zero, zero, zero
    )
    return TableVars(z3.IntVal(COME_OUT), zero, zero, zero, z3.IntVal(NO_REASON), seats=(seat,) * n)


def equal(a: TableVars, b: TableVars) -> Expr:
    parts = [getattr(a, f) == getattr(b, f) for f in TABLE_FIELDS]
    for sa, sb in zip(a.seats, b.seats, strict=True):
        parts.extend(getattr(sa, f) == getattr(sb, f) for f in SEAT_FIELDS)
    return z3.And(*parts)


def _decided(cond: Expr) -> bool | None:
    """True/False when ``cond`` is closed (concrete values), else None: concrete states
    (the cross-check) then skip building ``If`` terms."""
    if isinstance(cond, bool):
        return cond
    value = z3.simplify(cond)
    if z3.is_true(value):
        return True
    if z3.is_false(value):
        return False
    return None


def ite_seat(cond: Expr, then: SeatVars, other: SeatVars) -> SeatVars:
    decided = _decided(cond)
    if decided is not None:
        return then if decided else other
    return SeatVars(*(z3.If(cond, getattr(then, f), getattr(other, f)) for f in SEAT_FIELDS))


def ite_table(cond: Expr, then: TableVars, other: TableVars) -> TableVars:
    decided = _decided(cond)
    if decided is not None:
        return then if decided else other
    return make_table(
        [z3.If(cond, getattr(then, f), getattr(other, f)) for f in TABLE_FIELDS],
        tuple(ite_seat(cond, a, b) for a, b in zip(then.seats, other.seats, strict=True)),
    )


def _is_seat(a: ActionVars, i: int) -> Expr:
    if z3.is_int_value(a.seat):
        return bool(a.seat.as_long() == i)
    return a.seat == i


def acting(s: TableVars, a: ActionVars) -> SeatVars:
    """The seat the action names, as an expression (the action's seat is symbolic)."""
    chosen = s.seats[-1]
    for i in range(len(s.seats) - 2, -1, -1):
        chosen = ite_seat(_is_seat(a, i), s.seats[i], chosen)
    return chosen


def update_acting(s: TableVars, a: ActionVars, change: Callable[[SeatVars], SeatVars]) -> TableVars:
    """The table with the acting seat changed by ``change`` and every other seat as it was."""
    seats = tuple(
        ite_seat(_is_seat(a, i), change(seat), seat)
        if _decided(_is_seat(a, i)) is not False
        else seat
        for i, seat in enumerate(s.seats)
    )
    return replace(s, seats=seats)


def live(phase: Expr) -> Expr:
    return z3.Or(phase == COME_OUT, phase == POINT)


def confirmed(s: TableVars, seat: SeatVars) -> Expr:
    """The seat has sealed this hand's original contracts (R5): the hand is in flight for it."""
    return z3.Or(z3.And(s.phase == COME_OUT, seat.sealed), s.phase == POINT)


# ---------------------------------------------------------------------- totals (R9–R11, R18–R19)
def when_holds(when: When, total: Expr, point: Expr) -> Expr:
    """Which throw totals a row is for, written from the card."""
    if when is When.ALWAYS:
        return z3.BoolVal(True)
    if when is When.NATURAL:  # R9: 7 or 11 on the come-out
        return z3.Or(total == 7, total == 11)
    if when is When.CRAPS:  # R10: 2 or 3
        return z3.Or(total == 2, total == 3)
    if when is When.TWELVE:  # R10: 12
        return total == 12
    if when is When.POINT_NUMBER:  # R11
        return z3.Or(*(total == t for t in POINT_TOTALS))
    if when is When.POINT_MADE:  # R18: the point before seven
        return total == point
    if when is When.SEVEN_OUT:  # R18: seven before the point
        return total == 7
    # R19: anything else while the point is on
    return z3.And(total != 7, total != point)


# ---------------------------------------------------------------------- guards (R3–R15)
GuardFn = Callable[[TableVars, ActionVars], Expr]


def _seat_open(s: TableVars, a: ActionVars) -> Expr:  # R5
    return z3.Not(acting(s, a).sealed)


def _hand_limit(s: TableVars, a: ActionVars) -> Expr:  # R3
    seat = acting(s, a)
    return seat.draft_pass + seat.draft_dp + a.amount <= HAND_LIMIT


def _balance(s: TableVars, a: ActionVars) -> Expr:  # R3
    seat = acting(s, a)
    return seat.draft_pass + seat.draft_dp + a.amount <= seat.balance


def _names_dont_pass(s: TableVars, a: ActionVars) -> Expr:  # R13: Pass is locked
    return a.line == LINE_DONT_PASS


def _something_prepared(s: TableVars, a: ActionVars) -> Expr:  # R14
    return acting(s, a).draft_dp >= UNIT


def _draft_differs(s: TableVars, a: ActionVars) -> Expr:  # R6
    seat = acting(s, a)
    return z3.Or(seat.draft_pass != seat.pass_, seat.draft_dp != seat.dp)


def _all_sealed(s: TableVars, a: ActionVars) -> Expr:  # R8
    return z3.And(*(seat.sealed for seat in s.seats))


# ---------------------------------------------------------------------- effects
EffectFn = Callable[[TableVars, ActionVars], TableVars]


def _add_to_draft(s: TableVars, a: ActionVars) -> TableVars:  # R4
    def change(seat: SeatVars) -> SeatVars:
        return replace(
            seat,
            draft_pass=z3.If(a.line == LINE_PASS, seat.draft_pass + a.amount, seat.draft_pass),
            draft_dp=z3.If(a.line == LINE_DONT_PASS, seat.draft_dp + a.amount, seat.draft_dp),
        )

    return update_acting(s, a, change)


def _restore(s: TableVars, a: ActionVars) -> TableVars:  # R6
    return update_acting(s, a, lambda seat: replace(seat, draft_pass=seat.pass_, draft_dp=seat.dp))


def _confirm(s: TableVars, a: ActionVars) -> TableVars:  # R5, R7
    def change(seat: SeatVars) -> SeatVars:
        return replace(
            seat,
            pass_=seat.draft_pass,
            dp=seat.draft_dp,
            orig_pass=seat.draft_pass,
            orig_dp=seat.draft_dp,
            balance=seat.balance - seat.draft_pass - seat.draft_dp,
            sealed=z3.BoolVal(True),
        )

    return update_acting(s, a, change)


def _reduce(s: TableVars, a: ActionVars) -> TableVars:  # R14
    return update_acting(s, a, lambda seat: replace(seat, draft_dp=seat.draft_dp - UNIT))


def _remove(s: TableVars, a: ActionVars) -> TableVars:  # R14
    return update_acting(s, a, lambda seat: replace(seat, draft_dp=z3.IntVal(0)))


def _roll(s: TableVars, a: ActionVars) -> TableVars:  # R12, R15: withdrawal refund
    def change(seat: SeatVars) -> SeatVars:
        refund = seat.dp - seat.draft_dp
        return replace(
            seat, balance=seat.balance + refund, dp=seat.draft_dp, sealed=z3.BoolVal(True)
        )

    return update_acting(s, a, change)


def _void_all(s: TableVars, reason: Expr) -> TableVars:  # R23: returned with no profit
    zero = z3.IntVal(0)
    seats = tuple(
        replace(
            seat,
            balance=seat.balance + seat.pass_ + seat.dp,
            pass_=zero,
            dp=zero,
            draft_pass=zero,
            draft_dp=zero,
            orig_pass=zero,
            orig_dp=zero,
            sealed=z3.BoolVal(False),
        )
        for seat in s.seats
    )
    return replace(s, phase=z3.IntVal(ENDED), point=zero, reason=reason, seats=seats)


def _abort(s: TableVars, a: ActionVars) -> TableVars:  # R23
    return _void_all(s, a.reason)


def _capped(s: TableVars) -> TableVars:
    """R22: a throw that leaves the session live at 128 throws ends it without a result."""
    return ite_table(
        z3.And(live(s.phase), s.throws >= CAP),
        _void_all(s, z3.IntVal(REASON_NUM[EndReason.THROW_CAP])),
        s,
    )


_RETURN = {Outcome.WIN: 2, Outcome.PUSH: 1, Outcome.LOSS: 0}  # R16
_WON = {Outcome.WIN: 1, Outcome.PUSH: 0, Outcome.LOSS: 0}
_LOST = {Outcome.WIN: 0, Outcome.PUSH: 0, Outcome.LOSS: 1}


def settle(pass_outcome: Outcome, dp_outcome: Outcome) -> EffectFn:
    """R16, R17, R20: settle both lines of every seat, resolve the hand, next come-out."""

    def effect(s: TableVars, a: ActionVars) -> TableVars:
        zero = z3.IntVal(0)
        seats = tuple(
            SeatVars(
                balance=seat.balance
                + _RETURN[pass_outcome] * seat.pass_
                + _RETURN[dp_outcome] * seat.dp,
                draft_pass=zero,
                draft_dp=zero,
                pass_=zero,
                dp=zero,
                sealed=z3.BoolVal(False),
                losses=seat.losses + _LOST[pass_outcome] * seat.pass_ + _LOST[dp_outcome] * seat.dp,
                wins=seat.wins + _WON[pass_outcome] * seat.pass_ + _WON[dp_outcome] * seat.dp,
                orig_pass=zero,
                orig_dp=zero,
            )
            for seat in s.seats
        )
        resolved = s.resolved + 1
        after = TableVars(
            phase=z3.If(resolved == HANDS, z3.IntVal(COMPLETE), z3.IntVal(COME_OUT)),
            point=zero,
            throws=s.throws + 1,
            resolved=resolved,
            reason=s.reason,
            seats=seats,
        )
        return _capped(after)

    return effect


def _unsealed(s: TableVars) -> tuple[SeatVars, ...]:
    return tuple(replace(seat, sealed=z3.BoolVal(False)) for seat in s.seats)


def _establish(s: TableVars, a: ActionVars) -> TableVars:  # R11
    after = replace(
        s, phase=z3.IntVal(POINT), point=a.total, throws=s.throws + 1, seats=_unsealed(s)
    )
    return _capped(after)


def _keep(s: TableVars, a: ActionVars) -> TableVars:  # R19
    return _capped(replace(s, throws=s.throws + 1, seats=_unsealed(s)))


# ---------------------------------------------------------------------- the rows, from the card
@dataclass(frozen=True)
class RowSpec:
    """What the card says one row does: ordered guards with their codes, then an effect or a
    rejection. ``outcomes`` is the (Pass, Don't Pass) settlement of a deciding throw."""

    guards: tuple[tuple[str, GuardFn, Code], ...]
    effect: EffectFn | None = None
    reject: Code | None = None
    outcomes: tuple[Outcome, Outcome] | None = None


SEAT_OPEN = ("seat open", _seat_open, Code.SEAT_SEALED)
HAND_OK = ("hand total ≤ 100", _hand_limit, Code.HAND_LIMIT)
BALANCE_OK = ("draft ≤ balance", _balance, Code.OVER_BALANCE)
DONT_PASS_NAMED = ("line is Don't Pass", _names_dont_pass, Code.PASS_LOCKED)
PREPARED = ("prepared Don't Pass ≥ 10", _something_prepared, Code.NOTHING_TO_REDUCE)
CHANGED = ("draft differs from contracts", _draft_differs, Code.NOTHING_TO_RESET)
ALL_SEALED = ("every seat sealed", _all_sealed, Code.AWAITING_SEATS)

W, L, U = Outcome.WIN, Outcome.LOSS, Outcome.PUSH
K = ActionKind
Key = tuple[Phase, ActionKind, When]


def _spec_rows() -> dict[Key, RowSpec]:
    c, p = Phase.COME_OUT, Phase.POINT
    a = When.ALWAYS
    rows: dict[Key, RowSpec] = {
        # Come-out (R3–R11, R16, R17, R23)
        (c, K.ALLOCATE, a): RowSpec((SEAT_OPEN, HAND_OK, BALANCE_OK), _add_to_draft),
        (c, K.RESET, a): RowSpec((SEAT_OPEN, CHANGED), _restore),
        (c, K.CONFIRM, a): RowSpec((SEAT_OPEN,), _confirm),
        (c, K.REDUCE_DONT_PASS, a): RowSpec((), reject=Code.NO_POINT),
        (c, K.REMOVE_DONT_PASS, a): RowSpec((), reject=Code.NO_POINT),
        (c, K.ROLL, a): RowSpec((), reject=Code.CONFIRM_FIRST),
        (c, K.THROW, When.NATURAL): RowSpec((ALL_SEALED,), settle(W, L), outcomes=(W, L)),
        (c, K.THROW, When.CRAPS): RowSpec((ALL_SEALED,), settle(L, W), outcomes=(L, W)),
        (c, K.THROW, When.TWELVE): RowSpec((ALL_SEALED,), settle(L, U), outcomes=(L, U)),
        (c, K.THROW, When.POINT_NUMBER): RowSpec((ALL_SEALED,), _establish),
        (c, K.ABORT, a): RowSpec((), _abort),
        # Point phase (R12–R19, R23)
        (p, K.ALLOCATE, a): RowSpec((DONT_PASS_NAMED,), reject=Code.DONT_PASS_NO_INCREASE),
        (p, K.RESET, a): RowSpec((SEAT_OPEN, CHANGED), _restore),
        (p, K.CONFIRM, a): RowSpec((), reject=Code.ALREADY_CONFIRMED),
        (p, K.REDUCE_DONT_PASS, a): RowSpec((SEAT_OPEN, PREPARED), _reduce),
        (p, K.REMOVE_DONT_PASS, a): RowSpec((SEAT_OPEN, PREPARED), _remove),
        (p, K.ROLL, a): RowSpec((SEAT_OPEN,), _roll),
        (p, K.THROW, When.POINT_MADE): RowSpec((ALL_SEALED,), settle(W, L), outcomes=(W, L)),
        (p, K.THROW, When.SEVEN_OUT): RowSpec((ALL_SEALED,), settle(L, W), outcomes=(L, W)),
        (p, K.THROW, When.NO_DECISION): RowSpec((ALL_SEALED,), _keep),
        (p, K.ABORT, a): RowSpec((), _abort),
    }
    # R25: nothing is accepted once the session is over.
    for phase in (Phase.COMPLETE, Phase.ENDED):
        for kind in ActionKind:
            rows[(phase, kind, a)] = RowSpec((), reject=Code.SESSION_OVER)
    return rows


SPEC_ROWS: dict[Key, RowSpec] = _spec_rows()


# ---------------------------------------------------------------------- well-formedness
ABORTABLE = tuple(REASON_NUM[r] for r in REASONS if r is not EndReason.THROW_CAP)


def malformed_checks(kind: ActionKind, n: int, a: ActionVars) -> list[tuple[Expr, Code]]:
    """Ordered (is-malformed, code) checks made before any row (no state makes these legal)."""

    def bad_seat(seat: Expr) -> Expr:
        return z3.Or(seat < 0, seat >= n)

    if kind is ActionKind.THROW:
        die_ok = z3.And(a.die1 >= 1, a.die1 <= 6, a.die2 >= 1, a.die2 <= 6)
        return [(z3.Not(die_ok), Code.BAD_DIE)]
    if kind is ActionKind.ABORT:
        reason_ok = z3.Or(*(a.reason == r for r in ABORTABLE))
        return [
            (z3.Not(reason_ok), Code.BAD_REASON),
            (z3.And(a.abort_seat != NO_SEAT, bad_seat(a.abort_seat)), Code.BAD_SEAT),
        ]
    checks = [(bad_seat(a.seat), Code.BAD_SEAT)]
    if kind is ActionKind.ALLOCATE:
        checks.append((z3.And(a.line != LINE_PASS, a.line != LINE_DONT_PASS), Code.BAD_LINE))
        checks.append((z3.Or(a.amount <= 0, a.amount % UNIT != 0), Code.BAD_AMOUNT))
    return checks


def well_formed(kind: ActionKind, n: int, a: ActionVars) -> Expr:
    return z3.And(*(z3.Not(bad) for bad, _ in malformed_checks(kind, n, a)))


# ---------------------------------------------------------------------- relations
def selects(key: Key, s: TableVars, a: ActionVars) -> Expr:
    """The row's selector: its phase, and its totals for a throw."""
    phase, _kind, when = key
    return z3.And(s.phase == PHASE_NUM[phase], when_holds(when, a.total, s.point))


def enabled(key: Key, s: TableVars, a: ActionVars) -> Expr:
    """The row is selected, its guards hold and it accepts."""
    spec = SPEC_ROWS[key]
    if spec.effect is None:
        return z3.BoolVal(False)
    return z3.And(selects(key, s, a), *(g(s, a) for _, g, _ in spec.guards))


def step(key: Key, s: TableVars, a: ActionVars, t: TableVars) -> Expr:
    """The transition relation of one accepting row: enabled, and ``t`` is its effect."""
    spec = SPEC_ROWS[key]
    if spec.effect is None:
        return z3.BoolVal(False)
    return z3.And(enabled(key, s, a), equal(t, spec.effect(s, a)))


def after(key: Key, s: TableVars, a: ActionVars) -> TableVars:
    spec = SPEC_ROWS[key]
    assert spec.effect is not None
    return spec.effect(s, a)


def rejection_code(key: Key, s: TableVars, a: ActionVars) -> Code | None:
    """For concrete values: the code the row rejects with, or None when it accepts.

    Returns a ``Code``; meant for formulas that simplify to true/false.
    """
    spec = SPEC_ROWS[key]
    for _, guard, code in spec.guards:
        if z3.is_false(z3.simplify(guard(s, a))):
            return code
    return spec.reject


def keys_for(phase: Phase, kind: ActionKind) -> list[Key]:
    return [k for k in SPEC_ROWS if k[0] is phase and k[1] is kind]
