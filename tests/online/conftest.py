"""Fixtures for the online conformance tests: the checkout's vectors, for subprocesses too
(an installed package need not carry them)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

VECTORS = Path(__file__).resolve().parents[2] / "conformance" / "online" / "vectors"


@pytest.fixture
def vectors() -> Path:
    """The committed vectors of this checkout."""
    return VECTORS


@pytest.fixture
def vectors_env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment for a harness subprocess: it reads this checkout's vectors."""
    monkeypatch.setenv("POINTLINE_ONLINE_VECTORS", str(VECTORS))
    return dict(os.environ)
