"""The online table's tests: each runs with ``online_env`` (no test asks for it by name)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.gui.online_window import delete_windows


@pytest.fixture(autouse=True)
def online_env(qapp: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private ``POINTLINE_DATA_DIR`` (transcripts and pinned relays land there), results shown
    at once (a test about the result moment turns motion on), and, after the test's loop is
    gone, every ``Window``'s engine deleted while its bridge is still alive."""
    folder = tmp_path / "data"
    monkeypatch.setenv("POINTLINE_DATA_DIR", str(folder))
    monkeypatch.setenv("POINTLINE_REDUCE_MOTION", "1")
    yield folder
    delete_windows(qapp)
