"""Canonical JSON: the one encoder, and the canonical form of a table.

``canonical_bytes(obj)`` is the project's one canonical JSON encoder (every layer uses it: the
state hash, choices, the conformance fixtures, the online messages): UTF-8, object keys sorted,
separators ``,`` and ``:`` with no whitespace, non-ASCII written as itself, NaN and infinity
refused. For documents whose numbers are integers (all of ours) it is RFC 8785 (JCS).
``canonical_text`` is the same as a ``str``.

``to_document`` and ``from_document`` round-trip a table exactly; ``state_bytes`` gives its
canonical bytes and ``state_hash`` their SHA-256 in hex. Every field is documented in
``spec/RULES.md`` ("Canonical state"). ``from_document`` refuses a document that is not one
with ``BadState``, whose ``invariant`` names the first check failed (``kernel.invariants``).
"""

from __future__ import annotations

import hashlib
import json
from enum import Enum
from typing import Any

from pointline.kernel import invariants, strictjson
from pointline.kernel._state import SeatSlots
from pointline.kernel.codes import Invariant
from pointline.kernel.errors import BadState, MalformedAction
from pointline.kernel.ledger import (
    ContractChanged,
    Contracted,
    Entry,
    Refunded,
    Settled,
    ThrowSeen,
    Voided,
)
from pointline.kernel.table import Ending, Table
from pointline.kernel.values import (
    HANDS_PER_SESSION,
    MAX_SEATS,
    POINT_NUMBERS,
    THROW_CAP,
    UNIT,
    EndReason,
    Line,
    Outcome,
    Phase,
)

__all__ = [
    "STATE_VERSION",
    "canonical_bytes",
    "canonical_text",
    "dumps",
    "entry_document",
    "entry_from_document",
    "from_document",
    "invariant_broken",
    "loads",
    "state_bytes",
    "state_hash",
    "to_document",
]

_ENCODER = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)
"""One shared encoder: ``json.dumps`` with arguments would build a new one on every call."""


def canonical_text(obj: Any) -> str:
    """The canonical JSON text of ``obj`` (see the module docstring); raises ``ValueError`` for
    NaN or infinity and ``TypeError`` for what JSON cannot hold."""
    return _ENCODER.encode(obj)


def canonical_bytes(obj: Any) -> bytes:
    """The canonical JSON bytes of ``obj``: ``canonical_text`` as UTF-8 (a lone surrogate in a
    string raises ``UnicodeEncodeError``). The stable API every layer encodes with."""
    return _ENCODER.encode(obj).encode("utf-8")


dumps = canonical_bytes
"""The older name of ``canonical_bytes``."""


STATE_VERSION = 1


def entry_document(entry: Entry) -> dict[str, Any]:
    """One ledger entry as a JSON object with a ``type`` field."""
    kind, keys, enums = _ENTRY_ENCODING[type(entry)]
    doc: dict[str, Any] = {"type": kind}
    doc.update(zip(keys, entry, strict=True))
    for key in enums:
        doc[key] = doc[key].value
    return doc


def to_document(table: Table) -> dict[str, Any]:
    """The whole table as plain JSON data."""
    ending = table.ending
    result = table.result
    return {
        "version": STATE_VERSION,
        "table_id": table.table_id,
        "phase": table.phase.value,
        "point": table.point,
        "throws": table.throws,
        "hands_resolved": table.hands_resolved,
        "ending": None if ending is None else {"reason": ending.reason.value, "seat": ending.seat},
        "result": None
        if result is None
        else {"final": list(result.final), "ranks": list(result.ranks)},
        "seats": [
            {
                "balance": s.balance,
                "draft": {
                    "pass": s.draft.pass_amount,
                    "dont_pass": s.draft.dont_pass_amount,
                },
                "contracts": {
                    "pass": s.contracts.pass_amount,
                    "dont_pass": s.contracts.dont_pass_amount,
                },
                "sealed": s.sealed,
                "ledger": [entry_document(e) for e in s.ledger],
            }
            for s in table.seats
        ],
    }


def state_bytes(table: Table) -> bytes:
    return dumps(to_document(table))


def state_hash(table: Table) -> str:
    """SHA-256 of the canonical bytes, lowercase hex."""
    return hashlib.sha256(state_bytes(table)).hexdigest()


# ---------------------------------------------------------------------- reading back
def _shape(text: str) -> BadState:
    return BadState(Invariant.SHAPE, text)


def _int(doc: Any, key: str, low: int = 0, high: int = 1 << 31) -> int:
    value = doc.get(key) if isinstance(doc, dict) else None
    if type(value) is not int or not low <= value <= high:
        raise _shape(f"{key} must be an integer {low}..{high}, not {value!r}")
    return value


def _opt_int(doc: dict[str, Any], key: str) -> int | None:
    if key not in doc:
        raise _shape(f"missing {key}")
    return None if doc[key] is None else _int(doc, key)


def _enum(cls: Any, value: Any, what: str) -> Any:
    try:
        return cls(value)
    except ValueError:
        raise _shape(f"bad {what}: {value!r}") from None


def _pair(doc: Any, key: str) -> tuple[int, int]:
    inner = doc.get(key) if isinstance(doc, dict) else None
    if not isinstance(inner, dict) or set(inner) != {"pass", "dont_pass"}:
        raise _shape(f"{key} names exactly pass and dont_pass")
    return _int(inner, "pass"), _int(inner, "dont_pass")


_UINT = (0, 1 << 31)
_DIE = (1, 6)
_HAND = (1, HANDS_PER_SESSION)
_THROW = (1, THROW_CAP)
_TENS = (0, 1 << 31, UNIT)
_NET = (-(1 << 31), 1 << 31, UNIT)
_Read = tuple[int, int] | tuple[int, int, int] | type[Enum] | None
"""How a member reads back: an integer range (and the multiple it must be), an enum, or (None)
an integer or null."""

_ENTRY_SCHEMA: dict[type[Entry], tuple[str, tuple[tuple[str, _Read], ...]]] = {
    Contracted: ("contracted", (("hand", _HAND), ("pass", _TENS), ("dont_pass", _TENS))),
    ContractChanged: (
        "contract_changed",
        (("hand", _HAND), ("throw", _THROW), ("line", Line), ("before", _TENS), ("after", _TENS)),
    ),
    ThrowSeen: (
        "throw",
        (
            ("hand", _HAND),
            ("throw", _THROW),
            ("die1", _DIE),
            ("die2", _DIE),
            ("total", (2, 12)),
            ("phase", Phase),
            ("point", None),
        ),
    ),
    Settled: (
        "settled",
        (
            ("hand", _HAND),
            ("throw", _THROW),
            ("line", Line),
            ("contract", _TENS),
            ("outcome", Outcome),
            ("returned", _TENS),
            ("net", _NET),
        ),
    ),
    Refunded: ("refunded", (("hand", _HAND), ("throw", _THROW), ("amount", _TENS))),
    Voided: (
        "voided",
        (("hand", _HAND), ("line", Line), ("amount", _TENS), ("reason", EndReason)),
    ),
}
"""Every ledger entry type: its document ``type`` and its members, in the entry's field order."""
_ENTRY_BY_KIND = {kind: (cls, fields) for cls, (kind, fields) in _ENTRY_SCHEMA.items()}
_ENTRY_ENCODING = {
    cls: (kind, tuple(key for key, _ in fields), tuple(k for k, r in fields if isinstance(r, type)))
    for cls, (kind, fields) in _ENTRY_SCHEMA.items()
}
"""Per entry type, for encoding on the hot path: its ``type``, its member names in field order,
and the members that hold an enum (written as its value)."""


def _read(doc: dict[str, Any], key: str, read: _Read) -> Any:
    if read is None:
        return _opt_int(doc, key)
    if isinstance(read, tuple):
        value = _int(doc, key, read[0], read[1])
        if len(read) == 3 and value % read[2]:
            raise _shape(f"{key} must be a multiple of {read[2]}, not {value}")
        return value
    return _enum(read, doc.get(key), key)


def _thrown_where(entry: ThrowSeen) -> None:
    """A throw entry's phase and point: thrown at the come-out (no point) or on a point."""
    if entry.phase is Phase.COME_OUT and entry.point is None:
        return
    if entry.phase is Phase.POINT and entry.point in POINT_NUMBERS:
        return
    raise _shape(
        f"a throw is made at the come-out with no point or on a point (4, 5, 6, 8, 9, 10),"
        f" not in {entry.phase.value} with point {entry.point}"
    )


def entry_from_document(doc: Any) -> Entry:
    if not isinstance(doc, dict):
        raise _shape("a ledger entry is an object")
    kind = doc.get("type")
    if not isinstance(kind, str) or kind not in _ENTRY_BY_KIND:
        raise _shape(f"unknown ledger entry type {kind!r}")
    cls, fields = _ENTRY_BY_KIND[kind]
    entry: Entry = cls(*(_read(doc, key, read) for key, read in fields))
    if isinstance(entry, ThrowSeen):
        _thrown_where(entry)
    return entry


def from_document(doc: Any) -> Table:
    """Rebuild a table from its canonical document; raises ``BadState`` if it is not one.

    The checks run in the order of ``kernel.invariants.CHECKS``: the document's shape (its
    ``DOCUMENT`` stage, while reading), then every check of the table and its seats
    (``invariant_broken``, which runs the table's tests), then that it re-encodes to exactly its
    own canonical bytes (``LAST``)."""
    if not isinstance(doc, dict) or type(doc.get("version")) is not int:
        raise _shape(f"not a version {STATE_VERSION} state document")
    if doc["version"] != STATE_VERSION:
        raise _shape(f"not a version {STATE_VERSION} state document")
    seats_doc = doc.get("seats")
    if not isinstance(seats_doc, list) or not 1 <= len(seats_doc) <= MAX_SEATS:
        raise _shape("seats is a list of 1 to 8 seats")
    table_id = doc.get("table_id")
    if not isinstance(table_id, str):
        raise _shape("table_id is a string")
    try:
        table = Table(len(seats_doc), table_id)
    except MalformedAction as error:  # a table id that is not Unicode text (a lone surrogate)
        raise _shape(error.text) from None
    table._enter(_enum(Phase, doc.get("phase"), "phase"))
    point = _opt_int(doc, "point")
    table._throws = _int(doc, "throws", 0, THROW_CAP)
    table._resolved = _int(doc, "hands_resolved", 0, HANDS_PER_SESSION)
    ending = doc.get("ending")
    if ending is not None:
        if not isinstance(ending, dict):
            raise _shape("ending is null or an object")
        table._ending = Ending(
            _enum(EndReason, ending.get("reason"), "reason"), _opt_int(ending, "seat")
        )
    for seat, sd in zip(table._seats, seats_doc, strict=True):
        _load_seat(seat, sd)
    table._point = point
    problem = invariant_broken(table)
    if problem is not None:
        raise BadState(problem[0], f"impossible state: {problem[1]}")
    # Compared as canonical bytes, not as Python values: ``true == 1`` and ``1.0 == 1`` in
    # Python, but a document holding them does not re-encode to itself (R28).
    try:
        same = canonical_bytes(to_document(table)) == canonical_bytes(doc)
    except (UnicodeEncodeError, TypeError, ValueError, RecursionError):
        same = False  # not JSON text at all (a lone surrogate, NaN, an object nested too deep)
    if not same:
        raise BadState(
            Invariant.NOT_CANONICAL, "the document is not canonical (result or fields disagree)"
        )
    return table


def invariant_broken(table: Table) -> invariants.Broken | None:
    """The first invariant of R28 that ``table`` breaks, or None (``kernel.invariants``).

    Looked up through this module on every load, so a conformance mutant can replace it."""
    return invariants.invariant_broken(table)


def _load_seat(seat: SeatSlots, doc: Any) -> None:
    if not isinstance(doc, dict):
        raise _shape("a seat is an object")
    seat.balance = _int(doc, "balance")
    seat.draft_pass, seat.draft_dp = _pair(doc, "draft")
    seat.pass_, seat.dp = _pair(doc, "contracts")
    sealed = doc.get("sealed")
    if not isinstance(sealed, bool):
        raise _shape("sealed is true or false")
    seat.sealed = sealed
    ledger = doc.get("ledger")
    if not isinstance(ledger, list):
        raise _shape("ledger is a list")
    seat.ledger = [entry_from_document(e) for e in ledger]


def loads(data: bytes | str) -> Table:
    """A table from the text of its canonical document; raises ``BadState`` (a member named
    twice in one object is refused, not read as its last value)."""
    try:
        doc = strictjson.loads(data)
    except strictjson.DuplicateMember as error:
        raise BadState(Invariant.DUPLICATE_MEMBER, error.text) from None
    except strictjson.StrictJSONError as error:
        raise BadState(Invariant.NOT_JSON, f"not JSON: {error.text}") from None
    return from_document(doc)
