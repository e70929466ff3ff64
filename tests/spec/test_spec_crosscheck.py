"""Hypothesis drives the real kernel; every step is checked against the z3 relation."""

from __future__ import annotations

import importlib.util
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pointline.kernel import (
    Abort,
    Action,
    Allocate,
    Confirm,
    EndReason,
    Line,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    Table,
    Throw,
)
from pointline.spec.crosscheck import push_and_check
from tests.kernel._kernel_support import throw

settings.register_profile(
    "spec-default", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "spec-large", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
LARGE = os.environ.get("HYPOTHESIS_PROFILE") == "large"
PROFILE = "spec-large" if LARGE else "spec-default"
# The large run takes minutes: lift pytest-timeout's per-test limit for it (when installed).
LONG_RUN = (
    [pytest.mark.timeout(1800)]
    if LARGE and importlib.util.find_spec("pytest_timeout") is not None
    else []
)
STEPS = 60


def any_action(n: int) -> st.SearchStrategy[Action]:
    """Well-formed or not, legal or not: the kernel must agree with the model on each."""
    seat = st.sampled_from([*range(n), n, 9, -1])
    amount = st.sampled_from([10, 20, 50, 100, 110, 0, 15, -10])
    die = st.integers(0, 7)
    return st.one_of(
        st.builds(Allocate, seat, st.sampled_from(list(Line)), amount),
        st.builds(Reset, seat),
        st.builds(Confirm, seat),
        st.builds(ReduceDontPass, seat),
        st.builds(RemoveDontPass, seat),
        st.builds(Roll, seat),
        st.builds(Throw, die, die),
        st.builds(Abort, st.sampled_from(list(EndReason)), st.one_of(st.none(), seat)),
    )


def start_table(n: int, throws: int) -> Table:
    """A fresh table, or one played to ``throws`` throws and back at a come-out with one hand
    resolved (every seat sitting out: a point of 4, fives, then a seven out), so that a short
    run reaches the 128-throw cap."""
    table = Table(n, "x")
    for total in [4, *[5] * (throws - 2), 7] if throws > 1 else [7] * throws:
        throw(table, total)
    return table


def _long_run(test: Any) -> Any:
    for mark in LONG_RUN:
        test = mark(test)
    return test


@_long_run
@settings(settings.get_profile(PROFILE))
@given(
    n=st.integers(1, 3),
    throws=st.sampled_from([0, 0, 0, 124]),
    data=st.data(),
)
def test_kernel_steps_agree_with_the_z3_relation(n: int, throws: int, data: st.DataObject) -> None:
    table = start_table(n, throws)
    wild = any_action(n)
    for _ in range(STEPS):
        if table.is_over and data.draw(st.booleans()):
            break
        mode = data.draw(st.integers(0, 9))
        if mode < 6 and not table.is_over:
            # Mostly legal play, so that whole hands, points and refunds are reached.
            if table.is_chance_turn:
                action: Action = data.draw(st.sampled_from(list(table.legal_throws())))
            else:
                seat = data.draw(st.sampled_from(table.awaiting))
                action = data.draw(st.sampled_from(table.legal_actions(seat)))
        else:
            action = data.draw(wild)
        problems = push_and_check(table, action)
        assert not problems, "\n".join(problems)


def test_a_full_session_agrees_with_the_z3_relation() -> None:
    """Five hands on two seats with contracts on both lines, every step cross-checked."""
    table = Table(2, "full")
    script = [Throw(3, 4), Throw(1, 1), Throw(6, 6), Throw(2, 2), Throw(2, 2), Throw(4, 4)]
    i = 0
    while not table.is_over:
        for seat in table.awaiting:
            if table.phase.value == "come_out":
                actions: list[Action] = [
                    Allocate(seat, Line.PASS, 30),
                    Allocate(seat, Line.DONT_PASS),
                ]
                actions.append(Confirm(seat))
            else:
                actions = [ReduceDontPass(seat), Roll(seat)] if seat == 0 else [Roll(seat)]
            for action in actions:
                if table.is_legal(action):
                    assert not push_and_check(table, action)
        throw = script[i % len(script)]
        i += 1
        assert not push_and_check(table, throw)
    assert table.result is not None
    assert not push_and_check(table, Roll(0))


def test_the_crosscheck_notices_a_wrong_after_state() -> None:
    """A kernel that paid one point too many, or gave the wrong code, would be caught."""
    from pointline.kernel import Code
    from pointline.spec.crosscheck import check_step

    before = Table(1, "x")
    before.push(Allocate(0, Line.PASS))
    before.push(Confirm(0))
    after = before.copy()
    after.push(Throw(3, 4))
    assert check_step(before, Throw(3, 4), after, None) == []
    after._seats[0].balance += 10
    assert check_step(before, Throw(3, 4), after, None)
    assert check_step(before, Confirm(0), before, Code.OVER_BALANCE)
    assert check_step(before, Confirm(0), before, Code.SEAT_SEALED) == []
    assert check_step(before, Throw(7, 1), before, Code.AWAITING_SEATS)


def test_the_128th_throw_agrees_with_the_z3_relation() -> None:
    """At the cap the point is set, then every contract is voided: kernel and model agree."""
    table = start_table(2, 127)
    for action in (
        Allocate(0, Line.PASS, 40),
        Allocate(1, Line.DONT_PASS, 30),
        Confirm(0),
        Confirm(1),
        Throw(2, 2),
    ):
        assert not push_and_check(table, action)
    assert table.ending is not None and table.ending.reason is EndReason.THROW_CAP
    assert table.balance(0) == 1000 and table.balance(1) == 1000
    assert not push_and_check(table, Abort(EndReason.DEPARTURE))
