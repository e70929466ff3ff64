"""How a count is written for a player: "1 throw", "2 throws", "1,000 points".

One helper for every screen and report (Stats, verify, the online results): a count and its
noun are never glued by hand, so no "1 throws" reaches a player.
"""

from __future__ import annotations

__all__ = ["counted"]

_IRREGULAR = {"was": "were", "hand in flight": "hands in flight"}


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` (with thousands separators) and ``noun``, plural unless ``n`` is 1 or -1."""
    many = plural if plural is not None else _IRREGULAR.get(noun, noun + "s")
    return f"{n:,} {noun if abs(n) == 1 else many}"
