"""A session watched again, without Qt: the verdict first, then every throw through the kernel.

``open_transcript(path)`` reads an online transcript. The verdict (OK, INCOMPLETE or FAIL, its
sentence, the first broken record, the seats with their verification words, who vouches for the
names) is ``pointline verify``'s own (``net.protocol._verify``): nothing here re-checks a
signature. The throws are then played again on a kernel ``Table``: each seat's revealed choice
sealed with ``kernel.plan``, the dice derived by ``kernel.dice_trace`` from the revealed nonces
(the trace is what "How were these dice made?" shows), each reveal checked against its
commitment with ``kernel.verify_commitment``. The seat view at any throw is
``gui.seat_view.seat_view`` of that table, the same function play uses.

A FAIL verdict shows only the throws recorded before the first broken record (none when the
file's chain or header is broken): nothing after a break is trusted enough to show. When the
break is a throw whose recorded dice are not the ones its reveals derive, that throw is shown
too, with the derived dice and the recorded ones beside them (``ReplayThrow.recorded``).

Nothing here opens a connection or writes a file: a replay is read-only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from pointline.gui.replay.errors import ReplayCode, ReplayError, unreadable_words
from pointline.gui.seat_view import SeatView, seat_view
from pointline.kernel import (
    MAX_SEATS,
    PROTOCOL_VERSION,
    Choice,
    DiceTrace,
    PointlineError,
    Table,
    Throw,
    dice_trace,
    plan,
    verify_commitment,
)

__all__ = [
    "UNCHECKED_NAMES",
    "ReplayThrow",
    "SeatReveal",
    "SeatWords",
    "Session",
    "Verdict",
    "Vouch",
    "open_transcript",
    "play_throws",
]


UNCHECKED_NAMES = (
    "Who played can't be checked here: the relay's key is not in this file, so the names are "
    "only what the file says."
)
"""The replay's words where ``pointline verify`` says who played cannot be checked without
``--relay-key``: a player's screen names no command-line flag (the terminal keeps verify's)."""


class Vouch(StrEnum):
    """Who vouches for the names at the table."""

    RELAY = "relay"
    """The relay's signature of the roster verified (its key was given)."""
    HOST = "host"
    """A hosted table's host: the relay's signature (its key was given) covers the host's name."""
    NONE = "none"
    """Nobody: the names are only what the file claims."""


@dataclass(frozen=True, slots=True)
class SeatWords:
    seat: int
    name: str
    """As the file claims it: shown as plain text, control characters escaped."""
    words: str
    """The seat key's verification words ("" for a solo session: there is no key)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    word: str
    """OK, INCOMPLETE or FAIL."""
    sentence: str
    """verify's own sentence (its summary, or the problem of a FAIL)."""
    record: int | None
    """For a FAIL: the first record that broke (None: the file as a whole)."""
    seats: tuple[SeatWords, ...]
    vouch: Vouch
    vouch_text: str
    """Who vouches for the names: verify's words, or ``UNCHECKED_NAMES`` where verify's would
    name its ``--relay-key`` flag."""
    note: str = ""
    """Plain words added to a FAIL: a damaged file, a newer version."""
    code: ReplayCode | None = None
    """Why the note is there (DAMAGED, NEWER), typed; None for verify's own FAIL or a pass."""


@dataclass(frozen=True, slots=True)
class SeatReveal:
    seat: int
    commitment: bytes | None
    nonce: bytes
    choice: Choice
    commitment_ok: bool
    """The reveal (nonce and choice) matches the commitment made before it."""


@dataclass(frozen=True, slots=True)
class ReplayThrow:
    throw: int
    hand: int
    reveals: tuple[SeatReveal, ...]
    trace: DiceTrace
    before: Table
    """The table as the throw's round opened (its phase and point are the throw's "at")."""
    sealed: Table
    """Every seat's choice sealed: the contracts the dice decide."""
    after: Table
    """The dice applied: settled contracts, balances, the next phase."""
    recorded: tuple[int, int] | None = None
    """The dice the file says were thrown, when they are not the derived ones (a FAIL's
    throw: the replay shows both)."""

    def refund(self, seat: int) -> int:
        """What a Don't Pass reduction sealed for this throw gave back to ``seat`` (0: none)."""
        if self.before.point is None:
            return 0
        was = self.before.contracts(seat).dont_pass_amount
        return max(0, was - self.sealed.contracts(seat).dont_pass_amount)


@dataclass(frozen=True)
class Session:
    """One watched session: the verdict, the throws, the names, and the view at each throw."""

    table_id: str
    me: int
    """Whose file it is (the seat its transcript was written by; 0 for solo)."""
    names: tuple[str, ...]
    verdict: Verdict
    throws: tuple[ReplayThrow, ...]
    solo: bool = False
    start: Table = field(default_factory=lambda: Table(seats=1))

    @property
    def seats(self) -> int:
        return len(self.names)

    def table_at(self, step: int) -> Table:
        """The table after ``step`` throws (0: before the first)."""
        return self.start if step <= 0 else self.throws[min(step, len(self.throws)) - 1].after

    def view(self, step: int, seat: int) -> SeatView:
        """What the seat view shows of ``seat`` after ``step`` throws; at a throw the lines show
        the contracts that throw decided (sealed), the rest the table after the dice."""
        table = self.table_at(step)
        if not 0 <= seat < table.seat_count:  # a roster the kernel cannot seat (a FAIL)
            return seat_view(None, -1)
        shown = seat_view(table, seat)
        if step <= 0 or not self.throws:
            return shown
        sealed = self.throws[min(step, len(self.throws)) - 1].sealed.contracts(seat)
        values = shown.values()
        values.update(
            contractPass=sealed.pass_amount,
            contractDontPass=sealed.dont_pass_amount,
            draftPass=sealed.pass_amount,
            draftDontPass=sealed.dont_pass_amount,
        )
        return SeatView(**values)

    def hands(self) -> tuple[int, ...]:
        """The hands that have throws, in order."""
        return tuple(dict.fromkeys(t.hand for t in self.throws))

    def first_step_of(self, hand: int) -> int:
        """The step (1-based) of the first throw of ``hand``; 0 when it has no throw."""
        for position, throw in enumerate(self.throws, start=1):
            if throw.hand == hand:
                return position
        return 0


RawThrow = tuple[int, Sequence[tuple[int, bytes | None, bytes, bytes]], tuple[int, int] | None]
"""A throw as a file records it: its index, each seat's (seat, commitment, nonce, choice bytes)
in seat order, and the dice the file says were thrown (None: not recorded)."""


def play_throws(
    table_id: str, seats: int, raw: Iterable[RawThrow], version: int = PROTOCOL_VERSION
) -> tuple[Table, tuple[ReplayThrow, ...]]:
    """The recorded throws played again on a kernel table, stopping at the first one the rules
    or the dice do not allow (the verdict says why; the replay shows what came before)."""
    start = Table(seats=seats, table_id=table_id) if table_id else Table(seats=seats)
    table = start.copy()
    played: list[ReplayThrow] = []
    for index, reveals, recorded in raw:
        if index != table.throws + 1 or [r[0] for r in reveals] != list(range(seats)):
            break
        before = table.copy()
        try:
            shown: list[SeatReveal] = []
            for seat, digest, nonce, choice_bytes in reveals:
                choice = Choice.from_bytes(choice_bytes)
                for action in plan(table, seat, choice):
                    table.push(action)
                ok = digest is not None and verify_commitment(
                    digest, table_id, index, seat, nonce, choice_bytes, version
                )
                shown.append(SeatReveal(seat, digest, nonce, choice, ok))
            trace = dice_trace(table_id, index, [r[2] for r in reveals], version)
        except PointlineError:
            break
        if recorded is not None and recorded != (trace.die1, trace.die2):
            sealed = table.copy()
            table.push(Throw(trace.die1, trace.die2))  # the rules on the derived dice
            played.append(
                ReplayThrow(
                    index, before.hand, tuple(shown), trace, before, sealed, table.copy(), recorded
                )
            )
            break
        sealed = table.copy()
        table.push(Throw(trace.die1, trace.die2))
        played.append(
            ReplayThrow(index, before.hand, tuple(shown), trace, before, sealed, table.copy())
        )
    return start, tuple(played)


# ------------------------------------------------------------------ online transcripts
def _classify(path: Path) -> list[dict[str, Any]] | ReplayError:
    """The file's records, or why it is not a transcript this app can read."""
    from pointline.gui.replay.from_net import NetError, read_records

    try:
        raw = path.read_bytes()
    except OSError as error:
        return ReplayError(ReplayCode.UNREADABLE, unreadable_words(error))
    first = raw.split(b"\n", 1)[0]
    header_like = b'"kind":"header"' in first
    try:
        records = read_records(path)
    except NetError as error:
        if not header_like:
            return ReplayError(
                ReplayCode.FOREIGN, "This file is not a Pointline session transcript."
            )
        return ReplayError(
            ReplayCode.DAMAGED,
            f"This transcript is damaged: {_damaged_line(error)} is not a whole record.",
        )
    if records and (records[0].get("kind") != "header" or not header_like):
        return ReplayError(ReplayCode.FOREIGN, "This file is not a Pointline session transcript.")
    return records


def _damaged_line(error: Exception) -> str:
    """The line the reader stopped at, named by its number only (never the decoder's words)."""
    found = re.search(r"\bline (\d+)\b", getattr(error, "text", ""))
    return f"line {found.group(1)}" if found else "a line"


def _newer(records: list[dict[str, Any]]) -> int | None:
    """The protocol version of a header a newer Pointline wrote (its hash holds), else None."""
    from pointline.net.protocol import check_chain

    if not records:
        return None
    body = records[0].get("body")
    version = body.get("version") if isinstance(body, dict) else None
    if type(version) is int and version > PROTOCOL_VERSION and check_chain(records[:1]) is None:
        return version
    return None


def open_transcript(
    path: str | Path,
    relay_key: bytes | None = None,
) -> Session:
    """The online transcript at ``path`` as a session to watch.

    Raises ``ReplayError`` (FOREIGN, UNREADABLE) for a file that is not a transcript; a damaged
    transcript or one from a newer protocol version is a FAIL verdict with a ``note`` in
    plain words. A hosted table's names are vouched for by its host (``Vouch.HOST``) when the
    relay's key verifies the roster signature that names the host; without the key nobody
    vouches (the header's claim is not checked).
    """
    from pointline.gui.replay.from_net import verify_transcript

    path = Path(path)
    found = _classify(path)
    if isinstance(found, ReplayError) and found.code is not ReplayCode.DAMAGED:
        raise found
    report = verify_transcript(path, relay_key)
    if isinstance(found, ReplayError):  # damaged: verify's FAIL, in plain words
        return Session(
            "",
            0,
            (),
            Verdict("FAIL", found.text, None, (), Vouch.NONE, "", note=found.text, code=found.code),
            (),
        )
    records = found
    header = records[0]["body"] if records else {}
    names, words = _roster(header)
    newer = _newer(records)
    note = (
        f"This file was written by a newer Pointline (protocol version {newer}); "
        f"this app reads version {PROTOCOL_VERSION}."
        if newer is not None
        else ""
    )
    verdict = _verdict(report, names, words, relay_key, note)
    if newer is not None:
        verdict = replace(verdict, code=ReplayCode.NEWER)
    table_id = header.get("table_id") if isinstance(header.get("table_id"), str) else ""
    me = header.get("seat") if type(header.get("seat")) is int else 0
    upto = len(records)
    if verdict.word == "FAIL":
        upto = report.record if report.record is not None else 0
        if 0 < upto < len(records) and records[upto].get("kind") == "throw":
            upto += 1  # the broken throw: its recorded dice beside the derived ones
    if not names or not isinstance(table_id, str) or newer is not None:
        start = Table(seats=len(names)) if 1 <= len(names) <= MAX_SEATS else Table(seats=1)
        return Session(str(table_id or ""), int(me or 0), names, verdict, (), start=start)
    if not 1 <= len(names) <= MAX_SEATS:
        return Session(table_id, int(me or 0), names, verdict, ())
    start, throws = play_throws(table_id, len(names), _raw_throws(records[1:upto], len(names)))
    return Session(table_id, int(me or 0), names, verdict, throws, start=start)


def _roster(header: dict[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    from pointline.gui.replay.from_net import verification_words

    roster = header.get("roster")
    if not isinstance(roster, list):
        return (), ()
    names: list[str] = []
    words: list[str] = []
    for position, member in enumerate(roster):
        if not isinstance(member, dict) or member.get("seat") != position:
            return (), ()
        name = member.get("name")
        names.append(name if isinstance(name, str) else "")
        try:
            key = bytes.fromhex(member.get("public_key", ""))
            words.append(" ".join(verification_words(key)) if len(key) == 32 else "")
        except (TypeError, ValueError):
            words.append("")
    return tuple(names), tuple(words)


def _verdict(
    report: Any,
    names: tuple[str, ...],
    words: tuple[str, ...],
    relay_key: bytes | None,
    note: str,
) -> Verdict:
    seats = tuple(SeatWords(s, n, w) for s, (n, w) in enumerate(zip(names, words, strict=True)))
    if not report.ok:
        return Verdict(
            "FAIL", report.problem or "", report.record, seats, Vouch.NONE, "", note=note
        )
    word = "OK" if report.complete else "INCOMPLETE"
    seats = tuple(SeatWords(s, n, " ".join(w)) for s, n, w in report.roster)
    from pointline.gui.replay.from_net import HOST_VOUCHES

    if relay_key is not None and report.players.startswith(HOST_VOUCHES):
        vouch, text = Vouch.HOST, report.players
    elif relay_key is not None:
        vouch, text = Vouch.RELAY, report.players
    else:
        vouch, text = Vouch.NONE, UNCHECKED_NAMES
    return Verdict(word, report.summary, None, seats, vouch, text, note=note)


def _raw_throws(records: list[dict[str, Any]], seats: int) -> list[RawThrow]:
    """Each recorded throw with every seat's first commitment and first reveal for it."""
    from pointline.gui.replay.from_net import parse_unsigned

    commits: dict[tuple[int, int], bytes] = {}
    reveals: dict[tuple[int, int], tuple[bytes, bytes]] = {}
    out: list[RawThrow] = []
    for doc in records:
        kind, body = doc.get("kind"), doc.get("body")
        if not isinstance(body, dict):
            break
        if kind in ("sent", "received"):
            try:
                message = parse_unsigned(body.get("message"))
                key = (message["throw"], message["seat"])
                if message.get("kind") == "commit":
                    commits.setdefault(key, bytes.fromhex(message["commitment"]))
                elif message.get("kind") == "reveal":
                    reveals.setdefault(
                        key, (bytes.fromhex(message["nonce"]), message["choice"].encode("utf-8"))
                    )
            except (ValueError, TypeError, KeyError, AttributeError):
                continue
        elif kind == "throw":
            index, dice = body.get("throw"), body.get("dice")
            if type(index) is not int or not isinstance(dice, list) or len(dice) != 2:
                break
            if any((index, s) not in reveals for s in range(seats)):
                break
            out.append(
                (
                    index,
                    [(s, commits.get((index, s)), *reveals[(index, s)]) for s in range(seats)],
                    (dice[0], dice[1]),
                )
            )
    return out
