"""A solo session from Stats, watched again: its saved nonces and commitments re-derive every
throw's dice through the kernel. There are no signatures: solo play has one seat and no relay."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pointline.gui.replay.errors import ReplayCode, ReplayError
from pointline.gui.replay.model import RawThrow, SeatWords, Session, Verdict, Vouch, play_throws
from pointline.kernel import (
    SessionRecord,
    SoloRecordError,
    check_solo,
    counted,
    read_solo_record,
)

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["NOT_KEPT", "open_solo", "open_solo_file"]

NOT_KEPT = (
    "This session was saved before replays were kept: its dice cannot be shown again. "
    "Sessions played from now on can be watched."
)
SOLO_NAME = "You"


def open_solo(record: SessionRecord) -> Session:
    """The solo session of ``record`` to watch; ``ReplayError`` (NO_REPLAY) for an older one."""
    if record.replay is None:
        raise ReplayError(ReplayCode.NO_REPLAY, NOT_KEPT)
    raw: list[RawThrow] = []
    for saved in record.replay:
        try:
            digest, nonce = bytes.fromhex(saved.commitment), bytes.fromhex(saved.nonce)
        except ValueError:
            break  # the throws before it are still shown; the verdict names this one
        raw.append((saved.throw, [(0, digest, nonce, saved.choices.encode("utf-8"))], saved.dice))
    start, throws = play_throws(record.table_id, 1, raw)
    check = check_solo(record)  # the one check, pointline verify's too
    count = counted(len(record.replay), "throw")
    if check.problem is None:
        verdict = Verdict(
            "OK",
            f"solo session, {count}: every throw's dice re-derived from its saved nonce, "
            "which matches the commitment made before the throw",
            None,
            (SeatWords(0, SOLO_NAME, ""),),
            Vouch.NONE,
            "There are no signatures to check: solo play has one seat and no relay.",
        )
    else:
        verdict = Verdict(
            "FAIL",
            check.problem,
            None,
            (SeatWords(0, SOLO_NAME, ""),),
            Vouch.NONE,
            "There are no signatures to check: solo play has one seat and no relay.",
        )
        throws = tuple(t for t in throws if t.throw <= check.checked)
    return Session(record.table_id, 0, (SOLO_NAME,), verdict, throws, solo=True, start=start)


def open_solo_file(path: Path) -> Session | None:
    """The solo session saved in ``path`` (a Stats record), or None when it holds no such
    record (the caller then reads it as a transcript). ``ReplayError`` for an older record."""
    try:
        record = read_solo_record(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, SoloRecordError):
        return None
    return open_solo(record)
