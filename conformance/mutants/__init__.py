"""Deliberately wrong implementations: each one the reference adapter with one rule broken.

``python -m pointline.conformance.mutants.adapter NAME`` serves the protocol as mutant NAME;
``python -m pointline.conformance.mutants`` runs the suite against every mutant and prints the
kill rate.
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
    to_document,
)
from pointline.kernel.canonical import dumps
from pointline.kernel.values import Outcome

__all__ = ["MUTANTS", "mutant"]

MUTANTS: dict[str, tuple[str, type[Adapter]]] = {}


def mutant(name: str, text: str) -> Callable[[type[Adapter]], type[Adapter]]:
    def register(cls: type[Adapter]) -> type[Adapter]:
        MUTANTS[name] = (text, cls)
        return cls

    return register


def _seat(table: Table, i: int) -> Any:
    return table._seats[i]


def _add_to_draft(table: Table, action: Allocate) -> None:
    """What a correct Allocate does to the draft, applied where the rules said no."""
    s = _seat(table, action.seat)
    if action.line is Line.PASS:
        s.draft_pass += action.amount
    else:
        s.draft_dp += action.amount


def _valid_seat(table: Table, seat: Any) -> bool:
    return type(seat) is int and 0 <= seat < table.seat_count


class DocMutant(Adapter):
    """A mutant that changes the state document it answers (hash and state alike)."""

    def change(self, doc: dict[str, Any]) -> dict[str, Any]:
        return doc

    def state_bytes(self, doc: dict[str, Any]) -> bytes:
        return dumps(doc)

    def current_state(self) -> dict[str, Any]:
        assert self.table is not None
        return self.change(to_document(self.table))

    def current_hash(self) -> str:
        return hashlib.sha256(self.state_bytes(self.current_state())).hexdigest()


# ---------------------------------------------------------------------- contracts and lines
@mutant("pass_grows_after_point", "Pass may be increased while the point is on")
class PassGrows(Adapter):
    def push(self, table: Table, action: Any) -> None:
        if (
            isinstance(action, Allocate)
            and table.phase is Phase.POINT
            and action.line is Line.PASS
            and _valid_seat(table, action.seat)
            and type(action.amount) is int
            and action.amount > 0
            and action.amount % 10 == 0
        ):
            s = _seat(table, action.seat)
            s.pass_ += action.amount
            s.draft_pass += action.amount
            s.balance -= action.amount
            return
        table.push(action)


@mutant("removed_dont_pass_returns", "a reduced or removed Don't Pass may be added back")
class DontPassReturns(Adapter):
    def push(self, table: Table, action: Any) -> None:
        if (
            isinstance(action, Allocate)
            and table.phase is Phase.POINT
            and action.line is Line.DONT_PASS
            and _valid_seat(table, action.seat)
            and action.amount == 10
        ):
            s = _seat(table, action.seat)
            original = next(e for e in reversed(s.ledger) if isinstance(e, Contracted))
            if s.draft_dp + 10 <= original.dont_pass_amount:
                s.draft_dp += 10
                s.dp += 10
                s.balance -= 10
                return
        table.push(action)


@mutant("accepts_15", "an amount of 15 (not a multiple of 10) is accepted")
class Accepts15(Adapter):
    def push(self, table: Table, action: Any) -> None:
        if (
            isinstance(action, Allocate)
            and table.phase is Phase.COME_OUT
            and _valid_seat(table, action.seat)
            and type(action.amount) is int
            and action.amount > 0
            and action.amount % 10
            and isinstance(action.line, Line)
        ):
            s = _seat(table, action.seat)
            if not s.sealed and s.draft_pass + s.draft_dp + action.amount <= 100:
                _add_to_draft(table, action)
                return
        table.push(action)


@mutant("hand_limit_110", "the hand limit is 110 instead of 100")
class HandLimit110(Adapter):
    def push(self, table: Table, action: Any) -> None:
        try:
            table.push(action)
        except IllegalAction as error:
            if error.code == "hand_limit" and isinstance(action, Allocate):
                s = _seat(table, action.seat)
                if s.draft_pass + s.draft_dp + action.amount <= 110:
                    _add_to_draft(table, action)
                    return
            raise


@mutant("allocate_after_confirm", "a confirmed seat may still add to its draft")
class AllocateAfterConfirm(Adapter):
    def push(self, table: Table, action: Any) -> None:
        try:
            table.push(action)
        except IllegalAction as error:
            if error.code == "seat_sealed" and isinstance(action, Allocate):
                _add_to_draft(table, action)
                return
            raise


@mutant("dont_pass_below_zero", "Don't Pass may be reduced below 0")
class BelowZero(Adapter):
    def push(self, table: Table, action: Any) -> None:
        try:
            table.push(action)
        except IllegalAction as error:
            if error.code == "nothing_to_reduce" and isinstance(action, ReduceDontPass):
                _seat(table, action.seat).draft_dp -= 10
                return
            raise


@mutant("reset_restores_original", "Reset in the point phase restores the original contract")
class ResetOriginal(Adapter):
    def push(self, table: Table, action: Any) -> None:
        if (
            isinstance(action, Reset)
            and table.phase is Phase.POINT
            and _valid_seat(table, action.seat)
        ):
            s = _seat(table, action.seat)
            original = next(e for e in reversed(s.ledger) if isinstance(e, Contracted))
            if not s.sealed and s.draft_dp != original.dont_pass_amount:
                s.draft_dp = original.dont_pass_amount
                return
        table.push(action)


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
@mutant("throw_before_all_sealed", "the dice may be thrown once any seat has sealed")
class ThrowEarly(Adapter):
    def push(self, table: Table, action: Any) -> None:
        if (
            isinstance(action, Throw)
            and not table.is_over
            and len(table.awaiting) < table.seat_count
        ):
            for i in table.awaiting:
                _seat(table, i).sealed = True
        table.push(action)


@mutant("roll_confirms_at_come_out", "Roll at the come-out confirms instead of being refused")
class RollConfirms(Adapter):
    def push(self, table: Table, action: Any) -> None:
        if isinstance(action, Roll) and table.phase is Phase.COME_OUT:
            action = Confirm(action.seat)
        table.push(action)


@mutant("confirm_rolls_in_point", "Confirm in the point phase rolls instead of being refused")
class ConfirmRolls(Adapter):
    def push(self, table: Table, action: Any) -> None:
        if isinstance(action, Confirm) and table.phase is Phase.POINT:
            action = Roll(action.seat)
        table.push(action)


def _settled_since(table: Table, lengths: list[int]) -> list[tuple[Any, Any]]:
    out: list[tuple[Any, Any]] = []
    for i, n in enumerate(lengths):
        s = _seat(table, i)
        out.extend((s, e) for e in s.ledger[n:])
    return out


class SettleMutant(Adapter):
    """Adjusts balances after a throw, from the entries it added."""

    def adjust(self, seat: Any, entry: Any, throw: Throw, point: int | None) -> None:
        raise NotImplementedError

    def push(self, table: Table, action: Any) -> None:
        lengths = [table.ledger_length(i) for i in range(table.seat_count)]
        point = table.point
        table.push(action)
        if isinstance(action, Throw):
            for s, e in _settled_since(table, lengths):
                self.adjust(s, e, action, point)


@mutant("push_pays_as_win", "a push (12 on Don't Pass) pays like a win")
class PushWins(SettleMutant):
    def adjust(self, seat: Any, entry: Any, throw: Throw, point: int | None) -> None:
        if isinstance(entry, Settled) and entry.outcome is Outcome.PUSH:
            seat.balance += entry.contract


@mutant("twelve_dont_pass_wins", "a come-out 12 wins Don't Pass instead of pushing")
class TwelveWins(SettleMutant):
    def adjust(self, seat: Any, entry: Any, throw: Throw, point: int | None) -> None:
        if (
            isinstance(entry, Settled)
            and entry.line is Line.DONT_PASS
            and throw.total == 12
            and point is None
        ):
            seat.balance += entry.contract


@mutant("eleven_loses", "a come-out 11 loses Pass")
class ElevenLoses(SettleMutant):
    def adjust(self, seat: Any, entry: Any, throw: Throw, point: int | None) -> None:
        if (
            isinstance(entry, Settled)
            and entry.line is Line.PASS
            and throw.total == 11
            and point is None
        ):
            seat.balance -= 2 * entry.contract


@mutant("point_pays_double", "making the point pays Pass 2:1 net")
class PointDouble(SettleMutant):
    def adjust(self, seat: Any, entry: Any, throw: Throw, point: int | None) -> None:
        if (
            isinstance(entry, Settled)
            and entry.line is Line.PASS
            and point is not None
            and entry.outcome is Outcome.WIN
        ):
            seat.balance += entry.contract


@mutant("void_pays_profit", "a voided contract comes back with profit")
class VoidProfit(SettleMutant):
    def adjust(self, seat: Any, entry: Any, throw: Throw, point: int | None) -> None:
        if isinstance(entry, Voided):
            seat.balance += entry.amount


# ---------------------------------------------------------------------- the session
@mutant("throw_cap_missed", "the 128th throw does not end the session")
class CapMissed(Adapter):
    def push(self, table: Table, action: Any) -> None:
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
            return
        table.push(action)


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


@mutant("abort_after_complete", "an abort after the session completed is accepted")
class AbortAfterOver(Adapter):
    def push(self, table: Table, action: Any) -> None:
        if (
            isinstance(action, Abort)
            and table.phase is Phase.COMPLETE
            and action.reason in kernel.EndReason
        ):
            table._enter(Phase.ENDED)
            table._ending = Ending(action.reason, action.seat)
            return
        table.push(action)


@mutant("throw_cap_reason_accepted", "a caller may abort with the throw-cap reason")
class CapReason(Adapter):
    def push(self, table: Table, action: Any) -> None:
        if isinstance(action, Abort) and action.reason is EndReason.THROW_CAP and not table.is_over:
            table._end(Ending(EndReason.THROW_CAP, action.seat))
            return
        table.push(action)


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


# The mutants of the protocol's edges, the dice bounds, the canonical escapes, guard order and
# loading live in their own module; importing it registers them here.
from pointline.conformance.mutants import edges  # noqa: E402, F401
