"""A solo session as Stats keeps it, read and checked: pure, no file opened here.

The app's Stats view saves each finished solo session as one JSON object (``SessionRecord``):
its summary (hands, throws, final points, ...) and, for every throw, what a replay needs
(``SavedThrow``: the seat's commitment, its nonce and choices, and the dice thrown). This module
is the one reader of that object (``read_solo_record`` for its text, ``SessionRecord.from_json``
for a parsed document) and the one check of it (``check_solo``): every throw's choices are
applied to a kernel table, its nonce and choices must give the commitment made before it
(``kernel.dice.verify_commitment``), its dice are derived again from the nonce
(``kernel.dice.dice_trace``) and must be the saved ones, and the throws, hands, result and final
points of the replayed table must be the record's. Solo play has one seat and no relay: there is
no signature to check. The app (``gui.stats``, ``gui.replay``) and ``pointline verify`` both use
it, so neither layer imports the other.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from typing import Any

from pointline.kernel.actions import Abort, Throw
from pointline.kernel.choice import Choice, plan
from pointline.kernel.dice import NONCE_BYTES, PROTOCOL_VERSION, dice_trace, verify_commitment
from pointline.kernel.errors import PointlineError, SoloRecordError
from pointline.kernel.strictjson import loads
from pointline.kernel.table import Table
from pointline.kernel.values import EndReason, Phase
from pointline.kernel.words import counted

__all__ = [
    "SOLO_RECORD_VERSION",
    "SavedThrow",
    "SessionRecord",
    "SoloCheck",
    "check_solo",
    "read_solo_record",
]

SOLO_RECORD_VERSION = 1
_SEAT = 0
_DIGEST_HEX = 64


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """One finished solo session as the Stats view shows it."""

    session_id: str
    finished: str
    """When it finished, ISO 8601 in UTC (``2026-12-03T13:05:00Z``)."""
    complete: bool
    """Five hands resolved (True), or ended without a result (False: see ``reason``)."""
    reason: str
    hands: int
    throws: int
    wins_pass: int
    wins_dont_pass: int
    final_points: int
    longest_point_run: int
    chart: tuple[int, ...]
    replay: tuple[SavedThrow, ...] | None = None
    """What a replay needs of each throw (its nonce, commitment and choices); None for a
    session saved before replays were kept."""
    table_id: str = "solo"

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["chart"] = list(self.chart)
        if self.replay is None:
            del out["replay"]
        else:
            out["replay"] = [t.to_json() for t in self.replay]
        return {"version": SOLO_RECORD_VERSION, **out}

    @classmethod
    def from_json(cls, data: object) -> SessionRecord:
        """Rebuild a record; ``SoloRecordError`` (a ``ValueError``) for anything that is not
        one, its words saying which part is wrong."""
        if not isinstance(data, dict) or data.get("version") != SOLO_RECORD_VERSION:
            raise SoloRecordError("it is not a version 1 session record")
        kinds = {"session_id": str, "finished": str, "complete": bool, "reason": str}
        values: dict[str, Any] = {}
        for field in fields(cls):
            value = data.get(field.name)
            if field.name == "replay":
                if value is not None:
                    if not isinstance(value, list):
                        raise SoloRecordError("its replay is not a list of throws")
                    value = tuple(SavedThrow.from_json(t) for t in value)
            elif field.name == "table_id":
                value = "solo" if value is None else value
                if not isinstance(value, str):
                    raise SoloRecordError("its table id is not text")
            elif field.name == "chart":
                if not isinstance(value, list) or not all(_is_int(v) for v in value):
                    raise SoloRecordError("its chart is not a list of whole numbers")
                value = tuple(value)
            elif field.name in kinds:
                if not isinstance(value, kinds[field.name]):
                    raise SoloRecordError(f"its {field.name.replace('_', ' ')} has the wrong type")
            elif not (_is_int(value) and isinstance(value, int) and value >= 0):
                raise SoloRecordError(f"its {field.name.replace('_', ' ')} is not a whole number")
            values[field.name] = value
        try:
            _parse_time(values["finished"])
        except ValueError:
            raise SoloRecordError("its finishing time is not a time") from None
        return cls(**values)


@dataclass(frozen=True, slots=True)
class SavedThrow:
    """One solo throw as a replay needs it: the seat's commitment, its nonce and choices (the
    dice are re-derived from them when watched; ``dice`` is what was thrown then)."""

    throw: int
    commitment: str
    nonce: str
    choices: str
    dice: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "throw": self.throw,
            "commitment": self.commitment,
            "nonce": self.nonce,
            "choices": self.choices,
            "dice": list(self.dice),
        }

    @classmethod
    def from_json(cls, data: object) -> SavedThrow:
        if not isinstance(data, dict) or set(data) != {
            "throw",
            "commitment",
            "nonce",
            "choices",
            "dice",
        }:
            raise SoloRecordError("a saved throw names throw, commitment, nonce, choices and dice")
        throw, dice = data["throw"], data["dice"]
        texts = (data["commitment"], data["nonce"], data["choices"])
        if not _is_int(throw) or not all(isinstance(t, str) for t in texts):
            raise SoloRecordError("a saved throw has the wrong types")
        if not isinstance(dice, list) or len(dice) != 2 or not all(_is_int(d) for d in dice):
            raise SoloRecordError("a saved throw's dice are two whole numbers")
        return cls(throw, texts[0], texts[1], texts[2], (dice[0], dice[1]))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_time(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def read_solo_record(text: str) -> SessionRecord:
    """The solo record written as ``text`` (a Stats file's content); ``SoloRecordError`` in
    plain words when it is not strict JSON or not a session record."""
    try:
        doc = loads(text)
    except PointlineError:
        raise SoloRecordError("it is not whole JSON (cut off or damaged)") from None
    return SessionRecord.from_json(doc)


@dataclass(frozen=True, slots=True)
class SoloCheck:
    """What ``check_solo`` found: ``problem`` is None when every throw and the summary agree."""

    checked: int
    """Throws whose commitment, nonce, choices and dice all agree (before any problem)."""
    problem: str | None
    table: Table
    """The kernel table after the checked throws: the session played again."""


def check_solo(record: SessionRecord) -> SoloCheck:
    """Replay ``record``'s saved throws through the kernel; the first discrepancy in words.

    A record saved before replays were kept (``replay`` None) has nothing to check: the caller
    says so (``checked`` 0, no problem)."""
    table = Table(seats=1, table_id=record.table_id)
    saved = record.replay or ()
    for number, one in enumerate(saved, start=1):
        problem = _play(table, number, one, record.table_id)
        if problem is not None:
            return SoloCheck(number - 1, f"throw {number}: {problem}", table)
    if record.replay is None:
        return SoloCheck(0, None, table)
    return SoloCheck(len(saved), _summary_problem(record, table), table)


def _play(table: Table, number: int, one: SavedThrow, table_id: str) -> str | None:
    """Push throw ``number`` (its choices, then its dice) onto ``table``, or say why not."""
    if one.throw != number:
        return f"the record numbers it throw {one.throw}"
    try:
        digest, nonce = bytes.fromhex(one.commitment), bytes.fromhex(one.nonce)
        choice_bytes = one.choices.encode("ascii")
    except (ValueError, UnicodeEncodeError):
        return "its commitment, nonce or choices are not the hex and text the app saves"
    if len(digest) * 2 != _DIGEST_HEX or len(nonce) != NONCE_BYTES:
        return "its commitment or nonce has the wrong length"
    if not verify_commitment(
        digest, table_id, number, _SEAT, nonce, choice_bytes, PROTOCOL_VERSION
    ):
        return "its nonce and choices do not give the commitment made before the throw"
    try:
        for action in plan(table, _SEAT, Choice.from_bytes(choice_bytes)):
            table.push(action)
        trace = dice_trace(table_id, number, [nonce], PROTOCOL_VERSION)
    except PointlineError as error:
        return f"the rules refuse its choices here ({error.text})"
    derived = (trace.die1, trace.die2)
    if tuple(one.dice) != derived:
        return (
            f"the record says dice {one.dice[0]} and {one.dice[1]}; its nonce gives "
            f"{derived[0]} and {derived[1]}"
        )
    try:
        table.push(Throw(*derived))
    except PointlineError:
        return "the session was already over"
    return None


def _summary_problem(record: SessionRecord, table: Table) -> str | None:
    """Whether the record's summary is what the replayed throws give. A session the person
    left is voided as the app voids it (``gui.stats.record_of``): final points are the same
    whichever reason ended it, since an ending never settles the hand in flight."""
    finished = table
    if not table.is_over:
        finished = table.copy()
        finished.push(Abort(EndReason.DEPARTURE, _SEAT))
    complete = finished.phase is Phase.COMPLETE
    for said, replayed in (
        (counted(record.throws, "throw"), counted(finished.throws, "throw")),
        (
            f"{counted(record.hands, 'hand')} resolved",
            f"{counted(finished.hands_resolved, 'hand')} resolved",
        ),
        (_done(record.complete), _done(complete)),
        (f"final points {record.final_points:,}", f"final points {finished.balance(_SEAT):,}"),
    ):
        if said != replayed:
            return f"the record says {said}; the replayed throws give {replayed}"
    return None


def _done(complete: bool) -> str:
    return "complete" if complete else "ended without a result"
