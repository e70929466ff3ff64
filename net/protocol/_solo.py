"""``pointline verify`` on a solo session saved by Stats: the record is the kernel's
(``kernel.solo_record``: read, and every throw re-derived and replayed by ``check_solo``); this
module only says what the check found, as a ``Report`` like a transcript's. Pure: no file."""

from __future__ import annotations

from pointline.kernel import (
    SessionRecord,
    SoloRecordError,
    check_solo,
    counted,
    read_solo_record,
)
from pointline.net.protocol._report import Report

__all__ = ["SOLO_PLAYERS", "looks_solo", "solo_report"]

SOLO_PLAYERS = (
    "no signatures to check: solo play has one seat and no relay, so this shows that the dice "
    "came from the nonces committed before each throw, not who played"
)
"""verify's players line for a solo record (where a transcript names who played)."""


def looks_solo(text: str) -> bool:
    """Whether ``text`` is meant as a solo record: Stats writes one JSON object over many lines
    (its first line is ``{``), where a transcript's first line is a whole header record. A
    one-line object that names a ``session_id`` and no record ``kind`` counts too."""
    first = text.lstrip().split("\n", 1)[0].strip()
    if first == "{":
        return True
    return first.startswith("{") and '"session_id"' in first and '"kind"' not in first


def solo_report(text: str) -> Report | None:
    """The report on the solo record ``text``; None when ``text`` is not meant as one (the
    caller reads it as a transcript). Never raises: a damaged record is a FAIL in plain words."""
    if not looks_solo(text):
        return None
    try:
        record = read_solo_record(text)
    except SoloRecordError as error:
        return Report(False, "", f"a solo session saved by Stats, but damaged: {error.text}")
    if record.replay is None:
        return Report(
            True,
            f"solo session {record.session_id}: saved before replays were kept, so its dice "
            "cannot be checked",
            status=_status(record),
            table_id=record.table_id,
            seats=1,
            players=SOLO_PLAYERS,
        )
    check = check_solo(record)
    if check.problem is not None:
        return Report(
            False,
            "",
            f"solo session {record.session_id}: {check.problem}",
            throws=check.checked,
            table_id=record.table_id,
            seats=1,
            players=SOLO_PLAYERS,
        )
    result = "complete" if record.complete else "ended without a result"
    summary = (
        f"solo session {record.session_id}, table {record.table_id}: "
        f"{counted(record.throws, 'throw')}, {counted(record.hands, 'hand')} resolved, "
        f"{result}, final points {record.final_points:,}; every throw's dice derived again "
        "from its saved nonce, which matches the commitment made before the throw, and the "
        "rules replayed on those dice give the saved result"
    )
    lines = tuple(
        f"throw {t.throw}: {t.dice[0]} + {t.dice[1]} = {t.dice[0] + t.dice[1]}, "
        "derived from its nonce"
        for t in record.replay
    )
    return Report(
        True,
        summary,
        throw_lines=lines,
        throws=record.throws,
        status=_status(record),
        final=(record.final_points,),
        complete=True,
        table_id=record.table_id,
        seats=1,
        players=SOLO_PLAYERS,
    )


def _status(record: SessionRecord) -> str:
    return "complete" if record.complete else "ended"
