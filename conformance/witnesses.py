"""z3 witnesses at the invariants' edges, turned into cases (generator only).

Each family asks z3 for several distinct models (blocking each one found), with fixed solver
seeds so the models, and the fixtures, are the same on every run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from pointline.conformance.casebook import Case
from pointline.kernel import Allocate, Confirm, Line, Phase, ReduceDontPass, RemoveDontPass, Roll

__all__ = [
    "NO_DECISION",
    "cases",
    "dont_pass_to_zero",
    "hand_exactly_100",
    "lowest_balance",
    "throw_128",
    "tie_for_first",
]

NO_DECISION = {4: 6, 5: 6, 6: 8, 8: 6, 9: 6, 10: 6}


def _models(build: Callable[[z3.Solver], list[Any]], limit: int) -> list[list[int]]:
    z3.set_param("smt.random_seed", 0)
    z3.set_param("sat.random_seed", 0)
    solver = z3.Solver()
    solver.set("random_seed", 0)
    xs = build(solver)
    out: list[Any] = []
    while len(out) < limit and solver.check() == z3.sat:
        model = solver.model()
        values = [model.eval(x, model_completion=True) for x in xs]
        out.append([v.as_long() if z3.is_int_value(v) else int(z3.is_true(v)) for v in values])
        solver.add(z3.Or([x != v for x, v in zip(xs, values, strict=True)]))
    return out


def hand_exactly_100() -> list[Case]:
    cases = []
    for k in range(1, 6):

        def build(s: z3.Solver, k: int = k) -> list[Any]:
            amounts = [z3.Int(f"a{i}") for i in range(k)]
            lines = [z3.Bool(f"l{i}") for i in range(k)]
            for a in amounts:
                s.add(a >= 1, a <= 10)
            s.add(z3.Sum(amounts) == 10)
            if k > 1:
                s.add(z3.Or(lines), z3.Or([z3.Not(x) for x in lines]))
            return amounts + lines

        for m, model in enumerate(_models(build, 3)):
            amounts, lines = model[:k], model[k:]
            c = Case(
                f"witness.hand100.k{k}.m{m}",
                f"z3: {k} allocations summing to exactly 100; one more is refused",
                ("R3", "R4"),
            )
            for a, on_pass in zip(amounts, lines, strict=True):
                c.allocate(0, Line.PASS if on_pass else Line.DONT_PASS, 10 * a)
            c.allocate(0, Line.PASS, 10, full=True)
            c.allocate(0, Line.DONT_PASS, 10)
            c.ok(Confirm(0), full=True)
            c.throw(4)
            cases.append(c)
    return cases


def dont_pass_to_zero() -> list[Case]:
    cases = []
    for throws in (1, 2, 3):

        def build(s: z3.Solver, throws: int = throws) -> list[Any]:
            dp = z3.Int("dp")
            r = [z3.Int(f"r{i}") for i in range(throws)]
            s.add(dp >= 1, dp <= 10)
            for x in r:
                s.add(x >= 1)
            s.add(z3.Sum(r) == dp)
            return [dp, *r]

        for m, model in enumerate(_models(build, 4)):
            dp, reductions = model[0], model[1:]
            c = Case(
                f"witness.dp_to_zero.t{throws}.m{m}",
                f"z3: Don't Pass {10 * dp} reduced exactly to 0 over {throws} throw(s)",
                ("R14", "R15"),
            )
            c.seal(0, 100 - 10 * dp, 10 * dp)
            c.throw(6)
            for r in reductions:
                for _ in range(r):
                    c.ok(ReduceDontPass(0))
                c.ok(Roll(0), full=True)
                c.throw(8)
            c.do(ReduceDontPass(0), full=True)
            c.do(RemoveDontPass(0), full=True)
            c.do(Allocate(0, Line.DONT_PASS), full=True)
            cases.append(c)
    return cases


def throw_128() -> list[Case]:
    cases = []
    for end_total, label in ((128, "complete_at_128"), (129, "cap_before_completion")):

        def build(s: z3.Solver, end_total: int = end_total) -> list[Any]:
            n = [z3.Int(f"n{i}") for i in range(5)]
            for x in n:
                s.add(x >= 0, x <= 124)
            s.add(z3.Sum([2 + x for x in n]) == end_total)
            return n

        for m, stalls in enumerate(_models(build, 4)):
            c = Case(
                f"witness.throw128.{label}.m{m}",
                f"z3: five point hands with {stalls} no-decision throws:"
                f" the session would end on throw {end_total}",
                ("R20", "R22"),
            )
            points = (4, 5, 6, 8, 9)
            for h, stall in enumerate(stalls):
                if c.table.is_over:
                    break
                point = points[h]
                c.seal(0, 30, 30)
                c.throw(point)
                for _ in range(stall):
                    if c.table.is_over:
                        break
                    c.ok(Roll(0))
                    c.throw(NO_DECISION[point])
                if c.table.is_over:
                    break
                c.ok(Roll(0))
                c.throw(point if h % 2 else 7, full=c.table.throws >= 127)
            c.do(Roll(0), full=True)
            cases.append(c)
    return cases


def lowest_balance() -> list[Case]:
    z3.set_param("smt.random_seed", 0)
    opt = z3.Optimize()
    losses = [z3.Int(f"loss{i}") for i in range(4)]
    for x in losses:
        opt.add(x >= 0, x <= 10)
    opt.minimize(1000 - 10 * z3.Sum(losses))
    assert opt.check() == z3.sat
    model = opt.model()
    values = [model.eval(x).as_long() for x in losses]
    c = Case(
        "witness.lowest_balance",
        f"z3: the lowest come-out balance is {1000 - 10 * sum(values)}, above the hand limit",
        ("R1", "R3"),
    )
    for v in values:
        c.seal(0, 10 * v, 0)
        c.throw(3)
    c.allocate(0, Line.DONT_PASS, 100, full=True)
    c.allocate(0, Line.PASS, 10, full=True)
    return [c]


def tie_for_first() -> list[Case]:
    script = (7, 2, 12, 11, 3)
    sign = {7: (1, -1), 11: (1, -1), 2: (-1, 1), 3: (-1, 1), 12: (-1, 0)}

    def build(s: z3.Solver) -> list[Any]:
        ps = [[z3.Int(f"p{s_}_{h}") for h in range(5)] for s_ in range(3)]
        ds = [[z3.Int(f"d{s_}_{h}") for h in range(5)] for s_ in range(3)]
        finals = []
        for s_ in range(3):
            total = 0
            for h in range(5):
                p, d = ps[s_][h], ds[s_][h]
                s.add(p >= 0, d >= 0, p + d <= 10)
                sp, sd = sign[script[h]]
                total = total + sp * p + sd * d
            finals.append(total)
        s.add(finals[0] == finals[1], finals[2] < finals[0])
        s.add(z3.Or([ps[0][h] != ps[1][h] for h in range(5)]))
        return [x for row in ps + ds for x in row]

    cases = []
    for m, model in enumerate(_models(build, 4)):
        ps = [model[s * 5 : s * 5 + 5] for s in range(3)]
        ds = [model[15 + s * 5 : 15 + s * 5 + 5] for s in range(3)]
        c = Case(
            f"witness.tie_for_first.m{m}",
            "z3: different choices, equal final points: ranks 1, 1, 3",
            ("R21",),
            seats=3,
        )
        for h, total in enumerate(script):
            c.seal_all([(10 * ps[s][h], 10 * ds[s][h]) for s in range(3)])
            c.throw(total, full=h == 4)
        assert c.table.phase is Phase.COMPLETE
        cases.append(c)
    return cases


def cases() -> list[Case]:
    return (
        hand_exactly_100() + dont_pass_to_zero() + throw_128() + lowest_balance() + tie_for_first()
    )
