"""Why a file cannot be watched: typed errors with the plain words the replay screen shows.

Each is a ``PointlineError`` (the project's one tree) with a ``ReplayCode``; ``text`` never
holds Python's own error text (errno, codec, repr): only what a player can act on.
"""

from __future__ import annotations

from enum import StrEnum

from pointline.kernel import PointlineError

__all__ = ["ReplayCode", "ReplayError", "unreadable_words"]


class ReplayCode(StrEnum):
    UNREADABLE = "replay_unreadable"
    """The file cannot be opened or read (missing, no permission, not text)."""
    DAMAGED = "replay_damaged"
    """A transcript, but a line of it is not a whole record (cut off, edited by hand)."""
    FOREIGN = "replay_foreign"
    """Not a Pointline transcript or solo session at all."""
    NEWER = "replay_newer"
    """Written by a newer Pointline whose protocol version this one does not know."""
    NO_REPLAY = "replay_not_kept"
    """A solo session saved before replays were kept."""


class ReplayError(PointlineError):
    """The file cannot be watched; ``code`` says why and ``text`` says it in plain words."""

    code: ReplayCode

    def __init__(self, code: ReplayCode, text: str) -> None:
        super().__init__(code, text)


def unreadable_words(error: OSError) -> str:
    """Why a file cannot be opened, in words a player can act on (issue 38, finding 8: it said
    only "This file cannot be opened."); never the system's own error text."""
    if isinstance(error, FileNotFoundError):
        why = "there is no file there any more (moved, renamed or deleted)"
    elif isinstance(error, IsADirectoryError):
        why = "it is a folder, not a saved session"
    elif isinstance(error, PermissionError):
        why = "this app is not allowed to read it"
    else:
        why = "the system could not read it"
    return f"This file cannot be opened: {why}."
