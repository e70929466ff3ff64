"""Protocol messages: frozen dataclasses, canonical JSON and Ed25519 signatures.

Every message is a JSON object. Its *body* holds the common fields

    v      protocol version (1)          kind   "commit" | "reveal" | "receipt" | "abort"
    table  the table id from the relay   seat   the sender's seat
    seq    the sender's sequence number: 0 for its first message, then +1 for each one

and the fields of its kind (below). The *signed frame* is the body plus ``"sig"``: the Ed25519
signature (128 lowercase hex digits) over ``SIGN_DOMAIN`` followed by the body's canonical JSON
(UTF-8, sorted keys, no spaces, integers only). ``parse`` checks a received frame strictly and
raises a ``net.errors.MessageError`` naming what is wrong.
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Union

from pointline.kernel import (
    ONLINE_TABLE_ID_MAX,
    PROTOCOL_VERSION,
    THROW_CAP,
    EndReason,
    canonical_bytes,
)
from pointline.net.errors import BadSignature, MalformedMessage, NonMemberSeat, WrongTable
from pointline.net.protocol import _strictjson as strictjson
from pointline.net.protocol._events import seat_label
from pointline.net.protocol._keys import SigningKey, verify_signature

__all__ = [
    "COMMON",
    "DIGEST_DOMAIN",
    "HASH_HEX",
    "KINDS",
    "MAX_CHOICE_CHARS",
    "MAX_DEPTH",
    "MAX_FRAME_BYTES",
    "MAX_SEQ",
    "SIGN_DOMAIN",
    "SIG_HEX",
    "AbortNotice",
    "Commit",
    "Message",
    "Receipt",
    "RepeatedMembers",
    "Reveal",
    "body",
    "body_text",
    "canonical_json",
    "check_strict",
    "encode",
    "load_frame",
    "parse",
    "parse_encoded",
    "session_digest",
    "session_digest_encoded",
    "sign",
    "sign_encoded",
    "signing_bytes",
    "strict_loads",
    "to_frame",
]

SIGN_DOMAIN = b"pointline/message/v1\x00"
MAX_FRAME_BYTES = 16 * 1024
MAX_SEQ = 1 << 20
MAX_CHOICE_CHARS = 64
HASH_HEX = 64
SIG_HEX = 128
COMMON = ("v", "kind", "table", "seat", "seq")
_json_string = json.encoder.encode_basestring  # the kernel encoder's own string writer


def canonical_json(doc: Mapping[str, Any]) -> bytes:
    """Sorted keys, no spaces, UTF-8: the one byte form every peer computes (the kernel's
    encoder, ``kernel.canonical_bytes``; what the net layer encodes was checked strict first)."""
    return canonical_bytes(doc if type(doc) is dict else dict(doc))


@dataclass(frozen=True, slots=True)
class Commit:
    """A seat's commitment to its nonce and choices for throw ``throw``."""

    table: str
    seat: int
    seq: int
    throw: int
    commitment: bytes
    sig: bytes = field(default=b"", compare=False)
    kind: ClassVar[str] = "commit"

    def fields(self) -> dict[str, Any]:
        return {"throw": self.throw, "commitment": self.commitment.hex()}


@dataclass(frozen=True, slots=True)
class Reveal:
    """A seat's nonce and canonical choice bytes for throw ``throw``, after every commit."""

    table: str
    seat: int
    seq: int
    throw: int
    nonce: bytes
    choice: bytes
    sig: bytes = field(default=b"", compare=False)
    kind: ClassVar[str] = "reveal"

    def fields(self) -> dict[str, Any]:
        return {
            "throw": self.throw,
            "nonce": self.nonce.hex(),
            "choice": self.choice.decode("ascii"),
        }


@dataclass(frozen=True, slots=True)
class Receipt:
    """A seat's view of a completed session: final points of all seats and the session digest."""

    table: str
    seat: int
    seq: int
    throws: int
    final: tuple[int, ...]
    digest: bytes
    sig: bytes = field(default=b"", compare=False)
    kind: ClassVar[str] = "receipt"

    def fields(self) -> dict[str, Any]:
        return {"throws": self.throws, "final": list(self.final), "digest": self.digest.hex()}


@dataclass(frozen=True, slots=True)
class AbortNotice:
    """A seat ends the session without a result: the reason and the seat it names (or none)."""

    table: str
    seat: int
    seq: int
    reason: EndReason
    blame: int | None
    sig: bytes = field(default=b"", compare=False)
    kind: ClassVar[str] = "abort"

    def fields(self) -> dict[str, Any]:
        return {"reason": self.reason.value, "blame": self.blame}


Message = Union[Commit, Reveal, Receipt, AbortNotice]  # noqa: UP007 - a runtime alias
KINDS: dict[str, type[Commit] | type[Reveal] | type[Receipt] | type[AbortNotice]] = {
    "commit": Commit,
    "reveal": Reveal,
    "receipt": Receipt,
    "abort": AbortNotice,
}
_FIELDS = {
    "commit": frozenset({"throw", "commitment"}),
    "reveal": frozenset({"throw", "nonce", "choice"}),
    "receipt": frozenset({"throws", "final", "digest"}),
    "abort": frozenset({"reason", "blame"}),
}
_FRAME_FIELDS = {kind: frozenset({*COMMON, "sig", *names}) for kind, names in _FIELDS.items()}


def body(message: Message) -> dict[str, Any]:
    """The unsigned body as a JSON object."""
    doc: dict[str, Any] = {
        "v": PROTOCOL_VERSION,
        "kind": message.kind,
        "table": message.table,
        "seat": message.seat,
        "seq": message.seq,
    }
    doc.update(message.fields())
    return doc


def _commit_layout(commitment: str, throw: int) -> tuple[str, str]:
    """A commit body's canonical JSON around the common middle (``_texts``): the members that
    sort before ``"seat"``, and those after ``"table"``. Each layout takes its fields as JSON
    text (lowercase hex, integers, an encoded string), so a frame's checked fields and a
    message's own values write the same bytes."""
    return (
        f'"commitment":"{commitment}","kind":"commit",',
        f',"throw":{throw},"v":{PROTOCOL_VERSION}',
    )


def _reveal_layout(choice: str, nonce: str, throw: int) -> tuple[str, str]:
    return (
        f'"choice":{_json_string(choice)},"kind":"reveal","nonce":"{nonce}",',
        f',"throw":{throw},"v":{PROTOCOL_VERSION}',
    )


def _receipt_layout(digest: str, final: Iterable[int], throws: int) -> tuple[str, str]:
    points = ",".join([str(p) for p in final])
    return (
        f'"digest":"{digest}","final":[{points}],"kind":"receipt",',
        f',"throws":{throws},"v":{PROTOCOL_VERSION}',
    )


def _abort_layout(blame: int | None, reason: str) -> tuple[str, str]:
    return (
        f'"blame":{"null" if blame is None else blame},"kind":"abort",'
        f'"reason":{_json_string(reason)},',
        f',"v":{PROTOCOL_VERSION}',
    )


def _layout(message: Message) -> tuple[str, str]:
    if isinstance(message, Commit):
        return _commit_layout(message.commitment.hex(), message.throw)
    if isinstance(message, Reveal):
        return _reveal_layout(message.choice.decode("ascii"), message.nonce.hex(), message.throw)
    if isinstance(message, Receipt):
        return _receipt_layout(message.digest.hex(), message.final, message.throws)
    return _abort_layout(message.blame, message.reason.value)


def _texts(layout: tuple[str, str], seat: int, seq: int, table: str, sig: str) -> tuple[bytes, str]:
    """The body's canonical JSON (UTF-8) and the signed frame's (text), written around the
    members every kind has: sorted, ``"seat"``, ``"seq"``, (``"sig"``), ``"table"`` stand
    together between the kind's first and last members. Every piece is an integer, lowercase
    hex, a known word or a string written by JSON's own string writer, so each is already in
    canonical form (``canonical_json(body(m))`` gives the same bytes; tested against it)."""
    before, after = layout
    middle = f'{{{before}"seat":{seat},"seq":{seq},'
    rest = f'"table":{_json_string(table)}{after}}}'
    return f"{middle}{rest}".encode(), f'{middle}"sig":"{sig}",{rest}'


def body_text(message: Message) -> bytes:
    """The body's canonical JSON, written field by field (``_texts``): the bytes
    ``canonical_json(body(m))`` gives, without building a dict and sorting it."""
    return _texts(_layout(message), message.seat, message.seq, message.table, "")[0]


def signing_bytes(message: Message) -> bytes:
    """What the signature covers: the domain prefix and the body's canonical JSON."""
    return SIGN_DOMAIN + body_text(message)


def sign(message: Message, key: SigningKey) -> Message:
    """The same message carrying ``key``'s signature over its body."""
    return sign_encoded(message, key)[0]


def sign_encoded(message: Message, key: SigningKey) -> tuple[Message, str]:
    """``sign`` and the signed frame's ``encode`` text, the body encoded once for both."""
    layout = _layout(message)
    text = _texts(layout, message.seat, message.seq, message.table, "")[0]
    sig = key.sign(SIGN_DOMAIN + text)
    return replace(message, sig=sig), _texts(
        layout, message.seat, message.seq, message.table, sig.hex()
    )[1]


def to_frame(message: Message) -> dict[str, Any]:
    """The signed frame as a JSON object (what the relay forwards)."""
    doc = body(message)
    doc["sig"] = message.sig.hex()
    return doc


def encode(message: Message) -> str:
    """The signed frame's canonical JSON text (what the transcript records)."""
    return canonical_json(to_frame(message)).decode("utf-8")


DIGEST_DOMAIN = b"pointline/session/v1\x00"


def session_digest(messages: Iterable[Commit | Reveal]) -> bytes:
    """``session_digest_encoded`` of messages encoded here."""
    return session_digest_encoded((m, encode(m)) for m in messages)


def session_digest_encoded(messages: Iterable[tuple[Commit | Reveal, str]]) -> bytes:
    """The receipts' transcript hash: every Commit and Reveal of a completed session.

    SHA-256 over ``DIGEST_DOMAIN`` then, for each message ordered by (throw index, commit
    before reveal, seat), its signed frame's canonical JSON (``encode``) as UTF-8, prefixed by
    its length (4 bytes, big-endian). Each peer receives the same signed messages, whatever
    order they arrive in, so honest peers compute the same digest. ``messages`` pairs each
    message with its ``encode`` text (a peer has it already).
    """
    ordered = sorted(
        messages, key=lambda m: (m[0].throw, 0 if isinstance(m[0], Commit) else 1, m[0].seat)
    )
    h = hashlib.sha256(DIGEST_DOMAIN)
    for _, text in ordered:
        data = text.encode("utf-8")
        h.update(struct.pack(">I", len(data)))
        h.update(data)
    return h.digest()


# ------------------------------------------------------------------------------ parsing


class RepeatedMembers(dict[str, Any]):
    """A JSON object that named one member twice (``repeated``; the later value kept): what
    ``net.protocol._wire`` delivers for such a payload, so that the peer refuses it as malformed.
    ``pairs`` holds every member as delivered, the repeat included, in order."""

    repeated: str = ""
    pairs: tuple[tuple[str, Any], ...] = ()

    def text(self) -> str:
        """Its canonical JSON with every member as delivered (spec/ONLINE.md §8, "`frame`"):
        members sorted by name, a repeated name's members in the order they came, so the text
        still names the member twice and a strict parser refuses it again. Without ``pairs``
        (made from a plain dict) the repeated member's kept value is written twice."""
        pairs = self.pairs or (*self.items(), (self.repeated, self[self.repeated]))
        ordered = sorted(pairs, key=lambda pair: pair[0])  # stable: repeats keep their order
        members = (_member_text(name) + ":" + _member_text(value) for name, value in ordered)
        return "{" + ",".join(members) + "}"


def _member_text(value: Any) -> str:
    if isinstance(value, RepeatedMembers):
        return value.text()
    if isinstance(value, list):
        return "[" + ",".join(_member_text(v) for v in value) + "]"
    if isinstance(value, dict):
        members = sorted(value.items(), key=lambda pair: pair[0])
        return "{" + ",".join(f"{_member_text(k)}:{_member_text(v)}" for k, v in members) + "}"
    return canonical_bytes(value).decode("utf-8")


MAX_DEPTH = 8
"""The deepest nesting a message or transcript record may have (a message is 2 deep, a
transcript record 5); relay frames allow ``strictjson.MAX_DEPTH``."""


def check_strict(doc: Any, what: str = "the frame") -> None:
    """Raise ``MalformedMessage`` unless ``doc`` nests at most ``MAX_DEPTH`` deep, holds no
    float NaN or infinity and no string with a lone surrogate
    (``net.protocol._strictjson.check``)."""
    try:
        strictjson.check(doc, MAX_DEPTH)
    except strictjson.StrictJSONError as exc:
        raise MalformedMessage(f"{what}: {exc.text}") from None


def strict_loads(text: str, what: str = "the frame") -> Any:
    """JSON text parsed strictly (``net.protocol._strictjson.loads``, at most ``MAX_DEPTH`` deep):
    duplicate keys, NaN/Infinity, deeper nesting and lone surrogates are ``MalformedMessage``;
    never a RecursionError."""
    if not isinstance(text, str):
        raise MalformedMessage(f"{what} is not text")
    try:
        return strictjson.loads(text, MAX_DEPTH)
    except strictjson.StrictJSONError as exc:
        raise MalformedMessage(f"{what} is not strict JSON: {exc.text}") from None


def load_frame(frame: object) -> dict[str, Any]:
    """A frame as a JSON object: a dict as is, or bytes/str parsed strictly."""
    if isinstance(frame, dict):
        if len(_frame_text(frame)) > MAX_FRAME_BYTES:
            raise MalformedMessage("the frame is too large")
        return frame
    if isinstance(frame, (bytes, bytearray)):
        if len(frame) > MAX_FRAME_BYTES:
            raise MalformedMessage("the frame is too large")
        try:
            text = bytes(frame).decode("utf-8")
        except UnicodeDecodeError:
            raise MalformedMessage("the frame is not UTF-8") from None
    elif isinstance(frame, str):
        if len(frame) > MAX_FRAME_BYTES:
            raise MalformedMessage("the frame is too large")
        text = frame
    else:
        raise MalformedMessage("a frame is a JSON object")
    doc = strict_loads(text)
    if not isinstance(doc, dict):
        raise MalformedMessage("a frame is a JSON object")
    return doc


def _frame_text(frame: dict[str, Any]) -> bytes:
    check_strict(frame)
    try:
        return canonical_json(frame)
    except (TypeError, ValueError, UnicodeError, RecursionError):
        raise MalformedMessage("the frame is not a JSON object") from None


def _int(doc: Mapping[str, Any], name: str, low: int, high: int) -> int:
    value = doc[name]
    if type(value) is not int or not low <= value <= high:
        raise MalformedMessage(f"{name} must be an integer {low}..{high}")
    return value


def _hex(doc: Mapping[str, Any], name: str, digits: int) -> bytes:
    value = doc[name]
    if not isinstance(value, str) or len(value) != digits:
        raise MalformedMessage(f"{name} must be {digits} lowercase hex digits")
    try:
        raw = bytes.fromhex(value)
    except ValueError:
        raise MalformedMessage(f"{name} must be {digits} lowercase hex digits") from None
    if raw.hex() != value:
        raise MalformedMessage(f"{name} must be {digits} lowercase hex digits")
    return raw


def parse(
    frame: object,
    table_id: str,
    roster_keys: Mapping[int, bytes],
    max_seats: int = 8,
) -> Message:
    """``parse_encoded`` without the canonical text."""
    return parse_encoded(frame, table_id, roster_keys, max_seats)[0]


def parse_encoded(
    frame: object,
    table_id: str,
    roster_keys: Mapping[int, bytes],
    max_seats: int = 8,
) -> tuple[Message, str]:
    """A checked message from a received frame, or a typed ``MessageError``.

    The checks run in this order, and the first failing one is raised: JSON object with exactly
    the fields of a known kind and version, each of its exact type (``MalformedMessage``); the
    table id (``WrongTable``); the seat is in the roster (``NonMemberSeat``); the signature
    verifies against that seat's key (``BadSignature``). Sequence and throw order are the
    protocol's to check. Also returns the message's ``encode`` text, computed once with the
    signed bytes: a frame that passes every check has exactly the fields ``to_frame`` gives, so
    its canonical JSON is that text. A ``RepeatedMembers`` object (a payload the relay delivered
    with a member name twice) is malformed.
    """
    if isinstance(frame, RepeatedMembers):
        raise MalformedMessage(f"the member {frame.repeated!r} appears twice")
    # A dict needs no strictness walk first: every field below is checked for its exact type
    # and size, so what passes is strict JSON of bounded size.
    doc = frame if isinstance(frame, dict) else load_frame(frame)
    kind = doc.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise MalformedMessage("unknown message kind")
    expected = _FRAME_FIELDS[kind]
    if doc.keys() != expected:
        missing = sorted(expected - set(doc))
        extra = sorted(str(k) for k in set(doc) - expected)
        raise MalformedMessage(f"fields: missing {missing}, unexpected {extra}")
    if type(doc["v"]) is not int or doc["v"] != PROTOCOL_VERSION:
        raise MalformedMessage(f"protocol version must be {PROTOCOL_VERSION}")
    table = doc["table"]
    if not isinstance(table, str) or not 1 <= len(table) <= ONLINE_TABLE_ID_MAX:
        raise MalformedMessage("table must be a short string")
    if not table.isascii():
        check_strict(table)  # the one string field that may hold more than ASCII
    seat = _int(doc, "seat", 0, 255)
    seq = _int(doc, "seq", 0, MAX_SEQ)
    sig = _hex(doc, "sig", SIG_HEX)
    # every field is checked for its exact type (hex fields as lowercase hex), so the texts
    # are written from the frame's own field values (``_texts``): no dict copy, no sort
    message: Message
    if kind == "commit":
        throw = _int(doc, "throw", 1, THROW_CAP)
        digest = doc["commitment"]
        message = Commit(table, seat, seq, throw, _hex(doc, "commitment", HASH_HEX), sig)
        layout = _commit_layout(digest, throw)
    elif kind == "reveal":
        choice = doc["choice"]
        if (
            not isinstance(choice, str)
            or not 1 <= len(choice) <= MAX_CHOICE_CHARS
            or not choice.isascii()
        ):
            raise MalformedMessage("choice must be short ASCII text")
        throw = _int(doc, "throw", 1, THROW_CAP)
        nonce = _hex(doc, "nonce", HASH_HEX)
        message = Reveal(table, seat, seq, throw, nonce, choice.encode("ascii"), sig)
        layout = _reveal_layout(choice, doc["nonce"], throw)
    elif kind == "receipt":
        final = doc["final"]
        if (
            not isinstance(final, list)
            or not 1 <= len(final) <= max_seats
            or len(final) != len(roster_keys)
            or any(type(p) is not int or not 0 <= p <= 1 << 40 for p in final)
        ):
            raise MalformedMessage("final must be a list of point totals, one per roster seat")
        throws = _int(doc, "throws", 1, THROW_CAP)
        digest = doc["digest"]
        message = Receipt(
            table, seat, seq, throws, tuple(final), _hex(doc, "digest", HASH_HEX), sig
        )
        layout = _receipt_layout(digest, final, throws)
    else:
        reason_text = doc["reason"]
        try:
            reason = EndReason(reason_text)
        except ValueError:
            raise MalformedMessage("reason must be a known end reason") from None
        blame = doc["blame"]
        if blame is not None and (type(blame) is not int or not 0 <= blame <= 255):
            raise MalformedMessage("blame must be a seat or null")
        message = AbortNotice(table, seat, seq, reason, blame, sig)
        layout = _abort_layout(blame, reason.value)
    if table != table_id:
        raise WrongTable(f"the message is for another table ({table}), not this one")
    key = roster_keys.get(seat)
    if key is None:
        raise NonMemberSeat(f"{seat_label(seat)} is not in this table's roster")
    body_bytes, text = _texts(layout, seat, seq, table, doc["sig"])
    if not verify_signature(key, sig, SIGN_DOMAIN + body_bytes):
        raise BadSignature(f"the signature does not verify with {seat_label(seat)}'s key")
    return message, text
