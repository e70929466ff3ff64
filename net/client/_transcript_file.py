"""A transcript on disk: written as the session goes (``TranscriptWriter``), saved whole
(``save_transcript``), read back (``read_records``, ``load_transcript``).

The transcript's records, chain and text are ``net.protocol``'s, which opens no file; this
module is where they meet the file system, with every ``OSError`` turned into a
``TranscriptError`` in plain words.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from pointline.net.errors import NetCode, TranscriptError
from pointline.net.protocol._transcript import Record, Transcript, lines_text, parse_records

__all__ = [
    "TranscriptWriteError",
    "TranscriptWriter",
    "load_transcript",
    "read_records",
    "read_text",
    "save_transcript",
    "write_atomically",
]


def save_transcript(transcript: Transcript, path: str | os.PathLike[str]) -> Path:
    """Write every record of ``transcript`` to ``path`` atomically: temporary file, fsync,
    rename."""
    target = Path(path)
    write_atomically(target, transcript.text())
    return target


def load_transcript(path: str | os.PathLike[str]) -> Transcript:
    """Read a saved transcript; raises ``TranscriptError`` unless its chain holds."""
    return Transcript.from_records(read_records(path))


def write_atomically(target: Path, text: str) -> None:
    """``target`` holds ``text`` or is untouched: a temporary file beside it, fsync, rename
    (the temporary file is removed on any error, which is raised)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class TranscriptWriteError(TranscriptError, code=NetCode.TRANSCRIPT_WRITE):
    """The transcript file could not be written (disk full, permissions, a removed folder)."""


class TranscriptWriter:
    """Puts a session's records on disk as they happen: ``write(records)`` appends each one
    and flushes, so an abort path or a crash never loses what came before.

    The first ``write`` creates the file atomically (temporary file, fsync, rename). Any
    ``OSError`` becomes ``TranscriptWriteError``; the writer is then ``failed``: it writes
    nothing more and leaves the records written so far in place.
    """

    __slots__ = ("_file", "failed", "path", "written")

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._file: IO[bytes] | None = None
        self.failed: str | None = None
        self.written = 0

    def write(self, records: Sequence[Record]) -> None:
        if self.failed is not None or not records:
            return
        try:
            if self._file is None:
                self._create(records)
            else:
                _write_all(self._file, lines_text(records).encode("utf-8"))
        except OSError as error:
            self.failed = f"{error.strerror or error} ({self.path})"
            self._close_quietly()
            raise TranscriptWriteError(
                f"the transcript could not be written: {self.failed}"
            ) from None
        self.written += len(records)

    def _create(self, records: Sequence[Record]) -> None:
        write_atomically(self.path, lines_text(records))
        # unbuffered: each write is one system call that puts the records in the file
        self._file = open(self.path, "ab", buffering=0)  # noqa: SIM115

    def close(self) -> None:
        """fsync and close the file (errors here lose nothing already written)."""
        if self._file is not None:
            with contextlib.suppress(OSError):
                os.fsync(self._file.fileno())
            self._close_quietly()

    def _close_quietly(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None


def _write_all(file: IO[bytes], data: bytes) -> None:
    """Write every byte of ``data`` to the unbuffered ``file`` (a raw write may take only part,
    as a nearly full disk does before it refuses the rest with ``OSError``)."""
    view = memoryview(data)
    while view:
        written = file.write(view)
        if not written:
            raise OSError(errno.ENOSPC, "no byte could be written")
        view = view[written:]


def _os_words(error: OSError) -> str:
    """What the system says went wrong, in its own words, without "[Errno N]"."""
    words = error.strerror or "the system could not read it"
    return words[:1].lower() + words[1:]


def read_text(path: str | os.PathLike[str]) -> str:
    """A transcript file's text; raises ``TranscriptError`` in plain words."""
    try:
        with open(path, encoding="utf-8", newline="") as source:  # lines end in "\n" only
            return source.read()
    except FileNotFoundError:
        raise TranscriptError(f"there is no file {path}") from None
    except IsADirectoryError:
        raise TranscriptError(f"{path} is a folder, not a transcript") from None
    except PermissionError:
        raise TranscriptError(f"{path} cannot be opened: this user may not read it") from None
    except UnicodeDecodeError as error:
        raise TranscriptError(
            f"{path} is not a transcript: byte {error.start + 1} is not text"
        ) from None
    except OSError as error:  # a disk or network failure: its words, never its number
        raise TranscriptError(f"{path} cannot be read ({_os_words(error)})") from None


def read_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The JSON objects of a transcript file, one per line; raises ``TranscriptError``."""
    return parse_records(read_text(path))
