"""kernel.choice: canonical choice bytes and the plan that seals a choice."""

from __future__ import annotations

import pytest

from pointline.kernel import (
    Allocate,
    Choice,
    Code,
    Confirm,
    IllegalAction,
    Line,
    MalformedAction,
    Phase,
    ReduceDontPass,
    Roll,
    Table,
    current_choice,
    plan,
    state_bytes,
)
from tests.kernel._kernel_support import dice_for, random_session


def test_choice_bytes_round_trip() -> None:
    for p in range(0, 101, 10):
        for d in range(0, 101 - p, 10):
            choice = Choice(p, d)
            data = choice.to_bytes()
            assert data == b'{"dont_pass":%d,"pass":%d}' % (d, p)
            assert Choice.from_bytes(data) == choice


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\xff",
        b"[10, 0]",
        b'{"pass":10}',
        b'{"dont_pass":0,"pass":15}',
        b'{"dont_pass":-10,"pass":0}',
        b'{"dont_pass":0.0,"pass":0}',
        b'{"dont_pass":true,"pass":0}',
        b'{"pass":10,"dont_pass":0}',  # keys not sorted: not canonical
        b'{"dont_pass": 0,"pass":10}',  # a space: not canonical
        b'{"dont_pass":0,"pass":10,"x":1}',
    ],
)
def test_choice_from_bytes_rejects_non_canonical(data: bytes) -> None:
    with pytest.raises(MalformedAction) as info:
        Choice.from_bytes(data)
    assert info.value.code == Code.BAD_AMOUNT.code


def test_plan_at_come_out_seals_the_choice() -> None:
    table = Table(2)
    table.push(Allocate(0, Line.PASS, 50))
    actions = plan(table, 0, Choice(20, 30))
    assert actions[-1] == Confirm(0)
    for action in actions:
        table.push(action)
    assert table.is_sealed(0)
    assert (table.contracts(0).pass_amount, table.contracts(0).dont_pass_amount) == (20, 30)
    empty = plan(table, 1, Choice(0, 0))
    assert empty == (Confirm(1),)
    assert current_choice(table, 1) == Choice(0, 0)


def test_plan_on_the_point_reduces_or_removes() -> None:
    for target in (40, 30, 10, 0):
        table = Table(1)
        for action in plan(table, 0, Choice(10, 40)):
            table.push(action)
        table.push(dice_for(6))
        table.push(ReduceDontPass(0))  # a prepared change the plan must undo or build on
        actions = plan(table, 0, Choice(10, target))
        assert actions[-1] == Roll(0)
        for action in actions:
            table.push(action)
        assert table.contracts(0).dont_pass_amount == target
        assert table.balance(0) == 1000 - 10 - target


def test_plan_rejects_what_the_rules_forbid_and_changes_nothing() -> None:
    table = Table(2)
    cases = [
        (Choice(60, 50), Code.HAND_LIMIT),
        (Choice(15, 0), Code.BAD_AMOUNT),
        (Choice(-10, 0), Code.BAD_AMOUNT),
    ]
    for choice, code in cases:
        before = state_bytes(table)
        with pytest.raises((IllegalAction, MalformedAction)) as info:
            plan(table, 0, choice)
        assert info.value.code == code.code
        assert state_bytes(table) == before
    with pytest.raises(MalformedAction):
        plan(table, 2, Choice(0, 0))
    for action in plan(table, 0, Choice(10, 20)):
        table.push(action)
    with pytest.raises(IllegalAction) as sealed:
        plan(table, 0, Choice(10, 20))
    assert sealed.value.code == Code.SEAT_SEALED.code
    table.push(Confirm(1))
    table.push(dice_for(4))
    for choice, code in (
        (Choice(20, 20), Code.PASS_LOCKED),
        (Choice(0, 20), Code.PASS_LOCKED),
        (Choice(10, 30), Code.DONT_PASS_NO_INCREASE),
    ):
        before = state_bytes(table)
        with pytest.raises(IllegalAction) as info:
            plan(table, 0, choice)  # the trial's first actions pass, a later one is refused
        assert info.value.code == code.code
        assert state_bytes(table) == before
    assert table.phase is Phase.POINT
    before = state_bytes(table)
    assert plan(table, 0, Choice(10, 0)) and state_bytes(table) == before


def test_a_copy_is_the_same_table_and_shares_nothing() -> None:
    table = random_session(3, 3, stop_after=12)
    copy = table.copy()
    assert state_bytes(copy) == state_bytes(table)
    for seat in range(3):
        draft, contracts = table.draft(seat), table.contracts(seat)
        amounts = (draft.pass_amount, draft.dont_pass_amount)
        amounts += (contracts.pass_amount, contracts.dont_pass_amount)
        assert table.amounts(seat) == copy.amounts(seat) == amounts
    before = state_bytes(table)
    for seat in copy.awaiting:
        for action in plan(copy, seat, current_choice(copy, seat)):
            copy.push(action)
    copy.push(dice_for(7))
    assert state_bytes(copy) != before and state_bytes(table) == before


@pytest.mark.parametrize("seed", range(20))
def test_plan_of_the_current_choice_is_always_legal(seed: int) -> None:
    """In random positions, planning the seat's current draft succeeds and seals it."""
    table = random_session(seed, 1 + seed % 4, stop_after=5 + seed * 3)
    for seat in table.awaiting:
        choice = current_choice(table, seat)
        trial = table.copy()
        for action in plan(trial, seat, choice):
            trial.push(action)
        assert trial.is_sealed(seat)
        assert current_choice(trial, seat) == choice
