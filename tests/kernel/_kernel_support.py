"""Small helpers shared by the kernel tests (public kernel API only)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from pointline.kernel import (
    Action,
    Choice,
    Code,
    Confirm,
    IllegalAction,
    MalformedAction,
    Phase,
    Roll,
    Table,
    Throw,
    plan,
    state_bytes,
)

NATURALS = [(a, b) for a in range(1, 7) for b in range(1, 7) if a + b in (7, 11)]
CRAPS = [(a, b) for a in range(1, 7) for b in range(1, 7) if a + b in (2, 3)]
POINT_NUMBERS = (4, 5, 6, 8, 9, 10)
ALL_THROWS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def dice_for(total: int) -> Throw:
    """Some throw with that total."""
    for a, b in ALL_THROWS:
        if a + b == total:
            return Throw(a, b)
    raise ValueError(total)


def come_out(table: Table, seat: int, pass_amount: int, dont_pass_amount: int) -> None:
    """Seal the seat's come-out choice through the kernel's own plan."""
    for action in plan(table, seat, Choice(pass_amount, dont_pass_amount)):
        table.push(action)


def seal_all(table: Table) -> None:
    """Every seat still open seals as it stands (Confirm at come-out, Roll on the point)."""
    for seat in table.awaiting:
        table.push(Confirm(seat) if table.phase is Phase.COME_OUT else Roll(seat))


def throw(table: Table, total: int) -> None:
    seal_all(table)
    table.push(dice_for(total))


def assert_rejected(table: Table, action: Action, code: Code) -> None:
    """``push`` rejects with ``code`` (right class), ``rejection`` agrees, nothing changes."""
    before = state_bytes(table)
    assert table.rejection(action) is code
    assert not table.is_legal(action)
    error_type = MalformedAction if code.malformed else IllegalAction
    with pytest.raises(error_type) as info:
        table.push(action)
    assert info.value.code == code.code
    assert state_bytes(table) == before


def push_all(table: Table, actions: Iterable[Action]) -> None:
    for action in actions:
        table.push(action)


def random_session(
    seed: int, seats: int, abort_chance: float = 0.0, stop_after: int | None = None
) -> Table:
    """Play random legal actions (choices, throws, sometimes an abort) until the session ends.

    Deterministic for a given seed; ``stop_after`` stops mid-session after that many actions.
    """
    import random

    from pointline.kernel import Abort, EndReason

    rng = random.Random(seed)
    table = Table(seats, f"random-{seed}")
    reasons = [r for r in EndReason if r is not EndReason.THROW_CAP]
    done = 0
    while not table.is_over and (stop_after is None or done < stop_after):
        done += 1
        if abort_chance and rng.random() < abort_chance:
            table.push(Abort(rng.choice(reasons), rng.choice([None, *range(seats)])))
            break
        if table.is_chance_turn:
            table.push(Throw(rng.randint(1, 6), rng.randint(1, 6)))
            continue
        seat = rng.choice(table.awaiting)
        options = table.legal_actions(seat)
        # Lean towards sealing so sessions finish; still visit every kind of choice.
        sealing = [a for a in options if isinstance(a, (Confirm, Roll))]
        if sealing and rng.random() < 0.3:
            table.push(sealing[0])
        else:
            table.push(rng.choice(options))
    return table


def conserved(table: Table, seat: int) -> int:
    """balance + contracts in play + losses − net wins, losses and wins read from the ledger as
    the spec's ghost counters are (``spec.crosscheck.ghost_counts``)."""
    from pointline.spec.crosscheck import ghost_counts

    state = table.seat(seat)
    losses, wins = ghost_counts(state.ledger)
    return state.balance + state.contracts.total + losses - wins
