"""``pointline verify FILE``: re-check a saved transcript offline by replaying it through the
protocol core.

First the hash chain (``net.protocol._transcript.check_chain``). Then a ``net.protocol._peer.Peer``
for the transcript's seat is made from the header and given the recorded inputs in file order: every
received or rejected frame (``Peer.receive``), this seat's own commits (``Peer.commit``, with the
choice and nonce its own reveal shows), and the deadline, departure or background behind each
abort notice this seat sent (``tick``, ``depart``, ``background``), and ``lose_connection`` for
an ending of this seat's own departure with no notice of its own before it (its connection to
the relay was lost; a deliberate leave writes its notice first). The replayed peer writes its
own transcript, and each of its records must be the recorded one, in the same order: so every
rule (signatures, sequence and kind order, commitments, choices, the dice, the kernel's
settlement, the endings and who is named, the receipts) is decided by the same code that played.
Times are informational: the replay runs on its own clock, and a recorded ``at`` only has to be a
number. The replayed peer signs nothing: its key hands back the recorded signature of each of
this seat's messages, and those are checked like every other message.

Prints ``OK`` with a summary, ``INCOMPLETE`` (consistent, but the receipts are missing or do
not match, or the session stopped where this seat's connection to the relay was lost: the relay
died or the connection dropped), or ``FAIL`` and the first discrepancy;
exits 0, 2 or 1.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pointline.kernel import (
    Choice,
    EndReason,
    Phase,
    PointlineError,
    canonical_text,
    current_choice,
)
from pointline.kernel.words import counted
from pointline.net.errors import MessageError, NetCode, NetError, RosterError
from pointline.net.protocol._events import named_host
from pointline.net.protocol._keys import (
    SIGNATURE_BYTES,
    SigningKey,
    public_key_from_hex,
    verification_words,
    verify_signature,
)
from pointline.net.protocol._messages import (
    SIGN_DOMAIN,
    AbortNotice,
    Commit,
    Message,
    Reveal,
    parse,
)
from pointline.net.protocol._peer import (
    Member,
    Peer,
    Roster,
    SessionEnded,
    Thrown,
    Timeouts,
    roster_signing_bytes,
    seat_label,
)
from pointline.net.protocol._report import NO_RELAY_KEY, Report, printable
from pointline.net.protocol._solo import solo_report
from pointline.net.protocol._transcript import Record, RecordKind, check_chain, parse_records

__all__ = [
    "HOST_VOUCHES",
    "NO_NOTICE",
    "NO_RELAY_KEY",
    "ORDER_ERRORS",
    "Report",
    "parse_unsigned",
    "printable",
    "verify_text",
]

HOST_VOUCHES = "the names are vouched for by the table's host, "
"""A hosted table (its header's ``host``, signed with the roster): verify's players line
begins so, then names the host, "whose relay signed the roster", and the seats."""
NO_NOTICE = "the outcome says ended, but no abort notice or fault before it ends the session"
CUT_OFF = "the transcript was cut off before its outcome"
ORDER_ERRORS = frozenset({"replay", "wrong_throw"})
"""Rejection codes of the ordering checker: reported as "out of order"."""


class _Discrepancy(Exception):
    def __init__(self, record: int | None, problem: str) -> None:
        super().__init__(problem)
        self.record = record
        self.problem = problem


class _RecordedKey(SigningKey):
    """Stands in for the seat's private key: "signs" by handing back the recorded signature of
    the message with that sequence number (64 zero bytes when there is none)."""

    __slots__ = ("_sigs",)

    def __init__(self, public_key: bytes, sigs: dict[int, bytes]) -> None:
        self._public = public_key
        self._sigs = sigs

    def sign(self, data: bytes) -> bytes:
        try:
            seq = json.loads(data[len(SIGN_DOMAIN) :])["seq"]
        except (ValueError, KeyError, TypeError):
            return bytes(SIGNATURE_BYTES)
        return self._sigs.get(seq, bytes(SIGNATURE_BYTES)) if type(seq) is int else b""


@dataclass
class _Replay:
    peer: Peer
    me: int
    roster: Roster
    started_at: float
    own: dict[int, Reveal]
    parsed: dict[int, Message]
    """This seat's recorded reveals by throw: the choice and nonce of each of its commits."""
    nonce: list[bytes] = field(default_factory=list)
    clock: float = 0.0
    messages: int = 0
    standin: set[int] = field(default_factory=set)
    """Throws whose own reveal is not recorded: the replayed commit stands in for it."""
    lines: list[str] = field(default_factory=list)
    last: tuple[Phase, int | None] = (Phase.COME_OUT, None)
    has_outcome: bool = True
    lost: bool = False
    """The session stopped where this seat's connection was lost (no notice of its own)."""

    @property
    def table_id(self) -> str:
        return self.peer.table_id


def _header(records: list[dict[str, Any]]) -> _Replay:
    body = records[0]["body"]
    need = {"version", "table_id", "seat", "roster", "timeouts", "started_at"}
    if not need <= set(body):
        raise _Discrepancy(0, f"the header lacks {_said(sorted(need - set(body)))}")
    table_id, me, started_at = body["table_id"], body["seat"], body["started_at"]
    if type(started_at) not in (int, float):
        raise _Discrepancy(0, "the header's start time is not a number")
    try:
        roster = tuple(
            Member(m["seat"], m["name"], public_key_from_hex(m["public_key"]))
            for m in body["roster"]
        )
        timeouts = Timeouts(**body["timeouts"])
        sig_hex = body.get("roster_sig")
        roster_sig = bytes.fromhex(sig_hex) if isinstance(sig_hex, str) else None
        host = body.get("host")
        if host is not None and not isinstance(host, str):
            raise RosterError("the header's host is a name")
        if type(me) is not int or not 0 <= me < len(roster):
            raise RosterError("the header's seat is not in the roster")
        keys = {m.seat: m.public_key for m in roster}
        sigs, own, parsed = _own_messages(records, table_id, keys, me)
        peer = Peer(
            table_id,
            roster,
            me,
            _RecordedKey(roster[me].public_key, sigs),
            timeouts,
            started_at,
            nonce_source=lambda: state.nonce.pop(),
            roster_sig=roster_sig,
            host=host,
        )
    except (NetError, TypeError, KeyError, ValueError) as error:
        raise _Discrepancy(0, f"the header cannot start a session: {_plain(error)}") from None
    state = _Replay(peer, me, roster, started_at, own, parsed, clock=started_at)
    produced = peer.records()[0].body
    if dict(produced) != body:
        differ = sorted(k for k in set(body) | set(produced) if body.get(k) != produced.get(k))
        raise _Discrepancy(
            0, f"the header is not one the replay writes (it differs in {_said(differ)})"
        )
    return state


def _own_messages(
    records: list[dict[str, Any]], table_id: str, keys: dict[int, bytes], me: int
) -> tuple[dict[int, bytes], dict[int, Reveal], dict[int, Message]]:
    """This seat's recorded messages: their signatures by seq, its reveals by throw, and each
    message by record index (parsed once, signature checked)."""
    sigs: dict[int, bytes] = {}
    own: dict[int, Reveal] = {}
    parsed: dict[int, Message] = {}
    for doc in records[1:]:
        body = doc["body"]
        if doc["kind"] != RecordKind.SENT.value or body.get("from") != me:
            continue
        try:
            message = parse(body.get("message"), table_id, keys, len(keys))
        except MessageError:
            continue  # the replay stops at this record
        parsed[doc["index"]] = message
        sigs.setdefault(message.seq, message.sig)
        if isinstance(message, Reveal):
            own.setdefault(message.throw, message)
    return sigs, own, parsed


def _drive(state: _Replay, index: int, kind: str, body: dict[str, Any]) -> None:
    """Give the replayed peer the input behind record ``index``."""
    peer, now = state.peer, state.clock
    if kind == RecordKind.RECEIVED.value:
        peer.receive(body.get("message"), body.get("from"), now)  # type: ignore[arg-type]
    elif kind == RecordKind.REJECTED.value:
        peer.receive(body.get("frame"), body.get("from"), now)  # type: ignore[arg-type]
    elif kind == RecordKind.SENT.value:
        _own(state, index, body)
    elif _lost_here(state, kind, body):
        state.lost = True  # no notice of mine before it: my connection was lost here
        peer.lose_connection(now)
    elif kind == RecordKind.OUTCOME.value and body.get("status") == "ended":
        raise _Discrepancy(index, NO_NOTICE)
    else:
        raise _Discrepancy(index, _NOT_HERE.format(what=_what(kind)))


def _lost_here(state: _Replay, kind: str, body: dict[str, Any]) -> bool:
    """Whether record ``body`` ends the session as this seat's lost connection: an ``ended``
    outcome (or, during the receipt exchange, an ``incomplete`` receipts record) naming this
    seat's departure, which the replayed peer only writes after a notice when the seat left
    on purpose (spec/ONLINE.md §7, §8)."""
    if kind == RecordKind.OUTCOME.value:
        ends = body.get("status") == "ended"
    else:
        ends = kind == RecordKind.RECEIPTS.value and body.get("status") == "incomplete"
    return (
        ends
        and body.get("reason") == EndReason.DEPARTURE.value
        and type(body.get("seat")) is int
        and body.get("seat") == state.me
    )


def _own(state: _Replay, index: int, body: dict[str, Any]) -> None:
    """This seat's own message: a commit is replayed, a notice's cause re-enacted."""
    peer = state.peer
    message = state.parsed.get(index)
    if message is None:
        try:
            keys = {m.seat: m.public_key for m in state.roster}
            message = parse(body.get("message"), state.table_id, keys, len(keys))
        except MessageError as error:
            raise _Discrepancy(index, f"this seat's own message fails: {_plain(error)}") from None
    if isinstance(message, Commit):
        reveal = state.own.get(message.throw)
        try:
            if reveal is None:  # never revealed: any legal choice stands in
                state.standin.add(message.throw)
                choice = current_choice(peer.table, state.me)
                state.nonce.append(bytes(32))
            else:
                choice = Choice.from_bytes(reveal.choice)
                state.nonce.append(reveal.nonce)
            peer.commit(choice, state.clock)
        except PointlineError as error:
            raise _Discrepancy(
                index, f"the replay refuses this seat's commit: {_plain(error)}"
            ) from None
    elif isinstance(message, AbortNotice) and message.reason is EndReason.DEADLINE:
        if message.blame is None:
            state.clock = state.started_at + peer.timeouts.session
        else:
            state.clock = peer.next_deadline() or state.clock
        peer.tick(state.clock)
    elif isinstance(message, AbortNotice) and message.reason is EndReason.DEPARTURE:
        peer.depart(message.blame if message.blame is not None else -1, state.clock)
    elif isinstance(message, AbortNotice) and message.reason is EndReason.BACKGROUND:
        peer.background(state.clock)
    else:
        kind = _MESSAGE_WORDS.get(message.kind, message.kind)
        raise _Discrepancy(index, f"the replay would not send this seat's {kind} here")


def _describe(state: _Replay, produced: Record) -> str:
    """What the protocol core does instead, in words."""
    body = produced.body
    if produced.kind is RecordKind.REJECTED:
        sender = body.get("from")
        who = seat_label(sender) if type(sender) is int else "no member seat"
        if body.get("error") in ORDER_ERRORS:
            return f"out of order: {body.get('detail')}"
        return f"message from {who} fails ({_said(body.get('error'))}): {body.get('detail')}"
    ending = state.peer.ending
    if ending is not None and produced.kind in (RecordKind.SENT, RecordKind.OUTCOME):
        return f"the replay ends the session here: {ending.text}"
    return f"the replay has {_what(produced.kind.value)} here"


def _compare(state: _Replay, index: int, doc: dict[str, Any], produced: Record) -> None:
    kind, body, mine = doc["kind"], doc["body"], dict(produced.body)
    if _older_bad_reveal(kind, body, produced):
        return
    if kind != produced.kind.value:
        if produced.kind is RecordKind.OUTCOME and not state.has_outcome:
            raise _Discrepancy(index, CUT_OFF)
        if kind == RecordKind.OUTCOME.value and body.get("status") == "ended":
            raise _Discrepancy(index, NO_NOTICE)
        problem = f"{_describe(state, produced)}; the transcript has {_what(kind)} there"
        raise _Discrepancy(index, problem)
    if "at" in mine and type(body.get("at")) not in (int, float):
        raise _Discrepancy(index, f"the time of {_what(kind)} is not a number")
    theirs = {k: v for k, v in body.items() if k != "at"}
    mine.pop("at", None)
    if kind == RecordKind.REJECTED.value:
        theirs.pop("detail", None)  # our own words, not the protocol's
        mine.pop("detail", None)
    if kind == RecordKind.OUTCOME.value and not {"reporter", "proven"} & set(theirs):
        mine.pop("reporter", None)  # an older transcript: reporter unknown, not proven
        mine.pop("proven", None)
    if theirs == mine:
        if kind in (RecordKind.SENT.value, RecordKind.RECEIVED.value):
            state.messages += 1
        return
    if kind == RecordKind.SENT.value and _standin(state, theirs, mine):
        state.messages += 1
        return
    throw = _commitment_differs(theirs, mine) if kind == RecordKind.SENT.value else None
    if throw is not None:
        problem = (
            f"{seat_label(state.me)}'s reveal for throw {throw} does not match its commit "
            "(its random number and choice do not give the commitment it sent)"
        )
        raise _Discrepancy(index, problem)
    raise _Discrepancy(index, _difference(kind, theirs, mine))


def _older_bad_reveal(kind: str, body: dict[str, Any], produced: Record) -> bool:
    """A transcript written before a bad reveal was refused as it arrived holds it as a
    ``received`` record where the core now writes ``rejected``: the same frame from the same
    seat reads the same (spec/ONLINE.md §8, "Record kinds")."""
    return (
        kind == RecordKind.RECEIVED.value
        and produced.kind is RecordKind.REJECTED
        and produced.body.get("error") == NetCode.BAD_REVEAL
        and body.get("from") == produced.body.get("from")
        and body.get("message") == produced.body.get("frame")
    )


def _commitment_differs(theirs: dict[str, Any], mine: dict[str, Any]) -> object:
    """The throw of a commit whose recorded commitment is not the replayed one, else None."""
    try:
        a, b = parse_unsigned(theirs.get("message")), parse_unsigned(mine.get("message"))
    except (ValueError, TypeError):
        return None
    same_kind = a.get("kind") == b.get("kind") == "commit"
    return a.get("throw") if same_kind and a.get("commitment") != b.get("commitment") else None


def _standin(state: _Replay, theirs: dict[str, Any], mine: dict[str, Any]) -> bool:
    """A commit never revealed: the same message but for its (unknowable) commitment."""
    keys = {m.seat: m.public_key for m in state.roster}
    try:
        recorded = parse(theirs.get("message"), state.table_id, keys, len(keys))
        replayed = parse_unsigned(mine.get("message"))
    except (MessageError, ValueError, TypeError):
        return False
    return (
        isinstance(recorded, Commit)
        and recorded.throw in state.standin
        and theirs.get("from") == mine.get("from")
        and canonical_text(
            {**replayed, "commitment": recorded.commitment.hex(), "sig": recorded.sig.hex()}
        )
        == theirs.get("message")
    )


def parse_unsigned(text: object) -> dict[str, Any]:
    if not isinstance(text, str):
        raise TypeError("a message is text")
    doc = json.loads(text)
    if not isinstance(doc, dict):
        raise TypeError("a message is an object")
    return doc


def _said(value: Any) -> str:
    """A recorded value in a player's words: no quotes, brackets or Python names (a list of
    numbers "1,030 and 730", a record's fields "status ended, throws 0")."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, str):
        return value.replace("_", " ") if value.isidentifier() else value
    if isinstance(value, (list, tuple)):
        items = [_said(v) for v in value]
        if not items:
            return "none"
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    if isinstance(value, dict):
        return ", ".join(f"{_said(k)} {_said(v)}" for k, v in sorted(value.items()))
    return "a value of another kind"


def _plain(error: Exception) -> str:
    """An error's own words, without its code (``NetError.text``)."""
    text = getattr(error, "text", None)
    return text if isinstance(text, str) else "it does not have the form the protocol needs"


def _by_seat(values: Sequence[int], ranks: bool = False) -> str:
    def one(value: int) -> str:
        if not ranks:
            return f"{value:,}"
        last = (
            "th" if 10 <= value % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")
        )
        return f"{value}{last}"

    return ", ".join(f"{seat_label(seat)} {one(value)}" for seat, value in enumerate(values))


def _phase_words(phase: Phase, point: int | None) -> str:
    if phase is Phase.POINT:
        return f"point {point}"
    if phase is Phase.COME_OUT:
        return "the come-out"
    return "the end of the session" if phase is Phase.COMPLETE else "no result"


_KIND_WORDS = {
    RecordKind.HEADER.value: "the header",
    RecordKind.SENT.value: "a message this seat sent",
    RecordKind.RECEIVED.value: "a message received",
    RecordKind.REJECTED.value: "a refused message",
    RecordKind.THROW.value: "a throw",
    RecordKind.OUTCOME.value: "the outcome",
    RecordKind.RECEIPTS.value: "the receipts",
}
"""What each kind of record holds, in a player's words: a report never names a record kind."""
_MESSAGE_WORDS = {"abort": "abort notice"}
_SEAT_FIELDS = frozenset({"from", "seat", "reporter", "accused"})
"""Fields whose value is a seat (0-based in the file): said as ``seat_label`` says them."""
_FIELD_WORDS = {
    RecordKind.OUTCOME.value: (
        ("status", "status"),
        ("throws", "throw count"),
        ("final", "final points"),
        ("ranks", "ranks"),
        ("reason", "reason"),
        ("seat", "seat named"),
        ("reporter", "reporter"),
        ("accused", "seat accused"),
        ("proven", "proven"),
    ),
    RecordKind.RECEIPTS.value: (("status", "status"), ("count", "count"), ("digest", "digest")),
}
"""The fields of an outcome and of the receipts, in the order a difference is named."""


_GENERIC_FIELDS = {"error": "its error code", "frame": "the message", "at": "its time"}


_NOT_HERE = "the transcript has {what} here, where the replay has none"


def _what(kind: str) -> str:
    return _KIND_WORDS.get(kind, "a line of an unknown kind")


def _field(key: str, value: Any) -> str:
    """A recorded field's value in a player's words; a seat as "Seat 1" (never its index)."""
    if key in _SEAT_FIELDS and type(value) is int and 0 <= value < 256:
        return seat_label(value)
    return _said(value)


def _difference(kind: str, theirs: dict[str, Any], mine: dict[str, Any]) -> str:
    if kind == RecordKind.THROW.value:
        return (
            f"throw {_said(mine.get('throw'))}: the transcript says throw "
            f"{_said(theirs.get('throw'))}, dice {_said(theirs.get('dice'))}, total "
            f"{_said(theirs.get('total'))}; the dice derived from the reveals are "
            f"{_said(mine.get('dice'))}"
        )
    if kind in _FIELD_WORDS:
        says = "says" if kind == RecordKind.OUTCOME.value else "say"
        for key, words in _FIELD_WORDS[kind]:
            if theirs.get(key) != mine.get(key):
                return (
                    f"{_what(kind)} {says} {words} {_field(key, theirs.get(key))}; the replay "
                    f"gives {_field(key, mine.get(key))}"
                )
    if kind in (RecordKind.RECEIVED.value, RecordKind.SENT.value):
        if theirs.get("from") != mine.get("from"):
            return (
                f"{_what(kind)} names sender {_field('from', theirs.get('from'))}, the replay "
                f"{_field('from', mine.get('from'))}"
            )
        try:
            if parse_unsigned(theirs.get("message")) == parse_unsigned(mine.get("message")):
                return "a message is not in canonical form"
        except (ValueError, TypeError):
            pass
        if kind == RecordKind.SENT.value:
            return "this seat's own message differs from the one the replay sends"
    differ = sorted(k for k in set(theirs) | set(mine) if theirs.get(k) != mine.get(k))
    fields = [_GENERIC_FIELDS.get(k, k) for k in differ]
    return f"{_what(kind)} differs from the replay in {_said(fields)}"


def _throw_lines(state: _Replay) -> None:
    for event in state.peer.events():
        if isinstance(event, Thrown):
            table = state.peer.table
            before, point = state.last
            points = _by_seat([table.balance(s) for s in range(len(state.roster))])
            after = (
                "the next come-out"
                if event.phase is Phase.COME_OUT
                else _phase_words(event.phase, event.point)
            )
            state.lines.append(
                f"throw {event.throw}: {event.die1} + {event.die2} = {event.total} at "
                f"{_phase_words(before, point)}, then {after}; "
                f"{counted(table.hands_resolved, 'hand')} resolved; points {points}"
            )
            state.last = (event.phase, event.point)


def verify_text(text: str, relay_key: bytes | None = None) -> Report:
    """Re-check a transcript given as its file's text; the report holds OK or the first
    discrepancy.

    A solo session saved by Stats (one JSON object, ``net.protocol._solo``) is recognised and
    checked through the kernel instead. Never raises for any content: whatever goes wrong is a
    FAIL report. Without
    ``relay_key`` (the relay's Ed25519 public key) the report cannot say who played: the names
    and keys of the header are only what this text claims. Reading a file is the caller's
    (``pointline.net.client.verify_transcript``): this core opens none.
    """
    solo = solo_report(text)
    if solo is not None:  # a solo session saved by Stats: no signatures, one seat
        return solo
    try:
        return _verify(text, relay_key)
    except (NetError, PointlineError) as error:  # a TypeError or KeyError here is a bug
        return Report(False, "", f"the transcript cannot be read: {_plain(error)}")


def _players(state: _Replay, header: dict[str, Any], relay_key: bytes | None) -> str:
    """Who played, from the relay's roster signature; raises ``_Discrepancy`` if it fails."""
    if relay_key is None:
        return NO_RELAY_KEY
    sig_hex = header.get("roster_sig")
    if sig_hex is None:
        return "who played cannot be checked: the transcript holds no relay signature"
    try:
        sig = bytes.fromhex(sig_hex) if isinstance(sig_hex, str) else b""
    except ValueError:
        sig = b""
    host = header.get("host")
    data = roster_signing_bytes(state.table_id, state.roster, host)
    if not verify_signature(relay_key, sig, data):
        raise _Discrepancy(
            0, "the relay's signature of the roster does not verify (names or keys changed)"
        )
    names = ", ".join(f"{seat_label(m.seat)} {m.name}" for m in state.roster)
    if isinstance(host, str):
        return f"{HOST_VOUCHES}{host}, whose relay signed the roster: {names}"
    return f"players verified by the relay's signature: {names}"


def _verify(text: str, relay_key: bytes | None = None) -> Report:
    try:
        records = parse_records(text)
    except NetError as error:
        return Report(False, "", _plain(error))
    problem = check_chain(records)
    if problem is not None:
        return Report(False, "", f"broken hash chain: {problem}")
    try:
        state = _header(records)
        players = _players(state, records[0]["body"], relay_key)
        state.has_outcome = any(doc["kind"] == RecordKind.OUTCOME.value for doc in records)
        pending: deque[Record] = deque()
        for doc in records[1:]:
            index, kind, body = doc["index"], doc["kind"], doc["body"]
            if not pending:
                _drive(state, index, kind, body)
                pending.extend(state.peer.records())
                _throw_lines(state)
            if not pending:
                raise _Discrepancy(index, _NOT_HERE.format(what=_what(kind)))
            _compare(state, index, doc, pending.popleft())
        if not state.has_outcome:
            raise _Discrepancy(None, CUT_OFF)
    except _Discrepancy as d:
        return Report(False, "", d.problem, d.record)
    seen = any(doc["kind"] == RecordKind.RECEIPTS.value for doc in records)
    host = records[0]["body"].get("host")
    return _report(state, players, receipts_recorded=seen, host=host)


def _report(
    state: _Replay, players: str, receipts_recorded: bool, host: str | None = None
) -> Report:
    peer = state.peer
    table = peer.table
    seats = len(state.roster)
    roster = tuple((m.seat, m.name, verification_words(m.public_key)) for m in state.roster)
    base = (
        f"table {state.table_id}, {counted(seats, 'seat')} (this is {seat_label(state.me)}), "
        f"{counted(table.throws, 'throw')}, {counted(state.messages, 'signed message')}"
    )
    common: dict[str, Any] = {
        "players": players,
        "table_id": state.table_id,
        "seats": seats,
        "throws": table.throws,
        "messages": state.messages,
        "roster": roster,
        "throw_lines": tuple(state.lines),
    }
    result = peer.result
    if result is not None:
        status = peer.receipt_status
        receipts = status.value if status is not None and receipts_recorded else None
        summary = (
            f"{base}; complete: final points {_by_seat(result.final)}; ranks "
            f"{_by_seat(result.ranks, ranks=True)}; "
            f"{_RECEIPT_WORDS.get(receipts or '', _NO_RECEIPTS)}"
        )
        return Report(
            True,
            summary,
            complete=receipts == "matched",
            status="complete",
            final=result.final,
            ranks=result.ranks,
            receipts=receipts,
            **common,
        )
    ending = peer.ending
    assert isinstance(ending, SessionEnded)
    # a hosted table: the departure of the seat the roster names as host is the host closing
    host_seats = [m.seat for m in state.roster if host is not None and m.name == host]
    ending = named_host(ending, host, host_seats[0] if host_seats else None)
    lost = state.lost
    words = _lost_text(table.throws) if lost else ending.text  # the core's own words
    return Report(
        True,
        f"{base}; ended without a result: {words}",
        status="ended",
        complete=not lost,
        reason=ending.reason,
        seat=ending.seat,
        **common,
    )


_RECEIPT_WORDS = {
    "matched": "receipts matched",
    "mismatch": "receipts do not match",
    "incomplete": "receipts incomplete (not every seat's came in)",
}
_NO_RECEIPTS = "receipts missing (the transcript ends after the outcome)"


def _lost_text(throws: int) -> str:
    """Plain words for a transcript that stops where this seat lost its relay connection."""
    where = f"after throw {throws}" if throws else "before the first throw"
    return f"the relay was lost {where}; every record up to there checks"
