"""What a table shows of itself: contracts, a seat's snapshot, an ending and a result.

Plain immutable values, made by ``kernel.table.Table`` and read by everyone else (the canonical
state, the net layer, the screens). A result carries its standings in rank order, so no screen
sorts seats itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from pointline.kernel.ledger import Entry
from pointline.kernel.values import EndReason, Line

__all__ = ["Contracts", "Ending", "Result", "SeatState", "Standing", "competition_ranks"]

_PASS = Line.PASS


@dataclass(frozen=True, slots=True)
class Contracts:
    """Amounts on the two lines."""

    pass_amount: int = 0
    dont_pass_amount: int = 0

    @property
    def total(self) -> int:
        return self.pass_amount + self.dont_pass_amount

    def on(self, line: Line) -> int:
        return self.pass_amount if line is _PASS else self.dont_pass_amount


@dataclass(frozen=True, slots=True)
class SeatState:
    """A snapshot of one seat: balance, open draft, current contracts and ledger."""

    seat: int
    balance: int
    draft: Contracts
    contracts: Contracts
    sealed: bool
    ledger: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class Ending:
    """Why a session ended without a result, and the seat it names (if any)."""

    reason: EndReason
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat's line of a result: the seat (from 0), its final points and its rank."""

    seat: int
    points: int
    rank: int


@dataclass(frozen=True, slots=True)
class Result:
    """A completed session: final points per seat and their competition ranks (1, 1, 3)."""

    final: tuple[int, ...]
    ranks: tuple[int, ...]

    @property
    def standings(self) -> tuple[int, ...]:
        """Seats ranked highest first; tied seats keep seat order."""
        return tuple(sorted(range(len(self.final)), key=lambda s: (-self.final[s], s)))

    @property
    def ranking(self) -> tuple[Standing, ...]:
        """Every seat's seat, points and rank, in rank order (ties in seat order): what a
        results screen lists, top to bottom, with no sorting of its own."""
        return tuple(Standing(s, self.final[s], self.ranks[s]) for s in self.standings)


def competition_ranks(points: tuple[int, ...]) -> tuple[int, ...]:
    """Rank 1 for the highest; tied seats share a rank and the next rank skips (1, 1, 3)."""
    return tuple(1 + sum(1 for other in points if other > mine) for mine in points)
