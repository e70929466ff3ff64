"""Betting in one move, decided by the kernel: a chip is several Allocate actions, all or none.

The GUI only offers: a 50 chip is five kernel ``Allocate`` actions of 10, tried on a copy of the
table, and refused whole (with the kernel's first reason) when the kernel would refuse any of
them. "Repeat last bet" is the last hand's original contracts placed again the same way.
"""

from __future__ import annotations

from pointline.kernel import HAND_LIMIT, UNIT, Allocate, Code, Line, Phase, Table
from pointline.kernel.ledger import Contracted

__all__ = ["CHIP_VALUES", "chip_actions", "chip_rejection", "last_bet", "plan_rejection"]

CHIP_VALUES = (UNIT, 5 * UNIT, HAND_LIMIT)
"""The chips offered: 10, 50 and 100 (one unit, five units, the whole hand limit)."""


def chip_actions(seat: int, line: Line, amount: int) -> list[Allocate]:
    """The kernel actions one chip of ``amount`` on ``line`` stands for."""
    if amount <= 0 or amount % UNIT:
        raise ValueError(f"a chip is a positive multiple of {UNIT}, not {amount!r}")
    return [Allocate(seat, line) for _ in range(amount // UNIT)]


def plan_rejection(table: Table, actions: list[Allocate]) -> Code | None:
    """The kernel's first refusal among ``actions`` applied in order (None: all accepted)."""
    if not actions:
        return None
    first = table.rejection(actions[0])
    if first is not None or len(actions) == 1:
        return first
    trial = table.copy()
    for action in actions:
        code = trial.rejection(action)
        if code is not None:
            return code
        trial.push(action)
    return None


def chip_rejection(table: Table, seat: int, line: Line, amount: int) -> Code | None:
    """Why a chip of ``amount`` cannot go on ``line`` now (None: it can)."""
    return plan_rejection(table, chip_actions(seat, line, amount))


def last_bet(table: Table, seat: int) -> tuple[int, int] | None:
    """(Pass, Don't Pass) of the last earlier hand that had contracts (None: there is none)."""
    for entry in reversed(table.seat(seat).ledger):
        if not isinstance(entry, Contracted) or entry.hand >= table.hand:
            continue
        if entry.pass_amount + entry.dont_pass_amount > 0:
            return entry.pass_amount, entry.dont_pass_amount
    return None


def repeat_actions(table: Table, seat: int) -> list[Allocate]:
    """The Allocate actions that place the last bet again (empty: nothing to repeat)."""
    bet = last_bet(table, seat)
    if bet is None or table.phase is not Phase.COME_OUT or table.draft(seat).total:
        return []
    pass_amount, dont_pass = bet
    return [Allocate(seat, Line.PASS)] * (pass_amount // UNIT) + [
        Allocate(seat, Line.DONT_PASS)
    ] * (dont_pass // UNIT)
