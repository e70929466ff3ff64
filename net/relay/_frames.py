"""The relay's reading of a ``send`` frame on its hot path: the payload's text cut out of the
frame as received, so it is forwarded as the bytes the sender wrote (``net.relay._server`` uses
these; every other frame goes through ``net.protocol._wire.parse_client``)."""

from __future__ import annotations

import json
import math
from typing import Any, Final

from pointline.net.protocol._relay_json import long_digits
from pointline.net.protocol._strictjson import MAX_DEPTH, DuplicateMember, StrictJSONError
from pointline.net.protocol._wire import Send

__all__ = ["received_payload", "send_payload"]

_SEND_PREFIX: Final = '{"op":"send","payload":'


def _unique_members(items: list[tuple[str, Any]]) -> dict[str, Any]:
    doc = dict(items)
    if len(doc) != len(items):
        raise DuplicateMember("a member name appears twice")
    return doc


def _refuse_constant(name: str) -> Any:
    raise StrictJSONError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if value in (math.inf, -math.inf):  # 1e999: too large for a float
        raise StrictJSONError(f"{text[:20]} is out of range")
    return value


def send_payload(message: str | bytes) -> str | None:
    """The hot path: the payload's text when ``message`` is a ``send`` frame laid out as the
    client writes it (``{"op":"send","payload":{...}}``, nothing else) whose payload is strict
    JSON, read with one C parse and no walk; else None, and ``parse_client`` decides (and
    names the fault). Strict as ``parse_client``: a member named twice, NaN, Infinity or a
    number too large for a float is refused (a run of 309 digits goes to ``parse_client``, which
    refuses an integer too large for a double); a text with no backslash-u escape holds no lone
    surrogate, and one with fewer brackets than ``MAX_DEPTH`` cannot nest deeper."""
    if not isinstance(message, str) or not message.startswith(_SEND_PREFIX):
        return None
    if not message.endswith("}"):
        return None
    raw = message[len(_SEND_PREFIX) : -1]
    if "\\u" in raw or raw.count("{") + raw.count("[") >= MAX_DEPTH:
        return None
    if long_digits(raw):  # it may hold an integer too large for a double: parse_client decides
        return None
    try:
        doc = json.loads(
            raw,
            object_pairs_hook=_unique_members,
            parse_constant=_refuse_constant,
            parse_float=_finite,
        )
    except (ValueError, RecursionError):  # StrictJSONError included
        return None
    return raw if isinstance(doc, dict) else None


def received_payload(message: str | bytes, frame: Send) -> str | None:
    """The payload's own text inside ``message`` (a frame ``parse_client`` accepted as
    ``frame``), or None when it cannot be cut out exactly. It can when the frame is laid out as
    the client writes it: ``"op"`` first, ``"payload"`` last, no ``"id"``: strict parsing has
    checked that the frame holds exactly those two members, so everything between the prefix
    and the closing brace is the payload, already strict JSON."""
    if frame.id is not None or not isinstance(message, str):
        return None
    if not message.startswith(_SEND_PREFIX):
        return None
    body = message.rstrip()
    if not body.endswith("}"):
        return None
    return body[len(_SEND_PREFIX) : -1].strip()
