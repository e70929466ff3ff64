"""The installed PySide6 keeps Python's reference counts when a signal is emitted.

PySide6 6.12.0 drops a reference to ``True`` or ``False`` on every ``emit()``: the table emits
``changed`` on every action, so a long session (or this test suite) ends with CPython's
"bool_dealloc: deallocating True or False" abort. pyproject.toml excludes that release; this
test fails on any PySide6 that does it again.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import Property, QObject, Signal


class _Counter(QObject):
    changed = Signal()
    named = Signal(str)
    value = Property(int, lambda self: 1, notify=changed)


def _bools() -> int:
    return sys.getrefcount(True) + sys.getrefcount(False)


def test_emitting_signals_keeps_bool_reference_counts(qapp) -> None:
    source = _Counter()
    heard: list[str] = []
    source.named.connect(heard.append)
    before = _bools()
    for _ in range(500):
        source.changed.emit()
        source.named.emit("x")
    after = _bools()
    assert len(heard) == 500
    assert after - before >= -5, f"{before - after} references to True/False lost in 1,000 emits"
