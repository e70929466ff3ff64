"""Fixtures for the relay/online tests: a private data folder and an asyncio runner.

No pytest-asyncio here: each test calls ``run(coro)``, which runs it on a fresh loop under a
hard timeout. Transcripts go to a temporary ``POINTLINE_DATA_DIR``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
    """Run ``coro`` on a new event loop, failing after ``timeout`` seconds."""

    async def bounded() -> T:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(bounded())


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("POINTLINE_DATA_DIR", str(folder))
    return folder
