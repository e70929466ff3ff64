"""The table is driven by kernel.rules.TRANSITIONS: the row ``Table.row`` reports for any
action in any phase is the very row of the data, and push/rejection follow that row."""

from __future__ import annotations

from pointline.kernel import (
    TRANSITIONS,
    Abort,
    Action,
    Allocate,
    Confirm,
    EndReason,
    Line,
    Phase,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    Table,
    Throw,
)
from pointline.kernel.rules import row_for
from tests.kernel._kernel_support import come_out, dice_for, seal_all


def _tables() -> list[Table]:
    fresh = Table(2)
    tables = [fresh]
    for point in (4, 5, 6, 8, 9, 10):
        table = Table(2)
        come_out(table, 0, 10, 20)
        table.push(Confirm(1))
        table.push(dice_for(point))
        tables.append(table)
    ended = Table(2)
    ended.push(Abort(EndReason.DEPARTURE, 0))
    complete = Table(2)
    for _ in range(5):
        seal_all(complete)
        complete.push(dice_for(7))
    return [*tables, ended, complete]


def _actions() -> list[Action]:
    return [
        Allocate(0, Line.PASS),
        Allocate(0, Line.DONT_PASS),
        Reset(0),
        Confirm(0),
        ReduceDontPass(0),
        RemoveDontPass(0),
        Roll(0),
        Abort(EndReason.BAD_REVEAL),
        *(Throw(a, b) for a in range(1, 7) for b in range(1, 7)),
    ]


def test_every_phase_and_action_maps_to_its_row_of_the_data() -> None:
    seen = set()
    for table in _tables():
        for action in _actions():
            total = action.total if isinstance(action, Throw) else 0
            expected = row_for(table.phase, action.kind, total, table.point)
            row = table.row(action)
            assert row is expected
            seen.add(id(row))
    assert seen == {id(row) for row in TRANSITIONS}  # every row is reachable


def test_push_follows_the_row() -> None:
    """A rejecting row rejects with its code; an accepting row whose guards hold applies."""
    sealed = _tables()
    for table in sealed:
        if not table.is_over:
            seal_all(table)
    for table in [*_tables(), *sealed]:
        for action in _actions():
            row = table.row(action)
            code = table.rejection(action)
            if row.reject is not None:
                guard_codes = {g.code for g in row.guards}
                assert code is row.reject or code in guard_codes
            elif code is None:
                trial = table.copy()
                trial.push(action)
                if isinstance(action, Throw):
                    assert trial.throws == table.throws + 1
            else:
                assert code in {g.code for g in row.guards}
    assert Phase.POINT in {t.phase for t in _tables()}
