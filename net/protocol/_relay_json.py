"""Reading a relay frame's JSON text strictly, fast: one shared C decoder, and a second parse
only for the rare frame that names a member twice (``net.protocol._wire`` decides what that
means)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from pointline.net.protocol import _strictjson as strictjson
from pointline.net.protocol._messages import RepeatedMembers

__all__ = ["decode_relay", "long_digits", "refuse_huge_integers", "within"]

_LONG_DIGITS = re.compile(r"[0-9]{309}")
"""A run of 309 digits: the shortest integer that can be too large for a double (the largest
is about 1.8e308) has as many; a frame without such a run holds none."""


def _refuse_constant(name: str) -> Any:
    raise strictjson.StrictJSONError(f"{name} is not a JSON number")


def _float(text: str) -> float:
    value = float(text)
    if value in (math.inf, -math.inf):  # 1e999: too large for a float
        raise strictjson.StrictJSONError(f"{text[:20]} is out of range")
    return value


class _Repeated(Exception):
    """A member named twice: ``decode_relay`` parses again, noting where."""


def _unique_pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
    doc = dict(items)
    if len(doc) != len(items):
        raise _Repeated
    return doc


_DECODER = json.JSONDecoder(
    object_pairs_hook=_unique_pairs, parse_constant=_refuse_constant, parse_float=_float
)
"""One decoder for every frame: ``json.loads`` with arguments builds a new one per call."""


def decode_relay(text: str) -> tuple[Any, list[RepeatedMembers]]:
    """The JSON value of ``text`` and every object in it that named a member twice (each a
    ``RepeatedMembers``, the later value kept; usually none). Raises
    ``strictjson.StrictJSONError`` for NaN, Infinity, a number too large for a float, nesting
    deeper than ``strictjson.MAX_DEPTH`` or a lone surrogate, and ``ValueError`` (not JSON) or
    ``RecursionError`` (nested too deep for the parser)."""
    try:
        return _checked(text, _DECODER.decode), []
    except _Repeated:
        pass
    repeated: list[RepeatedMembers] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        doc = dict(items)
        if len(doc) == len(items):
            return doc
        marked = RepeatedMembers(doc)
        marked.pairs = tuple(items)
        names = [k for k, _ in items]
        marked.repeated = next(k for i, k in enumerate(names) if k in names[:i])
        repeated.append(marked)
        return marked

    def decode(data: str) -> Any:
        return json.loads(
            data, object_pairs_hook=pairs, parse_constant=_refuse_constant, parse_float=_float
        )

    return _checked(text, decode), repeated


def long_digits(text: str) -> bool:
    """Whether ``text`` holds a run of 309 digits (so it may hold an integer too large for a
    double; a text without one cannot)."""
    return len(text) >= 309 and _LONG_DIGITS.search(text) is not None


def refuse_huge_integers(text: str, doc: Any) -> None:
    """Raise ``strictjson.StrictJSONError`` when ``doc`` (parsed from ``text``) holds an
    integer too large for a double (``1e400`` written out in digits): refused as ``1e400``
    itself is. Only a text with a run of 309 digits is walked."""
    if not long_digits(text):
        return
    todo = [doc]
    while todo:
        value = todo.pop()
        if isinstance(value, dict):
            todo.extend(value.values())
        elif isinstance(value, list):
            todo.extend(value)
        elif type(value) is int:
            try:
                float(value)
            except OverflowError:
                raise strictjson.StrictJSONError(
                    f"an integer of {len(str(abs(value)))} digits is too large for a number"
                ) from None


def _checked(text: str, decode: Callable[[str], Any]) -> Any:
    doc = decode(text)
    refuse_huge_integers(text, doc)
    # Only a \u escape can make a lone surrogate (the text itself is Unicode), and a frame
    # with at most MAX_DEPTH brackets cannot nest deeper: the walk is for the rest.
    if "\\u" in text or text.count("{") + text.count("[") > strictjson.MAX_DEPTH:
        strictjson.check(doc)
    return doc


def within(target: object, value: object) -> bool:
    """Whether ``target`` is ``value`` or nested in it (only asked when a name repeats, of a
    frame already checked to nest at most ``strictjson.MAX_DEPTH`` deep)."""
    if value is target:
        return True
    if isinstance(value, dict):
        value = list(value.values())
    return isinstance(value, list) and any(within(target, v) for v in value)
