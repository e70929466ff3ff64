"""Check one step of the real kernel against the z3 relation of ``spec.model``.

``abstract`` turns a kernel table into concrete z3 values (ghost counters are read from the
ledger); ``check_step`` takes the table before an action, the action, and what the kernel did
(the table after, or the code it rejected with) and returns the disagreements, if any:

- a malformed action must be refused with the first malformed check's code;
- otherwise exactly one modelled row is selected; the kernel accepts exactly when that row's
  relation is satisfiable for the concrete before-state, and then the kernel's after-state
  must be the one the relation relates it to; a refusal carries the first failing guard's
  code (or the row's own) and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import z3

from pointline.kernel import (
    Abort,
    Action,
    Allocate,
    Code,
    Confirm,
    Contracted,
    Entry,
    IllegalAction,
    Line,
    MalformedAction,
    Outcome,
    Phase,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    Settled,
    Table,
    Throw,
)
from pointline.spec import model
from pointline.spec.model import ActionVars, Expr, SeatVars, TableVars

__all__ = [
    "abstract",
    "action_vars",
    "check_step",
    "expected",
    "ghost_counts",
    "push_and_check",
]

_SEAT_ACTIONS = (Allocate, Reset, Confirm, ReduceDontPass, RemoveDontPass, Roll)


def ghost_counts(ledger: Iterable[Entry]) -> tuple[int, int]:
    """The model's ghost counters read from ledger entries: points lost (the contracts of lost
    lines) and net points won (the net of won lines). The card's conservation is then
    ``balance + contracts in play + lost - won == 1,000`` for every seat."""
    lost = won = 0
    for entry in ledger:
        if isinstance(entry, Settled):
            if entry.outcome is Outcome.LOSS:
                lost += entry.contract
            elif entry.outcome is Outcome.WIN:
                won += entry.net
    return lost, won


def abstract(table: Table) -> TableVars:
    """The kernel table as concrete model values."""
    seats = []
    phase = table.phase
    for i in range(table.seat_count):
        st = table.seat(i)
        losses, wins = ghost_counts(st.ledger)
        orig = (0, 0)
        if phase is Phase.POINT or (phase is Phase.COME_OUT and st.sealed):
            last = [e for e in st.ledger if isinstance(e, Contracted)]
            if last:
                orig = (last[-1].pass_amount, last[-1].dont_pass_amount)
        seats.append(
            SeatVars(
                balance=z3.IntVal(st.balance),
                draft_pass=z3.IntVal(st.draft.pass_amount),
                draft_dp=z3.IntVal(st.draft.dont_pass_amount),
                pass_=z3.IntVal(st.contracts.pass_amount),
                dp=z3.IntVal(st.contracts.dont_pass_amount),
                sealed=z3.BoolVal(st.sealed),
                losses=z3.IntVal(losses),
                wins=z3.IntVal(wins),
                orig_pass=z3.IntVal(orig[0]),
                orig_dp=z3.IntVal(orig[1]),
            )
        )
    ending = table.ending
    reason = model.NO_REASON if ending is None else model.REASON_NUM[ending.reason]
    return model.make_table(
        [
            z3.IntVal(model.PHASE_NUM[phase]),
            z3.IntVal(table.point or 0),
            z3.IntVal(table.throws),
            z3.IntVal(table.hands_resolved),
            z3.IntVal(reason),
        ],
        tuple(seats),
    )


def _int(value: Any, default: int) -> int:
    return value if type(value) is int else default


def action_vars(action: Action) -> ActionVars:
    """The action's fields as concrete integers (absent fields are 0)."""
    seat = line = amount = die1 = die2 = 0
    reason = model.NO_REASON
    abort_seat = model.NO_SEAT
    if isinstance(action, Throw):
        die1, die2 = _int(action.die1, 0), _int(action.die2, 0)
    elif isinstance(action, Abort):
        reason = model.REASON_NUM.get(action.reason, model.NO_REASON)
        abort_seat = model.NO_SEAT if action.seat is None else _int(action.seat, -1)
    else:
        seat = _int(action.seat, -1)
        if isinstance(action, Allocate):
            line = {Line.PASS: model.LINE_PASS, Line.DONT_PASS: model.LINE_DONT_PASS}.get(
                action.line, 2
            )
            amount = _int(action.amount, 0)
    return ActionVars(*(z3.IntVal(v) for v in (seat, line, amount, die1, die2, reason, abort_seat)))


def _holds(formula: Expr) -> bool:
    value = z3.simplify(formula)
    if z3.is_true(value):
        return True
    if z3.is_false(value):
        return False
    raise ValueError(f"not a closed formula: {value}")


def _describe(t: TableVars) -> str:
    def v(x: Expr) -> str:
        return str(z3.simplify(x))

    seats = "; ".join(
        ", ".join(f"{f}={v(getattr(seat, f))}" for f in model.SEAT_FIELDS) for seat in t.seats
    )
    head = ", ".join(f"{f}={v(getattr(t, f))}" for f in model.TABLE_FIELDS)
    return f"{head} | {seats}"


def expected(before: Table, action: Action) -> tuple[Code | None, TableVars | None]:
    """What the model says: (rejection code or None, the after-state when accepted)."""
    if not isinstance(action, (*_SEAT_ACTIONS, Throw, Abort)):
        return Code.BAD_ACTION, None
    kind = action.kind
    s = abstract(before)
    a = action_vars(action)
    for bad, code in model.malformed_checks(kind, before.seat_count, a):
        if _holds(bad):
            return code, None
    keys = [k for k in model.keys_for(before.phase, kind) if _holds(model.selects(k, s, a))]
    if len(keys) != 1:
        raise AssertionError(f"{len(keys)} modelled rows select {action!r}")
    key = keys[0]
    if _holds(model.enabled(key, s, a)):
        return None, model.after(key, s, a)
    return model.rejection_code(key, s, a), None


def check_step(before: Table, action: Action, after: Table | None, code: Code | None) -> list[str]:
    """Disagreements between the kernel's step (``after`` if it accepted, else ``code``) and
    the model. ``before`` is the table as it was before the action."""
    problems: list[str] = []
    want_code, want_after = expected(before, action)
    if (code is None) != (want_code is None):
        verdict = "accepted" if code is None else f"rejected with {code.code}"
        wanted = "accept" if want_code is None else f"reject with {want_code.code}"
        problems.append(f"{action!r}: kernel {verdict}, the model would {wanted}")
        return problems
    if code is not None:
        if code is not want_code:
            assert want_code is not None
            problems.append(f"{action!r}: kernel code {code.code}, model code {want_code.code}")
        if after is not None and not _holds(model.equal(abstract(after), abstract(before))):
            problems.append(f"{action!r}: a rejection changed the state")
        return problems
    assert after is not None and want_after is not None
    s, a, t = abstract(before), action_vars(action), abstract(after)
    keys = [k for k in model.keys_for(before.phase, action.kind) if _holds(model.selects(k, s, a))]
    if not _holds(model.step(keys[0], s, a, t)):
        problems.append(
            f"{action!r}: after-state differs\n  kernel: {_describe(t)}\n"
            f"  model:  {_describe(want_after)}"
        )
    return problems


def push_and_check(table: Table, action: Action) -> list[str]:
    """Push ``action`` on ``table`` (in place, if legal) and cross-check the step."""
    before = table.copy()
    try:
        table.push(action)
    except (IllegalAction, MalformedAction) as error:
        return check_step(before, action, table, error.code)
    return check_step(before, action, table, None)
