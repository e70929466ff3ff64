"""The card's invariants of one state and properties of one step, as z3 expressions over the
symbolic table of ``spec/model.py`` (``spec/proofs.py`` proves them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields

import z3

from pointline.kernel import ActionKind
from pointline.spec import model
from pointline.spec.model import (
    CAP,
    COME_OUT,
    COMPLETE,
    ENDED,
    HAND_LIMIT,
    HANDS,
    POINT,
    POINT_TOTALS,
    START,
    UNIT,
    Expr,
    SeatVars,
    TableVars,
)

__all__ = [
    "SEAT_INVARIANTS",
    "STEP_PROPERTIES",
    "TABLE_INVARIANTS",
    "TENS",
    "SeatInv",
    "StepProp",
    "TableInv",
    "invariant",
    "invariants",
    "phase_point",
    "step_properties",
]


# ---------------------------------------------------------------------- invariants (one state)
def _tens(x: Expr) -> Expr:
    return z3.And(x >= 0, x % UNIT == 0)


SeatInv = Callable[[TableVars, SeatVars], Expr]
TableInv = Callable[[TableVars], Expr]


def _amounts(s: TableVars, seat: SeatVars) -> Expr:
    return z3.And(
        *(_tens(x) for x in (seat.balance, seat.draft_pass, seat.draft_dp, seat.pass_, seat.dp)),
        *(_tens(x) for x in (seat.losses, seat.wins, seat.orig_pass, seat.orig_dp)),
    )


def _hand_limit(s: TableVars, seat: SeatVars) -> Expr:
    return z3.And(
        seat.draft_pass + seat.draft_dp <= HAND_LIMIT,
        seat.pass_ + seat.dp <= HAND_LIMIT,
        seat.orig_pass + seat.orig_dp <= HAND_LIMIT,
    )


def _within_balance(s: TableVars, seat: SeatVars) -> Expr:
    """An open come-out draft never exceeds the balance it would be taken from."""
    open_draft = z3.And(s.phase == COME_OUT, z3.Not(seat.sealed))
    return z3.Implies(open_draft, seat.draft_pass + seat.draft_dp <= seat.balance)


def _conserved(s: TableVars, seat: SeatVars) -> Expr:
    return seat.balance + seat.pass_ + seat.dp + seat.losses - seat.wins == START


def _contracts_shape(s: TableVars, seat: SeatVars) -> Expr:
    """Where contracts and drafts can be, phase by phase (what makes the others inductive)."""
    return z3.And(
        z3.Implies(
            s.phase == COME_OUT,
            z3.If(
                seat.sealed,
                z3.And(
                    seat.pass_ == seat.draft_pass,
                    seat.dp == seat.draft_dp,
                    seat.orig_pass == seat.pass_,
                    seat.orig_dp == seat.dp,
                ),
                z3.And(seat.pass_ == 0, seat.dp == 0, seat.orig_pass == 0, seat.orig_dp == 0),
            ),
        ),
        z3.Implies(
            s.phase == POINT,
            z3.And(
                seat.draft_pass == seat.pass_,
                seat.draft_dp <= seat.dp,
                z3.Implies(seat.sealed, seat.draft_dp == seat.dp),
                seat.pass_ == seat.orig_pass,
                seat.dp <= seat.orig_dp,
            ),
        ),
        z3.Implies(
            z3.Not(model.live(s.phase)),
            z3.And(
                seat.pass_ == 0,
                seat.dp == 0,
                seat.draft_pass == 0,
                seat.draft_dp == 0,
                z3.Not(seat.sealed),
            ),
        ),
    )


def phase_point(s: TableVars) -> Expr:
    on = z3.Or(*(s.point == t for t in POINT_TOTALS))
    return z3.And(
        s.phase >= COME_OUT,
        s.phase <= ENDED,
        z3.If(s.phase == POINT, on, s.point == 0),
    )


def _caps(s: TableVars) -> Expr:
    return z3.And(
        s.throws >= 0,
        s.throws <= CAP,
        s.resolved >= 0,
        s.resolved <= HANDS,
        z3.Implies(model.live(s.phase), z3.And(s.throws < CAP, s.resolved < HANDS)),
        (s.phase == COMPLETE) == (s.resolved == HANDS),
        s.resolved <= s.throws,
    )


TENS = f"every amount is a non-negative multiple of {UNIT}"
"""The name of the divisibility invariant (``spec.proofs`` leaves it out of the unrolled paths)."""

SEAT_INVARIANTS: dict[str, SeatInv] = {
    TENS: _amounts,
    f"a seat's hand total is at most {HAND_LIMIT}": _hand_limit,
    "an open draft is never above the balance": _within_balance,
    f"points are conserved per seat (balance + contracts + losses - net wins = {START:d})": (
        _conserved
    ),
    "contracts and drafts match the phase": _contracts_shape,
}
TABLE_INVARIANTS: dict[str, TableInv] = {
    "phase and point agree": phase_point,
    f"throws <= {CAP} and resolved hands <= {HANDS}": _caps,
}


def invariants(s: TableVars) -> dict[str, Expr]:
    out = {name: inv(s) for name, inv in TABLE_INVARIANTS.items()}
    for name, seat_inv in SEAT_INVARIANTS.items():
        out[name] = z3.And(*(seat_inv(s, seat) for seat in s.seats))
    return out


def invariant(s: TableVars) -> Expr:
    return z3.And(*invariants(s).values())


# ---------------------------------------------------------------------- step properties
StepProp = Callable[[TableVars, SeatVars, TableVars, SeatVars, ActionKind], Expr]


def _same_hand(s: TableVars, t: TableVars) -> Expr:
    return t.resolved == s.resolved


def _pass_no_increase(
    s: TableVars, a: SeatVars, t: TableVars, b: SeatVars, kind: ActionKind
) -> Expr:
    return z3.Implies(z3.And(model.confirmed(s, a), _same_hand(s, t)), b.pass_ <= a.pass_)


def _pass_no_decrease(
    s: TableVars, a: SeatVars, t: TableVars, b: SeatVars, kind: ActionKind
) -> Expr:
    return z3.Implies(z3.And(s.phase == POINT, t.phase == POINT), b.pass_ >= a.pass_)


def _dp_down_in_tens(
    s: TableVars, a: SeatVars, t: TableVars, b: SeatVars, kind: ActionKind
) -> Expr:
    return z3.Implies(
        z3.And(model.confirmed(s, a), _same_hand(s, t)),
        z3.And(b.dp <= a.dp, (a.dp - b.dp) % UNIT == 0),
    )


def _removed_never_returns(
    s: TableVars, a: SeatVars, t: TableVars, b: SeatVars, kind: ActionKind
) -> Expr:
    """Once sealed, no step of the hand raises a contract or prepares more than is left."""
    return z3.Implies(
        z3.And(model.confirmed(s, a), _same_hand(s, t)),
        z3.And(
            b.pass_ + b.dp <= a.pass_ + a.dp,
            b.dp <= a.orig_dp,
            z3.Implies(t.phase == POINT, b.draft_dp <= b.dp),
        ),
    )


def _sealed_frozen(s: TableVars, a: SeatVars, t: TableVars, b: SeatVars, kind: ActionKind) -> Expr:
    if kind in (ActionKind.THROW, ActionKind.ABORT):
        return z3.BoolVal(True)
    return z3.Implies(
        a.sealed,
        z3.And(*(getattr(a, f.name) == getattr(b, f.name) for f in fields(SeatVars))),
    )


def _refund_no_profit(
    s: TableVars, a: SeatVars, t: TableVars, b: SeatVars, kind: ActionKind
) -> Expr:
    """Outside settlements and voids, the balance grows only by what leaves Don't Pass."""
    if kind is not ActionKind.ROLL:
        return z3.BoolVal(True)
    return b.balance - a.balance == a.dp - b.dp


STEP_PROPERTIES: dict[str, StepProp] = {
    "Pass never increases after confirmation": _pass_no_increase,
    "Pass never decreases in the point phase": _pass_no_decrease,
    "a sealed Don't Pass only decreases, in tens": _dp_down_in_tens,
    "a removed amount never returns (no increase after sealing)": _removed_never_returns,
    "a sealed seat changes nothing until the throw": _sealed_frozen,
    "a withdrawal refund returns exactly the reduced part": _refund_no_profit,
}


def step_properties(s: TableVars, t: TableVars, kind: ActionKind) -> dict[str, Expr]:
    return {
        name: z3.And(*(p(s, a, t, b, kind) for a, b in zip(s.seats, t.seats, strict=True)))
        for name, p in STEP_PROPERTIES.items()
    }
