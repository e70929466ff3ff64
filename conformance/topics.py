"""The fixture topics: each function returns the cases of one file (generator only)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

from pointline.conformance import edges
from pointline.conformance.casebook import ALL_PAIRS, DICE_FOR, Case, DiceCase
from pointline.kernel import (
    ABORT_REASONS,
    Abort,
    Action,
    Allocate,
    Choice,
    Confirm,
    EndReason,
    Line,
    Phase,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    Throw,
    commitment,
    dice_from_seed,
    dice_seed,
)

__all__ = [
    "MALFORMED",
    "NO_DECISION",
    "REASONS",
    "STATES",
    "TOPICS",
    "TOPIC_PROTOCOL",
    "D",
    "P",
    "aborts",
    "allocation",
    "canonical",
    "commitments",
    "dice",
    "dont_pass",
    "malformed",
    "ranks",
    "rows",
    "seats",
    "session",
    "throw_cap",
    "totals",
]

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


def _seat_actions(seat: int) -> list[tuple[str, Any]]:
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


def rows() -> list[Case]:
    """Every action kind from every kind of state: each row of the table and each guard."""
    cases = []
    for seats in (1, 3):
        for sname, sdesc, prep in STATES:
            acts = _seat_actions(0)
            if seats > 1:
                acts += [("last_seat_allocate_pass", Allocate(seats - 1, P))]
            acts += [(f"throw_{t}", Throw(*DICE_FOR[t])) for t in range(2, 13)]
            acts += [("abort_deadline", Abort(EndReason.DEADLINE, 0))]
            for aname, action in acts:
                c = Case(
                    f"rows.{seats}seat.{sname}.{aname}",
                    f"{sdesc} ({seats} seat(s)); then {aname}",
                    seats=seats,
                )
                prep(c)
                c.do(action, full=True)
                cases.append(c)
    return cases + edges.guard_order()


MALFORMED: list[tuple[str, dict[str, Any]]] = [
    *(
        (f"amount_{v!r}", {"kind": "allocate", "seat": 0, "line": "pass", "amount": v})
        for v in (15, 0, -10, 5, 1, 105, -100, "10", None, True, [10])
    ),
    ("amount_missing", {"kind": "allocate", "seat": 0, "line": "dont_pass"}),
    *(
        (f"die1_{v!r}", {"kind": "throw", "die1": v, "die2": 3})
        for v in (0, 7, -1, 9, "3", None, True)
    ),
    *((f"die2_{v!r}", {"kind": "throw", "die1": 3, "die2": v}) for v in (0, 7, 12, "6", None)),
    ("dice_missing", {"kind": "throw"}),
    *(
        (f"seat_{k}_{v!r}", {"kind": k, "seat": v})
        for v in (-1, 9, 8, 3, None, "0", True)
        for k in ("confirm", "roll")
    ),
    ("seat_missing", {"kind": "reset"}),
    *(
        (f"line_{v!r}", {"kind": "allocate", "seat": 0, "line": v, "amount": 10})
        for v in ("both", "PASS", "", None, 1, "dont pass")
    ),
    *((f"kind_{v!r}", {"kind": v, "seat": 0}) for v in ("jump", "", None, 3, "Roll", "ALLOCATE")),
    ("kind_missing", {"seat": 0}),
    ("action_list", [0]),  # type: ignore[list-item]
    ("action_string", "roll"),  # type: ignore[list-item]
    ("action_null", None),  # type: ignore[list-item]
    *(
        (f"reason_{v!r}", {"kind": "abort", "reason": v, "seat": None})
        for v in ("throw_cap", "quit", "", None, 3, "DEPARTURE")
    ),
    *(
        (f"abort_seat_{v!r}", {"kind": "abort", "reason": "departure", "seat": v})
        for v in (-1, 9, 3, "0", True)
    ),
    # Precedence: the first check that fails names the error.
    ("seat_before_amount", {"kind": "allocate", "seat": 9, "line": "pass", "amount": 15}),
    ("seat_before_line", {"kind": "allocate", "seat": 9, "line": "up", "amount": 10}),
    ("line_before_amount", {"kind": "allocate", "seat": 0, "line": "up", "amount": 15}),
    ("reason_before_seat", {"kind": "abort", "reason": "quit", "seat": 9}),
    ("die_before_die", {"kind": "throw", "die1": 0, "die2": 7}),
]


def malformed() -> list[Case]:
    """Actions that are not well formed, in every phase: the malformed code wins over state."""
    cases = []
    for sname, sdesc, prep in [
        STATES[0],
        STATES[2],
        STATES[4],
        STATES[5],
        STATES[8],
        STATES[12],
        STATES[13],
    ]:
        for mname, doc in MALFORMED:
            c = Case(
                f"malformed.{sname}.{mname}",
                f"{sdesc} (3 seats); then the malformed {mname}",
                ("R3", "R8"),
                seats=3,
            )
            prep(c)
            c.do(doc, full=mname.startswith("amount_1"))
            c.roll_all() if not c.table.is_over and c.table.phase is Phase.POINT else None
            cases.append(c)
    for v in (0, 9, -1, 100, "2", None, True, 2.5):
        c = Case(
            f"malformed.new_table.seats_{v!r}",
            f"a table of {v!r} seats cannot be made",
            ("R2",),
            seats=v,
        )
        cases.append(c)
    bad_ids: tuple[object, ...] = (5, None, ["t"])
    for bad_id in bad_ids:
        c = Case(
            f"malformed.new_table.table_id_{bad_id!r}",
            "the table id must be a string",
            ("R2", "R28"),
            table_id=bad_id,
        )
        cases.append(c)
    cases += edges.new_table_members()
    cases += edges.replies()
    cases += edges.abort_without_seat()
    cases += edges.numbers()
    cases += edges.duplicate_members()
    return cases


def canonical() -> list[Case]:
    """Table ids keep every character in the canonical UTF-8 JSON (escapes as JSON requires)."""
    cases = []
    for tid in (
        "",
        "tablé ü",
        'q"uote\\back',
        "line\nbreak\ttab\x01ctl",
        "🎲 dice",
        "\u2028sep",
        "\x7f\x1f",
        *edges.ESCAPED_IDS,
    ):
        c = Case(
            f"canonical.table_id_{tid.encode('unicode_escape').decode('ascii')}",
            "table ids keep their characters in canonical UTF-8 JSON",
            ("R28",),
            table_id=tid,
            full_start=True,
        )
        c.seal(0, 10, 0)
        c.throw(4, full=True)
        cases.append(c)
    return cases


def totals() -> list[Case]:
    """Every pair of dice at the come-out, and in the point phase for every point."""
    cases = []
    configs = [(10, 0), (0, 10), (60, 40), (0, 0)]
    for a, b in ALL_PAIRS:
        for p, d in configs:
            c = Case(
                f"totals.come_out.{a}{b}.p{p}d{d}",
                f"come-out throw {a}+{b}={a + b} with Pass {p}, Don't Pass {d}",
                ("R9", "R10", "R11", "R16", "R7"),
            )
            c.seal(0, p, d)
            c.throw((a, b), full=True)
            cases.append(c)
        c = Case(
            f"totals.come_out.{a}{b}.3seats",
            f"come-out throw {a}+{b} with three seats on different lines",
            ("R2", "R16"),
            seats=3,
        )
        c.seal_all([(30, 0), (0, 50), (20, 20)])
        c.throw((a, b), full=True)
        cases.append(c)
    for point in (4, 5, 6, 8, 9, 10):
        for a, b in ALL_PAIRS:
            c = Case(
                f"totals.point{point}.{a}{b}.1seat",
                f"point {point}, then {a}+{b}={a + b}",
                ("R11", "R18", "R19", "R16"),
            )
            c.seal(0, 40, 60)
            c.throw(point)
            c.roll_all()
            c.throw((a, b), full=True)
            if not c.table.is_over and c.table.phase is Phase.POINT:
                c.roll_all()
                c.throw(point)
            cases.append(c)
            c = Case(
                f"totals.point{point}.{a}{b}.3seats",
                f"point {point} with three seats, then {a}+{b}",
                ("R2", "R11", "R18", "R19"),
                seats=3,
            )
            c.seal_all([(50, 0), (0, 100), (0, 0)])
            c.throw(point)
            c.roll_all()
            c.throw((a, b), full=True)
            cases.append(c)
    return cases


def allocation() -> list[Case]:
    """Allocation edges: amounts, the 100 hand limit, lines mixed, Reset, and the balance guard."""
    cases = []
    for amount in (10, 20, 50, 90, 100, 110, 120, 200, 1000, 1010):
        for line in (P, D):
            c = Case(
                f"allocation.single.{line.value}.{amount}",
                f"one Allocate of {amount} on {line.value}",
                ("R3", "R4"),
            )
            c.allocate(0, line, amount, full=True)
            c.do(Confirm(0), full=True)
            c.throw(7 if line is P else 2, full=True)
            cases.append(c)
    for first, second in ((90, 10), (90, 20), (50, 50), (50, 60), (100, 10), (10, 100), (0, 10)):
        for lines in ((P, P), (P, D), (D, P), (D, D)):
            c = Case(
                f"allocation.two.{lines[0].value}{first}.{lines[1].value}{second}",
                f"{first} then {second}: the total is capped at 100",
                ("R3", "R4"),
            )
            if first:
                c.allocate(0, lines[0], first)
            c.allocate(0, lines[1], second, full=True)
            c.allocate(0, lines[0], 10)
            c.ok(Confirm(0), full=True)
            cases.append(c)
    c = Case(
        "allocation.tens_to_100",
        "ten allocations of 10 reach 100; the eleventh is refused",
        ("R3", "R4"),
    )
    for i in range(11):
        c.allocate(0, P if i % 2 else D, 10)
    c.ok(Confirm(0), full=True)
    cases.append(c)
    c = Case(
        "allocation.reset_then_again",
        "Reset empties the come-out draft, which may then be filled to 100 again",
        ("R4", "R6"),
    )
    c.allocate(0, P, 100)
    c.ok(Reset(0), full=True)
    c.do(Reset(0), full=True)
    c.allocate(0, D, 100, full=True)
    c.ok(Confirm(0), full=True)
    cases.append(c)
    c = Case(
        "allocation.after_confirm",
        "a confirmed seat cannot allocate, reset or confirm again",
        ("R5",),
    )
    c.allocate(0, P, 30)
    c.ok(Confirm(0))
    for a in (Allocate(0, P), Allocate(0, D, 100), Reset(0), Confirm(0), Roll(0)):
        c.do(a, full=True)
    cases.append(c)
    for hands_lost in (1, 2, 3, 4):
        c = Case(
            f"allocation.balance.after_{hands_lost}_losses",
            "the lowest come-out balance is 600: the 100 limit binds before the balance guard",
            ("R1", "R3"),
        )
        for _ in range(hands_lost):
            c.seal(0, 100, 0)
            c.throw(2)
        c.allocate(0, P, 100, full=True)
        c.allocate(0, D, 10, full=True)
        c.ok(Confirm(0))
        c.throw(12, full=True)
        cases.append(c)
    c = Case("allocation.balance.after_wins", "winning does not raise the 100 hand limit", ("R3",))
    for _ in range(3):
        c.seal(0, 100, 0)
        c.throw(7)
    c.allocate(0, P, 100)
    c.allocate(0, P, 10, full=True)
    cases.append(c)
    for point in (4, 10):
        for amount in (10, 100, 15):
            for line in (P, D):
                c = Case(
                    f"allocation.point{point}.{line.value}.{amount}",
                    "no allocation once the point is on",
                    ("R13", "R15"),
                )
                c.seal(0, 50, 50)
                c.throw(point)
                c.allocate(0, line, amount, full=True)
                c.ok(Roll(0))
                c.allocate(0, line, amount, full=True)
                cases.append(c)
    return cases


def dont_pass() -> list[Case]:
    """Don't Pass reductions and removals, refunds, Reset, and that nothing comes back."""
    cases = []
    for dp in (10, 50, 100):
        for k in range(dp // 10 + 2):
            for final in (7, 4):
                c = Case(
                    f"dont_pass.reduce{k}_of_{dp}.then_{final}",
                    f"Don't Pass {dp}, {k} reduction(s) before one throw, then {final}",
                    ("R14", "R15", "R16", "R24"),
                )
                c.seal(0, 0, dp)
                c.throw(4)
                for _ in range(k):
                    c.do(ReduceDontPass(0))
                c.ok(Roll(0), full=True)
                c.throw(final, full=True)
                cases.append(c)
    c = Case(
        "dont_pass.reduce_each_throw",
        "one reduction before each of five throws: five refunds of 10",
        ("R14", "R15", "R24"),
    )
    c.seal(0, 20, 50)
    c.throw(5)
    for _ in range(5):
        c.ok(ReduceDontPass(0))
        c.ok(Roll(0))
        c.throw(6, full=True)
    c.do(ReduceDontPass(0), full=True)
    c.do(RemoveDontPass(0), full=True)
    c.ok(Roll(0))
    c.throw(5, full=True)
    cases.append(c)
    c = Case(
        "dont_pass.reset_after_reduction",
        "Reset after a prepared reduction restores the current contract",
        ("R6", "R14"),
    )
    c.seal(0, 0, 50)
    c.throw(8)
    c.ok(ReduceDontPass(0))
    c.ok(ReduceDontPass(0))
    c.ok(Reset(0), full=True)
    c.do(Reset(0), full=True)
    c.ok(Roll(0), full=True)
    cases.append(c)
    c = Case(
        "dont_pass.reset_restores_current_not_original",
        "after a sealed reduction Reset restores the current contract, not the original",
        ("R6", "R14", "R15"),
    )
    c.seal(0, 0, 50)
    c.throw(8)
    c.ok(ReduceDontPass(0))
    c.ok(Roll(0))
    c.throw(3)
    c.do(Reset(0), full=True)
    c.ok(ReduceDontPass(0))
    c.ok(ReduceDontPass(0))
    c.ok(Reset(0), full=True)
    c.ok(Roll(0), full=True)
    c.throw(7, full=True)
    cases.append(c)
    for before_roll in ("reset", "reduce", "roll"):
        c = Case(
            f"dont_pass.remove_then_{before_roll}",
            "removal prepares 0; Reset undoes it before the roll",
            ("R14", "R6"),
        )
        c.seal(0, 30, 70)
        c.throw(9)
        c.ok(RemoveDontPass(0), full=True)
        c.do(
            {"reset": Reset(0), "reduce": ReduceDontPass(0), "roll": Roll(0)}[before_roll],
            full=True,
        )
        c.roll_all()
        c.throw(7, full=True)
        cases.append(c)
    c = Case(
        "dont_pass.no_readd_after_removal",
        "after a sealed removal nothing brings Don't Pass back in this hand",
        ("R14", "R15", "R13"),
    )
    c.seal(0, 30, 70)
    c.throw(9)
    c.ok(RemoveDontPass(0))
    c.ok(Roll(0))
    c.throw(5)
    for a in (
        Allocate(0, D),
        Allocate(0, D, 70),
        Allocate(0, P),
        Reset(0),
        ReduceDontPass(0),
        RemoveDontPass(0),
        Confirm(0),
    ):
        c.do(a, full=True)
    c.ok(Roll(0))
    c.throw(4)
    c.do(Allocate(0, D, 70), full=True)
    c.ok(Roll(0))
    c.throw(9, full=True)
    c.allocate(0, D, 70, full=True)
    cases.append(c)
    c = Case(
        "dont_pass.sitout_no_new_contract",
        "a seat that sat out cannot enter once the point is on",
        ("R7", "R13", "R15"),
        seats=2,
    )
    c.seal_all([(0, 0), (50, 50)])
    c.throw(10)
    for a in (
        Allocate(0, P),
        Allocate(0, D),
        ReduceDontPass(0),
        RemoveDontPass(0),
        Reset(0),
        Confirm(0),
    ):
        c.do(a, full=True)
    c.roll_all()
    c.throw(10, full=True)
    cases.append(c)
    for when in ("come_out", "come_out_sealed"):
        c = Case(
            f"dont_pass.no_point.{when}",
            "Don't Pass cannot be reduced or removed before the point",
            ("R14",),
        )
        c.allocate(0, D, 50)
        if when == "come_out_sealed":
            c.ok(Confirm(0))
        for a in (ReduceDontPass(0), RemoveDontPass(0)):
            c.do(a, full=True)
        cases.append(c)
    c = Case(
        "dont_pass.pass_only_nothing_to_reduce",
        "with Pass only, reduce and remove have nothing to act on",
        ("R13", "R14"),
    )
    c.seal(0, 80, 0)
    c.throw(6)
    for a in (ReduceDontPass(0), RemoveDontPass(0), Allocate(0, P), Reset(0)):
        c.do(a, full=True)
    cases.append(c)
    c = Case(
        "dont_pass.reduce_sealed_seat",
        "after Roll the seat is sealed: no reduction until the throw",
        ("R5", "R14"),
        seats=2,
    )
    c.seal_all([(0, 50), (0, 50)])
    c.throw(4)
    c.ok(Roll(0))
    sealed_tries: tuple[Action, ...] = (
        ReduceDontPass(0),
        RemoveDontPass(0),
        Reset(0),
        Roll(0),
        Allocate(0, P),
    )
    for attempt in sealed_tries:
        c.do(attempt, full=True)
    c.do(Throw(3, 3), full=True)
    c.ok(ReduceDontPass(1))
    c.ok(Roll(1))
    c.throw(3, full=True)
    cases.append(c)
    return cases


def _nodecision_run(c: Case, until: int, point: int) -> None:
    while c.table.throws < until:
        c.roll_all()
        c.throw(NO_DECISION[point])


def throw_cap() -> list[Case]:
    """The 127th, 128th and 129th throw, with and without the session completing on them."""
    cases = []
    for seats in (1, 3):
        choices = [(40, 60), (0, 0), (100, 0)][:seats]

        def start(cid: str, desc: str, seats: int = seats) -> Case:
            return Case(
                f"throw_cap.{seats}seat.{cid}",
                f"{desc} ({seats} seat(s))",
                ("R22", "R23", "R20"),
                seats=seats,
            )

        # Cap in hand 1, no decision on the 128th: voided.
        c = start(
            "hand1_void_at_128", "the point stays on to throw 128: the hand is voided, no result"
        )
        c.seal_all(choices)
        c.throw(4)
        _nodecision_run(c, 126, 4)
        c.roll_all()
        c.throw(6, full=True)
        c.roll_all()
        c.throw(6, full=True)
        c.do(Throw(2, 2), full=True)
        c.do(Roll(0), full=True)
        c.do(Abort(EndReason.DEPARTURE), full=True)
        cases.append(c)
        for decide in (7, 4):
            c = start(
                f"hand1_decided_at_128_{decide}",
                "the 128th throw resolves hand 1 but the session is not complete: ended",
            )
            c.seal_all(choices)
            c.throw(4)
            _nodecision_run(c, 127, 4)
            c.roll_all()
            c.throw(decide, full=True)
            c.do(Throw(1, 1), full=True)
            cases.append(c)
        for at in (127, 128):
            for decide in (7, 5):
                c = start(
                    f"complete_at_{at}_{decide}",
                    f"hand 5 resolves on throw {at}: complete with a result",
                )
                for _ in range(4):
                    c.seal_all(choices)
                    c.throw(11)
                c.seal_all(choices)
                c.throw(5)
                _nodecision_run(c, at - 1, 5)
                c.roll_all()
                c.throw(decide, full=True)
                c.do(Throw(1, 2), full=True)
                c.do(Abort(EndReason.DEADLINE), full=True)
                cases.append(c)
        c = start("hand5_void_at_128", "hand 5 is still on at throw 128: ended, voided, no result")
        for _ in range(4):
            c.seal_all(choices)
            c.throw(2)
        c.seal_all(choices)
        c.throw(10)
        _nodecision_run(c, 127, 10)
        c.roll_all()
        c.throw(6, full=True)
        cases.append(c)
        for total in (4, 7, 12):
            c = start(f"come_out_at_128_{total}", f"the 128th throw is a come-out {total}")
            c.seal_all(choices)
            c.throw(8)
            _nodecision_run(c, 126, 8)
            c.roll_all()
            c.throw(8)
            c.seal_all(choices)
            c.throw(total, full=True)
            cases.append(c)
        c = start(
            "reduced_before_cap",
            "Don't Pass reduced across many throws, then the cap voids what is left",
        )
        c.seal_all(choices)
        c.throw(9)
        while c.table.throws < 128:
            if c.table.contracts(0).dont_pass_amount:
                c.ok(ReduceDontPass(0))
            c.roll_all()
            c.throw(6, full=c.table.throws == 127)
        cases.append(c)
        c = start(
            "abort_sealed_at_127",
            "every seat sealed for throw 128, then an abort: its reason, not the cap",
        )
        c.seal_all(choices)
        c.throw(4)
        _nodecision_run(c, 127, 4)
        c.roll_all()
        c.do(Abort(EndReason.BACKGROUND, 0), full=True)
        cases.append(c)
    return cases


def session() -> list[Case]:
    """Five resolved hands, sit-outs counted, the result, and nothing after it."""
    cases = []
    scripts = {
        "naturals": [[7]] * 5,
        "mixed": [[2], [4, 6, 4], [11], [12], [9, 7]],
        "points": [[4, 4], [5, 7], [6, 3, 6], [8, 8], [10, 2, 7]],
        "long_fifth": [[7], [7], [7], [7], [6, 2, 3, 11, 12, 5, 4, 8, 6]],
    }
    sitout_patterns = {"never": [], "hand1": [0], "hands135": [0, 2, 4], "always": [0, 1, 2, 3, 4]}
    for sname, script in scripts.items():
        for pname, sitouts in sitout_patterns.items():
            c = Case(
                f"session.{sname}.sitout_{pname}",
                f"hands {script}; seat 0 sits out hands {sitouts}",
                ("R7", "R17", "R20", "R21"),
                seats=2,
            )
            for h, throws in enumerate(script):
                c.seal_all([(0, 0) if h in sitouts else (30, 20), (10 * (h + 1), 10)])
                for i, total in enumerate(throws):
                    if i:
                        c.roll_all()
                    c.throw(total, full=i == len(throws) - 1)
            for a in (
                Allocate(0, P),
                Confirm(1),
                Roll(0),
                Reset(1),
                ReduceDontPass(0),
                RemoveDontPass(1),
                Throw(3, 4),
                Abort(EndReason.DEPARTURE),
            ):
                c.do(a, full=isinstance(a, Abort))
            cases.append(c)
    c = Case(
        "session.all_sit_out",
        "every seat sits out every hand: the dice still roll and five hands resolve",
        ("R7", "R20", "R21"),
        seats=3,
    )
    for _ in range(5):
        c.seal_all([(0, 0)] * 3)
        c.throw(3, full=True)
    cases.append(c)
    c = Case(
        "session.all_sit_out_points",
        "sat-out hands with a point still need the point or a seven",
        ("R7", "R18", "R20"),
        seats=2,
    )
    for total in (4, 5, 6, 8, 9):
        c.seal_all([(0, 0)] * 2)
        c.throw(total)
        c.roll_all()
        c.throw(NO_DECISION[total])
        c.roll_all()
        c.throw(total, full=True)
    cases.append(c)
    return cases


def seats() -> list[Case]:
    """Two to eight seats: independent contracts, shared dice and point, every seat seals."""
    cases = []
    for n in range(2, 9):
        for variant in range(8):
            rng = random.Random(f"seats-{n}-{variant}")
            c = Case(
                f"seats.{n}.v{variant}",
                f"{n} seats with their own contracts on the same dice (variant {variant})",
                ("R2", "R5", "R8", "R12"),
                seats=n,
            )
            c.do(Throw(3, 4), full=True)
            c.do({"kind": "confirm", "seat": n}, full=False)
            for _hand in range(5):
                if c.table.is_over:
                    break
                order = list(range(n))
                rng.shuffle(order)
                for k, s in enumerate(order):
                    p = rng.choice((0, 0, 10, 20, 50, 100))
                    d = rng.choice((0, 0, 10, 30, 100 - p))
                    if p + d > 100:
                        d = 0
                    c.seal(s, p, d)
                    if k == n // 2:
                        c.do(Throw(1, 1))
                c.throw(rng.choice((4, 5, 6, 8, 9, 10, 7, 2, 12, 11)))
                while c.table.phase is Phase.POINT:
                    for s in rng.sample(range(n), n):
                        dp = c.table.contracts(s).dont_pass_amount
                        if dp and rng.random() < 0.3:
                            c.ok(ReduceDontPass(s))
                        elif dp and rng.random() < 0.1:
                            c.ok(RemoveDontPass(s))
                        c.ok(Roll(s))
                    c.do(Throw(rng.randint(1, 6), rng.randint(1, 6)))
                c.do(Roll(0), full=True)
            cases.append(c)
    return cases


def ranks() -> list[Case]:
    """Competition ranks with ties (1, 1, 3): final points decide, seat order never does."""
    cases = []
    patterns: list[list[tuple[int, int]]] = [
        [(10, 0), (10, 0)],
        [(10, 0), (0, 10)],
        [(0, 10), (10, 0), (0, 10)],
        [(50, 0), (50, 0), (0, 50)],
        [(0, 50), (50, 0), (50, 0)],
        [(20, 0), (10, 10), (0, 0), (20, 0)],
        [(0, 0)] * 5,
        [(100, 0), (0, 100), (0, 0), (50, 50), (100, 0), (0, 100), (0, 0), (50, 50)],
    ]
    rng = random.Random("ranks")
    for _ in range(40):
        n = rng.randint(2, 8)
        patterns.append([rng.choice(((10, 0), (0, 10), (0, 0), (20, 0))) for _ in range(n)])
    for i, pattern in enumerate(patterns):
        for script in ([7, 11, 7, 7, 7], [2, 3, 7, 12, 7], [4, 4, 9, 7, 12]):
            c = Case(
                f"ranks.p{i}.{''.join(map(str, script))}",
                f"choices {pattern} every hand; throws {script}",
                ("R21",),
                seats=len(pattern),
            )
            for t in script:
                c.seal_all(pattern)
                c.throw(t)
                if c.table.phase is Phase.POINT:
                    c.roll_all()
                    c.throw(t if t != 7 else 7)
            c.roll_all() if c.table.phase is Phase.POINT else None
            while not c.table.is_over:
                c.seal_all(pattern) if c.table.phase is Phase.COME_OUT else c.roll_all()
                c.throw(7)
            c.do(Confirm(0), full=True)
            cases.append(c)
    return cases


def aborts() -> list[Case]:
    """Every abort reason in every phase: the hand in flight is voided, no result."""
    cases = []
    for reason in REASONS:
        for k, (sname, sdesc, prep) in enumerate(STATES):
            seat = (None, 0, 1)[k % 3]
            c = Case(
                f"abort.{reason.value}.{sname}",
                f"{sdesc}; then abort for {reason.value} (seat {seat})",
                ("R23", "R25", "R24"),
                seats=2,
            )
            prep(c)
            c.do(Abort(reason, seat), full=True)
            c.do(Confirm(0), full=True)
            cases.append(c)
    for sname, sdesc, prep in STATES:
        c = Case(
            f"abort.throw_cap_reason.{sname}",
            f"{sdesc}; the throw cap is not a reason a caller may give",
            ("R22", "R23"),
            seats=2,
        )
        prep(c)
        c.do({"kind": "abort", "reason": "throw_cap", "seat": None}, full=True)
        cases.append(c)
    return cases


# ---------------------------------------------------------------------- dice and commitments
def _nonce(label: str, i: int) -> bytes:
    return hashlib.sha256(f"{label}/{i}".encode()).digest()


def _derive(
    c: DiceCase, table_id: Any, index: Any, nonces: list[Any], version: Any = 1
) -> dict[str, Any]:
    return c.request(
        {
            "op": "derive_dice",
            "table_id": table_id,
            "throw_index": index,
            "nonces": [n.hex() if isinstance(n, bytes) else n for n in nonces],
            "version": version,
        }
    )


def dice() -> list[DiceCase]:
    """Dice derivation vectors: seeds, faces, and the rejection-sampling paths."""
    cases = []
    rng = random.Random("dice")
    ids = ["t", "solo", "", "room-42", "tablé ü", "🎲"]
    for i in range(150):
        n = 1 + i % 8
        index = rng.choice((1, 2, 3, 64, 127, 128, rng.randint(1, 200), 0xFFFFFFFF))
        c = DiceCase(f"dice.vector.{i:03d}", f"{n} nonce(s), throw {index}", ("R27",))
        _derive(c, ids[i % len(ids)], index, [rng.randbytes(32) for _ in range(n)])
        cases.append(c)
    # Search nonces whose seeds reject bytes: before the first face, between the faces, several.
    wanted = {
        (1, "first"): None,
        (1, "second"): None,
        (2, "first"): None,
        (2, "split"): None,
        (3, "any"): None,
    }
    found: dict[tuple[int, str], list[bytes]] = {}
    i = 0
    while len(found) < len(wanted) and i < 3_000_000:
        nonce = _nonce("reject", i)
        i += 1
        seed = dice_seed("t", 1, [nonce])
        block = hashlib.sha256(seed + b"\x00\x00\x00\x00").digest()
        _, _, rejected = dice_from_seed(seed)
        if rejected == 0:
            continue
        first_bad = block[0] >= 252
        if rejected == 1:
            key = (1, "first" if first_bad else "second")
        elif rejected == 2:
            key = (2, "first" if first_bad and block[1] >= 252 else "split")
        else:
            key = (3, "any")
        if key in wanted and key not in found:
            found[key] = [nonce]
    for (count, where), nonces in sorted(found.items()):
        c = DiceCase(
            f"dice.rejection.{count}.{where}",
            f"{count} rejected byte(s) ({where}) before two faces",
            ("R27",),
        )
        _derive(c, "t", 1, nonces)
        cases.append(c)
    # Seeds for every pair of faces.
    faces: dict[tuple[int, int], bytes] = {}
    i = 0
    while len(faces) < 36:
        nonce = _nonce("faces", i)
        i += 1
        d1, d2, _ = dice_from_seed(dice_seed("solo", 5, [nonce, nonce]))
        faces.setdefault((d1, d2), nonce)
    for (d1, d2), nonce in sorted(faces.items()):
        c = DiceCase(f"dice.faces.{d1}{d2}", f"a reveal that gives {d1} and {d2}", ("R27", "R8"))
        _derive(c, "solo", 5, [nonce, nonce])
        cases.append(c)
    good = _nonce("good", 0)
    order = DiceCase("dice.order_matters", "the nonces are taken in seat order", ("R27",))
    _derive(order, "t", 7, [good, _nonce("good", 1)])
    _derive(order, "t", 7, [_nonce("good", 1), good])
    _derive(order, "t", 8, [good, _nonce("good", 1)])
    _derive(order, "u", 7, [good, _nonce("good", 1)])
    _derive(order, "t", 7, [good, _nonce("good", 1)], 2)
    cases.append(order)
    bad: list[tuple[str, dict[str, Any]]] = [
        ("nonce_31", {"nonces": [good[:31]]}),
        ("nonce_33", {"nonces": [good + b"\x00"]}),
        ("nonce_not_hex", {"nonces": ["zz" * 32]}),
        ("nonce_not_string", {"nonces": [5]}),
        ("no_nonces", {"nonces": []}),
        ("nonces_not_list", {"nonces": good.hex()}),
        ("index_0", {"throw_index": 0}),
        ("index_negative", {"throw_index": -1}),
        ("index_2_32", {"throw_index": 1 << 32}),
        ("index_string", {"throw_index": "1"}),
        ("version_negative", {"version": -1}),
        ("version_65536", {"version": 65536}),
        ("table_id_number", {"table_id": 5}),
    ]
    for name, change in bad:
        c = DiceCase(f"dice.bad_input.{name}", f"derivation input {name} is refused", ("R27",))
        req: dict[str, Any] = {
            "op": "derive_dice",
            "table_id": "t",
            "throw_index": 1,
            "nonces": [good.hex()],
            "version": 1,
        }
        req.update(
            {
                k: (
                    [n.hex() if isinstance(n, bytes) else n for n in v]
                    if k == "nonces" and isinstance(v, list)
                    else v
                )
                for k, v in change.items()
            }
        )
        c.request(req)
        cases.append(c)
    c = DiceCase("dice.many_nonces", "255 nonces are accepted, 256 are not", ("R27",))
    _derive(c, "t", 1, [_nonce("many", i) for i in range(255)])
    _derive(c, "t", 1, [_nonce("many", i) for i in range(256)])
    cases.append(c)
    return cases + edges.dice_boundaries()


def _commit_request(
    op: str,
    table_id: Any,
    index: Any,
    seat: Any,
    nonce: Any,
    choices: Any,
    version: Any = 1,
    digest: Any = None,
) -> dict[str, Any]:
    req = {
        "op": op,
        "table_id": table_id,
        "throw_index": index,
        "seat": seat,
        "nonce": nonce.hex() if isinstance(nonce, bytes) else nonce,
        "choices": choices.hex() if isinstance(choices, bytes) else choices,
        "version": version,
    }
    if digest is not None:
        req["commitment"] = digest.hex() if isinstance(digest, bytes) else digest
    return req


def commitments() -> list[DiceCase]:
    """Commitment vectors: computed digests, good reveals, and every kind of tampering."""
    cases = []
    rng = random.Random("commit")
    for i in range(120):
        table_id = rng.choice(("t", "room-7", "tablé", ""))
        index = rng.choice((1, 2, 128, rng.randint(1, 128)))
        seat = rng.randint(0, 7)
        nonce = rng.randbytes(32)
        p = rng.choice((0, 10, 50, 100))
        choices = (
            Choice(p, rng.choice((0, 10, 100 - p))).to_bytes()
            if i % 5
            else rng.randbytes(rng.randint(0, 40))
        )
        digest = commitment(table_id, index, seat, nonce, choices)
        c = DiceCase(
            f"commitment.vector.{i:03d}",
            f"commit and verify: table {table_id!r}, throw {index}, seat {seat}",
            ("R26",),
        )
        c.request(_commit_request("commitment", table_id, index, seat, nonce, choices))
        c.request(
            _commit_request("verify_commitment", table_id, index, seat, nonce, choices, 1, digest)
        )
        flipped = bytearray(nonce)
        flipped[rng.randrange(32)] ^= 1 << rng.randrange(8)
        bad_digest = bytearray(digest)
        bad_digest[rng.randrange(32)] ^= 1 << rng.randrange(8)
        tampered = [
            ("nonce", dict(nonce=bytes(flipped))),
            ("choices", dict(choices=choices + b" ")),
            ("seat", dict(seat=(seat + 1) % 8)),
            ("index", dict(index=index + 1)),
            ("table", dict(table_id=table_id + "x")),
            ("version", dict(version=2)),
            ("digest", dict(digest=bytes(bad_digest))),
            ("digest_short", dict(digest=digest[:31])),
        ]
        kind, change = tampered[i % len(tampered)]
        assert isinstance(change, dict)
        args: dict[str, Any] = dict(
            table_id=table_id,
            index=index,
            seat=seat,
            nonce=nonce,
            choices=choices,
            version=1,
            digest=digest,
        )
        args.update(change)
        c.request(
            _commit_request(
                "verify_commitment",
                args["table_id"],
                args["index"],
                args["seat"],
                args["nonce"],
                args["choices"],
                args["version"],
                args["digest"],
            )
        )
        c.description += f"; tampered {kind} is refused"
        cases.append(c)
    nonce = _nonce("commit", 0)
    choices = Choice(30, 20).to_bytes()
    digest = commitment("t", 1, 0, nonce, choices)
    bad_compute = [
        ("nonce_31", dict(nonce=nonce[:31])),
        ("nonce_not_hex", dict(nonce="xy")),
        ("seat_256", dict(seat=256)),
        ("seat_negative", dict(seat=-1)),
        ("seat_null", dict(seat=None)),
        ("index_0", dict(index=0)),
        ("version_65536", dict(version=65536)),
        ("table_id_null", dict(table_id=None)),
        ("choices_not_hex", dict(choices="g")),
    ]
    for name, change in bad_compute:
        assert isinstance(change, dict)
        args = dict(table_id="t", index=1, seat=0, nonce=nonce, choices=choices, version=1)
        args.update(change)
        c = DiceCase(
            f"commitment.bad_input.{name}",
            f"a commitment cannot be computed with {name}; a reveal with it never verifies",
            ("R26",),
        )
        c.request(
            _commit_request(
                "commitment",
                args["table_id"],
                args["index"],
                args["seat"],
                args["nonce"],
                args["choices"],
                args["version"],
            )
        )
        c.request(
            _commit_request(
                "verify_commitment",
                args["table_id"],
                args["index"],
                args["seat"],
                args["nonce"],
                args["choices"],
                args["version"],
                digest,
            )
        )
        cases.append(c)
    c = DiceCase(
        "commitment.digest_not_hex", "a commitment that is not hex never verifies", ("R26",)
    )
    c.request(_commit_request("verify_commitment", "t", 1, 0, nonce, choices, 1, "nothex"))
    c.request(
        _commit_request("verify_commitment", "t", 1, 0, nonce, choices, 1, digest.hex().upper())
    )
    cases.append(c)
    return cases + edges.empty_choices()


def _sessions_witness() -> list[Case]:
    from pointline.conformance import witnesses

    return witnesses.cases()


def _loading() -> list[Case]:
    from pointline.conformance import loading

    return loading.cases()


def _random() -> list[Case]:
    from pointline.conformance import sessions

    return sessions.random_cases()


def _hypothesis() -> list[Case]:
    from pointline.conformance import sessions

    return sessions.hypothesis_cases()


TOPIC_PROTOCOL = {"15_loading": 2}
"""Topics whose cases need a newer adapter protocol than 1 (the runner skips them, and says so,
for an implementation that speaks an older one)."""

TOPICS: list[tuple[str, str, Callable[[], list[Any]]]] = [
    ("01_dice", "dice derivation vectors incl. rejection sampling", dice),
    ("02_commitment", "commitment vectors, good and tampered", commitments),
    ("03_canonical", "canonical UTF-8 JSON of table ids with escapes and non-ASCII", canonical),
    ("04_rows", "every action kind from every kind of state: each transition row and guard", rows),
    ("05_malformed", "malformed actions and tables in every phase", malformed),
    ("06_throw_cap", "the 127th, 128th and 129th throw", throw_cap),
    ("07_seats", "two to eight seats on shared dice", seats),
    ("08_dont_pass", "Don't Pass reductions, removals, refunds and Reset", dont_pass),
    (
        "09_allocation",
        "allocation amounts, the hand limit, the balance guard, Pass after the point",
        allocation,
    ),
    ("10_ranks", "competition ranks with ties", ranks),
    ("11_totals", "every pair of dice at the come-out and for every point", totals),
    ("12_session", "five resolved hands, sit-outs and the result", session),
    ("13_abort", "every abort reason in every phase", aborts),
    ("14_witnesses", "z3 witnesses at the invariants' edges", _sessions_witness),
    (
        "15_loading",
        "positions loaded with load_state (protocol 2): valid ones play on, invalid ones refused",
        _loading,
    ),
    ("20_random", "long random sessions from a seeded generator", _random),
    ("21_hypothesis", "random sessions drawn by hypothesis (derandomized)", _hypothesis),
]
