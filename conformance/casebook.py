"""Building conformance cases against the reference adapter (used by the generator only).

A ``Case`` drives an in-process reference ``Adapter`` and records every request together
with the response it must get: the state hash (a 16-hex-digit prefix) after every step, the
full canonical state where a case turns on it, or the error code and class.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from pointline.conformance.adapter import Adapter
from pointline.conformance.codec import action_from_json, action_to_json
from pointline.kernel import (
    TRANSITIONS,
    Abort,
    Action,
    Allocate,
    Choice,
    Confirm,
    EndReason,
    Line,
    Phase,
    PointlineError,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    Table,
    Throw,
    canonical_bytes,
    canonical_text,
    plan,
)

__all__ = [
    "COVERAGE",
    "FULL_STATE_LIMIT",
    "HASH_DIGITS",
    "Case",
    "Coverage",
    "DiceCase",
    "canonical",
    "content_hash",
    "render_file",
    "split_file",
    "summary",
]

REPLY_OPS = ("new_table", "apply", "load_state")
"""Requests that take ``reply`` (PROTOCOL.md)."""

KERNEL_ACTIONS = (Allocate, Reset, Confirm, ReduceDontPass, RemoveDontPass, Roll, Throw, Abort)

HASH_DIGITS = 16
"""Fixtures keep the first 16 hex digits of each state's SHA-256 (the full hash is answered)."""

FORMAT = 1
FULL_STATE_LIMIT = 3000
"""Where a case turns on the state, states up to this many canonical bytes are kept whole;
larger ones keep a summary (every field but the ledgers) beside the hash."""


def summary(state: dict[str, Any]) -> dict[str, Any]:
    """The canonical state without the seats' ledgers (their lengths instead)."""
    out = {k: v for k, v in state.items() if k != "seats"}
    out["seats"] = [
        dict({k: v for k, v in seat.items() if k != "ledger"}, ledger_length=len(seat["ledger"]))
        for seat in state["seats"]
    ]
    return out


ROW_INDEX = {id(row): i for i, row in enumerate(TRANSITIONS)}

# A deterministic pair of dice for every total (and every pair, for the totals topic).
DICE_FOR = {2: (1, 1), 3: (1, 2), 4: (2, 2), 5: (1, 4), 6: (2, 4), 7: (3, 4)}
DICE_FOR.update({8: (3, 5), 9: (4, 5), 10: (4, 6), 11: (5, 6), 12: (6, 6)})
ALL_PAIRS = tuple((a, b) for a in range(1, 7) for b in range(1, 7))


def rule_key(rule: str) -> int:
    return int(rule[1:])


class Coverage:
    """Which rows of the transition table and which error codes the cases reach."""

    def __init__(self) -> None:
        self.rows: dict[int, int] = {}
        self.codes: dict[str, int] = {}

    def row(self, index: int) -> None:
        self.rows[index] = self.rows.get(index, 0) + 1

    def code(self, code: str) -> None:
        self.codes[code] = self.codes.get(code, 0) + 1


COVERAGE = Coverage()


class _Recorded:
    """What every case records: its id, words, rules and steps, and its fixture document."""

    def __init__(self, case_id: str, description: str, rules: Iterable[str]) -> None:
        self.id = case_id
        self.description = description
        self.rules = set(rules)
        self.adapter = Adapter()
        self.steps: list[dict[str, Any]] = []

    def document(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "description": self.description,
            "rules": sorted(self.rules, key=rule_key),
            "steps": self.steps,
        }


class Case(_Recorded):
    """One case: a new table, then steps, each with its expected response."""

    def __init__(
        self,
        case_id: str,
        description: str,
        rules: Iterable[str] = (),
        seats: Any = 1,
        table_id: Any = "t",
        full_start: bool = False,
        start: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(case_id, description, rules)
        first = start or {"op": "new_table", "seats": seats, "table_id": table_id}
        self.request(first, full=full_start)

    # ------------------------------------------------------------------ reading
    @property
    def table(self) -> Table:
        assert self.adapter.table is not None
        return self.adapter.table

    # ------------------------------------------------------------------ recording
    def request(self, request: dict[str, Any], full: bool = False) -> dict[str, Any]:
        """Send ``request`` and record it with the answer it must get. A request that names its
        own ``reply`` keeps it (the runner sends it as it is); otherwise the runner asks for the
        state where ``full``, else for the hash."""
        own_reply = "reply" in request
        if request["op"] in REPLY_OPS and not own_reply:
            request = dict(request, reply="state" if full else "hash")
        response = self.adapter.handle(request)
        step = {k: v for k, v in request.items() if k != "op" or v != "apply"}
        if not own_reply:
            step.pop("reply", None)
        step["expect"] = self._expect(request, response)
        self.steps.append(step)
        return response

    def raw(self, text: str) -> dict[str, Any]:
        """Send a request line exactly as written (number tokens such as ``1e1`` or ``-0``
        that a JSON encoder would not write back as they are); the runner adds the ``id``."""
        assert text.startswith("{") and not text.startswith("{}"), text
        request = self.adapter.parse(text)
        response = self.adapter.handle(request)
        self.steps.append({"raw": text, "expect": self._expect(request, response)})
        return response

    def _expect(self, request: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
        expect: dict[str, Any] = {}
        for key, value in response.items():
            if key in ("id", "ok"):
                continue
            if key == "hash":
                expect[key] = value[:HASH_DIGITS]
            elif key == "error":
                expect[key] = _error_expect(value)
                COVERAGE.code(value["code"])
            elif key == "state":
                if len(canonical(value)) <= FULL_STATE_LIMIT:
                    expect[key] = value
                else:
                    expect["summary"] = summary(value)
            else:
                expect[key] = value
        if request.get("reply") == "none" and response.get("ok") is not None:
            expect["absent"] = ["hash", "state"]
        return expect

    def do(self, action: Any, full: bool = False) -> dict[str, Any]:
        """Apply an action (a kernel action or a raw protocol object, malformed or not)."""
        doc = action_to_json(action) if isinstance(action, KERNEL_ACTIONS) else action
        table = self.adapter.table
        if table is not None:
            try:
                kernel_action = action_from_json(doc)
                row = table.row(kernel_action)
            except (PointlineError, Exception):
                row = None
            if row is not None:
                COVERAGE.row(ROW_INDEX[id(row)])
                self.rules.update(row.rules)
        return self.request({"op": "apply", "action": doc}, full=full)

    def ok(self, action: Action, full: bool = False) -> None:
        response = self.do(action, full=full)
        assert response["ok"], (self.id, action, response)

    def seal(self, seat: int, pass_amount: int, dont_pass: int) -> None:
        """Seal a choice for one seat through the actions a player would take."""
        for action in plan(self.table, seat, Choice(pass_amount, dont_pass)):
            self.ok(action)

    def seal_all(self, choices: Sequence[tuple[int, int]]) -> None:
        for seat, (p, d) in enumerate(choices):
            self.seal(seat, p, d)

    def roll_all(self) -> None:
        """Every awaiting seat seals what it has prepared (Roll; Confirm at the come-out)."""
        for seat in self.table.awaiting:
            self.ok(Roll(seat) if self.table.phase is Phase.POINT else Confirm(seat))

    def _keep(self, seat: int) -> tuple[int, int]:
        c = self.table.contracts(seat)
        return c.pass_amount, c.dont_pass_amount

    def throw(self, total: int | tuple[int, int], full: bool = False) -> dict[str, Any]:
        d1, d2 = DICE_FOR[total] if isinstance(total, int) else total
        return self.do(Throw(d1, d2), full=full)

    def seal_and_throw(self, total: int | tuple[int, int], full: bool = False) -> None:
        """Every awaiting seat seals what it has (come-out: nothing more), then the dice."""
        for seat in self.table.awaiting:
            self.seal(seat, *self._keep(seat))
        self.throw(total, full=full)

    def abort(self, reason: EndReason, seat: int | None = None, full: bool = True) -> None:
        self.do(Abort(reason, seat), full=full)

    def allocate(self, seat: int, line: Line, amount: int = 10, full: bool = False) -> None:
        self.do(Allocate(seat, line, amount), full=full)


class DiceCase(_Recorded):
    """A case of stateless requests (dice derivation, commitments): no table involved."""

    def request(self, request: dict[str, Any]) -> dict[str, Any]:
        response = self.adapter.handle(request)
        expect = {
            k: (_error_expect(v) if k == "error" else v)
            for k, v in response.items()
            if k not in ("id", "ok")
        }
        if "error" in expect:
            COVERAGE.code(expect["error"]["code"])
        self.steps.append(dict(request, expect=expect))
        return response

    def raw(self, text: str) -> dict[str, Any]:
        """Send a request line exactly as written (number tokens such as ``1.0`` or ``1e0``, a
        lone surrogate escape); the runner adds the ``id``."""
        assert text.startswith("{") and not text.startswith("{}"), text
        response = self.adapter.handle(self.adapter.parse(text))
        expect = {
            k: (_error_expect(v) if k == "error" else v)
            for k, v in response.items()
            if k not in ("id", "ok")
        }
        self.steps.append({"raw": text, "expect": expect})
        return response


def _error_expect(error: dict[str, Any]) -> dict[str, Any]:
    """What a refusal must match: its code and class, and a ``bad_state``'s sub-code."""
    expect = {"code": error["code"], "class": error["class"]}
    if "invariant" in error:
        expect["invariant"] = error["invariant"]
    return expect


canonical = canonical_bytes
"""A document's canonical bytes (the kernel's one encoder)."""


def content_hash(body: bytes) -> str:
    """SHA-256 of a fixture file's bytes after its first (header) line: every case, as written."""
    return hashlib.sha256(body).hexdigest()


def split_file(data: bytes) -> tuple[bytes, bytes]:
    """A fixture file's header line and the rest (the cases)."""
    head, _, body = data.partition(b"\n")
    return head, body


def render_file(
    topic: str, description: str, cases: list[dict[str, Any]], protocol: int = 1
) -> bytes:
    """The fixture file: a header line, then one case per line (compact, diff-friendly)."""
    ids = [c["id"] for c in cases]
    if len(set(ids)) != len(ids):
        raise AssertionError(
            f"duplicate case ids in {topic}: {sorted(i for i in set(ids) if ids.count(i) > 1)[:5]}"
        )
    lines = []
    for i, case in enumerate(cases):
        sep = "," if i < len(cases) - 1 else ""
        lines.append(canonical_text(case) + sep)
    body = ("\n".join(lines) + "\n]}\n").encode("utf-8")
    header = {
        "format": FORMAT,
        "topic": topic,
        "description": description,
        "content_hash": content_hash(body),
        "case_count": len(cases),
        "step_count": sum(len(c["steps"]) for c in cases),
        "hash_digits": HASH_DIGITS,
        "protocol": protocol,
    }
    head = json.dumps(header, sort_keys=True, ensure_ascii=False)[:-1] + ', "cases": ['
    return head.encode("utf-8") + b"\n" + body
