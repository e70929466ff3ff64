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
from pointline.conformance.adapter import Adapter, has_twice
from pointline.kernel import (
    Abort,
    Allocate,
    BadState,
    Confirm,
    Contracted,
    Ending,
    EndReason,
    IllegalAction,
    Invariant,
    Line,
    MalformedAction,
    Phase,
    PointlineError,
    ReduceDontPass,
    Reset,
    Roll,
    Settled,
    Table,
    Throw,
    Voided,
    canonical,
    to_document,
)
from pointline.kernel.canonical import dumps
from pointline.kernel.rules import TRANSITIONS, Code
from pointline.kernel.table import GUARDS
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


# ---------------------------------------------------------------------- protocol edges
def _integral_floats(value: Any) -> Any:
    if type(value) is float and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _integral_floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_integral_floats(v) for v in value]
    return value


@mutant("integral_floats_accepted", "a number token 10.0 or 1e1 is taken as the integer 10")
class IntegralFloats(Adapter):
    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        return super().apply(dict(request, action=_integral_floats(request.get("action"))))


@mutant("big_integers_as_doubles", "integers beyond 2^53 are read as doubles (rounded)")
class BigDoubles(Adapter):
    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        action = request.get("action")
        if isinstance(action, dict):
            action = {
                k: int(float(v)) if type(v) is int and abs(v) > 2**53 else v
                for k, v in action.items()
            }
        return super().apply(dict(request, action=action))


@mutant("minus_zero_refused", "the number token -0 is not taken as the integer 0")
class MinusZero(Adapter):
    def parse(self, line: str) -> Any:
        return json.loads(line, parse_int=lambda text: -0.0 if text == "-0" else int(text))


@mutant("new_table_checks_id_first", "new_table checks the table id before the seats")
class IdFirst(Adapter):
    def make_table(self, seats: Any, table_id: Any) -> Table:
        if not isinstance(table_id, str):
            raise MalformedAction(Code.BAD_ACTION, "The table id is a string.")
        return Table(seats, table_id)


@mutant("refused_new_table_keeps_table", "a refused new_table leaves the previous table in play")
class KeepsTable(Adapter):
    def new_table(self, request: dict[str, Any]) -> dict[str, Any]:
        old = (self.table, self.hasher)
        response = super().new_table(request)
        if not response.get("ok") and self.table is None:
            self.table, self.hasher = old
        return response


@mutant("reply_unchecked", "a reply that is not hash, state or none is answered as hash")
class ReplyUnchecked(Adapter):
    @staticmethod
    def _check_reply(request: dict[str, Any]) -> None:
        return None

    def _reply(self, request: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
        reply = request.get("reply", "hash")
        ok = isinstance(reply, str) and reply in ("hash", "state", "none")
        return super()._reply(request if ok else dict(request, reply="hash"), response)


@mutant("reply_none_answers_hash", "reply none still answers the hash")
class ReplyNone(Adapter):
    def _reply(self, request: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
        response = super()._reply(request, response)
        if request.get("reply") == "none":
            response["hash"] = self.current_hash()
        return response


@mutant("abort_needs_seat_member", "an abort without a seat member is bad_seat")
class AbortNeedsSeat(Adapter):
    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        action = request.get("action")
        if isinstance(action, dict) and action.get("kind") == "abort" and "seat" not in action:
            self._table()
            self._check_reply(request)
            return self._reply(request, _refusal(Code.BAD_SEAT))
        return super().apply(request)


def _refusal(code: Code) -> dict[str, Any]:
    cls = "malformed" if code.malformed else "illegal"
    return {"ok": False, "error": {"code": code.code, "class": cls, "message": code.text}}


@mutant("empty_choices_refused", "a commitment to empty choices is refused")
class EmptyChoices(Adapter):
    def commitment(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("choices") == "":
            return {"ok": False, "error": {"code": "bad_input", "class": "malformed"}}
        return super().commitment(request)

    def verify(self, digest: bytes, *fields: Any) -> bool:
        return fields[4] != b"" and super().verify(digest, *fields)


def _threshold_dice(seed: bytes, accept_below: int) -> tuple[int, int, int]:
    faces: list[int] = []
    rejected = 0
    counter = 0
    while True:
        block = hashlib.sha256(seed + counter.to_bytes(4, "big")).digest()
        for byte in block:
            if byte < accept_below:
                faces.append(byte % 6 + 1)
                if len(faces) == 2:
                    return faces[0], faces[1], rejected
            else:
                rejected += 1
        counter += 1


@mutant("dice_reject_from_251", "byte 251 is rejected too (the bound is off by one)")
class Reject251(Adapter):
    def dice_from_seed(self, seed: bytes) -> tuple[int, int, int]:
        return _threshold_dice(seed, 251)


@mutant("dice_accept_252", "byte 252 gives a face (the bound is off by one)")
class Accept252(Adapter):
    def dice_from_seed(self, seed: bytes) -> tuple[int, int, int]:
        return _threshold_dice(seed, 253)


class EscapeMutant(DocMutant):
    """The canonical bytes with one character escaped the way some JSON encoders do."""

    def escape(self, text: str) -> str:
        return text

    def state_bytes(self, doc: dict[str, Any]) -> bytes:
        return self.escape(dumps(doc).decode("utf-8")).encode("utf-8")


@mutant("canonical_escapes_slash", "the canonical JSON writes / as \\/")
class EscapeSlash(EscapeMutant):
    def escape(self, text: str) -> str:
        return text.replace("/", "\\/")


@mutant("canonical_escapes_del", "the canonical JSON writes DEL as \\u007f")
class EscapeDel(EscapeMutant):
    def escape(self, text: str) -> str:
        return text.replace("\x7f", "\\u007f")


@mutant("canonical_escapes_u2028", "the canonical JSON escapes U+2028 and U+2029")
class EscapeLineSeparators(EscapeMutant):
    def escape(self, text: str) -> str:
        return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


@mutant("canonical_astral_escaped", "astral characters are written as surrogate-pair escapes")
class EscapeAstral(EscapeMutant):
    def escape(self, text: str) -> str:
        out = []
        for ch in text:
            if ord(ch) > 0xFFFF:
                high, low = divmod(ord(ch) - 0x10000, 0x400)
                out.append(f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}")
            else:
                out.append(ch)
        return "".join(out)


def _guard_order_mutant(number: int) -> type[Adapter]:
    row = TRANSITIONS[number - 1]

    class GuardsReversed(Adapter):
        def push(self, table: Table, action: Any) -> None:
            try:
                deciding = table.row(action)
            except PointlineError:
                deciding = None
            if deciding is row:
                seat = table._seats[action.seat]
                for guard in reversed(row.guards):
                    if not GUARDS[guard](table, seat, action):
                        raise IllegalAction(guard.code, guard.code.text)
            table.push(action)

    return GuardsReversed


for _number, _row in enumerate(TRANSITIONS, 1):
    if len(_row.guards) >= 2:
        mutant(
            f"guards_reversed_T{_number}",
            f"row T{_number} ({_row.phase.value} {_row.kind.value}) checks its guards in reverse",
        )(_guard_order_mutant(_number))


# ---------------------------------------------------------------------- loading (protocol 2)
def _skipping(invariant: Invariant) -> Callable[[Any], Table]:
    """from_document with one invariant of R28 left unchecked."""

    def load(doc: Any) -> Table:
        checked = canonical.invariant_broken

        def lenient(table: Table) -> tuple[Invariant, str] | None:
            problem = checked(table)
            return None if problem is not None and problem[0] is invariant else problem

        canonical.invariant_broken = lenient
        try:
            return canonical.from_document(doc)
        finally:
            canonical.invariant_broken = checked

    return load


for _name, _invariant, _text in (
    ("balance_replay", Invariant.BALANCE_REPLAY, "the balances are not replayed from the ledgers"),
    ("hand_limit", Invariant.HAND_LIMIT, "drafts and contracts above 100"),
    ("ledger_throws", Invariant.LEDGER_THROWS, "ledgers that do not record every throw"),
    ("ending_seat", Invariant.ENDING_SEAT, "an ending naming a seat not at the table"),
    (
        "point_lock",
        Invariant.POINT_LOCK,
        "a point-phase draft with Pass moved or Don't Pass raised",
    ),
    ("throw_cap", Invariant.THROW_CAP, "a live session at throw 128"),
    ("throw_total", Invariant.THROW_TOTAL, "a throw whose total is not its dice added"),
    ("payment", Invariant.PAYMENT, "a settled line that does not follow from its contract"),
    ("refund", Invariant.REFUND, "a refund that is not the reduction before it"),
):
    mutant(f"load_accepts_{_name}", f"load_state accepts {_text}")(
        type(f"Load_{_name}", (Adapter,), {"load_table": staticmethod(_skipping(_invariant))})
    )


@mutant("load_any_invariant", "load_state names every refused invariant as balance_replay")
class LoadOneInvariant(Adapter):
    def bad_state(self, error: BadState) -> dict[str, Any]:
        response = super().bad_state(error)
        if error.invariant not in (Invariant.SHAPE, Invariant.NOT_CANONICAL):
            response["error"]["invariant"] = Invariant.BALANCE_REPLAY.value
        return response


@mutant("duplicates_last_wins", "a member named twice is read as its last value")
class DuplicatesLastWins(Adapter):
    def parse(self, line: str) -> Any:
        return json.loads(line)


@mutant("duplicates_refuse_the_line", "a member named twice anywhere refuses the whole line")
class DuplicatesRefuseTheLine(Adapter):
    def handle(self, request: Any) -> dict[str, Any]:
        if has_twice(request):
            return {
                "ok": False,
                "error": {"code": "bad_request", "class": "protocol", "message": "twice"},
                "id": request.get("id"),
            }
        return super().handle(request)


@mutant("load_forgets_sealed", "load_state unseals every seat")
class LoadUnsealed(Adapter):
    def load_table(self, doc: Any) -> Table:
        table = super().load_table(doc)
        for s in table._seats:
            s.sealed = False
        return table


@mutant("load_accepts_integral_floats", "load_state takes 1000.0 or 1e3 for 1000")
class LoadFloats(Adapter):
    def load_table(self, doc: Any) -> Table:
        return super().load_table(_integral_floats(doc))
