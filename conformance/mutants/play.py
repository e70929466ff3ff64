"""Mutants of the rules of play: the reference adapter with one rule of the table broken
(contracts and lines, the point, payment, ranks, the ledger, the state document).

Each mutant changes the reference's behaviour from outside the kernel (through the seat and
table fields that ``kernel.canonical`` also reads), so the kernel itself stays untouched.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from typing import Any

from pointline import kernel
from pointline.conformance.adapter import Adapter
from pointline.conformance.mutants.kit import DocMutant, Registry
from pointline.kernel import (
    Abort,
    Allocate,
    Confirm,
    Contracted,
    Ending,
    EndReason,
    IllegalAction,
    Line,
    Phase,
    ReduceDontPass,
    Reset,
    Roll,
    Settled,
    Table,
    Throw,
    Voided,
)
from pointline.kernel.values import Outcome

__all__ = ["mutant"]

mutant = Registry()
"""The mutants of this module, registered as each is defined (``MUTANTS`` in the package)."""


def _seat(table: Table, i: int) -> Any:
    return table._seats[i]


def _add_to_draft(table: Table, action: Allocate, limit: int | None = None) -> bool:
    """What a correct Allocate does to the draft, applied where the rules said no: when the
    draft on both lines stays at most ``limit`` (if one is given). True when it added."""
    s = _seat(table, action.seat)
    if limit is not None and s.draft_pass + s.draft_dp + action.amount > limit:
        return False
    if action.line is Line.PASS:
        s.draft_pass += action.amount
    else:
        s.draft_dp += action.amount
    return True


def _valid_seat(table: Table, seat: Any) -> bool:
    return type(seat) is int and 0 <= seat < table.seat_count


Handler = Callable[[Table, Any], bool]
"""A mutant's own way with some actions: True when it took ``action`` itself."""


def instead(name: str, text: str) -> Callable[[Handler], Handler]:
    """Register mutant ``name``: before the kernel sees an action, ``handler`` may take it its
    own way (returning True); every other action goes to the kernel."""

    def register(handler: Handler) -> Handler:
        class Instead(Adapter):
            def push(self, table: Table, action: Any) -> None:
                if not handler(table, action):
                    table.push(action)

        mutant(name, text)(Instead)
        return handler

    return register


def overrule(name: str, text: str, code: str) -> Callable[[Handler], Handler]:
    """Register mutant ``name``: when the kernel refuses an action with ``code``, ``handler``
    may apply it anyway (returning True); else the refusal stands."""

    def register(handler: Handler) -> Handler:
        class Overrule(Adapter):
            def push(self, table: Table, action: Any) -> None:
                try:
                    table.push(action)
                except IllegalAction as error:
                    if error.code != code or not handler(table, action):
                        raise

        mutant(name, text)(Overrule)
        return handler

    return register


# ---------------------------------------------------------------------- contracts and lines
def _allocates(table: Table, action: Any, phase: Phase, line: Line | None = None) -> bool:
    """Whether ``action`` is an Allocate of a positive whole amount by a seat of this table, in
    ``phase`` (and on ``line`` when given)."""
    return (
        isinstance(action, Allocate)
        and table.phase is phase
        and (line is None or action.line is line)
        and _valid_seat(table, action.seat)
        and type(action.amount) is int
        and action.amount > 0
    )


@instead("pass_grows_after_point", "Pass may be increased while the point is on")
def _pass_grows(table: Table, action: Any) -> bool:
    if _allocates(table, action, Phase.POINT, Line.PASS) and action.amount % 10 == 0:
        s = _seat(table, action.seat)
        s.pass_ += action.amount
        s.draft_pass += action.amount
        s.balance -= action.amount
        return True
    return False


@instead("removed_dont_pass_returns", "a reduced or removed Don't Pass may be added back")
def _dont_pass_returns(table: Table, action: Any) -> bool:
    if _allocates(table, action, Phase.POINT, Line.DONT_PASS) and action.amount == 10:
        s = _seat(table, action.seat)
        original = next(e for e in reversed(s.ledger) if isinstance(e, Contracted))
        if s.draft_dp + 10 <= original.dont_pass_amount:
            s.draft_dp += 10
            s.dp += 10
            s.balance -= 10
            return True
    return False


@instead("accepts_15", "an amount of 15 (not a multiple of 10) is accepted")
def _accepts_15(table: Table, action: Any) -> bool:
    if (
        _allocates(table, action, Phase.COME_OUT)
        and action.amount % 10
        and isinstance(action.line, Line)
        and not _seat(table, action.seat).sealed
    ):
        return _add_to_draft(table, action, 100)
    return False


@overrule("hand_limit_110", "the hand limit is 110 instead of 100", "hand_limit")
def _hand_limit_110(table: Table, action: Any) -> bool:
    return isinstance(action, Allocate) and _add_to_draft(table, action, 110)


@overrule("allocate_after_confirm", "a confirmed seat may still add to its draft", "seat_sealed")
def _allocate_after_confirm(table: Table, action: Any) -> bool:
    return isinstance(action, Allocate) and _add_to_draft(table, action)


@overrule("dont_pass_below_zero", "Don't Pass may be reduced below 0", "nothing_to_reduce")
def _below_zero(table: Table, action: Any) -> bool:
    if isinstance(action, ReduceDontPass):
        _seat(table, action.seat).draft_dp -= 10
        return True
    return False


@instead("reset_restores_original", "Reset in the point phase restores the original contract")
def _reset_original(table: Table, action: Any) -> bool:
    if isinstance(action, Reset) and table.phase is Phase.POINT and _valid_seat(table, action.seat):
        s = _seat(table, action.seat)
        original = next(e for e in reversed(s.ledger) if isinstance(e, Contracted))
        if not s.sealed and s.draft_dp != original.dont_pass_amount:
            s.draft_dp = original.dont_pass_amount
            return True
    return False


@mutant("refund_with_profit", "a withdrawal refund pays the reduced part twice")
class RefundProfit(Adapter):
    def push(self, table: Table, action: Any) -> None:
        before = (
            table.balance(action.seat)
            if isinstance(action, Roll) and _valid_seat(table, action.seat)
            else None
        )
        table.push(action)
        if before is not None:
            s = _seat(table, action.seat)
            s.balance += s.balance - before


# ---------------------------------------------------------------------- sealing and throws
@instead("throw_before_all_sealed", "the dice may be thrown once any seat has sealed")
def _throw_early(table: Table, action: Any) -> bool:
    if isinstance(action, Throw) and not table.is_over and len(table.awaiting) < table.seat_count:
        for i in table.awaiting:
            _seat(table, i).sealed = True
    return False


def _swap(table: Table, action: Any, taken: type[Any], phase: Phase, given: type[Any]) -> bool:
    """Take a ``taken`` action in ``phase`` as the ``given`` kind of action of the same seat."""
    if isinstance(action, taken) and table.phase is phase:
        table.push(given(action.seat))
        return True
    return False


@instead("roll_confirms_at_come_out", "Roll at the come-out confirms instead of being refused")
def _roll_confirms(table: Table, action: Any) -> bool:
    return _swap(table, action, Roll, Phase.COME_OUT, Confirm)


@instead("confirm_rolls_in_point", "Confirm in the point phase rolls instead of being refused")
def _confirm_rolls(table: Table, action: Any) -> bool:
    return _swap(table, action, Confirm, Phase.POINT, Roll)


def _settled_since(table: Table, lengths: list[int]) -> list[tuple[Any, Any]]:
    out: list[tuple[Any, Any]] = []
    for i, n in enumerate(lengths):
        s = _seat(table, i)
        out.extend((s, e) for e in s.ledger[n:])
    return out


Adjust = Callable[[Any, Any, Throw, int | None], None]
"""A settlement mutant's change: (seat, ledger entry the throw added, throw, point before it)."""


def settle(name: str, text: str) -> Callable[[Adjust], Adjust]:
    """Register mutant ``name``: after every throw, ``adjust`` moves balances from each ledger
    entry the throw added."""

    def register(adjust: Adjust) -> Adjust:
        class Settle(Adapter):
            def push(self, table: Table, action: Any) -> None:
                lengths = [table.ledger_length(i) for i in range(table.seat_count)]
                point = table.point
                table.push(action)
                if isinstance(action, Throw):
                    for s, e in _settled_since(table, lengths):
                        adjust(s, e, action, point)

        mutant(name, text)(Settle)
        return adjust

    return register


Payout = Callable[[Settled, Throw, int | None], bool]
_PAYOUT_MUTANTS: tuple[tuple[str, str, Payout, int], ...] = (
    # name, words, which settled lines (entry, throw, point before it), contracts paid extra
    (
        "push_pays_as_win",
        "a push (12 on Don't Pass) pays like a win",
        lambda e, t, p: e.outcome is Outcome.PUSH,
        1,
    ),
    (
        "twelve_dont_pass_wins",
        "a come-out 12 wins Don't Pass instead of pushing",
        lambda e, t, p: e.line is Line.DONT_PASS and t.total == 12 and p is None,
        1,
    ),
    (
        "eleven_loses",
        "a come-out 11 loses Pass",
        lambda e, t, p: e.line is Line.PASS and t.total == 11 and p is None,
        -2,
    ),
    (
        "point_pays_double",
        "making the point pays Pass 2:1 net",
        lambda e, t, p: e.line is Line.PASS and p is not None and e.outcome is Outcome.WIN,
        1,
    ),
)
"""Settlement mutants as data: each pays ``extra`` times the contract more on the lines it
picks."""


def _payout_mutant(name: str, text: str, picks: Payout, extra: int) -> None:
    @settle(name, text)
    def adjust(seat: Any, entry: Any, throw: Throw, point: int | None) -> None:
        if isinstance(entry, Settled) and picks(entry, throw, point):
            seat.balance += extra * entry.contract


for _payout in _PAYOUT_MUTANTS:
    _payout_mutant(*_payout)


@settle("void_pays_profit", "a voided contract comes back with profit")
def _void_profit(seat: Any, entry: Any, throw: Throw, point: int | None) -> None:
    if isinstance(entry, Voided):
        seat.balance += entry.amount


# ---------------------------------------------------------------------- the session
@instead("throw_cap_missed", "the 128th throw does not end the session")
def _cap_missed(table: Table, action: Any) -> bool:
    if (
        isinstance(action, Throw)
        and table.throws == 127
        and table.is_chance_turn
        and table.rejection(action) is None
    ):
        lengths = [table.ledger_length(i) for i in range(table.seat_count)]
        table._throws = 126
        table.push(action)
        table._throws = 128
        for i, n in enumerate(lengths):
            s = _seat(table, i)
            s.ledger[n:] = [
                e._replace(throw=128) if hasattr(e, "throw") else e for e in s.ledger[n:]
            ]
        return True
    return False


@mutant("sit_out_not_counted", "a hand where every seat sat out does not count as resolved")
class SitOutNotCounted(Adapter):
    def push(self, table: Table, action: Any) -> None:
        empty = all(table.contracts(i).total == 0 for i in range(table.seat_count))
        resolved = table.hands_resolved
        table.push(action)
        if isinstance(action, Throw) and empty and table.hands_resolved == resolved + 1:
            table._resolved -= 1
            if table.phase is Phase.COMPLETE:
                table._enter(Phase.COME_OUT)


@mutant("sixth_hand", "the session needs six resolved hands")
class SixthHand(Adapter):
    def push(self, table: Table, action: Any) -> None:
        table.push(action)
        if table.phase is Phase.COMPLETE and table.hands_resolved == 5:
            table._enter(Phase.COME_OUT)


@instead("abort_after_complete", "an abort after the session completed is accepted")
def _abort_after_over(table: Table, action: Any) -> bool:
    if (
        isinstance(action, Abort)
        and table.phase is Phase.COMPLETE
        and action.reason in kernel.EndReason
    ):
        table._enter(Phase.ENDED)
        table._ending = Ending(action.reason, action.seat)
        return True
    return False


@instead("throw_cap_reason_accepted", "a caller may abort with the throw-cap reason")
def _cap_reason(table: Table, action: Any) -> bool:
    if isinstance(action, Abort) and action.reason is EndReason.THROW_CAP and not table.is_over:
        table._end(Ending(EndReason.THROW_CAP, action.seat))
        return True
    return False


@mutant("seat_aliasing", "seat 7 acts for seat 0")
class SeatAliasing(Adapter):
    def push(self, table: Table, action: Any) -> None:
        if (
            getattr(action, "seat", None) == 7
            and table.seat_count == 8
            and not isinstance(action, Abort)
        ):
            action = dataclasses.replace(action, seat=0)
        table.push(action)


# ---------------------------------------------------------------------- the result and the state
def _dense(points: list[int]) -> list[int]:
    levels = sorted(set(points), reverse=True)
    return [levels.index(p) + 1 for p in points]


@mutant("ties_dense_ranks", "tied seats share a rank but the next rank does not skip (1, 1, 2)")
class DenseRanks(DocMutant):
    def change(self, doc: dict[str, Any]) -> dict[str, Any]:
        if doc["result"]:
            doc["result"]["ranks"] = _dense(doc["result"]["final"])
        return doc


@mutant("ties_by_seat_order", "ties are broken by seat order (1, 2, 3)")
class OrdinalRanks(DocMutant):
    def change(self, doc: dict[str, Any]) -> dict[str, Any]:
        if doc["result"]:
            final = doc["result"]["final"]
            order = sorted(range(len(final)), key=lambda s: (-final[s], s))
            ranks = [0] * len(final)
            for r, s in enumerate(order):
                ranks[s] = r + 1
            doc["result"]["ranks"] = ranks
        return doc


@mutant("canonical_spaces", "the state is hashed with spaces after , and :")
class Spaces(DocMutant):
    def state_bytes(self, doc: dict[str, Any]) -> bytes:
        return json.dumps(doc, sort_keys=True, ensure_ascii=False).encode("utf-8")


@mutant("canonical_ascii_escapes", "the canonical JSON escapes non-ASCII characters")
class AsciiEscapes(DocMutant):
    def state_bytes(self, doc: dict[str, Any]) -> bytes:
        return json.dumps(doc, sort_keys=True, separators=(",", ":")).encode("ascii")


@mutant("malformed_as_illegal", "malformed dice and amounts are reported as illegal")
class MalformedAsIllegal(Adapter):
    def error_class(self, code: str, cls: str) -> str:
        return "illegal" if code in ("bad_die", "bad_amount") else cls


# ---------------------------------------------------------------------- dice and commitments
@mutant("dice_modulo_bias", "dice are the first two bytes modulo 6, without rejection")
class DiceModulo(Adapter):
    def dice_from_seed(self, seed: bytes) -> tuple[int, int, int]:
        block = hashlib.sha256(seed + b"\x00\x00\x00\x00").digest()
        return block[0] % 6 + 1, block[1] % 6 + 1, 0


@mutant("dice_nonces_reversed", "the nonces are hashed in reverse seat order")
class NoncesReversed(Adapter):
    def dice_seed(self, table_id: str, index: int, nonces: list[bytes], version: int) -> bytes:
        return kernel.dice_seed(table_id, index, list(reversed(nonces)), version)


@mutant("tampered_commitment_accepted", "any well-formed commitment verifies")
class AcceptTampered(Adapter):
    def verify(self, digest: bytes, *fields: Any) -> bool:
        return len(digest) == 32


@mutant("commitment_ignores_seat", "the commitment leaves out the seat")
class CommitNoSeat(Adapter):
    def commitment(self, request: dict[str, Any]) -> dict[str, Any]:
        if type(request.get("seat")) is int and 0 <= request["seat"] <= 255:
            request = dict(request, seat=0)
        return super().commitment(request)

    def verify(self, digest: bytes, *fields: Any) -> bool:
        f = list(fields)
        if type(f[2]) is int and 0 <= f[2] <= 255:
            f[2] = 0
        return kernel.verify_commitment(digest, *f)
