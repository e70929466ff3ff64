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


def test_the_readme_names_every_environment_tox_runs() -> None:
    """README's "tox runs …" sentence lists each env of tox.ini's env_list (issue 30: it left
    out online-conformance)."""
    import configparser

    tox = configparser.ConfigParser()
    tox.read(ROOT / "tox.ini", encoding="utf-8")
    envs = [e.strip() for e in tox["tox"]["env_list"].split(",")]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    runs = readme.split("## tox environments", 1)[1].split("\n- ", 2)[1]  # its first item
    assert runs.startswith("`tox` runs")
    named = set(re.findall(r"`([\w-]+)`", runs))
    assert [env for env in envs if env not in named] == []
