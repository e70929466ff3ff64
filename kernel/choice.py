"""A seat's choices for one throw, as committed online: the contracts it seals.

At come-out a choice is the pair of original contracts to confirm (both 0 sits the hand out).
In the point phase it is the contracts to keep: Pass as it is, Don't Pass at most as it is.
``plan`` turns a choice into the seat actions that seal it, so every peer applies it the same way.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from pointline.kernel.actions import (
    Allocate,
    Confirm,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    SeatAction,
)
from pointline.kernel.canonical import canonical_bytes
from pointline.kernel.codes import Code
from pointline.kernel.errors import MalformedAction
from pointline.kernel.table import Table
from pointline.kernel.values import UNIT, Line, Phase

__all__ = ["Choice", "current_choice", "plan"]


@dataclass(frozen=True, slots=True)
class Choice:
    """The contracts a seat seals for the next throw."""

    pass_amount: int
    dont_pass_amount: int

    def to_bytes(self) -> bytes:
        """Canonical JSON: ``{"dont_pass":D,"pass":P}``, sorted keys, no spaces."""
        return canonical_bytes({"dont_pass": self.dont_pass_amount, "pass": self.pass_amount})

    @classmethod
    def from_bytes(cls, data: bytes) -> Choice:
        try:
            doc = json.loads(data)
        except (ValueError, UnicodeDecodeError) as error:
            raise MalformedAction(Code.BAD_AMOUNT, f"choices are not JSON: {error}") from None
        if not isinstance(doc, dict) or set(doc) != {"pass", "dont_pass"}:
            raise MalformedAction(Code.BAD_AMOUNT, "choices name exactly pass and dont_pass")
        p, d = doc["pass"], doc["dont_pass"]
        for v in (p, d):
            if type(v) is not int or v < 0 or v % UNIT:
                raise MalformedAction(Code.BAD_AMOUNT, Code.BAD_AMOUNT.text)
        choice = cls(p, d)
        if choice.to_bytes() != bytes(data):
            raise MalformedAction(Code.BAD_AMOUNT, "choices are not in canonical form")
        return choice


def current_choice(table: Table, seat: int) -> Choice:
    """The choice the seat's open draft stands for now."""
    draft = table.draft(seat)
    return Choice(draft.pass_amount, draft.dont_pass_amount)


def plan(table: Table, seat: int, choice: Choice) -> tuple[SeatAction, ...]:
    """The seat actions that seal ``choice`` now; raises if the rules forbid that choice.

    Nothing is applied to ``table``: the actions are tried in order on a trial copy
    (``Table.try_seat_actions``), so the table's own rows decide (and name) every refusal. The
    caller then pushes them, and each is legal.
    """
    if type(seat) is not int or not 0 <= seat < table.seat_count:
        raise MalformedAction(Code.BAD_SEAT, Code.BAD_SEAT.text)
    p, d = choice.pass_amount, choice.dont_pass_amount
    for v in (p, d):
        if type(v) is not int or v < 0 or v % UNIT:
            raise MalformedAction(Code.BAD_AMOUNT, Code.BAD_AMOUNT.text)
    steps = _steps(seat, table.phase is Phase.POINT, *table.amounts(seat), p, d)
    table.try_seat_actions(seat, steps)  # the table's rows refuse, with their own codes
    return steps


@functools.lru_cache(maxsize=4096)
def _steps(
    seat: int, point: bool, draft_p: int, draft_d: int, now_p: int, now_d: int, p: int, d: int
) -> tuple[SeatAction, ...]:
    """The actions that take a seat from its draft (``draft_p``, ``draft_d``) and contracts
    (``now_p``, ``now_d``) to the choice (p, d), in the point phase or at come-out: made once
    for each (actions are immutable values, and seats make the same few choices throw after
    throw; plain integers make a cheap cache key)."""
    steps: list[SeatAction] = []
    if point:
        # Only Don't Pass can move once the point is on: a choice that raises either line is
        # tried as the Allocate it would need, and the table's point-phase row refuses it.
        if (draft_p, draft_d) != (now_p, now_d):
            steps.append(Reset(seat))
        if p > now_p:
            steps.append(Allocate(seat, Line.PASS, p - now_p))
        elif p < now_p:
            # No action of the table lowers Pass: it is locked (R13).
            steps.append(Allocate(seat, Line.PASS, now_p - p))
        if d > now_d:
            steps.append(Allocate(seat, Line.DONT_PASS, d - now_d))
        elif d == 0 and now_d:
            steps.append(RemoveDontPass(seat))
        else:
            steps.extend(ReduceDontPass(seat) for _ in range((now_d - d) // UNIT))
        steps.append(Roll(seat))
    else:
        if draft_p or draft_d:
            steps.append(Reset(seat))
        if p:
            steps.append(Allocate(seat, Line.PASS, p))
        if d:
            steps.append(Allocate(seat, Line.DONT_PASS, d))
        steps.append(Confirm(seat))
    return tuple(steps)
