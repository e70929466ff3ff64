"""The invariants of R28: what a table must satisfy for play to have reached its shape.

``CHECKS`` is the table of every check ``load_state`` makes, in the order it makes them (the
order ``conformance/PROTOCOL.md`` documents under ``load_state`` and ``spec/RULES.md`` renders,
both tested against this table): each a named sub-code (``Invariant``), the stage that makes it,
and for the checks of a table its test, a plain function that answers the particulars in plain
words or None. ``invariant_broken`` runs the table's and the seats' tests in that order and
answers the first one broken, or None; ``from_document`` refuses a state that breaks one, as
python-chess refuses an invalid position; the z3 proofs (``spec/proofs.py``) prove that play
keeps every one of them.

Besides the shape of the table, each ledger must agree with itself: every throw's total is its
dice added, every settled line follows from the contract in play and the throw's row of the
transition table, every withdrawal refund is the reduction recorded just before it, every void
returns the contract in play, the seat's contracts are the ones the ledger leaves in play, and
the balance is what the ledger replays to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Final

from pointline.kernel.actions import ActionKind
from pointline.kernel.codes import Invariant
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
from pointline.kernel.snapshots import SeatState
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
    spelled,
)

if TYPE_CHECKING:
    from pointline.kernel.table import Table

__all__ = [
    "CHECKS",
    "CHECK_ORDER",
    "Broken",
    "Check",
    "CheckStage",
    "invariant_broken",
    "ledger_broken",
]

Broken = tuple[Invariant, str]
"""A broken invariant: its sub-code and the particulars in plain words."""

TableTest = Callable[["Table"], "str | None"]
"""A check of the table as a whole: the particulars in plain words when it is broken, else None."""
SeatTest = Callable[["Table", SeatState], "str | None"]
"""A check of one seat of the table: as ``TableTest``, for that seat."""

_LIVE = (Phase.COME_OUT, Phase.POINT)


class CheckStage(Enum):
    """Which part of ``load_state`` makes a check, in the order the stages run."""

    DOCUMENT = "document"
    """While the text is read (``kernel.canonical``): JSON, members named once, the shape."""
    TABLE = "table"
    """The table as a whole (``invariant_broken``)."""
    SEAT = "seat"
    """Seat by seat, seat 0 first: every check of this stage for one seat before the next."""
    LEDGER = "ledger"
    """Within a seat's checks, one reading of its ledger, entry by entry (``ledger_broken``):
    the first entry that breaks any check of this stage names the refusal."""
    LAST = "last"
    """After everything: the document re-encodes to exactly its own bytes (``kernel.canonical``)."""


@dataclass(frozen=True, slots=True)
class Check:
    """One named check of ``load_state``: its sub-code, its stage, and for a ``TABLE`` or a
    ``SEAT`` check its test (the other stages are made where the text is read and re-encoded,
    and by ``ledger_broken``)."""

    invariant: Invariant
    stage: CheckStage
    table_test: TableTest | None = None
    seat_test: SeatTest | None = None


# ---------------------------------------------------------------------- the table's checks
def _point(t: Table) -> str | None:
    phase, point = t.phase, t.point
    if (point is not None or phase is Phase.POINT) and (
        phase is not Phase.POINT or point not in POINT_NUMBERS
    ):
        return "the point is 4, 5, 6, 8, 9 or 10 on the point, else null"
    return None


def _resolved_hands(t: Table) -> str | None:
    resolved, throws = t.hands_resolved, t.throws
    if resolved > throws:
        return f"{resolved} resolved hands after only {throws} throws"
    return None


def _complete(t: Table) -> str | None:
    if (t.phase is Phase.COMPLETE) != (t.hands_resolved == HANDS_PER_SESSION):
        return (
            f"the session is complete exactly when {spelled(HANDS_PER_SESSION)} hands are resolved"
        )
    return None


def _ending(t: Table) -> str | None:
    if (t.phase is Phase.ENDED) != (t.ending is not None):
        return "a session has an ending exactly when it ended without a result"
    return None


def _ending_seat(t: Table) -> str | None:
    ending = t.ending
    if ending is not None and ending.seat is not None and not 0 <= ending.seat < t.seat_count:
        return f"the ending names seat {ending.seat}, which this table does not have"
    return None


def _throw_cap(t: Table) -> str | None:
    if t.phase in _LIVE and t.throws >= THROW_CAP:
        return f"a live session has made fewer than {THROW_CAP} throws"
    return None


# ---------------------------------------------------------------------- each seat's checks
def _amounts(s: SeatState) -> tuple[int, int, int, int]:
    draft, contracts = s.draft, s.contracts
    return (
        draft.pass_amount,
        draft.dont_pass_amount,
        contracts.pass_amount,
        contracts.dont_pass_amount,
    )


def _units(t: Table, s: SeatState) -> str | None:
    if any(amount % UNIT for amount in _amounts(s)):
        return f"every amount is a multiple of {UNIT}"
    return None


def _hand_limit(t: Table, s: SeatState) -> str | None:
    if s.draft.total > HAND_LIMIT or s.contracts.total > HAND_LIMIT:
        return f"at most {HAND_LIMIT} points a hand on the two lines together"
    return None


def _over_is_empty(t: Table, s: SeatState) -> str | None:
    if t.is_over and (any(_amounts(s)) or s.sealed):
        return "nothing is on the lines once the session is over"
    return None


def _confirmed_draft(t: Table, s: SeatState) -> str | None:
    if t.phase is Phase.COME_OUT and s.sealed and s.draft != s.contracts:
        return "a confirmed come-out draft equals its contracts"
    return None


def _no_contracts_before_confirm(t: Table, s: SeatState) -> str | None:
    if t.phase is Phase.COME_OUT and not s.sealed and s.contracts.total:
        return "before Confirm the hand has no contracts"
    return None


def _draft_within_balance(t: Table, s: SeatState) -> str | None:
    if t.phase is Phase.COME_OUT and not s.sealed and s.draft.total > s.balance:
        return "an open draft is never above the balance"
    return None


def _point_lock(t: Table, s: SeatState) -> str | None:
    draft, contracts = s.draft, s.contracts
    if t.phase is Phase.POINT and (
        draft.pass_amount != contracts.pass_amount
        or draft.dont_pass_amount > contracts.dont_pass_amount
    ):
        return "on the point Pass is locked and Don't Pass only comes down"
    return None


def _rolled_nothing_prepared(t: Table, s: SeatState) -> str | None:
    if (
        t.phase is Phase.POINT
        and s.sealed
        and s.draft.dont_pass_amount != s.contracts.dont_pass_amount
    ):
        return "a sealed roll leaves no reduction prepared"
    return None


def _ledger_throws(t: Table, s: SeatState) -> str | None:
    seen = sum(1 for entry in s.ledger if isinstance(entry, ThrowSeen))
    if seen != t.throws:
        return f"the ledger records {seen} throws, the table {t.throws}"
    return None


def _balance_replay(t: Table, s: SeatState) -> str | None:
    if replay_balance(s.ledger) != s.balance:
        return f"the balance {s.balance} is not what the ledger replays to"
    return None


CHECKS: Final[tuple[Check, ...]] = (
    Check(Invariant.DUPLICATE_MEMBER, CheckStage.DOCUMENT),
    Check(Invariant.SHAPE, CheckStage.DOCUMENT),
    Check(Invariant.POINT, CheckStage.TABLE, table_test=_point),
    Check(Invariant.RESOLVED_HANDS, CheckStage.TABLE, table_test=_resolved_hands),
    Check(Invariant.COMPLETE, CheckStage.TABLE, table_test=_complete),
    Check(Invariant.ENDING, CheckStage.TABLE, table_test=_ending),
    Check(Invariant.ENDING_SEAT, CheckStage.TABLE, table_test=_ending_seat),
    Check(Invariant.THROW_CAP, CheckStage.TABLE, table_test=_throw_cap),
    Check(Invariant.UNITS, CheckStage.SEAT, seat_test=_units),
    Check(Invariant.HAND_LIMIT, CheckStage.SEAT, seat_test=_hand_limit),
    Check(Invariant.OVER_IS_EMPTY, CheckStage.SEAT, seat_test=_over_is_empty),
    Check(Invariant.CONFIRMED_DRAFT, CheckStage.SEAT, seat_test=_confirmed_draft),
    Check(
        Invariant.NO_CONTRACTS_BEFORE_CONFIRM,
        CheckStage.SEAT,
        seat_test=_no_contracts_before_confirm,
    ),
    Check(Invariant.DRAFT_WITHIN_BALANCE, CheckStage.SEAT, seat_test=_draft_within_balance),
    Check(Invariant.POINT_LOCK, CheckStage.SEAT, seat_test=_point_lock),
    Check(Invariant.ROLLED_NOTHING_PREPARED, CheckStage.SEAT, seat_test=_rolled_nothing_prepared),
    Check(Invariant.LEDGER_THROWS, CheckStage.SEAT, seat_test=_ledger_throws),
    Check(Invariant.THROW_TOTAL, CheckStage.LEDGER),
    Check(Invariant.PAYMENT, CheckStage.LEDGER),
    Check(Invariant.REFUND, CheckStage.LEDGER),
    Check(Invariant.CONTRACTS_IN_PLAY, CheckStage.LEDGER),
    Check(Invariant.BALANCE_REPLAY, CheckStage.SEAT, seat_test=_balance_replay),
    Check(Invariant.NOT_CANONICAL, CheckStage.LAST),
)
"""Every check of ``load_state``, in the order it makes them: the first broken names the
refusal. (``Invariant.NOT_JSON``, text that is not JSON at all, comes before all of them and is
not a check of a document.)"""

CHECK_ORDER: Final[tuple[Invariant, ...]] = tuple(check.invariant for check in CHECKS)
"""The sub-codes of ``CHECKS``, in order (what PROTOCOL.md lists under ``load_state``)."""

_TABLE_TESTS = tuple(
    (check.invariant, check.table_test) for check in CHECKS if check.table_test is not None
)
_PER_SEAT = tuple(check for check in CHECKS if check.stage in (CheckStage.SEAT, CheckStage.LEDGER))


def invariant_broken(table: Table) -> Broken | None:
    """The first check of ``CHECKS`` that ``table`` breaks, with the particulars, or None."""
    for invariant, table_test in _TABLE_TESTS:
        words = table_test(table)
        if words is not None:
            return invariant, words
    for s in table.seats:
        read = False
        for check in _PER_SEAT:
            if check.seat_test is not None:
                words = check.seat_test(table, s)
                if words is not None:
                    return check.invariant, f"seat {s.seat}: {words}"
            elif not read:  # the ledger's checks: one reading, at the first of them
                read = True
                contracts = (s.contracts.pass_amount, s.contracts.dont_pass_amount)
                broken = ledger_broken(s.ledger, contracts)
                if broken is not None:
                    return broken[0], f"seat {s.seat}: {broken[1]}"
    return None


def ledger_broken(
    ledger: tuple[Entry, ...] | list[Entry], contracts: tuple[int, int] | None = None
) -> Broken | None:
    """Whether one seat's ledger agrees with itself, read in order: the first entry that does
    not, as (sub-code, plain words), or None; then, given the seat's ``contracts`` (Pass, Don't
    Pass), whether they are the contracts the ledger leaves in play. The balance it replays to
    is checked apart."""
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
            if entry.amount != in_play[entry.line] or not entry.amount:
                return (
                    Invariant.CONTRACTS_IN_PLAY,
                    f"{where}: a void of {entry.amount} where {in_play[entry.line]} is in play",
                )
            in_play[entry.line] = 0
        reduced = None
    if contracts is not None and contracts != (in_play[Line.PASS], in_play[Line.DONT_PASS]):
        return (
            Invariant.CONTRACTS_IN_PLAY,
            f"the contracts are {contracts[0]}/{contracts[1]} (Pass/Don't Pass), the ledger's"
            f" in play {in_play[Line.PASS]}/{in_play[Line.DONT_PASS]}",
        )
    return None


def _payment_problem(entry: Settled, contract: int, last_throw: ThrowSeen | None) -> str | None:
    line = "Pass" if entry.line is Line.PASS else "Don't Pass"
    if entry.contract != contract:
        return f"{line} settled as {entry.contract} with {contract} in play"
    if not contract:
        return f"{line} settled with nothing in play"
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
