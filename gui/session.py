"""Solo play on one kernel table: every throw is committed, revealed, verified and derived.

Solo is shared-dice practice: the same commit-then-reveal code path as online, with one seat.
For each throw the seat draws a fresh 32-byte nonce, commits to it together with the choices it
seals, reveals, the reveal is checked against the commitment, and the dice come from
``kernel.dice.derive_dice``. No stream of future throws exists: a nonce is drawn only when
the seat seals.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from pointline.kernel import (
    Action,
    BadReveal,
    Code,
    Entry,
    IllegalAction,
    Table,
    Throw,
    commitment,
    current_choice,
    derive_dice,
    verify_commitment,
)

__all__ = ["SEAT", "NonceSource", "Reveal", "SoloSession", "fresh_nonce"]

NonceSource = Callable[[], bytes]
SEAT = 0


def fresh_nonce() -> bytes:
    """32 bytes from the operating system's random source."""
    return os.urandom(32)


@dataclass(frozen=True, slots=True)
class Reveal:
    """One throw's commitment and its reveal, as an online peer would see them."""

    throw_index: int
    digest: bytes
    nonce: bytes
    choices: bytes
    dice: tuple[int, int]


class SoloSession:
    """One seat at a kernel table; sealing actions are followed by the committed throw."""

    def __init__(self, nonce_source: NonceSource = fresh_nonce, table_id: str = "solo") -> None:
        self._nonce_source = nonce_source
        self.table_id = table_id
        self.table = Table(seats=1, table_id=table_id)
        self.reveals: list[Reveal] = []
        self.actions = 0
        """How many seat actions the kernel accepted in this session."""

    def rejection(self, action: Action) -> Code | None:
        return self.table.rejection(action)

    def submit(self, action: Action) -> tuple[Entry, ...]:
        """Apply a seat action; when it seals, commit, reveal and throw. Returns new entries.

        Raises ``IllegalAction``/``MalformedAction`` and changes nothing when rejected.
        """
        table = self.table
        start = table.ledger_length(SEAT)
        code = table.rejection(action)
        if code is not None:
            raise IllegalAction(code, code.text)
        self.actions += 1
        if not table.would_throw(action):
            table.push(action)
            return table.ledger_since(SEAT, start)
        throw_index = table.throws + 1
        nonce = self._nonce_source()
        # The choices committed are exactly what the seat seals now.
        choices = current_choice(table, SEAT).to_bytes()
        digest = commitment(self.table_id, throw_index, SEAT, nonce, choices)
        table.push(action)
        if not verify_commitment(digest, self.table_id, throw_index, SEAT, nonce, choices):
            # never solo unless tampered with: the error online play raises for the same fault
            raise BadReveal("A reveal did not match its commitment.")
        dice = derive_dice(self.table_id, throw_index, [nonce])
        table.push(Throw(*dice))
        self.reveals.append(Reveal(throw_index, digest, nonce, choices, dice))
        return table.ledger_since(SEAT, start)
