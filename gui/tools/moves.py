"""Moves the scenes play: a reproducible nonce source and a draft on both lines."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable
from typing import Any

__all__ = ["counter_nonces", "draft"]


def counter_nonces(label: bytes) -> Callable[[], bytes]:
    """A reproducible nonce source: SHA-256 of a label and a counter (tests and scenes only)."""
    count = itertools.count()
    return lambda: hashlib.sha256(label + next(count).to_bytes(8, "big")).digest()


def draft(bridge: Any, pass_amount: int, dont_pass: int) -> None:
    bridge.selectLine("pass")
    for _ in range(pass_amount // 10):
        bridge.act("allocate")
    bridge.selectLine("dont_pass")
    for _ in range(dont_pass // 10):
        bridge.act("allocate")
