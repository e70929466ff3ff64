"""Protocol requests to kernel actions, and the names the protocol uses (standard library only).

Malformed values are passed on to the kernel untouched where the kernel checks them (a die of 7,
an amount of 15, seat 9, an unknown line), so the kernel's own checks decide the error code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pointline.conformance.errors import BadAction
from pointline.kernel import (
    Abort,
    Action,
    Allocate,
    Confirm,
    EndReason,
    Line,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    Throw,
)

__all__ = ["PROTOCOL", "PROTOCOLS", "BadAction", "action_from_json", "action_to_json"]

PROTOCOLS = (1, 2)
"""The adapter protocol versions (PROTOCOL.md): 2 adds ``load_state``; 1 is kept exactly."""
PROTOCOL = PROTOCOLS[-1]
"""The newest adapter protocol version, the one the runner asks for first."""

_SEAT_ONLY: dict[str, Callable[[Any], Action]] = {
    "reset": Reset,
    "confirm": Confirm,
    "reduce_dont_pass": ReduceDontPass,
    "remove_dont_pass": RemoveDontPass,
    "roll": Roll,
}
_LINES: dict[str, Line] = {line.value: line for line in Line}
_REASONS = {reason.value: reason for reason in EndReason}


def action_from_json(doc: Any) -> Action:
    """The kernel action a protocol ``action`` object stands for; raises ``BadAction``."""
    if not isinstance(doc, dict):
        raise BadAction("an action is a JSON object")
    # Fields pass to the kernel unchecked on purpose: the kernel's own validation answers them.
    fields: dict[str, Any] = doc

    def field(name: str) -> Any:
        return fields.get(name)

    kind = field("kind")
    if not isinstance(kind, str):
        raise BadAction("an action has a string kind")
    if kind in _SEAT_ONLY:
        return _SEAT_ONLY[kind](field("seat"))
    if kind == "allocate":
        line = field("line")
        named: Any = _LINES[line] if isinstance(line, str) and line in _LINES else line
        return Allocate(field("seat"), named, field("amount"))
    if kind == "throw":
        return Throw(field("die1"), field("die2"))
    if kind == "abort":
        reason = doc.get("reason")
        return Abort(
            _REASONS.get(reason, reason) if isinstance(reason, str) else None,  # type: ignore[arg-type]
            doc.get("seat"),
        )
    raise BadAction(f"unknown action kind {kind!r}")


def action_to_json(action: Action) -> dict[str, Any]:
    """The protocol ``action`` object for a kernel action (used by the generator)."""
    if isinstance(action, Allocate):
        return {
            "kind": "allocate",
            "seat": action.seat,
            "line": action.line.value,
            "amount": action.amount,
        }
    if isinstance(action, Throw):
        return {"kind": "throw", "die1": action.die1, "die2": action.die2}
    if isinstance(action, Abort):
        return {"kind": "abort", "reason": action.reason.value, "seat": action.seat}
    return {"kind": action.kind.value, "seat": action.seat}
