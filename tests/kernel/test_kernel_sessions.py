"""Whole sessions: shared dice with independent seats, ledger replay, ranks, the cap."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pointline.kernel import (
    MAX_SEATS,
    ONLINE_SEATS_MAX,
    ONLINE_SEATS_MIN,
    STARTING_POINTS,
    THROW_CAP,
    Choice,
    Phase,
    Result,
    Standing,
    Table,
    Throw,
    competition_ranks,
    current_choice,
    is_online_seat_count,
    plan,
    replay_balance,
)
from tests.kernel._kernel_support import conserved, random_session


@pytest.mark.parametrize("seed", range(60))
def test_ledger_replay_equals_every_balance(seed: int) -> None:
    seats = 1 + seed % 8
    table = random_session(seed, seats, abort_chance=0.004 * (seed % 4))
    assert table.is_over
    for seat in range(seats):
        assert replay_balance(table.seat(seat).ledger) == table.balance(seat)
        assert conserved(table, seat) == STARTING_POINTS
    if table.phase is Phase.COMPLETE:
        assert table.result is not None
        assert table.result.ranks == competition_ranks(table.result.final)
    else:
        assert table.result is None and table.ending is not None


@pytest.mark.parametrize("stop", [1, 5, 20, 60, 150])
def test_ledger_replay_mid_session(stop: int) -> None:
    for seed in range(8):
        table = random_session(100 + seed, 1 + seed, stop_after=stop)
        for seat in range(table.seat_count):
            # Mid-hand the contracts in play are out of the balance; the ledger knows them.
            assert replay_balance(table.seat(seat).ledger) == table.balance(seat)
            assert conserved(table, seat) == STARTING_POINTS


def _desired(pass_amount: int, dont_pass_amount: int, table: Table, seat: int) -> Choice:
    """The seat's wish turned into a choice the rules allow now."""
    if table.phase is Phase.COME_OUT:
        return Choice(pass_amount, dont_pass_amount)
    held = table.contracts(seat)
    return Choice(held.pass_amount, min(held.dont_pass_amount, dont_pass_amount))


amounts = st.sampled_from([0, 10, 20, 30, 50])
wishes = st.lists(st.tuples(amounts, amounts), min_size=1, max_size=8)


@given(
    wishes=wishes,
    dice=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=60),
)
def test_seats_share_dice_with_independent_contracts(
    wishes: list[tuple[int, int]], dice: list[tuple[int, int]]
) -> None:
    """An n-seat table equals n solo tables fed the same dice and the same choices."""
    seats = len(wishes)
    shared = Table(seats)
    solos = [Table(1) for _ in range(seats)]
    for index, (die1, die2) in enumerate(dice):
        if shared.is_over:
            break
        for seat, (p, d) in enumerate(wishes):
            # Vary the wish a little per throw so seats differ over time too.
            p, d = (p, d) if (index + seat) % 3 else (d, p)
            choice = _desired(p, d, shared, seat)
            for action in plan(shared, seat, choice):
                shared.push(action)
            for action in plan(solos[seat], 0, choice):
                solos[seat].push(type(action)(0, *_rest(action)))  # type: ignore[call-arg]
        shared.push(Throw(die1, die2))
        for solo in solos:
            solo.push(Throw(die1, die2))
    for seat, solo in enumerate(solos):
        assert shared.seat(seat).ledger == solo.seat(0).ledger
        assert shared.balance(seat) == solo.balance(0)
        assert current_choice(shared, seat) == current_choice(solo, 0)
        assert solo.phase is shared.phase and solo.point == shared.point


def _rest(action: object) -> tuple[object, ...]:
    fields = getattr(action, "__dataclass_fields__", {})
    return tuple(getattr(action, name) for name in fields if name not in ("seat", "kind"))


def test_competition_ranks_examples() -> None:
    assert competition_ranks((1100, 1100, 900)) == (1, 1, 3)
    assert competition_ranks((1, 2, 3, 3, 2)) == (5, 3, 1, 1, 3)
    assert competition_ranks((5, 5, 5, 5)) == (1, 1, 1, 1)


@given(st.lists(st.integers(500, 1500).map(lambda v: v - v % 10), min_size=1, max_size=8))
def test_competition_ranks_property(points: list[int]) -> None:
    ranks = competition_ranks(tuple(points))
    for mine, rank in zip(points, ranks, strict=True):
        assert rank == 1 + sum(other > mine for other in points)
    assert min(ranks) == 1


def test_ranking_lists_seat_points_and_rank_in_rank_order() -> None:
    result = Result((990, 1100, 900, 1100), competition_ranks((990, 1100, 900, 1100)))
    assert result.ranking == (
        Standing(1, 1100, 1),
        Standing(3, 1100, 1),
        Standing(0, 990, 3),
        Standing(2, 900, 4),
    )


@given(st.lists(st.integers(50, 150).map(lambda v: v * 10), min_size=1, max_size=8))
def test_ranking_is_in_rank_order_and_agrees_with_final_and_ranks(points: list[int]) -> None:
    final = tuple(points)
    result = Result(final, competition_ranks(final))
    ranking = result.ranking
    assert sorted(s.seat for s in ranking) == list(range(len(final)))
    for standing in ranking:
        assert standing.points == final[standing.seat]
        assert standing.rank == result.ranks[standing.seat]
    keys = [(s.rank, s.seat) for s in ranking]
    assert keys == sorted(keys)
    assert [s.points for s in ranking] == sorted(final, reverse=True)


def test_a_completed_session_ranks_its_seats() -> None:
    table = Table(3)
    for _ in range(5):
        for seat, choice in enumerate((Choice(100, 0), Choice(0, 50), Choice(0, 0))):
            for action in plan(table, seat, choice):
                table.push(action)
        table.push(Throw(3, 4))
    result = table.result
    assert result is not None
    assert result.ranking == (Standing(0, 1500, 1), Standing(2, 1000, 2), Standing(1, 750, 3))


def test_online_seat_limits_are_two_to_eight() -> None:
    assert (ONLINE_SEATS_MIN, ONLINE_SEATS_MAX) == (2, 8)
    assert ONLINE_SEATS_MAX == MAX_SEATS
    assert [n for n in range(-1, 12) if is_online_seat_count(n)] == list(range(2, 9))
    assert not is_online_seat_count(True)  # not a count of people


def test_cap_is_never_exceeded_in_long_sessions() -> None:
    for seed in range(5):
        table = Table(2)
        # Only no-decision throws after a point: the cap ends the session.
        for seat, choice in ((0, Choice(10, 10)), (1, Choice(0, 0))):
            for action in plan(table, seat, choice):
                table.push(action)
        table.push(Throw(2, 2 + seed % 2))  # 4 or 5
        while not table.is_over:
            for seat in table.awaiting:
                table.push(plan(table, seat, current_choice(table, seat))[-1])
            table.push(Throw(1, 2 if seed % 2 else 1))  # 3 or 2: never the point, never 7
        assert table.throws == THROW_CAP and table.phase is Phase.ENDED
