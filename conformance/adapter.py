"""The reference adapter: the protocol of PROTOCOL.md spoken over stdio by the Python kernel.

``python -m pointline.conformance.adapter`` reads one JSON request per line on stdin and writes
one JSON response per line on stdout; it logs only to stderr. Standard library and ``kernel`` only.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import IO, Any

from pointline import kernel
from pointline.conformance.codec import PROTOCOL, PROTOCOLS, action_from_json
from pointline.conformance.errors import BadAction, ConformanceCode, ProtocolError
from pointline.conformance.fasthash import StateHasher
from pointline.kernel import (
    BadState,
    DiceInputError,
    Invariant,
    MalformedAction,
    PointlineError,
    Table,
    canonical_text,
    from_document,
    to_document,
)

__all__ = [
    "IMPLEMENTATION",
    "Adapter",
    "ProtocolError",
    "Twice",
    "has_twice",
    "main",
    "response_line",
    "serve",
]

IMPLEMENTATION = "pointline-reference"
LANGUAGE = "python"
VERSION = "0.1.0"
REPLIES = ("hash", "state", "none")


class Twice(dict[str, Any]):
    """A JSON object of a request line that names a member twice (PROTOCOL.md, "Duplicate
    member names"): kept, with the last value of each name, so the request can be refused
    by where the object is."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    doc = dict(pairs)
    return Twice(doc) if len(doc) != len(pairs) else doc


def has_twice(value: Any) -> bool:
    """Whether ``value`` holds, at any depth, an object that names a member twice."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, Twice):
            return True
        if isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return False


def _hex(value: Any, what: str) -> bytes:
    if not isinstance(value, str):
        raise DiceInputError(f"{what} is a hex string")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise DiceInputError(f"{what} is not hex") from None


def _error(code: str, cls: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": str(code), "class": cls, "message": message}}


_NOT_A_REQUEST = ConformanceCode.BAD_REQUEST


class Adapter:
    """One adapter session: at most one table at a time, plus the stateless dice requests."""

    def __init__(self, name: str = IMPLEMENTATION) -> None:
        self.name = name
        self.table: Table | None = None
        self.hasher: StateHasher | None = None
        self.protocol = PROTOCOL
        """The version ``hello`` agreed on (before any hello: the newest)."""
        self.ops: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "hello": self.hello,
            "new_table": self.new_table,
            "apply": self.apply,
            "state": self.state,
            "derive_dice": self.derive_dice,
            "commitment": self.commitment,
            "verify_commitment": self.verify_commitment,
            "load_state": self.load_state,
        }
        self.since: dict[str, int] = {"load_state": 2}
        """Ops that a version-1 session does not have (there they are unknown ops)."""

    # ------------------------------------------------------------------ plumbing
    def handle(self, request: Any) -> dict[str, Any]:
        rid = request.get("id") if isinstance(request, dict) else None
        try:
            if not isinstance(request, dict):
                raise ProtocolError("a request is a JSON object")
            name = request.get("op")
            op = self.ops.get(name)  # type: ignore[arg-type]
            if op is not None and self.protocol < self.since.get(name, 1):  # type: ignore[arg-type]
                op = None
            if op is None:
                raise ProtocolError(f"unknown op {request.get('op')!r}")
            if isinstance(request, Twice) or any(
                has_twice(value) for key, value in request.items() if key not in ("action", "state")
            ):
                raise ProtocolError("the request names a member twice")
            response = op(request)
        except ProtocolError as error:
            response = _error(str(error.code), "protocol", error.text)
        response["id"] = rid
        return response

    @staticmethod
    def _check_reply(request: dict[str, Any]) -> None:
        """Refuse a bad ``reply`` before anything is applied: a refused request changes nothing."""
        reply = request.get("reply", "hash")
        if not isinstance(reply, str) or reply not in REPLIES:
            raise ProtocolError("reply is hash, state or none")

    def _reply(self, request: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
        self._check_reply(request)
        reply = request.get("reply", "hash")
        assert self.table is not None and self.hasher is not None
        if reply == "hash":
            response["hash"] = self.current_hash()
        elif reply == "state":
            response["hash"] = self.current_hash()
            response["state"] = self.current_state()
        return response

    def parse(self, line: str) -> Any:
        """One request line as JSON values (``-0`` is the integer 0, ``1e1`` the float 10.0);
        an object naming a member twice is kept as a ``Twice``. Raises ``ValueError`` for a
        line that is not JSON, nesting too deep for the parser included."""
        try:
            return json.loads(line, object_pairs_hook=_pairs)
        except RecursionError:
            raise ValueError("the request nests too deep") from None

    def current_hash(self) -> str:
        """SHA-256 (hex) of the canonical bytes of the table's state."""
        assert self.hasher is not None
        return self.hasher.state_hash()

    def current_state(self) -> dict[str, Any]:
        """The table's canonical state document."""
        assert self.table is not None
        return to_document(self.table)

    def _table(self) -> Table:
        if self.table is None:
            raise ProtocolError("no table: send new_table first")
        return self.table

    # ------------------------------------------------------------------ ops
    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        version = request.get("protocol")
        if type(version) is not int or version not in PROTOCOLS:  # JSON true is never 1
            raise ProtocolError(f"this adapter speaks protocols {', '.join(map(str, PROTOCOLS))}")
        self.protocol = version
        return {
            "ok": True,
            "protocol": version,
            "implementation": self.name,
            "language": LANGUAGE,
            "version": VERSION,
        }

    def new_table(self, request: dict[str, Any]) -> dict[str, Any]:
        self._check_reply(request)
        try:
            table = self.make_table(request.get("seats"), request.get("table_id"))
        except PointlineError as error:
            self.table = self.hasher = None
            return _error(str(error.code), "malformed", error.text)
        self.table = table
        self.hasher = StateHasher(table)
        return self._reply(request, {"ok": True})

    def make_table(self, seats: Any, table_id: Any) -> Table:
        return Table(seats, table_id)

    def load_state(self, request: dict[str, Any]) -> dict[str, Any]:
        """Protocol 2: the table becomes the position ``state`` describes, if it is valid."""
        self._check_reply(request)
        try:
            state = request.get("state")
            if has_twice(state):
                raise BadState(Invariant.DUPLICATE_MEMBER, "an object names a member twice")
            table = self.load_table(state)
        except BadState as error:
            self.table = self.hasher = None
            return self.bad_state(error)
        self.table = table
        self.hasher = StateHasher(table)
        return self._reply(request, {"ok": True})

    def load_table(self, doc: Any) -> Table:
        return from_document(doc)

    def bad_state(self, error: BadState) -> dict[str, Any]:
        """A refused ``load_state``: ``bad_state`` with the sub-code of the first check failed."""
        return {
            "ok": False,
            "error": {
                "code": str(error.code),
                "class": "malformed",
                "invariant": str(error.invariant),
                "message": error.text,
            },
        }

    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        table = self._table()
        self._check_reply(request)
        try:
            doc = request.get("action")
            if has_twice(doc):
                raise BadAction("the action names a member twice")
            action = action_from_json(doc)
            self.push(table, action)
        except BadAction as error:
            return self._reply(request, _error(str(error.code), "malformed", error.text))
        except PointlineError as error:
            cls = "malformed" if isinstance(error, MalformedAction) else "illegal"
            return self._reply(
                request,
                _error(str(error.code), self.error_class(str(error.code), cls), error.text),
            )
        return self._reply(request, {"ok": True})

    def error_class(self, code: str, cls: str) -> str:
        return cls

    def push(self, table: Table, action: kernel.Action) -> None:
        table.push(action)

    def state(self, request: dict[str, Any]) -> dict[str, Any]:
        self._table()
        return self._reply({"reply": "state"}, {"ok": True})

    def derive_dice(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            nonces = request.get("nonces")
            if not isinstance(nonces, list):
                raise DiceInputError("nonces is a list")
            raw = [_hex(n, "a nonce") for n in nonces]
            seed = self.dice_seed(
                request.get("table_id"),  # type: ignore[arg-type]
                request.get("throw_index"),  # type: ignore[arg-type]
                raw,
                request.get("version"),  # type: ignore[arg-type]
            )
        except DiceInputError as error:
            return _error(str(error.code), "malformed", error.text)
        die1, die2, rejected = self.dice_from_seed(seed)
        return {"ok": True, "seed": seed.hex(), "die1": die1, "die2": die2, "rejected": rejected}

    def dice_seed(self, table_id: str, index: int, nonces: list[bytes], version: int) -> bytes:
        return kernel.dice_seed(table_id, index, nonces, version)

    def dice_from_seed(self, seed: bytes) -> tuple[int, int, int]:
        return kernel.dice_from_seed(seed)

    def commitment(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            digest = kernel.commitment(
                request.get("table_id"),  # type: ignore[arg-type]
                request.get("throw_index"),  # type: ignore[arg-type]
                request.get("seat"),  # type: ignore[arg-type]
                _hex(request.get("nonce"), "the nonce"),
                _hex(request.get("choices"), "the choices"),
                request.get("version"),  # type: ignore[arg-type]
            )
        except DiceInputError as error:
            return _error(str(error.code), "malformed", error.text)
        return {"ok": True, "commitment": digest.hex()}

    def verify_commitment(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            digest = _hex(request.get("commitment"), "the commitment")
            nonce = _hex(request.get("nonce"), "the nonce")
            choices = _hex(request.get("choices"), "the choices")
        except DiceInputError:
            return {"ok": True, "valid": False}
        valid = self.verify(
            digest,
            request.get("table_id"),
            request.get("throw_index"),
            request.get("seat"),
            nonce,
            choices,
            request.get("version"),
        )
        return {"ok": True, "valid": valid}

    def verify(self, digest: bytes, *fields: Any) -> bool:
        return kernel.verify_commitment(digest, *fields)


def response_line(response: dict[str, Any]) -> str:
    """One response as a line of JSON: ``id`` first, a ``state`` in canonical key order."""
    line = {"id": response.get("id"), **{k: v for k, v in response.items() if k != "id"}}
    if isinstance(line.get("state"), dict):
        line["state"] = json.loads(canonical_text(line["state"]))
    return json.dumps(line, separators=(",", ":"), ensure_ascii=False)


def serve(adapter: Adapter, stdin: IO[str], stdout: IO[str]) -> None:
    """Answer every request line until end of input."""
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = adapter.parse(line)
        except ValueError:
            response = _error(_NOT_A_REQUEST, "protocol", "a request is one line of JSON")
            response["id"] = None
        else:
            try:
                response = adapter.handle(request)
            except Exception as error:  # never die on a request: answer it and go on
                response = _error(
                    ConformanceCode.BAD_REQUEST, "protocol", f"cannot handle the request: {error}"
                )
                response["id"] = request.get("id") if isinstance(request, dict) else None
        stdout.write(response_line(response) + "\n")
        stdout.flush()


def main(adapter: Adapter | None = None) -> None:
    sys.stdin.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    serve(adapter or Adapter(), sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
