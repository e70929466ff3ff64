"""The invariants of R28: what a table must satisfy for play to have reached its shape.

``invariant_broken`` checks them in the order ``kernel.errors.Invariant`` lists them and
answers the first one broken (its sub-code and plain words), or None. ``from_document`` refuses
a state that breaks one, as python-chess refuses an invalid position; the z3 proofs
(``spec/proofs.py``) prove that play keeps every one of them.

Besides the shape of the table, each ledger must agree with itself: every throw's total is its
dice added, every settled line follows from the contract in play and the throw's row of the
transition table, every withdrawal refund is the reduction recorded just before it, and the
balance is what the ledger replays to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pointline.kernel.actions import ActionKind
from pointline.kernel.errors import Invariant
from pointline.kernel.ledger import (
    ContractChanged,
    Contracted,
    Entry,
    Refunded,
    Settled,
    ThrowSeen,
    Voided,
    replay_balance,
)
from pointline.kernel.rules import row_for
from pointline.kernel.values import (
    HAND_LIMIT,
    HANDS_PER_SESSION,
    NET_MULTIPLE,
    POINT_NUMBERS,
    RETURNED_MULTIPLE,
    THROW_CAP,
    UNIT,
    Line,
    Phase,
)

if TYPE_CHECKING:
    from pointline.kernel.table import Table

__all__ = ["Broken", "invariant_broken", "ledger_broken"]

Broken = tuple[Invariant, str]
"""A broken invariant: its sub-code and the particulars in plain words."""

_LIVE = (Phase.COME_OUT, Phase.POINT)


def invariant_broken(table: Table) -> Broken | None:
    """The first invariant of R28 that ``table`` breaks, with the particulars, or None."""
    phase, seats = table.phase, table.seats
    point, throws, resolved = table.point, table.throws, table.hands_resolved
    if (point is not None or phase is Phase.POINT) and (
        phase is not Phase.POINT or point not in POINT_NUMBERS
    ):
        return Invariant.POINT, "the point is 4, 5, 6, 8, 9 or 10 on the point, else null"
    if resolved > throws:
        return Invariant.RESOLVED_HANDS, f"{resolved} resolved hands after only {throws} throws"
    if (phase is Phase.COMPLETE) != (resolved == HANDS_PER_SESSION):
        return Invariant.COMPLETE, "the session is complete exactly when five hands are resolved"
    ending = table.ending
    if (phase is Phase.ENDED) != (ending is not None):
        return Invariant.ENDING, "a session has an ending exactly when it ended without a result"
    if ending is not None and ending.seat is not None and not 0 <= ending.seat < len(seats):
        return (
            Invariant.ENDING_SEAT,
            f"the ending names seat {ending.seat}, which this table does not have",
        )
    if phase in _LIVE and throws >= THROW_CAP:
        return Invariant.THROW_CAP, "a live session has made fewer than 128 throws"
    for s in seats:
        where = f"seat {s.seat}"
        draft, contracts = s.draft, s.contracts
        amounts = (
            draft.pass_amount,
            draft.dont_pass_amount,
            contracts.pass_amount,
            contracts.dont_pass_amount,
        )
        if any(amount % UNIT for amount in amounts):
            return Invariant.UNITS, f"{where}: every amount is a multiple of {UNIT}"
        if draft.total > HAND_LIMIT or contracts.total > HAND_LIMIT:
            return (
                Invariant.HAND_LIMIT,
                f"{where}: at most {HAND_LIMIT} points a hand on the two lines together",
            )
        if phase in (Phase.COMPLETE, Phase.ENDED):
            if any(amounts) or s.sealed:
                return (
                    Invariant.OVER_IS_EMPTY,
                    f"{where}: nothing is on the lines once the session is over",
                )
        elif phase is Phase.COME_OUT:
            if s.sealed and draft != contracts:
                return (
                    Invariant.CONFIRMED_DRAFT,
                    f"{where}: a confirmed come-out draft equals its contracts",
                )
            if not s.sealed and contracts.total:
                return (
                    Invariant.NO_CONTRACTS_BEFORE_CONFIRM,
                    f"{where}: before Confirm the hand has no contracts",
                )
            if not s.sealed and draft.total > s.balance:
                return (
                    Invariant.DRAFT_WITHIN_BALANCE,
                    f"{where}: an open draft is never above the balance",
                )
        else:  # the point phase
            if (
                draft.pass_amount != contracts.pass_amount
                or draft.dont_pass_amount > contracts.dont_pass_amount
            ):
                return (
                    Invariant.POINT_LOCK,
                    f"{where}: on the point Pass is locked and Don't Pass only comes down",
                )
            if s.sealed and draft.dont_pass_amount != contracts.dont_pass_amount:
                return (
                    Invariant.ROLLED_NOTHING_PREPARED,
                    f"{where}: a sealed roll leaves no reduction prepared",
                )
        throws_seen = sum(1 for entry in s.ledger if isinstance(entry, ThrowSeen))
        if throws_seen != throws:
            return (
                Invariant.LEDGER_THROWS,
                f"{where}: the ledger records {throws_seen} throws, the table {throws}",
            )
        broken = ledger_broken(s.ledger)
        if broken is not None:
            return broken[0], f"{where}: {broken[1]}"
        if replay_balance(s.ledger) != s.balance:
            return (
                Invariant.BALANCE_REPLAY,
                f"{where}: the balance {s.balance} is not what the ledger replays to",
            )
    return None


def ledger_broken(ledger: tuple[Entry, ...] | list[Entry]) -> Broken | None:
    """Whether one seat's ledger agrees with itself, read in order: the first entry that does
    not, as (sub-code, plain words), or None. The balance it replays to is checked apart."""
    in_play = {Line.PASS: 0, Line.DONT_PASS: 0}
    last_throw: ThrowSeen | None = None
    reduced: tuple[int, int] | None = None  # (throw, amount) of the reduction just recorded
    for index, entry in enumerate(ledger):
        where = f"ledger entry {index}"
        if isinstance(entry, ThrowSeen):
            if entry.total != entry.die1 + entry.die2:
                return (
                    Invariant.THROW_TOTAL,
                    f"{where}: a throw of {entry.die1} and {entry.die2} totals"
                    f" {entry.die1 + entry.die2}, not {entry.total}",
                )
            last_throw = entry
        elif isinstance(entry, Contracted):
            in_play = {Line.PASS: entry.pass_amount, Line.DONT_PASS: entry.dont_pass_amount}
        elif isinstance(entry, ContractChanged):
            before, after = entry.before, entry.after
            if entry.line is not Line.DONT_PASS or before != in_play[Line.DONT_PASS]:
                return (
                    Invariant.REFUND,
                    f"{where}: only the Don't Pass in play ({in_play[Line.DONT_PASS]}) changes",
                )
            if not 0 <= after < before:
                return Invariant.REFUND, f"{where}: Don't Pass only comes down"
            in_play[Line.DONT_PASS] = after
            reduced = (entry.throw, before - after)
            continue
        elif isinstance(entry, Refunded):
            expected = reduced[1] if reduced is not None and reduced[0] == entry.throw else 0
            if entry.amount != expected:
                return (
                    Invariant.REFUND,
                    f"{where}: a refund of {entry.amount} where the reduction just recorded"
                    f" is {expected}",
                )
        elif isinstance(entry, Settled):
            problem = _payment_problem(entry, in_play[entry.line], last_throw)
            if problem is not None:
                return Invariant.PAYMENT, f"{where}: {problem}"
            in_play[entry.line] = 0
        elif isinstance(entry, Voided):
            in_play[entry.line] = 0
        reduced = None
    return None


def _payment_problem(entry: Settled, contract: int, last_throw: ThrowSeen | None) -> str | None:
    line = "Pass" if entry.line is Line.PASS else "Don't Pass"
    if entry.contract != contract:
        return f"{line} settled as {entry.contract} with {contract} in play"
    if last_throw is None or last_throw.throw != entry.throw:
        return f"{line} settled on throw {entry.throw}, which is not the throw just recorded"
    row = row_for(last_throw.phase, ActionKind.THROW, last_throw.total, last_throw.point)
    outcome = row.pass_outcome if entry.line is Line.PASS else row.dont_pass_outcome
    if outcome is not entry.outcome:
        what = "does not settle" if outcome is None else f"gives {outcome.value}"
        return f"{line} settled as {entry.outcome.value}, but a {last_throw.total} there {what}"
    returned = contract * RETURNED_MULTIPLE[outcome]
    net = contract * NET_MULTIPLE[outcome]
    if (entry.returned, entry.net) != (returned, net):
        return (
            f"{line} {outcome.value} on {contract} returns {returned} (net {net}),"
            f" not {entry.returned} (net {entry.net})"
        )
    return None
