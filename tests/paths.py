"""Where the checkout's files are, for tests that read them (not the installed package's copy)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The repository root (the folder holding pyproject.toml)."""
FIXTURES = ROOT / "conformance" / "fixtures"
"""The committed conformance fixtures (the app wheel ships none)."""
