"""Mutants of the protocol's edges: number tokens, new_table and reply order, aborts without a
seat, empty choices, the dice rejection bound, canonical escapes, guard order, loading
(protocol 2) and members named twice. Listed in the package's ``MUTANTS``."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pointline.conformance.adapter import Adapter, has_twice
from pointline.conformance.mutants.kit import DocMutant, Registry
from pointline.kernel import (
    BadState,
    IllegalAction,
    Invariant,
    MalformedAction,
    PointlineError,
    Table,
    canonical,
    dice_from_seed,
)
from pointline.kernel.canonical import dumps
from pointline.kernel.codes import Code
from pointline.kernel.rules import TRANSITIONS
from pointline.kernel.table import GUARDS

__all__ = ["mutant"]

mutant = Registry()
"""The mutants of this module, registered as each is defined (``MUTANTS`` in the package)."""


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


@mutant("dice_reject_from_251", "byte 251 is rejected too (the bound is off by one)")
class Reject251(Adapter):
    def dice_from_seed(self, seed: bytes) -> tuple[int, int, int]:
        return dice_from_seed(seed, accept_below=251)


@mutant("dice_accept_252", "byte 252 gives a face (the bound is off by one)")
class Accept252(Adapter):
    def dice_from_seed(self, seed: bytes) -> tuple[int, int, int]:
        return dice_from_seed(seed, accept_below=253)


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
