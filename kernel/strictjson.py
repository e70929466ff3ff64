"""Strict JSON: the reading side of the kernel's canonical JSON, for every layer.

``loads`` accepts exactly the JSON that ``kernel.canonical`` can write back: it refuses
duplicate member names, ``NaN``/``Infinity``, nesting deeper than ``MAX_DEPTH`` and strings
holding lone surrogates (legal JSON escapes, but not Unicode text). Every refusal is a
``StrictJSONError`` (in the kernel's error tree, code ``bad_json``, and a ``ValueError``) with
plain words in ``text``; a member named twice is its subclass ``DuplicateMember``. Nothing
recurses, so a hostile 100,000-deep line is refused, never a ``RecursionError``.

(Moved here from ``net/protocol/_strictjson.py``, which the net layer can reduce to a re-export.)
"""

from __future__ import annotations

import json
from typing import Any

from pointline.kernel.errors import StrictJSONError

__all__ = ["MAX_DEPTH", "DuplicateMember", "StrictJSONError", "check", "loads"]

MAX_DEPTH = 32
"""Arrays and objects nest at most this deep (protocol documents use five levels at most)."""


class DuplicateMember(StrictJSONError):
    """An object names a member twice."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    for key, value in pairs:
        if key in doc:
            raise DuplicateMember(f"the member {key!r} appears twice")
        doc[key] = value
    return doc


def _constant(name: str) -> Any:
    raise StrictJSONError(f"{name} is not a JSON number")


def _nesting(text: str) -> int:
    """The deepest nesting of arrays and objects in ``text``, read without recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def check(doc: Any, max_depth: int = MAX_DEPTH) -> None:
    """Check an already parsed value the same way: nesting at most ``max_depth``, no float NaN
    or infinity, and no string (keys included) holding a lone surrogate."""
    todo: list[tuple[Any, int]] = [(doc, 0)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, str):
            if not value.isascii():
                try:
                    value.encode("utf-8")
                except UnicodeEncodeError:
                    raise StrictJSONError("a string holds a lone surrogate") from None
        elif isinstance(value, (dict, list)):
            if depth >= max_depth:
                raise StrictJSONError(f"the JSON nests deeper than {max_depth} levels")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(key, str):
                    todo.append((key, depth + 1))
                todo.append((item, depth + 1))
        elif isinstance(value, float) and (value != value or value in (_INF, -_INF)):
            raise StrictJSONError("NaN and infinity are not JSON numbers")


_INF = float("inf")


def loads(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """Parse ``text`` strictly (see the module docstring); raises ``StrictJSONError``."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise StrictJSONError("the text is not UTF-8") from None
    if ("[" in text or "{" in text) and _nesting(text) > max_depth:
        raise StrictJSONError(f"the JSON nests deeper than {max_depth} levels")
    try:
        doc = json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant)
    except StrictJSONError:
        raise
    except json.JSONDecodeError as exc:  # its words are Python's: say where, plainly
        raise StrictJSONError(
            f"not JSON: it is cut off or damaged at character {exc.pos + 1}"
        ) from None
    except (ValueError, RecursionError):
        raise StrictJSONError("not JSON: it cannot be read as JSON") from None
    check(doc, max_depth)
    return doc
