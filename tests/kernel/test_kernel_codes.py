"""Every rejection code is produced by some scenario, and every rejection changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pointline.kernel import (
    Abort,
    Action,
    Allocate,
    Code,
    Confirm,
    EndReason,
    IllegalAction,
    Line,
    MalformedAction,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    Table,
    Throw,
)
from tests.kernel._kernel_support import assert_rejected, come_out, dice_for


def _fresh() -> Table:
    return Table(2)


def _on_point() -> Table:
    table = Table(2)
    come_out(table, 0, 20, 30)
    table.push(Confirm(1))
    table.push(dice_for(5))
    return table


def _sealed() -> Table:
    table = Table(2)
    table.push(Confirm(0))
    return table


def _full_draft() -> Table:
    table = Table(2)
    table.push(Allocate(0, Line.PASS, 100))
    return table


def _poor() -> Table:
    # Unreachable in play (the lowest reachable balance is 500) and refused by from_document,
    # whose ledger replay would give 1,000: the guard is exercised on a hand-built table.
    table = Table(2)
    table._seats[0].balance = 20
    return table


def _over() -> Table:
    table = Table(2)
    table.push(Abort(EndReason.DEPARTURE, 1))
    return table


SCENARIOS: dict[Code, Callable[[], tuple[Table, Action]]] = {
    Code.BAD_ACTION: lambda: (_fresh(), object()),  # type: ignore[dict-item]
    Code.BAD_SEAT: lambda: (_fresh(), Confirm(2)),
    Code.BAD_LINE: lambda: (_fresh(), Allocate(0, "dont")),  # type: ignore[arg-type]
    Code.BAD_AMOUNT: lambda: (_fresh(), Allocate(0, Line.PASS, 25)),
    Code.BAD_DIE: lambda: (_fresh(), Throw(0, 6)),
    Code.BAD_REASON: lambda: (_fresh(), Abort(EndReason.THROW_CAP)),
    Code.SESSION_OVER: lambda: (_over(), Confirm(0)),
    Code.SEAT_SEALED: lambda: (_sealed(), Allocate(0, Line.PASS)),
    Code.HAND_LIMIT: lambda: (_full_draft(), Allocate(0, Line.DONT_PASS)),
    Code.OVER_BALANCE: lambda: (_poor(), Allocate(0, Line.PASS, 30)),
    Code.PASS_LOCKED: lambda: (_on_point(), Allocate(0, Line.PASS)),
    Code.DONT_PASS_NO_INCREASE: lambda: (_on_point(), Allocate(0, Line.DONT_PASS)),
    Code.NO_POINT: lambda: (_fresh(), RemoveDontPass(0)),
    Code.NOTHING_TO_REDUCE: lambda: (_on_point(), ReduceDontPass(1)),
    Code.NOTHING_TO_RESET: lambda: (_fresh(), Reset(0)),
    Code.CONFIRM_FIRST: lambda: (_fresh(), Roll(0)),
    Code.ALREADY_CONFIRMED: lambda: (_on_point(), Confirm(0)),
    Code.AWAITING_SEATS: lambda: (_sealed(), Throw(1, 1)),
}


def test_every_code_is_produced_by_a_scenario() -> None:
    produced: set[Code] = set()
    for code, scenario in SCENARIOS.items():
        table, action = scenario()
        assert_rejected(table, action, code)
        produced.add(code)
    missing = [code.code for code in Code if code not in produced]
    assert not missing, f"codes never produced: {missing}"


@pytest.mark.parametrize("code", list(Code), ids=lambda c: c.code)
def test_code_text_class_and_stability(code: Code) -> None:
    assert code.code and code.code == code.code.lower() and " " not in code.code
    assert code.text.endswith(".")
    table, action = SCENARIOS[code]()
    error_type = MalformedAction if code.malformed else IllegalAction
    with pytest.raises(error_type) as info:
        table.push(action)
    assert info.value.code == code.code
    assert not isinstance(info.value, IllegalAction if code.malformed else MalformedAction)


def test_codes_are_unique() -> None:
    assert len({c.code for c in Code}) == len(Code)


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (Abort([]), Code.BAD_REASON),  # type: ignore[arg-type]
        (Abort({}), Code.BAD_REASON),  # type: ignore[arg-type]
        (Abort(EndReason.DEADLINE, []), Code.BAD_SEAT),  # type: ignore[arg-type]
        (Allocate([], Line.PASS), Code.BAD_SEAT),  # type: ignore[arg-type]
        (Allocate(0, [], 10), Code.BAD_LINE),  # type: ignore[arg-type]
        (Allocate(0, Line.PASS, []), Code.BAD_AMOUNT),  # type: ignore[arg-type]
        (Throw([], 1), Code.BAD_DIE),  # type: ignore[arg-type]
        (Reset(None), Code.BAD_SEAT),  # type: ignore[arg-type]
    ],
)
def test_unhashable_or_odd_fields_are_malformed_not_crashes(action: Action, code: Code) -> None:
    """Regression: ``Abort([])`` used to raise TypeError (an unhashable reason met a frozenset)."""
    for table in (Table(2), _over()):
        assert_rejected(table, action, code)


def test_row_agrees_with_rejection() -> None:
    """``row`` raises MalformedAction exactly when the rejection is malformed, else it names
    a row of that phase and kind whose verdict matches."""
    actions: list[object] = [
        *[scenario()[1] for scenario in SCENARIOS.values()],
        Abort([]),  # type: ignore[arg-type]
        Abort(EndReason.DEADLINE),
        Throw(3, 4),
        Throw(2, 2),
        Allocate(1, Line.DONT_PASS, 20),
        ReduceDontPass(0),
        Roll(1),
    ]
    for make in (_fresh, _on_point, _sealed, _full_draft, _poor, _over):
        for action in actions:
            table = make()
            code = table.rejection(action)  # type: ignore[arg-type]
            if code is not None and code.malformed:
                with pytest.raises(MalformedAction):
                    table.row(action)  # type: ignore[arg-type]
                continue
            row = table.row(action)  # type: ignore[arg-type]
            assert row.phase is table.phase and row.kind is action.kind  # type: ignore[attr-defined]
            if code is None:
                assert row.accepts
            else:
                assert code is row.reject or code in {g.code for g in row.guards}
