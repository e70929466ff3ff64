"""The record to come back to: every finished solo session, kept in the app's data folder.

Each session is one small JSON file in ``<data folder>/stats/``, named by when it finished and
its session id, written atomically (a temporary file in the same folder, flushed to disk, then
renamed over the final name). So a crash mid-write leaves the old files as they were, a corrupt
file costs only itself, and the same session is never recorded twice (its name is taken).

A session is recorded when it finishes: complete (five resolved hands, with its final points)
or ended without a result (128 throws, going to the background, or the person leaving it: a
new session or closing the app mid-session; the card rules out resuming it later). What is
kept: the hands resolved, the throws, wins by line, the final points, the longest point run
(the most throws one point stayed ON) and the balance chart's samples.

Reading never raises for a bad file: unreadable files are listed by name in plain words and
left untouched on disk, and every readable session is still shown.

The record itself (``SessionRecord``, ``SavedThrow``: the file's format, read and checked) is the
kernel's (``kernel.solo_record``), so ``pointline verify`` reads it without importing the app;
this module builds a record from a table and keeps the files.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pointline.gui.errors import StatsCode, StatsError

if TYPE_CHECKING:
    from pointline.gui.session import Reveal
from pointline.gui.history import chart_samples, reason_words
from pointline.kernel import (
    Abort,
    EndReason,
    Line,
    Outcome,
    Phase,
    SavedThrow,
    SessionRecord,
    Settled,
    Table,
    ThrowSeen,
)

__all__ = [
    "STATS_FOLDER",
    "Loaded",
    "SavedThrow",
    "SessionRecord",
    "StatsCode",
    "StatsError",
    "StatsStore",
    "record_of",
    "write_atomically",
]

STATS_FOLDER = "stats"
SEAT = 0
LEFT_NEW_SESSION = "you started a new session before this one finished"
LEFT_CLOSED = "you closed the app before this session finished"


def record_of(
    table: Table,
    session_id: str,
    when: datetime | None = None,
    left: str = LEFT_CLOSED,
    reveals: Sequence[Reveal] | None = None,
) -> SessionRecord:
    """The record of ``table``'s session. A session still in play counts as ended without a
    result because the person left it (``left`` says how): its hand in flight is voided on a
    copy, exactly as the kernel voids it, so its final points are what an ending returns."""
    finished = table
    reason = ""
    if not table.is_over:
        finished = table.copy()
        finished.push(Abort(EndReason.DEPARTURE, SEAT))
        reason = left
    elif finished.ending is not None:
        reason = reason_words(finished.ending.reason)
    ledger = finished.seat(SEAT).ledger
    wins = {Line.PASS: 0, Line.DONT_PASS: 0}
    run = best = 0
    for entry in ledger:
        if isinstance(entry, Settled) and entry.outcome is Outcome.WIN:
            wins[entry.line] += 1
        elif isinstance(entry, ThrowSeen):
            run = run + 1 if entry.phase is Phase.POINT else 0
            best = max(best, run)
    moment = (when or datetime.now(UTC)).astimezone(UTC)
    return SessionRecord(
        session_id=session_id,
        finished=f"{moment:%Y-%m-%dT%H:%M:%SZ}",
        complete=finished.phase is Phase.COMPLETE,
        reason=reason,
        hands=finished.hands_resolved,
        throws=finished.throws,
        wins_pass=wins[Line.PASS],
        wins_dont_pass=wins[Line.DONT_PASS],
        final_points=finished.balance(SEAT),
        longest_point_run=best,
        chart=tuple(chart_samples(ledger)),
        replay=None
        if reveals is None
        else tuple(
            SavedThrow(r.throw_index, r.digest.hex(), r.nonce.hex(), r.choices.decode(), r.dice)
            for r in reveals
        ),
        table_id=table.table_id,
    )


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a reader sees the old file or the new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@dataclass(frozen=True, slots=True)
class Loaded:
    """The sessions read (newest first) and, in plain words, what could not be read."""

    records: tuple[SessionRecord, ...]
    problem: str


class StatsStore:
    """The session records in one folder (``<data folder>/stats``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _name(self, record: SessionRecord) -> str:
        stamp = record.finished.replace("-", "").replace(":", "")
        safe = "".join(c for c in record.session_id if c.isalnum() or c in "-_")[:40] or "x"
        return f"{stamp}-{safe}.json"

    def add(self, record: SessionRecord) -> bool:
        """Save ``record``; False when this session is already recorded. ``StatsError`` (with
        plain words) when it cannot be saved; nothing already saved is touched either way."""
        path = self.folder / self._name(record)
        try:
            if path.exists():
                return False
            write_atomically(path, json.dumps(record.to_json(), indent=1) + "\n")
        except OSError as error:
            reason = error.strerror or type(error).__name__
            raise StatsError(
                f"This session could not be saved to Stats ({reason}, in {self.folder})."
            ) from error
        return True

    def load(self) -> Loaded:
        """Every readable session, newest first; never raises for a bad or unreadable file."""
        try:
            if self.folder.exists() and not self.folder.is_dir():
                return Loaded((), f"Stats could not be read: {self.folder} is not a folder.")
            paths = sorted(self.folder.glob("*.json"))
        except OSError as error:
            return Loaded((), f"Stats could not be read ({error.strerror or error}).")
        records: list[SessionRecord] = []
        bad: list[str] = []
        for path in paths:
            try:
                records.append(SessionRecord.from_json(json.loads(path.read_text("utf-8"))))
            except (OSError, UnicodeDecodeError, ValueError, TypeError):
                bad.append(path.name)
        records.sort(key=lambda r: (r.finished, r.session_id), reverse=True)
        problem = ""
        if bad:
            files = ", ".join(bad[:3]) + (f" and {len(bad) - 3} more" if len(bad) > 3 else "")
            some = "1 saved session" if len(bad) == 1 else f"{len(bad)} saved sessions"
            problem = (
                f"{some} could not be read and {'was' if len(bad) == 1 else 'were'} left as "
                f"{'it is' if len(bad) == 1 else 'they are'} ({files} in {self.folder}); "
                "every other session is shown."
            )
        return Loaded(tuple(records), problem)
