"""Texts that strict JSON refuses, one table for every layer's tests (kernel, net)."""

from __future__ import annotations

from pointline.kernel.strictjson import MAX_DEPTH

BAD_TEXTS: dict[str, str | bytes] = {
    "duplicate": '{"a":1,"a":2}',
    "nested duplicate": '{"a":[{"b":1,"b":1}]}',
    "nan": '{"a":NaN}',
    "infinity": '{"a":-Infinity}',
    "deep": "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    "very deep": '{"a":' + "[" * 100_000 + "]" * 100_000 + "}",
    "surrogate": '{"a":"\\ud800"}',
    "surrogate key": '{"\\udfff":1}',
    "not utf-8": b'{"a":"\xff"}',
    "truncated": '{"a":',
}
"""Each way a text breaks strict JSON: a name, the text (bytes where it is not UTF-8)."""

BAD_STRINGS = {name: text for name, text in BAD_TEXTS.items() if isinstance(text, str)}
"""The ones that are Python strings (a frame or a transcript line embeds them)."""
