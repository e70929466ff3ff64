"""``pointline verify FILE``: re-check a saved transcript offline.

Checks, in file order, stopping at the first discrepancy: the hash chain; the header (version,
table id, roster keys); every message's canonical form and Ed25519 signature against the
roster; each sender's sequence numbers and commit/reveal order; every reveal against its
commitment; every choice against the rules, applied to a fresh kernel in seat order; every
throw's dice re-derived from the nonces; the outcome (final points and ranks, or the reason and
seat, matched by an abort notice); and the receipts (the session digest and every seat's final
points). Prints ``OK`` with a summary, or ``FAIL`` and the first discrepancy; exits 0 or 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pointline.kernel import (
    PROTOCOL_VERSION,
    Abort,
    Choice,
    EndReason,
    PointlineError,
    Table,
    Throw,
    derive_dice,
    plan,
    verify_commitment,
)
from pointline.net.errors import MessageError, NetError, RosterError
from pointline.net.keys import public_key_from_hex, verification_words, verify_signature
from pointline.net.messages import AbortNotice, Commit, Message, Receipt, Reveal, encode, parse
from pointline.net.messages import session_digest as compute_digest
from pointline.net.ordering import OrderChecker
from pointline.net.protocol import (
    Member,
    Roster,
    check_roster,
    ending_text,
    roster_signing_bytes,
    seat_label,
)
from pointline.net.transcript import RecordKind, check_chain, read_records

NO_RELAY_KEY = "who played cannot be checked without the relay's key (--relay-key)"


@dataclass(frozen=True, slots=True)
class Report:
    """What ``verify_transcript`` found: ``ok``, the first ``problem`` (and its record index)."""

    ok: bool
    summary: str
    problem: str | None = None
    record: int | None = None
    table_id: str | None = None
    seats: int = 0
    throws: int = 0
    messages: int = 0
    status: str | None = None
    final: tuple[int, ...] | None = None
    ranks: tuple[int, ...] | None = None
    reason: EndReason | None = None
    seat: int | None = None
    receipts: str | None = None
    complete: bool = False
    """OK proves consistency; complete also means nothing is missing: the session ended without
    a result, or it completed and every seat's receipt is recorded and matches."""
    players: str = NO_RELAY_KEY
    """Who played: checked against the relay's roster signature, or why it cannot be."""
    roster: tuple[tuple[int, str, tuple[str, ...]], ...] = ()
    """Seat, name and verification words of each roster key, to compare with the players."""
    throw_lines: tuple[str, ...] = ()
    """One line per replayed throw: dice, phase, hands resolved, every seat's balance."""

    def text(self) -> str:
        if self.ok:
            lines = [f"{'OK' if self.complete else 'INCOMPLETE'}: {self.summary}", self.players]
            lines.extend(
                f"  {seat_label(seat)} {name}: {' '.join(words)}"
                for seat, name, words in self.roster
            )
            return "\n".join(lines)
        where = f"record {self.record}: " if self.record is not None else ""
        return f"FAIL: {where}{self.problem}"


def _error_classes() -> list[type[MessageError]]:
    found: list[type[MessageError]] = []
    todo: list[type[MessageError]] = [MessageError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


class _Discrepancy(Exception):
    def __init__(self, record: int | None, problem: str) -> None:
        super().__init__(problem)
        self.record = record
        self.problem = problem


@dataclass
class _Replay:
    table_id: str
    me: int
    roster: Roster
    table: Table
    keys: dict[int, bytes]
    order: OrderChecker
    commits: dict[int, dict[int, Commit]] = field(default_factory=dict)
    reveals: dict[int, dict[int, Reveal]] = field(default_factory=dict)
    receipts: dict[int, Receipt] = field(default_factory=dict)
    aborts: list[AbortNotice] = field(default_factory=list)
    history: list[Commit | Reveal] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    receipts_record: dict[str, Any] | None = None
    messages: int = 0
    rejected: int = 0
    fault: tuple[int, EndReason, int | None, str] | None = None
    lines: list[str] = field(default_factory=list)


def _header(doc: dict[str, Any]) -> _Replay:
    body = doc["body"]
    need = {"version", "table_id", "seat", "roster", "timeouts", "started_at"}
    if not need <= set(body):
        raise _Discrepancy(0, f"the header lacks {sorted(need - set(body))}")
    if body["version"] != PROTOCOL_VERSION:
        raise _Discrepancy(0, f"protocol version {body['version']!r} is not {PROTOCOL_VERSION}")
    table_id = body["table_id"]
    if not isinstance(table_id, str) or not table_id:
        raise _Discrepancy(0, "the header's table id is not a string")
    try:
        roster = tuple(
            Member(m["seat"], m["name"], public_key_from_hex(m["public_key"]))
            for m in body["roster"]
        )
        check_roster(roster)
    except (RosterError, TypeError, KeyError) as error:
        raise _Discrepancy(0, f"the header's roster is not valid: {error}") from None
    timeouts = body["timeouts"]
    if (
        not isinstance(timeouts, dict)
        or set(timeouts) != {"confirm", "response", "session", "receipts"}
        or any(type(v) not in (int, float) or not v > 0 for v in timeouts.values())
    ):
        raise _Discrepancy(0, "the header's timeouts are not four positive numbers")
    if type(body["started_at"]) not in (int, float):
        raise _Discrepancy(0, "the header's start time is not a number")
    me = body["seat"]
    if type(me) is not int or not 0 <= me < len(roster):
        raise _Discrepancy(0, "the header's seat is not in the roster")
    return _Replay(
        table_id=table_id,
        me=me,
        roster=roster,
        table=Table(seats=len(roster), table_id=table_id),
        keys={m.seat: m.public_key for m in roster},
        order=OrderChecker(len(roster), me),
    )


def _who(sender: object) -> str:
    """A frame's sender in people's numbering ("Seat 2"), or who it could not be."""
    return seat_label(sender) if type(sender) is int else "no member seat"


def _message(state: _Replay, index: int, kind: str, body: dict[str, Any]) -> None:
    sender, text = body.get("from"), body.get("message")
    if not isinstance(text, str) or type(sender) is not int:
        raise _Discrepancy(index, "a message record needs from and message")
    if type(body.get("at")) not in (int, float):
        raise _Discrepancy(index, "a message record's time is not a number")
    if (kind == RecordKind.SENT.value) != (sender == state.me):
        raise _Discrepancy(index, f"a {kind} record names {seat_label(sender)}")
    try:
        message: Message = parse(text, state.table_id, state.keys, len(state.roster))
    except MessageError as error:
        raise _Discrepancy(index, f"message from {seat_label(sender)} fails: {error}") from None
    if encode(message) != text:
        raise _Discrepancy(index, "a message is not in canonical form")
    try:
        state.order.accept(message, sender)  # the protocol's own ordering checker
    except MessageError as error:
        raise _Discrepancy(index, f"out of order: {error.message}") from None
    s = message.seat
    state.messages += 1
    if isinstance(message, Commit):
        state.commits.setdefault(message.throw, {})[s] = message
        state.history.append(message)
    elif isinstance(message, Reveal):
        commit = state.commits[message.throw][s]  # the order checker saw it first
        if not verify_commitment(
            commit.commitment, state.table_id, message.throw, s, message.nonce, message.choice
        ):
            problem = (
                f"{seat_label(s)}'s reveal for throw {message.throw} does not match its commit"
            )
            _fault_seen(state, index, s, EndReason.BAD_REVEAL, problem)
        elif message.throw == state.table.throws + 1:
            try:
                plan(state.table, s, Choice.from_bytes(message.choice))
            except PointlineError as error:
                problem = f"{seat_label(s)}'s choice for throw {message.throw} is illegal: {error}"
                _fault_seen(state, index, s, EndReason.BAD_REVEAL, problem)
        state.reveals.setdefault(message.throw, {})[s] = message
        state.history.append(message)
    elif isinstance(message, Receipt):
        state.receipts[s] = message
    else:
        state.aborts.append(message)


def _fault_seen(
    state: _Replay, index: int, seat: int | None, reason: EndReason, problem: str
) -> None:
    """A fault this seat received: fine only if the session then ends for that reason and seat.

    A discrepancy when the fault is in this seat's own message, or when one was seen already.
    """
    if seat == state.me or state.fault is not None:
        raise _Discrepancy(index, problem)
    state.fault = (index, reason, seat, problem)


_REASONS = {cls.code: cls.reason for cls in _error_classes()}


def _throw(state: _Replay, index: int, body: dict[str, Any]) -> None:
    if state.fault is not None:
        raise _Discrepancy(state.fault[0], state.fault[3])
    table = state.table
    n = table.throws + 1
    if body.get("throw") != n:
        raise _Discrepancy(index, f"throw record {body.get('throw')!r}, expected throw {n}")
    commits, reveals = state.commits.get(n, {}), state.reveals.get(n, {})
    seats = len(state.roster)
    if len(commits) != seats or len(reveals) != seats:
        raise _Discrepancy(index, f"throw {n} happened before every commit and reveal")
    for s in range(seats):
        try:
            choice = Choice.from_bytes(reveals[s].choice)
            for action in plan(table, s, choice):
                table.push(action)
        except PointlineError as error:
            raise _Discrepancy(
                index, f"{seat_label(s)}'s choice for throw {n} is illegal: {error}"
            ) from None
    die1, die2 = derive_dice(state.table_id, n, [reveals[s].nonce for s in range(seats)])
    if body.get("dice") != [die1, die2] or body.get("total") != die1 + die2:
        raise _Discrepancy(
            index, f"throw {n}: recorded dice {body.get('dice')!r}, derived [{die1}, {die2}]"
        )
    before, point = table.phase, table.point
    table.push(Throw(die1, die2))
    where = f"point {point}" if point is not None else before.value
    balances = ", ".join(str(table.balance(s)) for s in range(seats))
    state.lines.append(
        f"throw {n}: {die1}+{die2} = {die1 + die2} at {where} -> {table.phase.value}; "
        f"hands {table.hands_resolved}; balances [{balances}]"
    )


def _outcome(state: _Replay, index: int, body: dict[str, Any]) -> None:
    table = state.table
    if body.get("throws") != table.throws:
        raise _Discrepancy(
            index, f"the outcome counts {body.get('throws')!r} throws, not {table.throws}"
        )
    status = body.get("status")
    if state.fault is not None:
        f_index, f_reason, f_seat, f_problem = state.fault
        if status != "ended" or body.get("reason") != f_reason.value or body.get("seat") != f_seat:
            raise _Discrepancy(f_index, f_problem)
    if status == "complete":
        result = table.result
        if result is None:
            raise _Discrepancy(index, "the outcome says complete, the replayed session is not")
        if body.get("final") != list(result.final):
            raise _Discrepancy(
                index, f"final points {body.get('final')!r}, replayed {list(result.final)}"
            )
        if body.get("ranks") != list(result.ranks):
            raise _Discrepancy(index, f"ranks {body.get('ranks')!r}, replayed {list(result.ranks)}")
    elif status == "ended":
        try:
            reason = EndReason(body.get("reason"))
        except ValueError:
            raise _Discrepancy(index, "the outcome names no known reason") from None
        seat = body.get("seat")
        if reason is EndReason.THROW_CAP:
            ending = table.ending
            if ending is None or ending.reason is not EndReason.THROW_CAP or seat is not None:
                raise _Discrepancy(index, "the outcome says throw cap, the replay does not")
        else:
            if table.is_over:
                raise _Discrepancy(index, "the outcome says ended, the replayed session was over")
            if not any(a.reason is reason and a.blame == seat for a in state.aborts):
                raise _Discrepancy(index, "no abort notice names the outcome's reason and seat")
            reporter, proven = body.get("reporter"), body.get("proven", False)
            if type(proven) is not bool:
                raise _Discrepancy(index, "the outcome's proven flag is not true or false")
            if proven and (
                state.fault is None or state.fault[1] is not reason or state.fault[2] != seat
            ):
                raise _Discrepancy(
                    index, "the outcome claims a proven fault the transcript holds no evidence of"
                )
            if reporter is not None and (
                type(reporter) is not int
                or not any(
                    a.seat == reporter and a.reason is reason and a.blame == seat
                    for a in state.aborts
                )
            ):
                raise _Discrepancy(index, "the outcome's reporter sent no matching abort notice")
            try:
                table.push(Abort(reason, seat))
            except PointlineError as error:
                raise _Discrepancy(index, f"the kernel refuses the abort: {error}") from None
    else:
        raise _Discrepancy(index, f"unknown outcome status {status!r}")
    state.outcome = body


def _receipts(state: _Replay, index: int, body: dict[str, Any]) -> None:
    if state.outcome is None or state.outcome.get("status") != "complete":
        raise _Discrepancy(index, "a receipts record without a completed session")
    result = state.table.result
    assert result is not None
    digest = compute_digest(state.history)
    if body.get("digest") != digest.hex():
        raise _Discrepancy(index, "the receipts digest differs from the recomputed session digest")
    mine = state.receipts.get(state.me)
    if mine is None:
        raise _Discrepancy(index, "this seat's own receipt is missing")
    if mine.final != result.final or mine.digest != digest:
        raise _Discrepancy(index, "this seat's own receipt differs from the replay")
    others = [s for s in range(len(state.roster)) if s != state.me]
    status = body.get("status")
    differ = [
        s
        for s in others
        if s in state.receipts
        and (state.receipts[s].final != result.final or state.receipts[s].digest != digest)
    ]
    if all(s in state.receipts for s in others):
        expected = "mismatch" if differ else "matched"
    else:
        expected = "incomplete"
    if status != expected:
        raise _Discrepancy(index, f"receipts recorded as {status!r}, the receipts show {expected}")
    if expected == "mismatch" and body.get("seats") != differ:
        raise _Discrepancy(index, f"receipts mismatch names {body.get('seats')!r}, not {differ}")
    if expected == "matched" and body.get("count") != len(state.roster):
        raise _Discrepancy(index, f"receipts matched count {body.get('count')!r} is not the seats")
    state.receipts_record = body


def verify_transcript(path: str | Path, relay_key: bytes | None = None) -> Report:
    """Re-check the transcript at ``path``; the report holds OK or the first discrepancy.

    Never raises for any file content: whatever goes wrong is a FAIL report. Without
    ``relay_key`` (the relay's Ed25519 public key) the report cannot say who played: the names
    and keys of the header are only what this file claims.
    """
    try:
        return _verify(path, relay_key)
    except (NetError, PointlineError, ValueError, TypeError, KeyError, RecursionError) as error:
        return Report(False, "", f"the transcript cannot be read: {error}")


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
    data = roster_signing_bytes(state.table_id, state.roster)
    if not verify_signature(relay_key, sig, data):
        raise _Discrepancy(
            0, "the relay's signature of the roster does not verify (names or keys changed)"
        )
    names = ", ".join(f"{seat_label(m.seat)} {m.name}" for m in state.roster)
    return f"players verified by the relay's signature: {names}"


def _verify(path: str | Path, relay_key: bytes | None = None) -> Report:
    try:
        records = read_records(path)
    except NetError as error:
        return Report(False, "", str(error))
    problem = check_chain(records)
    if problem is not None:
        return Report(False, "", f"broken hash chain: {problem}")
    try:
        state = _header(records[0])
        players = _players(state, records[0]["body"], relay_key)
        for doc in records[1:]:
            index, kind, body = doc["index"], doc["kind"], doc["body"]
            if state.receipts_record is not None:
                raise _Discrepancy(index, "a record after the receipts record")
            if state.outcome is not None and kind not in ("sent", "received", "receipts"):
                raise _Discrepancy(index, f"a {kind} record after the outcome")
            if kind in (RecordKind.SENT.value, RecordKind.RECEIVED.value):
                _message(state, index, kind, body)
            elif kind == RecordKind.THROW.value:
                _throw(state, index, body)
            elif kind == RecordKind.REJECTED.value:
                state.rejected += 1
                code = body.get("error")
                reason = _REASONS.get(code) if isinstance(code, str) else None
                if reason is None:
                    raise _Discrepancy(index, f"a rejected frame with unknown error {code!r}")
                sender = body.get("from")
                _fault_seen(
                    state,
                    index,
                    sender if type(sender) is int else None,
                    reason,
                    f"a frame from {_who(sender)} was rejected ({code})",
                )
            elif kind == RecordKind.OUTCOME.value:
                _outcome(state, index, body)
            elif kind == RecordKind.RECEIPTS.value:
                _receipts(state, index, body)
            else:
                raise _Discrepancy(index, f"unexpected {kind} record")
        if state.outcome is None:
            raise _Discrepancy(None, "no outcome record: the transcript was cut off")
    except _Discrepancy as d:
        return Report(False, "", d.problem, d.record)
    table, outcome = state.table, state.outcome
    seats = len(state.roster)
    roster = tuple((m.seat, m.name, verification_words(m.public_key)) for m in state.roster)
    base = (
        f"table {state.table_id}, {seats} seats (this is {seat_label(state.me)}), "
        f"{table.throws} throws, {state.messages} signed messages"
    )
    receipts = state.receipts_record.get("status") if state.receipts_record else None
    if outcome.get("status") == "complete":
        result = table.result
        assert result is not None
        summary = (
            f"{base}; complete: final {list(result.final)}, ranks {list(result.ranks)}; "
            f"receipts {receipts or 'missing (the transcript ends after the outcome)'}"
        )
        return Report(
            True,
            summary,
            complete=receipts == "matched",
            players=players,
            table_id=state.table_id,
            seats=seats,
            throws=table.throws,
            messages=state.messages,
            status="complete",
            final=result.final,
            ranks=result.ranks,
            receipts=receipts,
            roster=roster,
            throw_lines=tuple(state.lines),
        )
    reason = EndReason(outcome["reason"])
    seat = outcome.get("seat")
    reporter = outcome.get("reporter")
    proven = outcome.get("proven", False) is True
    if state.fault is not None and state.fault[1] is reason and state.fault[2] == seat:
        proven = True  # the rejected frame or the mismatching reveal is in this transcript
    return Report(
        True,
        f"{base}; ended without a result: {ending_text(reason, seat, reporter, proven)}",
        table_id=state.table_id,
        seats=seats,
        throws=table.throws,
        messages=state.messages,
        status="ended",
        complete=True,
        players=players,
        reason=reason,
        seat=seat,
        roster=roster,
        throw_lines=tuple(state.lines),
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``pointline verify FILE``: print OK and a summary, or FAIL and the first discrepancy."""
    parser = argparse.ArgumentParser(
        prog="pointline verify",
        description="Re-check a saved online transcript: signatures, commitments, dice, "
        "contracts, payments, final points, ranks and receipts.",
    )
    parser.add_argument("file", type=Path, help="a transcript (.jsonl) saved by an online session")
    parser.add_argument(
        "--show", action="store_true", help="also print every replayed throw and the points"
    )
    parser.add_argument(
        "--relay-key",
        metavar="HEX",
        help="the relay's public key (64 hex digits): check who played against its signature",
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    relay_key = None
    if args.relay_key is not None:
        try:
            relay_key = public_key_from_hex(args.relay_key)
        except RosterError as error:
            print(f"FAIL: --relay-key: {error.message}")
            return 1
    report = verify_transcript(args.file, relay_key)
    if args.show and report.ok:
        for line in report.throw_lines:
            print(line)
    print(report.text())
    if not report.ok:
        return 1
    return 0 if report.complete else 2


if __name__ == "__main__":
    sys.exit(main())
