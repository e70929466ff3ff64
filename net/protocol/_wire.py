"""Relay frames: the JSON text frames between a client and the relay, typed both ways.

Each frame is a JSON object with an ``"op"``. ``parse_client``/``parse_relay`` turn text into
a frozen dataclass or raise ``WireError`` (with a stable ``code``); ``encode`` turns a frame
into compact JSON text. A ``Send``/``Deliver`` payload is a protocol frame: any JSON object,
opaque here and never altered.

Request ids: every client request carries an ``"id"`` (an integer 0..2^53-1 the client picks,
optional on the wire for older clients); the relay's answer to it (``signed_in``, ``room``,
``started`` to the creator, ``signed_out``, or an ``error``) carries the same ``"id"``. Frames
the relay sends on its own (``roster``, ``deliver``, ``departed``, ``started`` to the other
members, an error it cannot tie to a request) carry none. The dataclasses hold it as their last
field, ``id`` (``None``: absent).
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, TypeAlias

from pointline.kernel import PointlineError
from pointline.net.errors import NetError
from pointline.net.protocol import _strictjson as strictjson
from pointline.net.protocol._relay_json import decode_relay, refuse_huge_integers, within

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "KEY_HEX_LENGTH",
    "MAX_ID",
    "MAX_PASSWORD",
    "MAX_TEXT",
    "NAME_RULE",
    "SIGNATURE_HEX_LENGTH",
    "ChangePassword",
    "ClientFrame",
    "CreateRoom",
    "Deliver",
    "Departed",
    "Error",
    "ErrorCode",
    "Frame",
    "JoinRoom",
    "Leave",
    "Redirect",
    "RelayFrame",
    "Resume",
    "Resumed",
    "RoomJoined",
    "Roster",
    "RosterEntry",
    "Send",
    "SignedIn",
    "SignedOut",
    "Signin",
    "Signout",
    "Signup",
    "Start",
    "Started",
    "WireError",
    "check_key",
    "encode",
    "error",
    "parse_client",
    "parse_relay",
    "to_document",
]

KEY_HEX_LENGTH: Final = 64  # an Ed25519 public key, hex
NAME_RULE: Final = re.compile(r"[A-Za-z0-9_-]{3,24}")
CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
CODE_LENGTH: Final = 6
MAX_PASSWORD: Final = 1024
MAX_TEXT: Final = 256
SIGNATURE_HEX_LENGTH: Final = 128  # an Ed25519 signature, hex
MAX_ID: Final = 2**53 - 1  # request ids: exact in every JSON implementation


class ErrorCode(StrEnum):
    """Every error the relay answers with (``{"op":"error","code":...}``)."""

    BAD_FRAME = "bad_frame"
    RATE_LIMITED = "rate_limited"
    BAD_NAME = "bad_name"
    BAD_PASSWORD = "bad_password"
    NAME_TAKEN = "name_taken"
    BAD_CREDENTIALS = "bad_credentials"
    SIGNIN_LIMITED = "signin_limited"
    BAD_TOKEN = "bad_token"
    BAD_KEY = "bad_key"
    NO_ROOM = "no_room"
    ROOM_FULL = "room_full"
    ROOM_STARTED = "room_started"
    ROOM_CLOSED = "room_closed"
    IN_ROOM = "in_room"
    DUPLICATE_ACCOUNT = "duplicate_account"
    DUPLICATE_KEY = "duplicate_key"
    NOT_CREATOR = "not_creator"
    TOO_FEW = "too_few"
    NOT_IN_ROOM = "not_in_room"
    NOT_STARTED = "not_started"
    BUSY = "busy"
    NO_SEAT = "no_seat"  # a resume for a seat that is not (or no longer) held for it


class WireError(NetError):
    """A frame that breaks the wire format (or a refused request), with a stable code."""

    code: ErrorCode

    def __init__(self, code: ErrorCode, message: str, request_id: int | None = None) -> None:
        PointlineError.__init__(self, code, message)
        self.request_id = request_id  # the id of the request it answers, when known
        self.retry_after: int | None = None
        """``busy``: the seconds after which the request may succeed (the ``error`` frame's
        ``retry_after``)."""


# ---- client -> relay -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Credentials:
    name: str
    password: str
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Signup(_Credentials):
    """Make an account (the relay answers ``signed_in``)."""


@dataclass(frozen=True, slots=True)
class Signin(_Credentials):
    """Sign in to an account (the relay answers ``signed_in``)."""


@dataclass(frozen=True, slots=True)
class CreateRoom:
    token: str
    session_key: str
    id: int | None = None


@dataclass(frozen=True, slots=True)
class JoinRoom:
    token: str
    code: str
    session_key: str
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Start:
    token: str
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Send:
    payload: dict[str, Any]
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Leave:
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Signout:
    """Revoke this token (the relay answers ``signed_out``)."""

    token: str
    id: int | None = None


@dataclass(frozen=True, slots=True)
class ChangePassword:
    """Set a new password: every token of the account is revoked, a new one is issued."""

    token: str
    old_password: str
    new_password: str
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Resume:
    """Take my seat back on a new connection (spec/ONLINE.md "A blip is not a departure"):
    the room's ``code``, my ``session_key`` and how many ``deliver`` frames of this session I
    have ``received``; the relay answers ``resumed`` and sends the ones after them."""

    token: str
    code: str
    session_key: str
    received: int
    id: int | None = None


ClientFrame: TypeAlias = (
    Signup
    | Signin
    | CreateRoom
    | JoinRoom
    | Start
    | Send
    | Leave
    | Signout
    | ChangePassword
    | Resume
)

# ---- relay -> client -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RosterEntry:
    seat: int
    name: str
    session_key: str


@dataclass(frozen=True, slots=True)
class SignedIn:
    """Signed in: the account's name, a token, and the relay's Ed25519 public key (64 hex
    digits; optional on the wire) that signs every started roster, for the client to pin."""

    name: str
    token: str
    id: int | None = None
    relay_key: str | None = None


@dataclass(frozen=True, slots=True)
class RoomJoined:
    """Answer to create_room/join_room: the room, my seat so far and the roster."""

    code: str
    seat: int
    creator: str
    roster: tuple[RosterEntry, ...]
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Roster:
    code: str
    creator: str
    roster: tuple[RosterEntry, ...]


@dataclass(frozen=True, slots=True)
class Started:
    """The room started: my seat, the roster, and the relay's Ed25519 signature of the roster
    (``roster_sig``, 128 hex digits over ``net.protocol._peer.roster_signing_bytes``)."""

    code: str
    table_id: str
    seat: int
    roster: tuple[RosterEntry, ...]
    roster_sig: str
    id: int | None = None
    host: str | None = None
    """A hosted table's host (its name, signed with the roster); None: not hosted (the field is
    then absent on the wire)."""


@dataclass(frozen=True, slots=True)
class Deliver:
    from_seat: int
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Departed:
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class Error:
    code: str
    message: str
    id: int | None = None
    retry_after: int | None = None
    """``busy`` only: the seconds after which the request may succeed (absent on the wire when
    None)."""


@dataclass(frozen=True, slots=True)
class Resumed:
    """Answer to ``resume``: the seat is this connection's again; ``received`` is how many of
    this seat's ``send`` frames the relay has taken (the client sends the ones after them)."""

    code: str
    seat: int
    received: int
    id: int | None = None


@dataclass(frozen=True, slots=True)
class SignedOut:
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Redirect:
    """Answer to create_room/join_room on a relay cluster: the room lives (or is to be made)
    at the relay ``url``; the client reconnects there with the same token and asks again."""

    url: str
    id: int | None = None


RelayFrame: TypeAlias = (
    SignedIn
    | RoomJoined
    | Roster
    | Started
    | Deliver
    | Departed
    | Error
    | SignedOut
    | Redirect
    | Resumed
)
Frame: TypeAlias = ClientFrame | RelayFrame

# ---- encoding --------------------------------------------------------------------------------


def _roster_doc(roster: tuple[RosterEntry, ...]) -> list[dict[str, Any]]:
    return [{"seat": e.seat, "name": e.name, "session_key": e.session_key} for e in roster]


def to_document(frame: Frame) -> dict[str, Any]:
    """The JSON object of a frame (with ``"id"`` when the frame has one)."""
    doc = _document(frame)
    request_id = getattr(frame, "id", None)
    if request_id is not None:
        doc["id"] = request_id
    return doc


def _document(frame: Frame) -> dict[str, Any]:
    match frame:
        case Signup(name, password):
            return {"op": "signup", "name": name, "password": password}
        case Signin(name, password):
            return {"op": "signin", "name": name, "password": password}
        case CreateRoom(token, key):
            return {"op": "create_room", "token": token, "session_key": key}
        case JoinRoom(token, code, key):
            return {"op": "join_room", "token": token, "code": code, "session_key": key}
        case Start(token):
            return {"op": "start", "token": token}
        case Send(payload):
            return {"op": "send", "payload": payload}
        case Leave():
            return {"op": "leave"}
        case Signout(token):
            return {"op": "signout", "token": token}
        case ChangePassword(token, old, new, _):
            return {
                "op": "change_password",
                "token": token,
                "old_password": old,
                "new_password": new,
            }
        case SignedOut():
            return {"op": "signed_out"}
        case SignedIn(name, token, _, relay_key):
            doc = {"op": "signed_in", "name": name, "token": token}
            return doc if relay_key is None else {**doc, "relay_key": relay_key}
        case RoomJoined(code, seat, creator, roster):
            return {
                "op": "room",
                "code": code,
                "seat": seat,
                "creator": creator,
                "roster": _roster_doc(roster),
            }
        case Roster(code, creator, roster):
            return {"op": "roster", "code": code, "creator": creator, "roster": _roster_doc(roster)}
        case Started(code, table_id, seat, roster, roster_sig, _, host):
            started = {
                "op": "started",
                "code": code,
                "table_id": table_id,
                "seat": seat,
                "roster": _roster_doc(roster),
                "roster_sig": roster_sig,
            }
            return started if host is None else {**started, "host": host}
        case Deliver(from_seat, payload):
            return {"op": "deliver", "from_seat": from_seat, "payload": payload}
        case Departed(seat, name):
            return {"op": "departed", "seat": seat, "name": name}
        case Error(code, message, _, retry_after):
            doc = {"op": "error", "code": code, "message": message}
            return doc if retry_after is None else {**doc, "retry_after": retry_after}
        case Resume(token, code, key, received):
            return {
                "op": "resume",
                "token": token,
                "code": code,
                "session_key": key,
                "received": received,
            }
        case Resumed(code, seat, received):
            return {"op": "resumed", "code": code, "seat": seat, "received": received}
        case Redirect(url, _):
            return {"op": "redirect", "url": url}
    raise TypeError(f"not a frame: {frame!r}")  # pragma: no cover


def encode(frame: Frame) -> str:
    """Compact JSON text of a frame (payloads keep their keys and values)."""
    return _ENCODER.encode(to_document(frame))


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
"""``json.dumps(..., separators=(",", ":"), ensure_ascii=False)``, built once, not per frame."""


def error(
    code: ErrorCode, message: str, request_id: int | None = None, retry_after: int | None = None
) -> Error:
    return Error(code.value, message, request_id, retry_after)


# ---- parsing ---------------------------------------------------------------------------------


def _load(text: str | bytes) -> dict[str, Any]:
    if isinstance(text, bytes):
        raise WireError(ErrorCode.BAD_FRAME, "frames are JSON text, not binary")
    try:
        doc = strictjson.loads(text)
        refuse_huge_integers(text, doc)
    except strictjson.StrictJSONError as exc:
        raise WireError(ErrorCode.BAD_FRAME, f"not strict JSON: {exc.text}") from None
    return _named(doc)


def _named(doc: Any) -> dict[str, Any]:
    if not isinstance(doc, dict):
        raise WireError(ErrorCode.BAD_FRAME, "a frame is a JSON object")
    op = doc.get("op")
    if not isinstance(op, str):
        raise WireError(ErrorCode.BAD_FRAME, 'a frame names its "op"')
    return doc


def _load_relay(text: str | bytes) -> dict[str, Any]:
    """A relay frame parsed strictly, except that a ``deliver`` payload naming a member twice
    is kept as a ``RepeatedMembers`` (the peer refuses it as malformed, naming the sender);
    anywhere else a repeated name refuses the frame (``net.protocol._relay_json``)."""
    if isinstance(text, bytes):
        raise WireError(ErrorCode.BAD_FRAME, "frames are JSON text, not binary")
    try:
        doc, repeated = decode_relay(text)
    except strictjson.StrictJSONError as exc:
        raise WireError(ErrorCode.BAD_FRAME, f"not strict JSON: {exc.text}") from None
    except (ValueError, RecursionError) as exc:
        raise WireError(ErrorCode.BAD_FRAME, f"not strict JSON: not JSON ({exc})") from None
    doc = _named(doc)
    if repeated and not (
        doc.get("op") == "deliver" and all(within(m, doc.get("payload")) for m in repeated)
    ):
        raise WireError(ErrorCode.BAD_FRAME, "not strict JSON: a member name appears twice")
    return doc


def _fields(doc: dict[str, Any], *names: str) -> None:
    expected = {"op", *names}
    if "id" in doc:
        expected.add("id")
    if set(doc) != expected:
        extra = sorted(set(doc) - expected)
        missing = sorted(expected - set(doc))
        raise WireError(
            ErrorCode.BAD_FRAME, f"{doc['op']}: missing {missing or '-'}, unexpected {extra or '-'}"
        )


def _text(doc: dict[str, Any], name: str, limit: int = MAX_TEXT) -> str:
    value = doc[name]
    if not isinstance(value, str) or len(value) > limit:
        raise WireError(ErrorCode.BAD_FRAME, f"{name} is a string of at most {limit} characters")
    return value


def _int(doc: dict[str, Any], name: str) -> int:
    value = doc[name]
    if type(value) is not int or value < 0:
        raise WireError(ErrorCode.BAD_FRAME, f"{name} is a non-negative integer")
    return value


def _object(doc: dict[str, Any], name: str) -> dict[str, Any]:
    value = doc[name]
    if not isinstance(value, dict):
        raise WireError(ErrorCode.BAD_FRAME, f"{name} is a JSON object")
    return value


def _hex(doc: dict[str, Any], name: str, length: int) -> str:
    value = doc[name]
    if (
        not isinstance(value, str)
        or len(value) != length
        or any(c not in "0123456789abcdef" for c in value)
    ):
        raise WireError(ErrorCode.BAD_FRAME, f"{name} is {length} lowercase hex digits")
    return value


def _request_id(doc: dict[str, Any]) -> int | None:
    """The frame's ``"id"``: None when absent; ``WireError`` when not an integer in range."""
    if "id" not in doc:
        return None
    value = doc["id"]
    if type(value) is not int or not 0 <= value <= MAX_ID:
        raise WireError(ErrorCode.BAD_FRAME, f"id is an integer 0..{MAX_ID}")
    return value


def check_key(key: str) -> str:
    """A session key: 64 lowercase hex digits (an Ed25519 public key)."""
    if (
        len(key) != KEY_HEX_LENGTH
        or key.lower() != key
        or any(c not in "0123456789abcdef" for c in key)
    ):
        raise WireError(ErrorCode.BAD_KEY, "session_key is 64 lowercase hex digits")
    return key


def parse_client(text: str | bytes) -> ClientFrame:
    """A client frame, or ``WireError`` (carrying the frame's id when it had a valid one)."""
    doc = _load(text)
    request_id = _request_id(doc)
    try:
        frame = _parse_client(doc)
    except WireError as exc:
        exc.request_id = request_id
        raise
    return dataclasses.replace(frame, id=request_id) if request_id is not None else frame


def _parse_client(doc: dict[str, Any]) -> ClientFrame:
    op = doc["op"]
    if op in ("signup", "signin"):
        _fields(doc, "name", "password")
        name, password = _text(doc, "name"), _text(doc, "password", MAX_PASSWORD)
        return Signup(name, password) if op == "signup" else Signin(name, password)
    if op == "create_room":
        _fields(doc, "token", "session_key")
        return CreateRoom(_text(doc, "token"), check_key(_text(doc, "session_key")))
    if op == "join_room":
        _fields(doc, "token", "code", "session_key")
        return JoinRoom(
            _text(doc, "token"), _text(doc, "code"), check_key(_text(doc, "session_key"))
        )
    if op == "start":
        _fields(doc, "token")
        return Start(_text(doc, "token"))
    if op == "send":
        _fields(doc, "payload")
        return Send(_object(doc, "payload"))
    if op == "leave":
        _fields(doc)
        return Leave()
    if op == "signout":
        _fields(doc, "token")
        return Signout(_text(doc, "token"))
    if op == "resume":
        _fields(doc, "token", "code", "session_key", "received")
        return Resume(
            _text(doc, "token"),
            _text(doc, "code"),
            check_key(_text(doc, "session_key")),
            _int(doc, "received"),
        )
    if op == "change_password":
        _fields(doc, "token", "old_password", "new_password")
        return ChangePassword(
            _text(doc, "token"),
            _text(doc, "old_password", MAX_PASSWORD),
            _text(doc, "new_password", MAX_PASSWORD),
        )
    raise WireError(ErrorCode.BAD_FRAME, f"unknown op {op[:40]!r}")


def _roster(doc: dict[str, Any]) -> tuple[RosterEntry, ...]:
    raw = doc["roster"]
    if not isinstance(raw, list):
        raise WireError(ErrorCode.BAD_FRAME, "roster is a list")
    entries = []
    for item in raw:
        if not isinstance(item, dict) or set(item) != {"seat", "name", "session_key"}:
            raise WireError(ErrorCode.BAD_FRAME, "a roster entry has seat, name, session_key")
        entries.append(
            RosterEntry(_int(item, "seat"), _text(item, "name"), _text(item, "session_key"))
        )
    return tuple(entries)


def parse_relay(text: str | bytes) -> RelayFrame:
    """A relay frame, or ``WireError``."""
    doc = _load_relay(text)
    request_id = _request_id(doc)
    frame = _parse_relay(doc)
    if request_id is None or isinstance(frame, Roster | Deliver | Departed):
        return frame  # these are never answers
    return dataclasses.replace(frame, id=request_id)


def _parse_relay(doc: dict[str, Any]) -> RelayFrame:
    op = doc["op"]
    if op == "signed_in":
        if "relay_key" in doc:
            _fields(doc, "name", "token", "relay_key")
            key = _hex(doc, "relay_key", KEY_HEX_LENGTH)
            return SignedIn(_text(doc, "name"), _text(doc, "token"), relay_key=key)
        _fields(doc, "name", "token")
        return SignedIn(_text(doc, "name"), _text(doc, "token"))
    if op == "room":
        _fields(doc, "code", "seat", "creator", "roster")
        return RoomJoined(
            _text(doc, "code"), _int(doc, "seat"), _text(doc, "creator"), _roster(doc)
        )
    if op == "roster":
        _fields(doc, "code", "creator", "roster")
        return Roster(_text(doc, "code"), _text(doc, "creator"), _roster(doc))
    if op == "started":
        hosted = ("host",) if "host" in doc else ()
        _fields(doc, "code", "table_id", "seat", "roster", "roster_sig", *hosted)
        return Started(
            _text(doc, "code"),
            _text(doc, "table_id"),
            _int(doc, "seat"),
            _roster(doc),
            _hex(doc, "roster_sig", SIGNATURE_HEX_LENGTH),
            host=_text(doc, "host") if hosted else None,
        )
    if op == "deliver":
        _fields(doc, "from_seat", "payload")
        return Deliver(_int(doc, "from_seat"), _object(doc, "payload"))
    if op == "departed":
        _fields(doc, "seat", "name")
        return Departed(_int(doc, "seat"), _text(doc, "name"))
    if op == "signed_out":
        _fields(doc)
        return SignedOut()
    if op == "redirect":
        _fields(doc, "url")
        url = _text(doc, "url")
        if not url.startswith(("ws://", "wss://")):
            raise WireError(ErrorCode.BAD_FRAME, "redirect: url is a ws:// or wss:// address")
        return Redirect(url)
    if op == "error":
        if "retry_after" in doc:
            _fields(doc, "code", "message", "retry_after")
            wait = _int(doc, "retry_after")
            return Error(_text(doc, "code"), _text(doc, "message", 4096), retry_after=wait)
        _fields(doc, "code", "message")
        return Error(_text(doc, "code"), _text(doc, "message", 4096))
    if op == "resumed":
        _fields(doc, "code", "seat", "received")
        return Resumed(_text(doc, "code"), _int(doc, "seat"), _int(doc, "received"))
    raise WireError(ErrorCode.BAD_FRAME, f"unknown op {op[:40]!r}")
