"""The canonical state bytes of a table, built incrementally (the reference adapter's speed-up).

Ledgers only grow, so each seat's serialised ledger is kept and extended; the rest of the
document is small. The bytes are exactly ``kernel.canonical.state_bytes`` (a test checks it).
"""

from __future__ import annotations

import hashlib

from pointline.kernel import STATE_VERSION, Table, entry_document
from pointline.kernel import canonical_text as _dumps

__all__ = ["StateHasher"]


class StateHasher:
    """Canonical bytes and SHA-256 of one table, caching each seat's serialised ledger."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._count = [0] * table.seat_count
        self._parts: list[list[str]] = [[] for _ in range(table.seat_count)]

    def state_bytes(self) -> bytes:
        t = self.table
        ending = t.ending
        result = t.result
        head = _dumps(
            {
                "ending": None
                if ending is None
                else {"reason": ending.reason.value, "seat": ending.seat},
                "hands_resolved": t.hands_resolved,
                "phase": t.phase.value,
                "point": t.point,
                "result": None
                if result is None
                else {"final": list(result.final), "ranks": list(result.ranks)},
            }
        )
        tail = _dumps({"table_id": t.table_id, "throws": t.throws, "version": STATE_VERSION})
        seats = []
        for i in range(t.seat_count):
            n = t.ledger_length(i)
            if n != self._count[i]:
                self._parts[i].extend(
                    _dumps(entry_document(e)) for e in t.ledger_since(i, self._count[i])
                )
                self._count[i] = n
            draft = t.draft(i)
            contracts = t.contracts(i)
            sealed = "true" if t.is_sealed(i) else "false"
            seats.append(
                f'{{"balance":{t.balance(i)},"contracts":{{"dont_pass":'
                f'{contracts.dont_pass_amount},"pass":{contracts.pass_amount}}},'
                f'"draft":{{"dont_pass":{draft.dont_pass_amount},"pass":{draft.pass_amount}}},'
                f'"ledger":[{",".join(self._parts[i])}],"sealed":{sealed}}}'
            )
        return (head[:-1] + ',"seats":[' + ",".join(seats) + "]," + tail[1:]).encode("utf-8")

    def state_hash(self) -> str:
        return hashlib.sha256(self.state_bytes()).hexdigest()
