"""The 08_dont_pass and 09_allocation topics: amounts on the two lines, reductions and refunds
(generator only)."""

from __future__ import annotations

from pointline.conformance.casebook import Case
from pointline.conformance.states import D, P
from pointline.kernel import (
    Action,
    Allocate,
    Confirm,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    Throw,
)

__all__ = ["allocation", "dont_pass"]


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
