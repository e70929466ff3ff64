"""The transcript: an append-only, hash-chained log of one online session, saved as JSON lines.

Each line is one record ``{"index", "prev", "kind", "body", "hash"}``: ``index`` counts from 0,
``prev`` is the previous record's ``hash`` (64 zeros for the first), and

    hash = SHA-256(TRANSCRIPT_DOMAIN || canonical JSON of {"index","prev","kind","body"})

Record kinds: ``header`` (always first: protocol version, table id, roster with public keys,
my seat, timeouts, start time), ``sent`` / ``received`` (``{"from": seat, "at": time,
"message": the signed frame's canonical JSON text}``), ``rejected`` (a received frame that
ended the session: ``{"from", "at", "error", "frame"}``), ``throw`` (the dice this peer
derived), ``outcome`` (``complete`` with final points and ranks, or ``ended`` with reason and
seat) and ``receipts`` (how the receipt exchange ended).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from enum import Enum
from typing import Any, NamedTuple

from pointline.net.errors import MalformedMessage, TranscriptError
from pointline.net.protocol._messages import canonical_json, strict_loads

__all__ = [
    "GENESIS",
    "JSON_WHITESPACE",
    "MAX_REJECTED_CHARS",
    "TRANSCRIPT_DOMAIN",
    "Record",
    "RecordKind",
    "Transcript",
    "check_chain",
    "lines_text",
    "parse_records",
    "record_hash",
]

TRANSCRIPT_DOMAIN = b"pointline/transcript/v1\x00"
GENESIS = "0" * 64
MAX_REJECTED_CHARS = 4096
JSON_WHITESPACE = " \t\r"
"""What a blank line may hold (JSON's whitespace but the line feed that ends it): a line of
any other space character (U+00A0, U+2028, U+3000) is a record line, and not JSON."""


_SCALARS = frozenset({int, float, str, bool, type(None)})
_INF = float("inf")
_json_string = json.encoder.encode_basestring  # JSON's own string writer


def _flat_copy(body: Mapping[str, Any]) -> dict[str, Any] | None:
    """A copy of ``body`` sharing nothing mutable, when each value is a JSON scalar or a list of
    them; else None (the caller re-reads the canonical text)."""
    copy: dict[str, Any] = {}
    for name, value in body.items():
        if type(value) in _SCALARS:
            copy[name] = value
        elif type(value) is list and all(type(v) in _SCALARS for v in value):
            copy[name] = list(value)
        else:
            return None
    return copy


class RecordKind(Enum):
    HEADER = "header"
    SENT = "sent"
    RECEIVED = "received"
    REJECTED = "rejected"
    THROW = "throw"
    OUTCOME = "outcome"
    RECEIPTS = "receipts"


def record_hash(index: int, prev: str, kind: str, body: Mapping[str, Any]) -> str:
    """The chain hash of one record (see the module docstring)."""
    return _chain_hash(index, prev, kind, canonical_json(body).decode("utf-8"))[0]


_HASHED_HEAD = TRANSCRIPT_DOMAIN.decode("ascii") + '{"body":'


def _chain_hash(index: int, prev: str, kind: str, body_text: str) -> tuple[str, str]:
    """``record_hash`` from the body's canonical JSON text, without encoding the body again,
    and the rest of the record's line after the hash.

    The keys of a record sorted are body, index, kind, prev (and hash, between body and index,
    in the line), so the canonical JSON of the whole record is the body's text spliced into a
    fixed frame (``kind`` is a record kind's name and ``prev`` hex digits: JSON strings that
    need no escape).
    """
    tail = f',"index":{index},"kind":"{kind}","prev":"{prev}"}}'
    digest = hashlib.sha256((_HASHED_HEAD + body_text + tail).encode("utf-8")).hexdigest()
    return digest, tail


class Record(NamedTuple):
    """One transcript record (see the module docstring), and its canonical JSON ``line`` when
    it was made with its hash (else computed). An immutable named tuple: a session makes one
    per message, and a tuple is made several times faster than a frozen dataclass. Two records
    are equal when their index, prev, kind, body and hash are (whatever their line)."""

    index: int  # type: ignore[assignment]  # the record's index, not tuple.index
    prev: str
    kind: RecordKind
    body: Mapping[str, Any]
    hash: str
    line: str = ""

    def __eq__(self, other: object) -> bool:
        return type(other) is Record and self[:5] == other[:5]

    def __ne__(self, other: object) -> bool:
        return not self == other

    def to_document(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "prev": self.prev,
            "kind": self.kind.value,
            "body": dict(self.body),
            "hash": self.hash,
        }

    def to_line(self) -> str:
        return self.line or canonical_json(self.to_document()).decode("utf-8")


_new_record = tuple.__new__


def _record(
    index: int, prev: str, kind: RecordKind, body: Mapping[str, Any], body_text: str
) -> Record:
    """A record, its hash and its line from the body's canonical JSON, encoded once: the line's
    keys sorted are body, hash, index, kind, prev, so it is that text spliced into a frame."""
    digest, tail = _chain_hash(index, prev, kind._value_, body_text)
    line = f'{{"body":{body_text},"hash":"{digest}"{tail}'
    return _new_record(Record, (index, prev, kind, body, digest, line))


class Transcript:
    """Records in the order this peer saw them; ``append`` is the only way to add one.

    No file I/O happens here (the protocol core is sans-IO): ``drain()`` hands out the records
    appended since the last call, for a ``TranscriptWriter`` to put on disk; ``save(path)``
    writes the whole log atomically (a temporary file, fsync, then rename) for tools and tests.
    """

    __slots__ = ("_fresh", "_records")

    def __init__(self, header: Mapping[str, Any]) -> None:
        self._records: list[Record] = []
        self._fresh: list[Record] = []
        self.append(RecordKind.HEADER, header)

    # ---------------------------------------------------------------------- reading
    @property
    def records(self) -> tuple[Record, ...]:
        return tuple(self._records)

    @property
    def header(self) -> Mapping[str, Any]:
        return self._records[0].body

    @property
    def head(self) -> str:
        """The hash of the last record."""
        return self._records[-1].hash

    def __len__(self) -> int:
        return len(self._records)

    def __iter__(self) -> Iterator[Record]:
        return iter(tuple(self._records))

    def lines(self) -> list[str]:
        return [r.to_line() for r in self._records]

    # ---------------------------------------------------------------------- writing
    def append(self, kind: RecordKind, body: Mapping[str, Any]) -> Record:
        text = canonical_json(body)
        # a private JSON copy, so later edits can't leak in: copied directly when every value
        # is a number, string or null or a list of those (the sent, received and throw
        # records), else a re-read of the text
        frozen = _flat_copy(body)
        if frozen is None:
            frozen = json.loads(text)
        return self._add(kind, frozen, text.decode("utf-8"))

    def append_message(self, kind: RecordKind, sender: int | None, at: float, text: str) -> Record:
        """``append(kind, {"from": sender, "at": at, "message": text})`` for a sent or received
        message, its canonical JSON written directly: the keys in order, ``at`` as JSON writes a
        number, ``text`` as a JSON string (the same bytes; one per message of every throw)."""
        if (
            type(at) not in (int, float)
            or at != at
            or at in (_INF, -_INF)
            or (sender is not None and type(sender) is not int)
        ):
            return self.append(kind, {"from": sender, "at": at, "message": text})
        who = "null" if sender is None else sender
        return self._add(
            kind,
            {"at": at, "from": sender, "message": text},
            f'{{"at":{at!r},"from":{who},"message":{_json_string(text)}}}',
        )

    def append_throw(self, throw: int, die1: int, die2: int) -> Record:
        """``append(THROW, {"throw": throw, "dice": [die1, die2], "total": die1 + die2})``, its
        canonical JSON written directly (the same bytes; one per throw)."""
        body = {"throw": throw, "dice": [die1, die2], "total": die1 + die2}
        if not type(throw) is type(die1) is type(die2) is int:
            return self.append(RecordKind.THROW, body)
        return self._add(
            RecordKind.THROW,
            body,
            f'{{"dice":[{die1},{die2}],"throw":{throw},"total":{die1 + die2}}}',
        )

    def _add(self, kind: RecordKind, body: Mapping[str, Any], text: str) -> Record:
        """Chain a record whose body (a private copy) has the canonical JSON ``text``."""
        records = self._records
        prev = records[-1].hash if records else GENESIS
        record = _record(len(records), prev, kind, body, text)
        records.append(record)
        self._fresh.append(record)
        return record

    def drain(self) -> list[Record]:
        """The records appended since the last ``drain`` (the header first), in order."""
        fresh, self._fresh = self._fresh, []
        return fresh

    # ---------------------------------------------------------------------- loading
    @classmethod
    def from_records(cls, records: list[dict[str, Any]]) -> Transcript:
        """A transcript from the records of a saved one; raises ``TranscriptError`` unless its
        chain holds."""
        problem = check_chain(records)
        if problem is not None:
            raise TranscriptError(problem)
        self = cls.__new__(cls)
        self._fresh = []
        self._records = [
            Record(d["index"], d["prev"], RecordKind(d["kind"]), d["body"], d["hash"])
            for d in records
        ]
        return self

    def text(self) -> str:
        """The whole transcript as the text of its file: one record a line, each ended by
        a line feed."""
        return lines_text(self._records)


def lines_text(records: Sequence[Record]) -> str:
    """The records as transcript file text: one JSON line each, each ended by a line feed."""
    return "".join([r.to_line() + "\n" for r in records])


def parse_records(text: str) -> list[dict[str, Any]]:
    """The JSON objects of a transcript's text, one per line; raises ``TranscriptError``."""
    out: list[dict[str, Any]] = []
    # split on "\n" only: JSON text may hold U+0085 or U+2028, which splitlines() breaks at
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip(JSON_WHITESPACE):  # blank: only JSON whitespace, a CRLF file's \r
            continue
        try:
            doc = strict_loads(line, f"line {number}")
        except MalformedMessage as error:  # not JSON, duplicate keys, NaN, too deep, surrogate
            raise TranscriptError(error.text) from None
        if not isinstance(doc, dict):
            raise TranscriptError(f"line {number} is not a JSON object")
        out.append(doc)
    return out


def check_chain(records: list[dict[str, Any]]) -> str | None:
    """The first break in the hash chain, as a sentence, or ``None`` when it holds."""
    if not records:
        return "the transcript is empty"
    kinds = {k.value for k in RecordKind}
    prev = GENESIS
    for position, doc in enumerate(records):
        if set(doc) != {"index", "prev", "kind", "body", "hash"}:
            return f"record {position} does not have exactly index, prev, kind, body, hash"
        if doc["index"] != position or type(doc["index"]) is not int:
            said = json.dumps(doc["index"], ensure_ascii=False)  # as the file writes it
            return f"record {position} has index {said} (a record is missing or moved)"
        if doc["kind"] not in kinds or not isinstance(doc["body"], dict):
            return f"record {position} has an unknown kind or a body that is not an object"
        if doc["prev"] != prev:
            return f"record {position} does not follow record {position - 1} (prev hash differs)"
        try:
            expected = record_hash(position, prev, doc["kind"], doc["body"])
        except (TypeError, ValueError):
            return f"record {position} has a body that is not canonical JSON"
        if doc["hash"] != expected:
            return f"record {position} was altered (its hash does not match its content)"
        prev = expected
        if (position == 0) != (doc["kind"] == RecordKind.HEADER.value):
            return "the header must be the first record, and only the first"
    return None
