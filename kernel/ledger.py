"""Each seat's ledger: an append-only record from which its balance can be rebuilt.

Entries are immutable named tuples (cheap to make on the hot path) that compare equal only to
an entry of the same type. ``Contracted`` holds a hand's original contracts; ``ContractChanged``
every later change to the current contracts; ``ThrowSeen`` every throw; ``Settled`` every
settlement line by line; ``Refunded`` every withdrawal refund; ``Voided`` every contract
returned when a session ends without a result.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from pointline.kernel.values import STARTING_POINTS, EndReason, Line, Outcome, Phase

__all__ = [
    "ContractChanged",
    "Contracted",
    "Entry",
    "Refunded",
    "Settled",
    "ThrowSeen",
    "Voided",
    "replay_balance",
]


class Contracted(NamedTuple):
    """The hand's original contracts, sealed by Confirm (both 0 when the seat sits out)."""

    hand: int
    pass_amount: int
    dont_pass_amount: int


class ContractChanged(NamedTuple):
    """A current contract changed before throw ``throw`` (only Don't Pass, only down)."""

    hand: int
    throw: int
    line: Line
    before: int
    after: int


class ThrowSeen(NamedTuple):
    """Throw number ``throw`` of the session, with the phase and point it was thrown in."""

    hand: int
    throw: int
    die1: int
    die2: int
    total: int
    phase: Phase
    point: int | None


class Settled(NamedTuple):
    """One line settled: ``returned`` goes back to the balance; ``net`` is profit (or the loss)."""

    hand: int
    throw: int
    line: Line
    contract: int
    outcome: Outcome
    returned: int
    net: int


class Refunded(NamedTuple):
    """A withdrawal refund: a reduced Don't Pass part returned with no profit."""

    hand: int
    throw: int
    amount: int


class Voided(NamedTuple):
    """A contract returned with no profit because the session ended without a result."""

    hand: int
    line: Line
    amount: int
    reason: EndReason


def _typed_eq(self: tuple[object, ...], other: object) -> bool:
    return type(self) is type(other) and tuple.__eq__(self, other)


def _typed_ne(self: tuple[object, ...], other: object) -> bool:
    return not _typed_eq(self, other)


def _typed_hash(self: tuple[object, ...]) -> int:
    return hash((type(self).__name__, tuple(self)))


for _cls in (Contracted, ContractChanged, ThrowSeen, Settled, Refunded, Voided):
    _cls.__eq__ = _typed_eq  # type: ignore[method-assign]
    _cls.__ne__ = _typed_ne  # type: ignore[assignment, method-assign]
    _cls.__hash__ = _typed_hash  # type: ignore[method-assign]

Entry = Contracted | ContractChanged | ThrowSeen | Settled | Refunded | Voided


def replay_balance(entries: Iterable[Entry], start: int = STARTING_POINTS) -> int:
    """Rebuild a seat's balance from its ledger alone.

    Confirming takes the original contracts from the balance; settlements, refunds and
    voids give back what they return. Nothing else moves points.
    """
    balance = start
    for entry in entries:
        if isinstance(entry, Contracted):
            balance -= entry.pass_amount + entry.dont_pass_amount
        elif isinstance(entry, Settled):
            balance += entry.returned
        elif isinstance(entry, (Refunded, Voided)):
            balance += entry.amount
    return balance
