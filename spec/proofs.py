"""The proofs: the card's invariants hold for every row, the table is deterministic and
complete, and short sequences on a two-seat table stay within the rules.

``run()`` yields one ``Proof`` per claim; ``python -m pointline.spec`` prints them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import z3

from pointline.kernel import TRANSITIONS, ActionKind, Phase, When
from pointline.spec import model
from pointline.spec.model import (
    ENDED,
    POINT,
    ActionVars,
    Expr,
    Key,
    TableVars,
)
from pointline.spec.properties import (
    SEAT_INVARIANTS,
    STEP_PROPERTIES,
    TABLE_INVARIANTS,
    TENS,
    SeatInv,
    StepProp,
    TableInv,
    invariant,
    invariants,
    phase_point,
    step_properties,
)

__all__ = [
    "DEPTH",
    "SEATS",
    "SEAT_INVARIANTS",
    "STEP_PROPERTIES",
    "TABLE_INVARIANTS",
    "TENS",
    "WITNESS_DEPTH",
    "Proof",
    "SeatInv",
    "StepProp",
    "TableInv",
    "invariant",
    "invariants",
    "prove_bounded",
    "prove_complete",
    "prove_deterministic",
    "prove_inductive",
    "prove_init",
    "prove_progress",
    "prove_rejections_change_nothing",
    "prove_rows_match",
    "run",
    "step_properties",
]

SEATS = 2
"""Seats in the symbolic table of the inductive proofs and the bounded model check."""
DEPTH = 4
"""Steps in the bounded model check of the invariants (all sequences of this length)."""
WITNESS_DEPTH = 5
"""Steps within which the reachability witnesses must be found."""


@dataclass(frozen=True)
class Proof:
    name: str
    ok: bool
    detail: str = ""
    seconds: float = 0.0

    @classmethod
    def of(cls, name: str, problems: list[str]) -> Proof:
        """Proved when ``problems`` is empty; else failed with one problem a line."""
        return cls(name, not problems, "\n".join(problems))

    def line(self) -> str:
        if self.ok:
            return f"proved {self.name}"
        return f"FAILED {self.name}\n{self.detail}"


# ---------------------------------------------------------------------- traces
def _fmt_table(m: z3.ModelRef, s: TableVars) -> str:
    def v(x: Expr) -> str:
        return str(m.eval(x, model_completion=True))

    head = (
        f"phase={v(s.phase)} point={v(s.point)} throws={v(s.throws)} "
        f"resolved={v(s.resolved)} reason={v(s.reason)}"
    )
    seats = [
        f"    seat {i}: " + " ".join(f"{f}={v(getattr(seat, f))}" for f in model.SEAT_FIELDS)
        for i, seat in enumerate(s.seats)
    ]
    return "\n".join([f"  {head}", *seats])


def _fmt_action(m: z3.ModelRef, kind: ActionKind, a: ActionVars) -> str:
    vals = " ".join(
        f"{f}={m.eval(getattr(a, f), model_completion=True)}" for f in model.ACTION_FIELDS
    )
    return f"  action {kind.value}: {vals}"


def _row_name(key: Key) -> str:
    return f"{key[0].value}/{key[1].value}/{key[2].name.lower()}"


def _check(solver: z3.Solver, goal: Expr) -> z3.ModelRef | None:
    solver.push()
    solver.add(z3.Not(goal))
    result = solver.check()
    found = solver.model() if result == z3.sat else None
    if result == z3.unknown:
        raise RuntimeError("z3 returned unknown")
    solver.pop()
    return found


# ---------------------------------------------------------------------- the proofs
def _kernel_keys() -> list[Key]:
    return [(r.phase, r.kind, r.when) for r in TRANSITIONS]


def prove_rows_match() -> Proof:
    """Every kernel row is modelled, with the same guard codes in order, rejection and outcomes."""
    problems: list[str] = []
    keys = _kernel_keys()
    if len(set(keys)) != len(keys):
        problems.append("  two kernel rows share a (phase, kind, when)")
    for row in TRANSITIONS:
        key = (row.phase, row.kind, row.when)
        spec = model.SPEC_ROWS.get(key)
        if spec is None:
            problems.append(f"  kernel row {_row_name(key)} is not in the spec")
            continue
        codes = tuple(g.code for g in row.guards)
        if codes != tuple(code for _, _, code in spec.guards):
            problems.append(f"  {_row_name(key)}: guard codes {codes} differ from the card")
        if (row.effect is None) != (spec.effect is None) or row.reject != spec.reject:
            problems.append(f"  {_row_name(key)}: accepts/rejects differently from the card")
        if (row.pass_outcome, row.dont_pass_outcome) != (spec.outcomes or (None, None)):
            problems.append(f"  {_row_name(key)}: outcomes differ from the card")
    for key in model.SPEC_ROWS:
        if key not in keys:
            problems.append(f"  spec row {_row_name(key)} has no kernel row")
    return Proof.of("every kernel row is modelled with its guards, codes and outcomes", problems)


def prove_init() -> Proof:
    s = model.initial(SEATS)
    solver = z3.Solver()
    found = _check(solver, invariant(s))
    detail = "" if found is None else "  the initial table breaks the invariant"
    return Proof("the initial table satisfies every invariant", found is None, detail)


def _domain(s: TableVars, a: ActionVars) -> Expr:
    """Seat index within the table for the symbolic proofs."""
    return z3.And(a.seat >= 0, a.seat < len(s.seats))


def prove_inductive() -> Iterator[Proof]:
    """Inv ∧ row ∧ step ⇒ Inv' and every step property, for every accepting row."""
    s = model.symbolic_table(SEATS, "s")
    a = model.symbolic_action("a")
    failures: dict[str, list[str]] = {}
    rows = 0
    for key, spec in model.SPEC_ROWS.items():
        if spec.effect is None:
            continue
        rows += 1
        solver = z3.Solver()
        solver.add(invariant(s), model.well_formed(key[1], SEATS, a), _domain(s, a))
        # The step relation is functional: the after-state is the effect's expression itself.
        solver.add(model.enabled(key, s, a))
        t = model.after(key, s, a)
        goals = {**invariants(t), **step_properties(s, t, key[1])}
        found = _check(solver, z3.And(*goals.values()))
        if found is None:
            continue
        for name, goal in goals.items():
            bad = _check(solver, goal)
            if bad is not None:
                trace = "\n".join(
                    [
                        f"  row {_row_name(key)} breaks it:",
                        "  before:",
                        _fmt_table(bad, s),
                        _fmt_action(bad, key[1], a),
                        "  after:",
                        _fmt_table(bad, t),
                    ]
                )
                failures.setdefault(name, []).append(trace)
    refused = len(model.SPEC_ROWS) - rows
    names = [*TABLE_INVARIANTS, *SEAT_INVARIANTS]
    for name in names:
        yield Proof(
            f"inductive: {name} ({rows} accepting rows; {refused} refusing rows change nothing)",
            name not in failures,
            "\n".join(failures.get(name, [])),
        )
    for name in STEP_PROPERTIES:
        yield Proof(
            f"every step: {name} ({rows} accepting rows; {refused} refusing rows change nothing)",
            name not in failures,
            "\n".join(failures.get(name, [])),
        )


def prove_rejections_change_nothing() -> Proof:
    """Every rejecting row, and every failed guard, leaves the state as it was (R25, errors)."""
    # The model defines rejection as the identity relation; what must be shown is that every
    # rejecting row and every guard names a code, so a rejection is always explained.
    missing = [
        _row_name(key)
        for key, spec in model.SPEC_ROWS.items()
        if spec.effect is None and spec.reject is None
    ]
    return Proof("every rejecting row names its code", not missing, "  " + ", ".join(missing))


def _any_action() -> tuple[model.TableVars, model.ActionVars, z3.Solver]:
    """A symbolic table in any phase with its point, an action with any two dice, and a solver
    holding just that: what the row-selection proofs ask about."""
    s = model.symbolic_table(SEATS, "s")
    a = model.symbolic_action("a")
    solver = z3.Solver()
    solver.add(phase_point(s), a.die1 >= 1, a.die1 <= 6, a.die2 >= 1, a.die2 <= 6)
    return s, a, solver


def _throw_where(
    solver: z3.Solver, s: model.TableVars, a: model.ActionVars, *facts: Any
) -> str | None:
    """``total T point P`` where ``facts`` hold besides what ``solver`` holds, else None."""
    solver.push()
    try:
        solver.add(*facts)
        if solver.check() != z3.sat:
            return None
        m = solver.model()
        return f"total {m.eval(a.total)} point {m.eval(s.point)}"
    finally:
        solver.pop()


def prove_deterministic(keys: list[Key] | None = None) -> Proof:
    """No two rows are selected for the same phase, kind, total and point."""
    s, a, solver = _any_action()
    problems: list[str] = []
    # The kernel's own rows (unless given), their totals read the card's way.
    keys = _kernel_keys() if keys is None else keys
    for i, k1 in enumerate(keys):
        for k2 in keys[i + 1 :]:
            if k1[0] is not k2[0] or k1[1] is not k2[1]:
                continue
            where = _throw_where(solver, s, a, model.selects(k1, s, a), model.selects(k2, s, a))
            if where is not None:
                problems.append(f"  {_row_name(k1)} and {_row_name(k2)} both apply at {where}")
    return Proof.of("the table is deterministic (no two rows apply at once)", problems)


def prove_complete(keys: list[Key] | None = None) -> Proof:
    """Every phase × action kind × total has a row (accepting or rejecting)."""
    s, a, solver = _any_action()
    problems: list[str] = []
    rows = _kernel_keys() if keys is None else keys
    for phase in model.PHASES:
        for kind in ActionKind:
            these = [k for k in rows if k[0] is phase and k[1] is kind]
            no_row = z3.Not(z3.Or(z3.BoolVal(False), *(model.selects(k, s, a) for k in these)))
            where = _throw_where(solver, s, a, s.phase == model.PHASE_NUM[phase], no_row)
            if where is not None:
                problems.append(f"  no row for {phase.value}/{kind.value} at {where}")
    return Proof.of("the table is complete (every phase, action and total has a row)", problems)


def prove_progress() -> Proof:
    """A live table is never stuck: some seat can act, or the dice can be thrown."""
    s = model.symbolic_table(SEATS, "s")
    solver = z3.Solver()
    solver.add(invariant(s), model.live(s.phase))
    # An open seat can always confirm (come-out) or roll (point); all sealed: a throw is due.
    some_open = z3.Or(*(z3.Not(seat.sealed) for seat in s.seats))
    found = _check(solver, z3.Or(some_open, z3.And(*(seat.sealed for seat in s.seats))))
    if found is not None:
        return Proof("a live table always has a legal action", False, _fmt_table(found, s))
    acts = []
    for i in range(SEATS):
        a = model.symbolic_action(f"p{i}")
        acts.append(
            z3.Or(
                z3.And(
                    a.seat == i,
                    model.enabled((Phase.COME_OUT, ActionKind.CONFIRM, When.ALWAYS), s, a),
                ),
                z3.And(
                    a.seat == i,
                    model.enabled((Phase.POINT, ActionKind.ROLL, When.ALWAYS), s, a),
                ),
            )
        )
    throw = model.symbolic_action("pt")
    dice = z3.And(throw.die1 >= 1, throw.die1 <= 6, throw.die2 >= 1, throw.die2 <= 6)
    throw_ok = z3.And(
        dice,
        z3.Or(*(model.enabled(k, s, throw) for k in model.SPEC_ROWS if k[1] is ActionKind.THROW)),
    )
    # Existential witnesses: ask z3 for a state where nothing is enabled for any witness choice.
    stuck = z3.ForAll(
        [
            v
            for act in [*(model.symbolic_action(f"p{i}") for i in range(SEATS)), throw]
            for v in (act.seat, act.die1, act.die2)
        ],
        z3.Not(z3.Or(*acts, throw_ok)),
    )
    solver2 = z3.Solver()
    solver2.add(invariant(s), model.live(s.phase), stuck)
    result = solver2.check()
    ok = result == z3.unsat
    detail = "" if ok else (_fmt_table(solver2.model(), s) if result == z3.sat else "  unknown")
    return Proof("a live table always has a legal action (no deadlock)", ok, detail)


def _any_step(s: TableVars, t: TableVars, tag: str) -> tuple[Expr, list[tuple[Expr, str]]]:
    """One accepting step of any row, with a label per row for traces."""
    a = model.symbolic_action(tag)
    options: list[tuple[Expr, str]] = []
    for key, spec in model.SPEC_ROWS.items():
        if spec.effect is None:
            continue
        guard = z3.And(
            model.well_formed(key[1], len(s.seats), a), _domain(s, a), model.step(key, s, a, t)
        )
        options.append((guard, _row_name(key)))
    return z3.Or(*(g for g, _ in options)), options


def _path_goals(s: TableVars, t: TableVars) -> dict[str, Expr]:
    goals = invariants(t)
    # Divisibility makes the unrolled query slow; it is proved inductively above for every row.
    goals.pop(TENS)
    # The contract properties do not depend on the action kind (THROW makes the two that do
    # trivially true; those are proved for every row above).
    goals.update(step_properties(s, t, ActionKind.THROW))
    return goals


def prove_bounded() -> Iterator[Proof]:
    """Bounded model check on a 2-seat table: every sequence of up to DEPTH accepted actions
    from the start keeps the invariants and the step properties (depth by depth: what was
    proved for the shorter prefixes is kept as a lemma); and a few rule situations are
    reachable, so the relation is not vacuous."""
    states = [model.initial(SEATS)]
    solver = z3.Solver()
    labels: list[list[tuple[Expr, str]]] = []
    name = f"bounded check: every {DEPTH}-step sequence on {SEATS} seats keeps the rules"
    failure = ""
    for d in range(DEPTH):
        t = model.symbolic_table(SEATS, f"b{d + 1}")
        relation, options = _any_step(states[-1], t, f"ba{d}")
        solver.add(relation)
        labels.append(options)
        states.append(t)
        goals = _path_goals(states[-2], t)
        found = _check(solver, z3.And(*goals.values()))
        if found is not None:
            broken = [n for n, g in goals.items() if not z3.is_true(found.eval(g, True))]
            failure = f"  breaks: {', '.join(broken)}\n" + _trace(found, states, labels)
            break
        solver.add(*goals.values())
    yield Proof(name, not failure, failure)
    for d in range(DEPTH, WITNESS_DEPTH):
        t = model.symbolic_table(SEATS, f"b{d + 1}")
        solver.add(_any_step(states[-1], t, f"ba{d}")[0])
        states.append(t)
    witnesses = {
        "the point is established": z3.Or(*(s.phase == POINT for s in states)),
        "a hand resolves": z3.Or(*(s.resolved == 1 for s in states)),
        "a Don't Pass reduction is prepared": z3.Or(
            *(z3.And(s.phase == POINT, seat.draft_dp < seat.dp) for s in states for seat in s.seats)
        ),
        "a session ends without a result": z3.Or(*(s.phase == ENDED for s in states)),
    }
    for label, goal in witnesses.items():
        solver.push()
        solver.add(goal)
        ok = solver.check() == z3.sat
        solver.pop()
        yield Proof(
            f"bounded check: {label} within {WITNESS_DEPTH} steps (not vacuous)",
            ok,
            "  not reachable: the model is vacuous",
        )


def _trace(m: z3.ModelRef, states: list[TableVars], labels: list[list[tuple[Expr, str]]]) -> str:
    lines = ["  trace:", _fmt_table(m, states[0])]
    for d, options in enumerate(labels):
        taken = [name for g, name in options if z3.is_true(m.eval(g, model_completion=True))]
        lines.append(f"  -> {', '.join(taken) or '?'}")
        lines.append(_fmt_table(m, states[d + 1]))
    return "\n".join(lines)


def run() -> Iterator[Proof]:
    """Every proof, in order."""
    producers: list[Callable[[], Iterator[Proof] | Proof]] = [
        prove_rows_match,
        prove_init,
        prove_inductive,
        prove_rejections_change_nothing,
        prove_deterministic,
        prove_complete,
        prove_progress,
        prove_bounded,
    ]
    for produce in producers:
        start = time.perf_counter()
        out = produce()
        proofs = [out] if isinstance(out, Proof) else list(out)
        took = (time.perf_counter() - start) / max(1, len(proofs))
        for proof in proofs:
            yield Proof(proof.name, proof.ok, proof.detail, took)
