"""The harness's stdio interface, shared by the reference adapters (``HARNESS.md``).

One JSON object per line, UTF-8, each way. These helpers turn a ``Peer``'s state and events
into the lines a client writes, so the two reference adapters say exactly the same things.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from pointline.kernel import Phase
from pointline.net.protocol._peer import (
    Peer,
    ReceiptsIncomplete,
    ReceiptsMatched,
    ReceiptsMismatch,
    RoundOpened,
    SessionEnded,
    Thrown,
)

__all__ = ["INTERFACE", "emit", "lines_for", "view"]

INTERFACE = 1


def emit(doc: dict[str, Any]) -> None:
    """Write one line to the harness (stdout) and flush it."""
    sys.stdout.write(json.dumps(doc, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def view(peer: Peer, throw: int, seat: int | None = None) -> dict[str, Any]:
    """The ``round`` line: what ``seat`` (default: the peer's own) has when throw ``throw``
    opens, in this peer's reconstruction of the table."""
    table = peer.table
    seat = peer.seat if seat is None else seat
    contracts = table.contracts(seat)
    return {
        "op": "round",
        "throw": throw,
        "phase": "come_out" if table.phase is Phase.COME_OUT else "point",
        "balance": table.balance(seat),
        "pass": contracts.pass_amount,
        "dont_pass": contracts.dont_pass_amount,
    }


def lines_for(peer: Peer, event: object, transcript: str | None) -> list[dict[str, Any]]:
    """The lines one protocol event gives (``round``, ``throw``, ``complete``, ``ended``)."""
    if isinstance(event, RoundOpened):
        return [view(peer, event.throw)]
    if isinstance(event, Thrown):
        return [{"op": "throw", "throw": event.throw, "dice": [event.die1, event.die2]}]
    if isinstance(event, SessionEnded):
        return [
            {
                "op": "ended",
                "reason": event.reason.value,
                "seat": event.seat,
                "reporter": event.reporter,
                "proven": event.proven,
                "accused": getattr(event, "accused", None),
                "transcript": transcript,
            }
        ]
    if isinstance(event, ReceiptsMatched | ReceiptsMismatch | ReceiptsIncomplete):
        result = peer.result
        assert result is not None
        status = peer.receipt_status
        return [
            {
                "op": "complete",
                "final": list(result.final),
                "ranks": list(result.ranks),
                "receipts": status.value if status is not None else None,
                "transcript": transcript,
            }
        ]
    return []
