"""The mutable state behind a ``Table`` (private to the kernel).

``SeatSlots`` is one seat as the steps change it; ``TableState`` is the part of a table that
the executable rows of ``kernel._steps`` read and change, written as a protocol so that the
steps need not import ``kernel.table`` (which imports them): ``Table`` satisfies it.
"""

from __future__ import annotations

from typing import Protocol

from pointline.kernel.ledger import Entry
from pointline.kernel.snapshots import Ending
from pointline.kernel.values import STARTING_POINTS, Phase

__all__ = ["SeatSlots", "TableState"]


class SeatSlots:
    """One seat of a table as the steps change it: plain slots (its balance, draft, contracts,
    whether it has sealed, and its ledger), read out as a ``SeatState`` by ``Table.seat``."""

    __slots__ = ("balance", "dp", "draft_dp", "draft_pass", "ledger", "pass_", "sealed")

    def __init__(self) -> None:
        self.balance = STARTING_POINTS
        self.draft_pass = 0
        self.draft_dp = 0
        self.pass_ = 0
        self.dp = 0
        self.sealed = False
        self.ledger: list[Entry] = []

    def clone(self) -> SeatSlots:
        """A copy sharing nothing mutable (every slot, written out: a trial of each reveal
        clones a seat, and this is several times faster than a loop over the slots)."""
        other = SeatSlots.__new__(SeatSlots)
        other.balance = self.balance
        other.draft_pass = self.draft_pass
        other.draft_dp = self.draft_dp
        other.pass_ = self.pass_
        other.dp = self.dp
        other.sealed = self.sealed
        other.ledger = list(self.ledger)
        return other


class TableState(Protocol):
    """What the steps of the transition table read and change of a ``Table``."""

    _seats: list[SeatSlots]
    _phase: Phase
    _point: int | None
    _throws: int
    _resolved: int

    def _enter(self, phase: Phase) -> None: ...

    def _end(self, ending: Ending) -> None: ...

    def _void(self, ending: Ending) -> None: ...
