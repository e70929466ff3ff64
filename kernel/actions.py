"""Actions: everything that can happen at the table, the dice included.

A seat's choices (``Allocate``, ``Reset``, ``Confirm``, ``ReduceDontPass``, ``RemoveDontPass``,
``Roll``) name the seat. Chance is an explicit action too: ``Throw`` carries both faces.
``Abort`` ends the session without a result for a reason found outside the kernel.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from pointline.kernel.values import UNIT, EndReason, Line

__all__ = [
    "SEAT_KINDS",
    "Abort",
    "Action",
    "ActionKind",
    "Allocate",
    "Confirm",
    "ReduceDontPass",
    "RemoveDontPass",
    "Reset",
    "Roll",
    "SeatAction",
    "Throw",
]


class ActionKind(Enum):
    """The kinds of action, one row of the transition table per phase and kind."""

    ALLOCATE = "allocate"
    RESET = "reset"
    CONFIRM = "confirm"
    REDUCE_DONT_PASS = "reduce_dont_pass"
    REMOVE_DONT_PASS = "remove_dont_pass"
    ROLL = "roll"
    THROW = "throw"
    ABORT = "abort"


SEAT_KINDS = (
    ActionKind.ALLOCATE,
    ActionKind.RESET,
    ActionKind.CONFIRM,
    ActionKind.REDUCE_DONT_PASS,
    ActionKind.REMOVE_DONT_PASS,
    ActionKind.ROLL,
)
"""Kinds a seat takes for itself, in the order the table shows their buttons."""


@dataclass(frozen=True, slots=True)
class Allocate:
    """Add ``amount`` (10 by default) to the seat's draft on ``line``."""

    seat: int
    line: Line
    amount: int = UNIT
    kind: ClassVar[ActionKind] = ActionKind.ALLOCATE


@dataclass(frozen=True, slots=True)
class _SeatChoice:
    """A choice that names nothing but its seat; each subclass is one kind."""

    seat: int


@dataclass(frozen=True, slots=True)
class Reset(_SeatChoice):
    """Restore the seat's draft to what it last sealed (at come-out: nothing)."""

    kind: ClassVar[ActionKind] = ActionKind.RESET


@dataclass(frozen=True, slots=True)
class Confirm(_SeatChoice):
    """Seal the come-out draft as the hand's original contracts; empty sits the hand out."""

    kind: ClassVar[ActionKind] = ActionKind.CONFIRM


@dataclass(frozen=True, slots=True)
class ReduceDontPass(_SeatChoice):
    """Prepare the seat's Don't Pass contract down by 10 before the next throw."""

    kind: ClassVar[ActionKind] = ActionKind.REDUCE_DONT_PASS


@dataclass(frozen=True, slots=True)
class RemoveDontPass(_SeatChoice):
    """Prepare the seat's Don't Pass contract down to nothing before the next throw."""

    kind: ClassVar[ActionKind] = ActionKind.REMOVE_DONT_PASS


@dataclass(frozen=True, slots=True)
class Roll(_SeatChoice):
    """Seal the seat's point-phase choices: any reduction returns as a withdrawal refund."""

    kind: ClassVar[ActionKind] = ActionKind.ROLL


@dataclass(frozen=True, slots=True)
class Throw:
    """The dice: two faces 1 to 6, legal once every seat has sealed for this throw."""

    die1: int
    die2: int
    kind: ClassVar[ActionKind] = ActionKind.THROW

    @property
    def total(self) -> int:
        return self.die1 + self.die2


@dataclass(frozen=True, slots=True)
class Abort:
    """End the session without a result; the hand in flight is voided."""

    reason: EndReason
    seat: int | None = None
    kind: ClassVar[ActionKind] = ActionKind.ABORT


SeatAction = Allocate | Reset | Confirm | ReduceDontPass | RemoveDontPass | Roll
Action = SeatAction | Throw | Abort
