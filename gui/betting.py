"""Betting in one move, decided by the kernel: a chip is several Allocate actions, all or none.

The GUI only offers: a 50 chip is five kernel ``Allocate`` actions of 10, tried on a copy of the
table, and refused whole (with the kernel's first reason) when the kernel would refuse any of
them. "Repeat last bet" is the last hand's original contracts placed again the same way.
"""

from __future__ import annotations

from pointline.gui.texts import ACTION_LABELS, SOLO_WORDS
from pointline.kernel import (
    HAND_LIMIT,
    UNIT,
    Action,
    Allocate,
    Code,
    Confirm,
    Contracted,
    Line,
    Phase,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    Table,
)

__all__ = [
    "CHIP_VALUES",
    "action_reason",
    "chip_actions",
    "chip_rejection",
    "kernel_action",
    "last_bet",
    "line_reasons",
    "plan_rejection",
    "repeat_actions",
    "why_now",
]

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


SIMPLE_ACTIONS: dict[str, type[Confirm | Reset | ReduceDontPass | RemoveDontPass | Roll]] = {
    "confirm": Confirm,
    "reset": Reset,
    "reduce": ReduceDontPass,
    "remove": RemoveDontPass,
    "roll": Roll,
}


def kernel_action(seat: int, name: str) -> Action:
    """The kernel action a button other than Allocate and Repeat stands for."""
    return SIMPLE_ACTIONS[name](seat)


def action_reason(table: Table, seat: int, name: str, line: Line, chip: int) -> str:
    """Why the control called ``name`` is refused by the kernel now ("" when it is not);
    ``allocate`` places a ``chip`` on ``line``, ``repeat`` the last bet."""
    if name == "allocate":
        code = chip_rejection(table, seat, line, chip)
    elif name == "repeat":
        plan = repeat_actions(table, seat)
        if not plan:
            return SOLO_WORDS["nothingToRepeat"]
        code = plan_rejection(table, plan)
    else:
        code = table.rejection(kernel_action(seat, name))
    return "" if code is None else code.text


def line_reasons(table: Table, seat: int, chip: int, selected: Line, said: str) -> dict[str, str]:
    """Why a ``chip`` cannot go on each line, each reason once: one reason for both lines shows
    on the ``selected`` line only, and none that the status line has just ``said``."""
    if table.is_over:
        return {"pass": "", "dont_pass": ""}
    out = {}
    for line in Line:
        code = chip_rejection(table, seat, line, chip)
        out[line.value] = "" if code is None else code.text
    if out["pass"] == out["dont_pass"]:
        other = Line.DONT_PASS if selected is Line.PASS else Line.PASS
        out[other.value] = ""
    return {name: "" if why and said.endswith(why) else why for name, why in out.items()}


def why_now(table: Table, seat: int, line: Line, chip: int) -> str:
    """Why each control of this phase is off, as the kernel says it (Help shows it)."""
    if table.is_over:
        return ""
    names = ("allocate", "confirm", "repeat", "reset")
    if table.phase is Phase.POINT:
        names = ("reduce", "remove", "roll", "reset")
    labels = {**ACTION_LABELS, "allocate": f"{ACTION_LABELS['allocate']} {chip}"}
    lines = []
    for name in names:
        why = action_reason(table, seat, name, line, chip)
        if why:
            lines.append(f"{labels[name]}: {why}")
    return "\n".join(lines)
