"""README's pictures are files the repository holds."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_picture_the_readme_shows_exists() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pictures = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", readme)
    assert len(pictures) >= 10
    assert [p for p in pictures if not (ROOT / p).is_file()] == []
    assert "docs/screenshots/online-table-844x390.png" in pictures
