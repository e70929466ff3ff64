"""The positions the fixture topics start their cases from, and the names they share
(generator only)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pointline.conformance.casebook import Case
from pointline.kernel import (
    ABORT_REASONS,
    Action,
    Allocate,
    Confirm,
    EndReason,
    Line,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
)

__all__ = ["NO_DECISION", "REASONS", "STATES", "D", "P", "seat_actions"]

P, D = Line.PASS, Line.DONT_PASS
REASONS = sorted((r for r in ABORT_REASONS), key=lambda r: r.value)
NO_DECISION = {4: 6, 5: 6, 6: 8, 8: 6, 9: 6, 10: 6}
"""A total that changes nothing while the point is on."""


# ---------------------------------------------------------------------- states to start from
def _point(c: Case, choices: list[tuple[int, int]] | None = None, point: int = 6) -> None:
    n = c.table.seat_count
    c.seal_all(choices or [(30 + 10 * (i % 3), 40 - 10 * (i % 2)) for i in range(n)])
    c.throw(point)


def _complete(c: Case) -> None:
    # Seats 0 and 1 tie, the next rank skips (1, 1, 3).
    for _ in range(5):
        c.seal_all([(10 * (2 - (i > 1)), 0) for i in range(c.table.seat_count)])
        c.throw(7)


def _ended(c: Case) -> None:
    _point(c)
    c.abort(EndReason.DEPARTURE, full=False)


def _point_after_refund(c: Case) -> None:
    _point(c)
    c.ok(ReduceDontPass(0))
    c.roll_all()
    c.throw(3)


def _draft_open(c: Case) -> None:
    c.ok(Allocate(0, P, 30))
    c.ok(Allocate(0, D, 20))


def _point_then(action: Action) -> Callable[[Case], None]:
    def build(c: Case) -> None:
        _point(c)
        c.ok(action)

    return build


STATES: list[tuple[str, str, Callable[[Case], None]]] = [
    ("fresh", "a fresh come-out", lambda c: None),
    (
        "draft",
        "a come-out with seat 0's draft open",
        _draft_open,
    ),
    ("sealed", "seat 0 confirmed at come-out", lambda c: c.seal(0, 30, 20)),
    ("sitout", "seat 0 confirmed an empty draft", lambda c: c.seal(0, 0, 0)),
    (
        "all_sealed",
        "every seat confirmed at come-out",
        lambda c: c.seal_all([(20, 10)] * c.table.seat_count),
    ),
    ("point", "the point is 6, seat 0 to choose", _point),
    (
        "point_reduced",
        "point on, seat 0 prepared a reduction",
        _point_then(ReduceDontPass(0)),
    ),
    (
        "point_removed",
        "point on, seat 0 prepared a removal",
        _point_then(RemoveDontPass(0)),
    ),
    ("point_sealed", "point on, seat 0 rolled", _point_then(Roll(0))),
    (
        "point_refunded",
        "point on after a sealed reduction and a no-decision throw",
        _point_after_refund,
    ),
    (
        "point_sitout",
        "point on, seat 0 sat the hand out",
        lambda c: _point(c, [(0, 0)] + [(50, 0)] * (c.table.seat_count - 1)),
    ),
    (
        "point_pass_only",
        "point on, seat 0 holds Pass only",
        lambda c: _point(c, [(60, 0)] * c.table.seat_count),
    ),
    ("complete", "the session is complete", _complete),
    ("ended", "the session ended without a result", _ended),
]


def seat_actions(seat: int) -> list[tuple[str, Any]]:
    return [
        ("allocate_pass", Allocate(seat, P)),
        ("allocate_dont_pass", Allocate(seat, D)),
        ("allocate_pass_100", Allocate(seat, P, 100)),
        ("allocate_dont_pass_60", Allocate(seat, D, 60)),
        ("reset", Reset(seat)),
        ("confirm", Confirm(seat)),
        ("reduce", ReduceDontPass(seat)),
        ("remove", RemoveDontPass(seat)),
        ("roll", Roll(seat)),
    ]
