"""The canonical JSON form of a table: sorted keys, no spaces, integers only (no floats).

``to_document`` and ``from_document`` round-trip exactly; ``dumps`` gives the canonical bytes
and ``state_hash`` their SHA-256 in hex. Every field is documented in ``spec/RULES.md``
("Canonical state").
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pointline.kernel.errors import BadState, MalformedAction
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
from pointline.kernel.table import Ending, Table, _Seat
from pointline.kernel.values import (
    HAND_LIMIT,
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

STATE_VERSION = 1


def entry_document(entry: Entry) -> dict[str, Any]:
    """One ledger entry as a JSON object with a ``type`` field."""
    if isinstance(entry, Contracted):
        return {
            "type": "contracted",
            "hand": entry.hand,
            "pass": entry.pass_amount,
            "dont_pass": entry.dont_pass_amount,
        }
    if isinstance(entry, ContractChanged):
        return {
            "type": "contract_changed",
            "hand": entry.hand,
            "throw": entry.throw,
            "line": entry.line.value,
            "before": entry.before,
            "after": entry.after,
        }
    if isinstance(entry, ThrowSeen):
        return {
            "type": "throw",
            "hand": entry.hand,
            "throw": entry.throw,
            "die1": entry.die1,
            "die2": entry.die2,
            "total": entry.total,
            "phase": entry.phase.value,
            "point": entry.point,
        }
    if isinstance(entry, Settled):
        return {
            "type": "settled",
            "hand": entry.hand,
            "throw": entry.throw,
            "line": entry.line.value,
            "contract": entry.contract,
            "outcome": entry.outcome.value,
            "returned": entry.returned,
            "net": entry.net,
        }
    if isinstance(entry, Refunded):
        return {
            "type": "refunded",
            "hand": entry.hand,
            "throw": entry.throw,
            "amount": entry.amount,
        }
    return {
        "type": "voided",
        "hand": entry.hand,
        "line": entry.line.value,
        "amount": entry.amount,
        "reason": entry.reason.value,
    }


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


def dumps(document: dict[str, Any]) -> bytes:
    """Canonical bytes: UTF-8 JSON, keys sorted, separators ``,`` and ``:``, no spaces."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def state_bytes(table: Table) -> bytes:
    return dumps(to_document(table))


def state_hash(table: Table) -> str:
    """SHA-256 of the canonical bytes, lowercase hex."""
    return hashlib.sha256(state_bytes(table)).hexdigest()


# ---------------------------------------------------------------------- reading back
def _int(doc: Any, key: str, low: int = 0, high: int = 1 << 31) -> int:
    value = doc.get(key) if isinstance(doc, dict) else None
    if type(value) is not int or not low <= value <= high:
        raise BadState("bad_state", f"{key} must be an integer {low}..{high}, not {value!r}")
    return value


def _opt_int(doc: dict[str, Any], key: str) -> int | None:
    if key not in doc:
        raise BadState("bad_state", f"missing {key}")
    return None if doc[key] is None else _int(doc, key)


def _enum(cls: Any, value: Any, what: str) -> Any:
    try:
        return cls(value)
    except ValueError:
        raise BadState("bad_state", f"bad {what}: {value!r}") from None


def _pair(doc: Any, key: str) -> tuple[int, int]:
    inner = doc.get(key) if isinstance(doc, dict) else None
    if not isinstance(inner, dict) or set(inner) != {"pass", "dont_pass"}:
        raise BadState("bad_state", f"{key} names exactly pass and dont_pass")
    return _int(inner, "pass"), _int(inner, "dont_pass")


def entry_from_document(doc: Any) -> Entry:
    if not isinstance(doc, dict):
        raise BadState("bad_state", "a ledger entry is an object")
    kind = doc.get("type")
    if kind == "contracted":
        return Contracted(_int(doc, "hand"), _int(doc, "pass"), _int(doc, "dont_pass"))
    if kind == "contract_changed":
        return ContractChanged(
            _int(doc, "hand"),
            _int(doc, "throw"),
            _enum(Line, doc.get("line"), "line"),
            _int(doc, "before"),
            _int(doc, "after"),
        )
    if kind == "throw":
        return ThrowSeen(
            _int(doc, "hand"),
            _int(doc, "throw"),
            _int(doc, "die1", 1, 6),
            _int(doc, "die2", 1, 6),
            _int(doc, "total", 2, 12),
            _enum(Phase, doc.get("phase"), "phase"),
            _opt_int(doc, "point"),
        )
    if kind == "settled":
        return Settled(
            _int(doc, "hand"),
            _int(doc, "throw"),
            _enum(Line, doc.get("line"), "line"),
            _int(doc, "contract"),
            _enum(Outcome, doc.get("outcome"), "outcome"),
            _int(doc, "returned"),
            _int(doc, "net", -(1 << 31)),
        )
    if kind == "refunded":
        return Refunded(_int(doc, "hand"), _int(doc, "throw"), _int(doc, "amount"))
    if kind == "voided":
        return Voided(
            _int(doc, "hand"),
            _enum(Line, doc.get("line"), "line"),
            _int(doc, "amount"),
            _enum(EndReason, doc.get("reason"), "reason"),
        )
    raise BadState("bad_state", f"unknown ledger entry type {kind!r}")


def from_document(doc: Any) -> Table:
    """Rebuild a table from its canonical document; raises ``BadState`` if it is not one."""
    if not isinstance(doc, dict) or type(doc.get("version")) is not int:
        raise BadState("bad_state", f"not a version {STATE_VERSION} state document")
    if doc["version"] != STATE_VERSION:
        raise BadState("bad_state", f"not a version {STATE_VERSION} state document")
    seats_doc = doc.get("seats")
    if not isinstance(seats_doc, list) or not 1 <= len(seats_doc) <= MAX_SEATS:
        raise BadState("bad_state", "seats is a list of 1 to 8 seats")
    table_id = doc.get("table_id")
    if not isinstance(table_id, str):
        raise BadState("bad_state", "table_id is a string")
    try:
        table = Table(len(seats_doc), table_id)
    except MalformedAction as error:  # a table id that is not Unicode text (a lone surrogate)
        raise BadState("bad_state", error.text) from None
    table._enter(_enum(Phase, doc.get("phase"), "phase"))
    table._point = _opt_int(doc, "point")
    if (table._point is not None or table.phase is Phase.POINT) and (
        table.phase is not Phase.POINT or table._point not in POINT_NUMBERS
    ):
        raise BadState("bad_state", "the point is 4, 5, 6, 8, 9 or 10 on the point, else null")
    table._throws = _int(doc, "throws", 0, 128)
    table._resolved = _int(doc, "hands_resolved", 0, 5)
    ending = doc.get("ending")
    if ending is not None:
        if not isinstance(ending, dict):
            raise BadState("bad_state", "ending is null or an object")
        table._ending = Ending(
            _enum(EndReason, ending.get("reason"), "reason"), _opt_int(ending, "seat")
        )
    for seat, sd in zip(table._seats, seats_doc, strict=True):
        _load_seat(seat, sd)
    problem = invariant_broken(table)
    if problem is not None:
        raise BadState("bad_state", f"impossible state: {problem}")
    # Compared as canonical bytes, not as Python values: ``true == 1`` and ``1.0 == 1`` in
    # Python, but a document holding them does not re-encode to itself (R28).
    try:
        same = dumps(to_document(table)) == dumps(doc)
    except (UnicodeEncodeError, TypeError, ValueError):
        same = False
    if not same:
        raise BadState("bad_state", "the document is not canonical (result or fields disagree)")
    return table


def invariant_broken(table: Table) -> str | None:
    """The first invariant of the z3 proofs (spec/proofs.py) that ``table`` breaks, in plain
    words, or None. ``from_document`` refuses such a state, as python-chess refuses an invalid
    position: a loaded table is always one that play could have reached the shape of."""
    phase, seats = table.phase, table._seats
    if table._resolved > table._throws:
        return f"{table._resolved} resolved hands after only {table._throws} throws"
    if (phase is Phase.COMPLETE) != (table._resolved == HANDS_PER_SESSION):
        return "the session is complete exactly when five hands are resolved"
    if (phase is Phase.ENDED) != (table._ending is not None):
        return "a session has an ending exactly when it ended without a result"
    ending = table._ending
    if ending is not None and ending.seat is not None and not 0 <= ending.seat < len(seats):
        return f"the ending names seat {ending.seat}, which this table does not have"
    if phase in (Phase.COME_OUT, Phase.POINT) and table._throws >= THROW_CAP:
        return "a live session has made fewer than 128 throws"
    for index, s in enumerate(seats):
        where = f"seat {index}"
        amounts = (s.draft_pass, s.draft_dp, s.pass_, s.dp)
        if any(amount % UNIT for amount in amounts):
            return f"{where}: every amount is a multiple of {UNIT}"
        if s.draft_pass + s.draft_dp > HAND_LIMIT or s.pass_ + s.dp > HAND_LIMIT:
            return f"{where}: at most {HAND_LIMIT} points a hand on the two lines together"
        if phase in (Phase.COMPLETE, Phase.ENDED):
            if any(amounts) or s.sealed:
                return f"{where}: nothing is on the lines once the session is over"
        elif phase is Phase.COME_OUT:
            if s.sealed and (s.draft_pass, s.draft_dp) != (s.pass_, s.dp):
                return f"{where}: a confirmed come-out draft equals its contracts"
            if not s.sealed and (s.pass_ or s.dp):
                return f"{where}: before Confirm the hand has no contracts"
            if not s.sealed and s.draft_pass + s.draft_dp > s.balance:
                return f"{where}: an open draft is never above the balance"
        else:  # the point phase
            if s.draft_pass != s.pass_ or s.draft_dp > s.dp:
                return f"{where}: on the point Pass is locked and Don't Pass only comes down"
            if s.sealed and s.draft_dp != s.dp:
                return f"{where}: a sealed roll leaves no reduction prepared"
        throws_seen = sum(1 for entry in s.ledger if isinstance(entry, ThrowSeen))
        if throws_seen != table._throws:
            return f"{where}: the ledger records {throws_seen} throws, the table {table._throws}"
        if replay_balance(s.ledger) != s.balance:
            return f"{where}: the balance {s.balance} is not what the ledger replays to"
    return None


def _load_seat(seat: _Seat, doc: Any) -> None:
    if not isinstance(doc, dict):
        raise BadState("bad_state", "a seat is an object")
    seat.balance = _int(doc, "balance")
    seat.draft_pass, seat.draft_dp = _pair(doc, "draft")
    seat.pass_, seat.dp = _pair(doc, "contracts")
    sealed = doc.get("sealed")
    if not isinstance(sealed, bool):
        raise BadState("bad_state", "sealed is true or false")
    seat.sealed = sealed
    ledger = doc.get("ledger")
    if not isinstance(ledger, list):
        raise BadState("bad_state", "ledger is a list")
    seat.ledger = [entry_from_document(e) for e in ledger]


def loads(data: bytes | str) -> Table:
    try:
        doc = json.loads(data)
    except ValueError as error:
        raise BadState("bad_state", f"not JSON: {error}") from None
    return from_document(doc)
