"""Words a player must never meet, as rules over text (issue 30 finding 9).

``faults(text)`` names every rule a string breaks: Python's error words (errno, codecs, the
websockets URI message, exception class names, tracebacks), reprs (quoted containers, ``None``,
``<... object at 0x...>``, bytes), snake_case codes, and a plural after one ("1 throws"). File
paths (anything holding a slash) are set aside first: a folder may be named ``test_x``.
"""

from __future__ import annotations

import re

__all__ = ["RULES", "faults"]

_NOUNS = (
    "throw|hand|seat|point|player|message|record|session|second|minute|chip|receipt|room|"
    "byte|line|attempt|member|transcript|step|unit|game|sign|request"
)
RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("errno text", re.compile(r"\[Errno|\bErrno\b|\berrno\b")),
    (
        "a codec's words",
        re.compile(r"\bcodec\b|can't (?:de|en)code|'utf-?8'|invalid (?:start|continuation) byte"),
    ),
    ("Python's socket words", re.compile(r"Connect call failed|\bgaierror\b")),
    ("the websockets URI words", re.compile(r"isn't a valid URI|scheme isn't ws")),
    ("Python's JSON words", re.compile(r"Expecting value|Unterminated string|\(char \d+\)")),
    ("an exception's name", re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b|Traceback")),
    (
        "a repr",
        re.compile(
            r"[\[({]\s*'|'\s*[\])}]|(?:[:=,(\[]\s*|\bis )None\b|<[\w.]+ object at 0x|\bb'|"
            r"0x[0-9a-f]{2}|\[-?\d+(?:, -?\d+)+\]"
        ),
    ),
    ("a snake_case code", re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")),
    ("an arrow for a transition", re.compile(r"->")),
    ("a plural after one", re.compile(rf"(?<![\d.,])\b1 (?:{_NOUNS})s\b", re.IGNORECASE)),
)


def faults(text: str) -> list[str]:
    """The rules ``text`` breaks (markup and file paths set aside), each once."""
    plain = re.sub(r"<[^>]*>", " ", text)
    words = " ".join(w for w in plain.split() if "/" not in w and "\\" not in w)
    return [name for name, rule in RULES if rule.search(words)]
