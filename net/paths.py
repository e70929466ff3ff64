"""Where Pointline keeps the user's files: the data folder and transcript file names.

The folder is ``$POINTLINE_DATA_DIR`` when set (tests use it). Else, on Android and iOS, or
wherever the home folder is unknown (Android starts apps without ``HOME``), it is the folder the
app was given with :func:`set_app_data_dir`: the GUI passes Qt's
``QStandardPaths.writableLocation(AppDataLocation)`` at start-up (this module never imports
Qt). Else it is the platform's user data folder: ``%APPDATA%\\Pointline`` on Windows,
``~/Library/Application Support/Pointline`` on macOS, ``$XDG_DATA_HOME/pointline`` (default
``~/.local/share/pointline``) elsewhere.

A leaf module that does no networking (the standard library only): solo play uses it too (Stats,
the guide, the CLI), and loads nothing else of ``pointline.net`` but its errors
(tests/gui/test_gui_solo_loads_no_net.py).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

__all__ = [
    "ENV_DATA_DIR",
    "MOBILE_PLATFORMS",
    "TRANSCRIPTS",
    "TRANSCRIPT_SUFFIX",
    "AppDataDir",
    "data_dir",
    "safe_part",
    "set_app_data_dir",
    "transcript_name",
    "transcript_path",
    "transcripts_dir",
]

ENV_DATA_DIR = "POINTLINE_DATA_DIR"
MOBILE_PLATFORMS = ("android", "ios")
"""``sys.platform`` values whose only writable folder is the one the app is given."""
TRANSCRIPTS = "transcripts"
TRANSCRIPT_SUFFIX = ".jsonl"

_SAFE = re.compile(r"[^A-Za-z0-9_-]+")


AppDataDir = str | os.PathLike[str] | Callable[[], str | os.PathLike[str] | None] | None
_app_data_dir: AppDataDir = None


def set_app_data_dir(folder: AppDataDir) -> None:
    """Give the folder the app framework assigned to this app (``None`` forgets it).

    ``folder`` may be a callable, asked only when a file is first written (Qt answers
    ``QStandardPaths`` reliably once its application object exists). An empty answer counts as
    none. It is used on Android and iOS, and wherever the home folder is unknown.
    """
    global _app_data_dir
    _app_data_dir = folder


def _given_app_data_dir() -> Path | None:
    folder = _app_data_dir() if callable(_app_data_dir) else _app_data_dir
    return Path(folder) if folder else None


def _home_known() -> bool:
    if sys.platform == "win32":
        return bool(os.environ.get("APPDATA") or os.environ.get("USERPROFILE"))
    return bool(os.environ.get("HOME"))


def data_dir(create: bool = True) -> Path:
    """The user data folder (created unless ``create`` is false)."""
    override = os.environ.get(ENV_DATA_DIR)
    given = None
    if not override and (sys.platform in MOBILE_PLATFORMS or not _home_known()):
        given = _given_app_data_dir()
    if override:
        path = Path(override)
    elif given is not None:
        path = given
    elif sys.platform == "win32":
        base = os.environ.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
        path = Path(base) / "Pointline"
    elif sys.platform == "darwin":
        path = Path.home() / "Library" / "Application Support" / "Pointline"
    else:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        path = Path(base) / "pointline"
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


def transcripts_dir(create: bool = True) -> Path:
    """The folder holding saved online transcripts."""
    path = data_dir(create) / TRANSCRIPTS
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


def safe_part(text: str) -> str:
    """``text`` reduced to letters, digits, ``_`` and ``-`` (never empty)."""
    return _SAFE.sub("_", text).strip("_") or "x"


def transcript_name(table_id: str, seat: int, when: datetime | None = None) -> str:
    """``YYYYmmddTHHMMSSZ-<table>-seat<N>.jsonl``: sortable by time, unique per seat and table.

    ``seat`` is the protocol's (from 0); ``N`` counts from 1, as people read seats (Seat 2's file
    ends ``-seat2.jsonl``)."""
    moment = (when or datetime.now(UTC)).astimezone(UTC)
    return f"{moment:%Y%m%dT%H%M%SZ}-{safe_part(table_id)}-seat{seat + 1}{TRANSCRIPT_SUFFIX}"


def transcript_path(table_id: str, seat: int, when: datetime | None = None) -> Path:
    """A fresh path for one seat's transcript of one table (never overwrites an older one)."""
    folder = transcripts_dir()
    path = folder / transcript_name(table_id, seat, when)
    stem, n = path.stem, 1
    while path.exists():
        path = folder / f"{stem}-{n}{TRANSCRIPT_SUFFIX}"
        n += 1
    return path
