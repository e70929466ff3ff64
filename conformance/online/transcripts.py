"""Transcript vectors: genuine sessions from ``sim.Session`` and every kind of tampering,
each with the verdict ``pointline verify`` must give (OK, INCOMPLETE or FAIL)."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pointline.conformance.online.sim import RELAY_SEED, Session, nonces
from pointline.kernel import EndReason, derive_dice
from pointline.net.client import _verify_command as verify_command
from pointline.net.protocol import _messages as nmsg
from pointline.net.protocol import _transcript as ntr
from pointline.net.protocol._keys import SigningKey

__all__ = [
    "INCOMPLETE_SESSIONS",
    "MISMATCHES",
    "RELAY_KEY",
    "Case",
    "Doc",
    "Edit",
    "cases",
    "docs",
    "endless_point",
    "first",
    "flip_sig",
    "plain",
    "rechain",
    "resign_text",
    "sessions",
    "tamperings",
    "verdict",
    "withhold",
]

Case = dict[str, Any]
Doc = dict[str, Any]
RELAY_KEY = SigningKey.from_bytes(RELAY_SEED).public_hex


def verdict(text: str, relay_key: str | None) -> str:
    """The first word of ``pointline verify``'s report on ``text``."""
    fd, path = tempfile.mkstemp(suffix=".jsonl")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        key = bytes.fromhex(relay_key) if relay_key is not None else None
        return verify_command.verify_transcript(path, key).text().split(":", 1)[0]
    finally:
        os.unlink(path)


def docs(text: str) -> list[Doc]:
    return [json.loads(line) for line in text.split("\n") if line]


def rechain(records: list[Doc]) -> str:
    """The records with index, prev and hash recomputed (a forger's chain)."""
    prev, lines = ntr.GENESIS, []
    for index, doc in enumerate(records):
        digest = ntr.record_hash(index, prev, doc["kind"], doc["body"])
        lines.append(
            nmsg.canonical_json(
                {
                    "index": index,
                    "prev": prev,
                    "kind": doc["kind"],
                    "body": doc["body"],
                    "hash": digest,
                }
            ).decode("utf-8")
        )
        prev = digest
    return "".join(line + "\n" for line in lines)


def plain(records: list[Doc]) -> str:
    return "".join(nmsg.canonical_json(d).decode("utf-8") + "\n" for d in records)


def first(records: list[Doc], kind: str, pred: Callable[[Doc], bool] = lambda d: True) -> int:
    return next(i for i, d in enumerate(records) if d["kind"] == kind and pred(d))


def _message(doc: Doc) -> Doc:
    return dict(json.loads(doc["body"]["message"]))


def _is(kind: str) -> Callable[[Doc], bool]:
    return lambda d: _message(d)["kind"] == kind


def resign_text(session: Session, text: str, **changes: Any) -> str:
    """A recorded message changed and signed again by its own seat's key."""
    doc = json.loads(text)
    message = nmsg.parse(doc, session.table_id, {m.seat: m.public_key for m in session.roster})
    changed = nmsg.sign(replace(message, **changes), session.keys[message.seat])
    return nmsg.encode(changed)


# ---------------------------------------------------------------------------- sessions


def flip_sig(session: Session, seat: int, kind: str) -> Callable[[Doc], list[Any]]:
    done = [False]

    def rewrite(frame: Doc) -> list[Any]:
        if frame["kind"] == kind and not done[0]:
            done[0] = True
            sig = frame["sig"]
            return [{**frame, "sig": sig[:-1] + ("0" if sig[-1] != "0" else "1")}]
        return [frame]

    return rewrite


def withhold(kind: str) -> Callable[[Doc], list[Any]]:
    """Send nothing from the first frame of ``kind`` on (a peer that stops answering)."""
    muted = [False]

    def rewrite(frame: Doc) -> list[Any]:
        muted[0] = muted[0] or frame["kind"] == kind
        return [] if muted[0] else [frame]

    return rewrite


def endless_point(table_id: str, other_label: str) -> Callable[[], bytes]:
    """Seat 0's nonces, searched so that the first throw makes a point and no later throw
    makes the point or a seven: the 128th throw ends the session at the cap."""
    other = nonces(other_label)  # seat 1's nonces, as its own source gives them
    state: dict[str, int] = {"throw": 0, "point": 0}

    def source() -> bytes:
        state["throw"] += 1
        n, theirs = state["throw"], other()
        for j in range(10_000):
            mine = hashlib.sha256(f"cap/{n}/{j}".encode()).digest()
            total = sum(derive_dice(table_id, n, [mine, theirs]))
            if total in ((4, 5, 6, 8, 9, 10) if n == 1 else range(2, 13)) and (
                n == 1 or total not in (7, state["point"])
            ):
                state["point"] = state["point"] or total
                return mine
        raise RuntimeError("no nonce keeps the point open")

    return source


def sessions() -> dict[str, tuple[Session, int]]:
    """Named sessions and the seat whose transcript the vectors use."""
    out: dict[str, tuple[Session, int]] = {}

    def add(name: str, session: Session, seat: int) -> None:
        out[name] = (session.run(), seat)

    add(
        "ended.throw_cap", Session(2, seed=19, nonce_sources={0: endless_point("t0", "t0/19/1")}), 1
    )
    add("complete.seats_2", Session(2, seed=18), 0)  # seeds of short sessions (8, 7, 6 throws)
    add("complete.seats_3", Session(3, table_id="3f9c0a1b2d4e5f60", seed=11), 2)
    add("complete.unsigned_roster", Session(2, seed=39, relay_signs=False), 1)
    add("complete.hosted", Session(2, seed=18, host="player1"), 1)  # the host's relay signed
    # a table id is 1..128 code points: 128 outside the BMP are 256 UTF-16 units (§3)
    add("complete.table_id_128_code_points", Session(2, table_id="\U0001f3b2" * 128, seed=18), 0)
    add("complete.seats_8", Session(8, seed=12), 5)
    s = Session(2, seed=5)
    s.rewrite[1] = flip_sig(s, 1, "commit")
    add("ended.bad_signature.victim", s, 0)
    s = Session(2, seed=5)
    s.rewrite[1] = flip_sig(s, 1, "commit")
    add("ended.bad_signature.culprit", s, 1)
    s = Session(2, seed=6)
    s.rewrite[1] = lambda f: [f, f] if f["kind"] == "commit" else [f]
    add("ended.replay.victim", s, 0)
    for tag, mutate in (("nonce", "nonce"), ("choice", "choice")):
        s = Session(2, seed=7)

        def bad(frame: Doc, s: Session = s, what: str = mutate) -> list[Any]:
            if frame["kind"] != "reveal":
                return [frame]
            text = nmsg.canonical_json(frame).decode()
            value: Any = b"\x00" * 32 if what == "nonce" else b'{"dont_pass":0,"pass":0}'
            return [json.loads(resign_text(s, text, **{what: value}))]

        s.rewrite[1] = bad
        add(f"ended.bad_reveal_{tag}.victim", s, 0)
    s = Session(2, seed=8)
    s.rewrite[1] = withhold("reveal")
    add("ended.withheld_reveal.victim", s, 0)
    add("ended.deadline_confirm.victim", Session(3, seed=9, silent={2}), 1)
    add("ended.deadline_later_throw", Session(2, seed=10, stop_after={1: 2}), 0)
    s = Session(2, seed=11)
    # a deliver payload is always a JSON object (ONLINE.md §9): this one has a member too many
    s.rewrite[1] = lambda f: [{**f, "extra": True}] if f["kind"] == "commit" else [f]
    add("ended.malformed.victim", s, 0)
    s = Session(2, seed=12)

    def other_table(frame: Doc, s: Session = s) -> list[Any]:
        if frame["kind"] != "commit":
            return [frame]
        return [json.loads(resign_text(s, nmsg.canonical_json(frame).decode(), table="t9"))]

    s.rewrite[1] = other_table
    add("ended.non_member.victim", s, 0)
    s = Session(3, seed=13)

    def false_blame(frame: Doc, s: Session = s) -> list[Any]:
        if frame["kind"] != "commit":
            return [frame]
        notice = nmsg.AbortNotice(s.table_id, 2, frame["seq"], EndReason.BAD_SIGNATURE, 1)
        return [nmsg.to_frame(nmsg.sign(notice, s.keys[2]))]

    s.rewrite[2] = false_blame
    add("ended.false_blame.bystander", s, 0)
    add("ended.departure.stayer", Session(2, seed=14, leave_at={1: 2}), 0)
    add("ended.departure.leaver", Session(2, seed=14, leave_at={1: 2}), 1)
    add("ended.relay_lost.seat_1", Session(2, seed=16, relay_lost_at=3), 0)
    add("ended.relay_lost.seat_3", Session(3, seed=16, relay_lost_at=2), 2)
    add("ended.background.other", Session(2, seed=15, background_at={0: 1}), 1)
    add("ended.background.self", Session(2, seed=15, background_at={0: 1}), 0)
    s = Session(2, seed=46)
    s.rewrite[1] = withhold("receipt")
    add("receipts.withheld", s, 0)
    s = Session(2, seed=20)

    def lie(frame: Doc, s: Session = s) -> list[Any]:
        if frame["kind"] != "receipt":
            return [frame]
        final = tuple(p + 10 for p in frame["final"])
        return [json.loads(resign_text(s, nmsg.canonical_json(frame).decode(), final=final))]

    s.rewrite[1] = lie
    add("receipts.mismatch", s, 0)
    _decisions(add)
    return out


def _resigned(s: Session, kind: str, **changes: Any) -> Callable[[Doc], list[Any]]:
    """A rewrite: the seat's first frame of ``kind`` changed and signed again."""
    done = [False]

    def rewrite(frame: Doc) -> list[Any]:
        if frame["kind"] != kind or done[0]:
            return [frame]
        done[0] = True
        text = nmsg.canonical_json(frame).decode()
        return [json.loads(resign_text(s, text, **changes))]

    return rewrite


def _instead(kind: str, make: Callable[[Doc], Any]) -> Callable[[Doc], list[Any]]:
    """A rewrite: the seat sends ``make(frame)`` instead of its first frame of ``kind``, and
    nothing after it."""
    muted = [False]

    def rewrite(frame: Doc) -> list[Any]:
        if muted[0]:
            return []
        if frame["kind"] != kind:
            return [frame]
        muted[0] = True
        return [make(frame)]

    return rewrite


def _decisions(add: Callable[[str, Session, int], None]) -> None:
    """Sessions that pin the decisions of ONLINE.md a port could take the other way (issue 33):
    each is seen by seat 0, the one the faulty seat 1 (or the lying relay) meets."""
    s = Session(2, seed=21)
    s.rewrite[1] = _resigned(s, "commit", throw=2)  # §8: wrong_throw, ends `replay`
    add("ended.wrong_throw.victim", s, 0)
    # §7: the relay names a seat the roster does not have: non_member, no seat, not proven
    add("ended.non_member_seat.victim", Session(2, seed=22, misname={1: 7}), 0)
    # §6: a receipt whose `throws` is not the sender's reveal count is a refused frame
    s = Session(2, seed=18)
    s.rewrite[1] = _resigned(s, "receipt", throws=9)
    add("receipts.wrong_throws", s, 0)
    # §3/§6: a receipt whose `final` has another length is malformed, not a mismatch
    s = Session(2, seed=18)
    s.rewrite[1] = _instead("receipt", lambda f: {**f, "final": [*f["final"], 1000]})
    add("receipts.final_length", s, 0)
    # §6: a notice during the exchange follows the accusation rules (§7, "Peer-side trust")
    s = Session(2, seed=18)

    def blame(frame: Doc, s: Session = s) -> Any:
        notice = nmsg.AbortNotice(s.table_id, 1, frame["seq"], EndReason.BAD_SIGNATURE, 0)
        return nmsg.to_frame(nmsg.sign(notice, s.keys[1]))

    s.rewrite[1] = _instead("receipt", blame)
    add("receipts.notice", s, 0)
    # §6: a commit (signed, in the sender's own order) where its receipt belongs waits in its
    # queue, and the exchange ends `replay` when the step cannot take it
    s = Session(2, seed=18)

    def commit(frame: Doc, s: Session = s) -> Any:
        c = nmsg.Commit(s.table_id, 1, frame["seq"], frame["throws"] + 1, b"\x07" * 32)
        return nmsg.to_frame(nmsg.sign(c, s.keys[1]))

    s.rewrite[1] = _instead("receipt", commit)
    add("receipts.commit_instead", s, 0)
    # the peer-side trust rule: "a seat this step still awaits" includes this peer's own seat
    s = Session(2, seed=23, silent={0})

    def missed(frame: Doc, s: Session = s) -> Any:
        notice = nmsg.AbortNotice(s.table_id, 1, frame["seq"], EndReason.DEADLINE, 0)
        return nmsg.to_frame(nmsg.sign(notice, s.keys[1]))

    s.rewrite[1] = _instead("commit", missed)
    add("ended.deadline_notice_names_me", s, 0)
    # §5: a reveal that comes after this peer's commit but before every commit is in is
    # checked and queued (a relay that holds seat 2's frames for seat 0 past seat 1's reveal)
    add("complete.early_reveal_queued", Session(3, seed=24, hold={0: (2, "commit")}), 0)
    _decisions_37(add)


def _signed(s: Session, message: Any) -> Doc:
    frame: Doc = nmsg.to_frame(nmsg.sign(message, s.keys[message.seat]))
    return frame


def _decisions_37(add: Callable[[str, Session, int], None]) -> None:
    """Sessions that pin issue 37's decisions (ONLINE.md §6, §8), seen by seat 0."""
    # §6: the digest covers the commits and reveals of the throws played. Seat 2 sends a
    # commit for a throw after the last (in its own order) before seat 1's last reveal
    # reaches seat 0: it is received and queued, left out of seat 0's receipt, and the
    # exchange ends `replay` (the receipt step cannot take it)
    last = Session(3, seed=30).run().peers[0].table.throws
    s = Session(3, seed=30)

    def commit_after_last(frame: Doc, s: Session = s) -> list[Any]:
        if frame["kind"] != "reveal" or frame["throw"] != last:
            return [frame]
        return [
            frame,
            _signed(s, nmsg.Commit(s.table_id, 2, frame["seq"] + 1, last + 1, b"\x07" * 32)),
        ]

    s.rewrite[2] = commit_after_last
    add("receipts.commit_for_unplayed_throw", s, 0)
    # §8: a receipt that comes while throws remain and this peer still waits for reveals
    # waits; the throw does not complete the session, so it ends as the next round opens
    s = Session(3, seed=32)

    def early_receipt(frame: Doc, s: Session = s) -> list[Any]:
        if frame["kind"] != "reveal" or frame["throw"] != 1:
            return [frame]
        receipt = nmsg.Receipt(s.table_id, 2, frame["seq"] + 1, 1, (1000,) * 3, bytes(32))
        return [frame, _signed(s, receipt)]

    s.rewrite[2] = early_receipt
    add("ended.early_receipt_waits.victim", s, 0)
    # §8 `frame`: 4,096 code points kept of a payload's text (here 5,000 dice outside the BMP:
    # 4,096 UTF-16 units or bytes would cut elsewhere)
    s = Session(2, seed=33)
    s.rewrite[1] = _first("commit", lambda f: {**f, "pad": "\U0001f3b2" * 5000})
    add("ended.malformed.long_frame", s, 0)
    # §8 `frame`: a payload naming a member twice keeps both in its text, which verify's
    # replay refuses again (`malformed`)
    s = Session(2, seed=34)
    s.rewrite[1] = _first("commit", _repeat_seq)
    add("ended.malformed.repeated_member", s, 0)
    # §7: a leave during the receipt exchange (seat 0's receipt withheld, so seat 1 waits):
    # its notice, then the exchange `incomplete`; the leaver's file reads INCOMPLETE (§8
    # step 6: a completed session whose receipts did not all come), as a lost connection's does
    s = Session(2, seed=18, leave_in_receipts={1})
    s.rewrite[0] = withhold("receipt")
    add("receipts.leave_in_exchange.leaver", s, 1)


def _first(kind: str, change: Callable[[Doc], Any]) -> Callable[[Doc], list[Any]]:
    """A rewrite: the seat's first frame of ``kind`` changed by ``change``."""
    done = [False]

    def rewrite(frame: Doc) -> list[Any]:
        if frame["kind"] != kind or done[0]:
            return [frame]
        done[0] = True
        return [change(frame)]

    return rewrite


def _repeat_seq(frame: Doc) -> Any:
    """The payload as a relay delivers ``{..., "seq": 9, ..., "seq": <the real seq>}``."""
    pairs = [("seq", 9), *frame.items()]
    marked = nmsg.RepeatedMembers(dict(pairs))
    marked.repeated, marked.pairs = "seq", tuple(pairs)
    return marked


# ---------------------------------------------------------------------------- tampering

INCOMPLETE_SESSIONS = ("receipts.", "ended.relay_lost.")
"""Genuine sessions whose transcript is INCOMPLETE: receipts missing or not matching, or the
session stopped where this seat's connection to the relay was lost (no notice of its own). The
leaver's own transcript (``ended.departure.leaver``: its signed notice, then the ending) is OK."""

Edit = Callable[[list[Doc]], str]
MISMATCHES: list[tuple[str, str, str]] = []


def _set(
    kind: str,
    key: str,
    value: Any,
    pred: Callable[[Doc], bool] = lambda d: True,
    chain: bool = True,
) -> Edit:
    def edit(records: list[Doc]) -> str:
        i = first(records, kind, pred)
        records[i]["body"][key] = value if not callable(value) else value(records[i]["body"][key])
        return rechain(records) if chain else plain(records)

    return edit


def _message_edit(
    pred: Callable[[Doc], bool], change: Callable[[Doc], Doc], kind: str = "received"
) -> Edit:
    def edit(records: list[Doc]) -> str:
        i = first(records, kind, pred)
        records[i]["body"]["message"] = nmsg.canonical_json(change(_message(records[i]))).decode(
            "utf-8"
        )
        return rechain(records)

    return edit


def _remove(kind: str, pred: Callable[[Doc], bool] = lambda d: True) -> Edit:
    def edit(records: list[Doc]) -> str:
        del records[first(records, kind, pred)]
        return rechain(records)

    return edit


def _duplicate(kind: str, pred: Callable[[Doc], bool] = lambda d: True) -> Edit:
    def edit(records: list[Doc]) -> str:
        i = first(records, kind, pred)
        records.insert(i + 1, json.loads(json.dumps(records[i])))
        return rechain(records)

    return edit


def _swap_first_commit_reveal(records: list[Doc]) -> str:
    c = first(records, "received", _is("commit"))
    r = first(records, "received", _is("reveal"))
    records[c], records[r] = records[r], records[c]
    return rechain(records)


def _cut(where: Callable[[list[Doc]], int], chain_only: bool = True) -> Edit:
    def edit(records: list[Doc]) -> str:
        return plain(records[: where(records)])

    return edit


def _flip_last_hex(text: str) -> str:
    return text[:-1] + ("0" if text[-1] != "0" else "1")


def _other_dice(dice: list[int]) -> list[int]:
    return [dice[0] % 6 + 1, dice[1]]


def _header(key: str, value: Any) -> Edit:
    return _set("header", key, value)


def _roster(change: Callable[[list[Doc]], None]) -> Edit:
    def edit(records: list[Doc]) -> str:
        change(records[0]["body"]["roster"])
        return rechain(records)

    return edit


def _swap_keys(roster: list[Doc]) -> None:
    roster[0]["public_key"], roster[1]["public_key"] = (
        roster[1]["public_key"],
        roster[0]["public_key"],
    )


def _rename(roster: list[Doc]) -> None:
    roster[1]["name"] = "mallory"


def _drop_sig(records: list[Doc]) -> str:
    del records[0]["body"]["roster_sig"]
    return rechain(records)


def tamperings() -> dict[str, tuple[Edit, str, str]]:
    """Edits of the genuine two-seat session: name -> (edit, verdict without, with the key)."""
    f, ok = "FAIL", "OK"
    out: dict[str, tuple[Edit, str, str]] = {}
    for kind, key in (
        ("header", "started_at"),
        ("sent", "at"),
        ("received", "at"),
        ("throw", "total"),
        ("outcome", "throws"),
        ("receipts", "count"),
    ):
        out[f"unchained.{kind}_edited"] = (_set(kind, key, lambda v: v + 1, chain=False), f, f)
    out.update(
        {
            "throw.dice_changed": (_set("throw", "dice", _other_dice), f, f),
            "throw.total_changed": (_set("throw", "total", lambda v: v + 1), f, f),
            "throw.index_changed": (_set("throw", "throw", lambda v: v + 1), f, f),
            "throw.removed": (_remove("throw"), f, f),
            "throw.duplicated": (_duplicate("throw"), f, f),
            "outcome.final_changed": (
                _set("outcome", "final", lambda v: [v[0] + 10, *v[1:]]),
                f,
                f,
            ),
            "outcome.ranks_changed": (
                _set("outcome", "ranks", lambda v: v[::-1] if v[0] != v[-1] else [2, 1]),
                f,
                f,
            ),
            "outcome.throws_changed": (_set("outcome", "throws", lambda v: v - 1), f, f),
            "outcome.status_ended": (_set("outcome", "status", "ended"), f, f),
            "receipts.status_mismatch": (_set("receipts", "status", "mismatch"), f, f),
            "receipts.digest_changed": (_set("receipts", "digest", _flip_last_hex), f, f),
            "receipts.count_changed": (_set("receipts", "count", 3), f, f),
            "received.sig_flipped": (
                _message_edit(_is("commit"), lambda m: {**m, "sig": _flip_last_hex(m["sig"])}),
                f,
                f,
            ),
            "received.choice_changed": (
                _message_edit(_is("reveal"), lambda m: {**m, "choice": '{"dont_pass":0,"pass":0}'}),
                f,
                f,
            ),
            "received.commitment_changed": (
                _message_edit(
                    _is("commit"), lambda m: {**m, "commitment": _flip_last_hex(m["commitment"])}
                ),
                f,
                f,
            ),
            "received.seq_changed": (_message_edit(_is("commit"), lambda m: {**m, "seq": 1}), f, f),
            "received.commit_removed": (_remove("received", _is("commit")), f, f),
            "received.reveal_removed": (_remove("received", _is("reveal")), f, f),
            "received.receipt_removed": (_remove("received", _is("receipt")), f, f),
            "received.duplicated": (_duplicate("received", _is("commit")), f, f),
            "received.from_changed": (_set("received", "from", 0), f, f),
            "received.noncanonical_text": (
                _set("received", "message", lambda m: m.replace(",", ", ", 1)),
                f,
                f,
            ),
            "sent.commitment_changed": (
                _message_edit(
                    _is("commit"),
                    lambda m: {**m, "commitment": _flip_last_hex(m["commitment"])},
                    "sent",
                ),
                f,
                f,
            ),
            "sent.removed": (_remove("sent", _is("commit")), f, f),
            "order.commit_and_reveal_swapped": (_swap_first_commit_reveal, f, f),
            "header.version_2": (_header("version", 2), f, f),
            "header.seat_changed": (_header("seat", 1), f, f),
            "header.table_id_changed": (_header("table_id", "t1"), f, f),
            "header.timeouts_missing_one": (
                _header("timeouts", {"confirm": 45.0, "response": 10.0, "session": 600.0}),
                f,
                f,
            ),
            "header.timeout_zero": (
                _header(
                    "timeouts", {"confirm": 0, "response": 10.0, "session": 600.0, "receipts": 8.0}
                ),
                f,
                f,
            ),
            # each timeout a JSON number above zero, not a boolean; an integer stays one (§8)
            "header.timeout_true": (
                _header(
                    "timeouts",
                    {"confirm": True, "response": 10.0, "session": 600.0, "receipts": 8.0},
                ),
                f,
                f,
            ),
            "header.timeout_integer": (
                _header("timeouts", {"confirm": 45, "response": 10, "session": 600, "receipts": 8}),
                ok,
                ok,
            ),
            "header.started_at_text": (_header("started_at", "noon"), f, f),
            "header.extra_field": (_header("comment", "added"), f, f),
            "header.roster_sig_garbage": (_header("roster_sig", "00" * 64), ok, f),
            "header.roster_sig_removed": (_drop_sig, ok, ok),
            "roster.keys_swapped": (_roster(_swap_keys), f, f),
            "roster.name_changed": (_roster(_rename), ok, f),
            "roster.member_removed": (_roster(lambda r: r.clear()), f, f),
            "cut.half": (_cut(lambda r: len(r) // 2), f, f),
            "cut.before_outcome": (_cut(lambda r: first(r, "outcome")), f, f),
            "cut.after_outcome": (
                _cut(lambda r: first(r, "outcome") + 1),
                "INCOMPLETE",
                "INCOMPLETE",
            ),
            "cut.before_receipts": (_cut(lambda r: len(r) - 1), "INCOMPLETE", "INCOMPLETE"),
            "cut.header_only": (_cut(lambda r: 1), f, f),
            "record.after_receipts": (_duplicate("receipts"), f, f),
        }
    )
    return out


def _text_edits() -> dict[str, tuple[Callable[[str], str], str]]:
    return {
        "text.empty": (lambda t: "", "FAIL"),
        "text.last_line_half": (lambda t: t[: len(t) - 40], "FAIL"),
        "text.blank_lines": (lambda t: t.replace("\n", "\n\n"), "OK"),
        "text.no_final_newline": (lambda t: t.rstrip("\n"), "OK"),
        "text.crlf": (lambda t: t.replace("\n", "\r\n"), "OK"),
        # a blank line holds only JSON whitespace: a CRLF file's empty line is "\r" (§8)
        "text.crlf_blank_lines": (lambda t: t.replace("\n", "\r\n\r\n"), "OK"),
        "text.ideographic_space_line": (lambda t: t + "\u3000\n", "FAIL"),
        "text.not_utf8_free_text": (lambda t: t + "garbage\n", "FAIL"),
        "text.line_is_array": (lambda t: t + "[]\n", "FAIL"),
        "text.duplicate_key": (lambda t: t.replace('{"body":', '{"index":0,"body":', 1), "FAIL"),
    }


def _ended_edits() -> dict[str, tuple[str, Edit, str]]:
    victim, blame, late = (
        "ended.bad_signature.victim",
        "ended.false_blame.bystander",
        "ended.withheld_reveal.victim",
    )
    leaver, lost = "ended.departure.leaver", "ended.relay_lost.seat_1"
    bad = "ended.bad_reveal_nonce.victim"
    return {
        "ended.reason_changed": (victim, _set("outcome", "reason", "deadline"), "FAIL"),
        "ended.seat_changed": (victim, _set("outcome", "seat", 0), "FAIL"),
        "ended.reporter_changed": (victim, _set("outcome", "reporter", 1), "FAIL"),
        "ended.rejected_record_removed": (victim, _remove("rejected"), "FAIL"),
        "ended.rejected_code_unknown": (victim, _set("rejected", "error", "bored"), "FAIL"),
        "ended.rejected_code_changed": (victim, _set("rejected", "error", "malformed"), "FAIL"),
        "ended.notice_removed": (victim, _remove("sent", _is("abort")), "FAIL"),
        "ended.cut_before_outcome": (victim, _cut(lambda r: first(r, "outcome")), "FAIL"),
        "ended.throw_after_fault": (victim, _duplicate("header"), "FAIL"),
        "deadline.proven_claimed": (late, _set("outcome", "proven", True), "FAIL"),
        "deadline.proven_not_bool": (late, _set("outcome", "proven", 1), "FAIL"),
        "deadline.seat_changed": (late, _set("outcome", "seat", 0), "FAIL"),
        "false_blame.proven_claimed": (blame, _set("outcome", "proven", True), "FAIL"),
        "false_blame.reporter_is_blamed_seat": (blame, _set("outcome", "reporter", 1), "FAIL"),
        "false_blame.reporter_null": (blame, _set("outcome", "reporter", None), "FAIL"),
        # a leave writes its notice before the ending; without it the file reads as the lost
        # connection it then is, never as a fault, and only for this seat's own departure
        "leaver.notice_removed": (leaver, _remove("sent", _is("abort")), "INCOMPLETE"),
        "relay_lost.other_seat_named": (lost, _set("outcome", "seat", 1), "FAIL"),
        "relay_lost.reason_changed": (lost, _set("outcome", "reason", "deadline"), "FAIL"),
        # before a bad reveal was refused as it arrived, it was written as received (§8)
        "bad_reveal.older_received": (bad, _older_received, "OK"),
        "bad_reveal.older_received_other_seat": (bad, _older_received_from(None), "FAIL"),
        # a frame that named a member twice, written with the later value only: replaying it
        # no longer refuses it, so the record is not what the core writes (§8 `frame`)
        "repeated_member.later_value": (
            "ended.malformed.repeated_member",
            _later_value,
            "FAIL",
        ),
    }


def _later_value(records: list[Doc]) -> str:
    i = first(records, "rejected")
    frame = json.loads(records[i]["body"]["frame"])  # json keeps the later value
    records[i]["body"]["frame"] = nmsg.canonical_json(frame).decode("utf-8")
    return rechain(records)


def _older_received_from(seat: int | None) -> Edit:
    def edit(records: list[Doc]) -> str:
        i = first(records, "rejected")
        body = records[i]["body"]
        records[i] = {
            "kind": "received",
            "body": {"from": seat, "at": body["at"], "message": body["frame"]},
        }
        return rechain(records)

    return edit


def _older_received(records: list[Doc]) -> str:
    return _older_received_from(records[first(records, "rejected")]["body"]["from"])(records)


def cases() -> list[Case]:
    out: list[Case] = []

    def case(name: str, text: str, key: str | None, expect: str) -> None:
        got = verdict(text, key)
        if got != expect:
            MISMATCHES.append((name, got, expect))
        out.append(
            {
                "name": name,
                "input": {"transcript": text, "relay_key": key},
                "expect": {"verdict": got},
            }
        )

    made = sessions()
    for name, (session, seat) in made.items():
        text = session.text(seat)
        expect = "INCOMPLETE" if name.startswith(INCOMPLETE_SESSIONS) else "OK"
        case(f"genuine.{name}", text, None, expect)
        if name != "ended.throw_cap":  # 128 throws: one copy is enough
            case(f"genuine.{name}.relay_key", text, RELAY_KEY, expect)
    base = made["complete.seats_2"][0].text(0)
    for name, (edit, without, with_key) in tamperings().items():
        text = edit(docs(base))
        case(f"tampered.{name}", text, None, without)
        if with_key != without or name.startswith(("header.", "roster.")):
            case(f"tampered.{name}.relay_key", text, RELAY_KEY, with_key)
    for name, (change, expect) in _text_edits().items():
        case(f"tampered.{name}", change(base), None, expect)
    for name, (source, edit, expect) in _ended_edits().items():
        case(f"tampered.{name}", edit(docs(made[source][0].text(made[source][1]))), None, expect)
    forged = Session(2, seed=18, family="forger").run()
    real = docs(base)
    fake = docs(forged.text(0))
    fake[0]["body"]["roster_sig"] = real[0]["body"]["roster_sig"]
    case("fabricated.relay_sig_copied", rechain(fake), None, "OK")
    case("fabricated.relay_sig_copied.relay_key", rechain(fake), RELAY_KEY, "FAIL")
    case(
        "fabricated.own_relay_key",
        forged.text(0),
        SigningKey.from_bytes(b"\x99" * 32).public_hex,
        "FAIL",
    )
    hosted = docs(made["complete.hosted"][0].text(1))
    hosted[0]["body"]["host"] = "player2"  # another host claimed: the signature says who
    case("tampered.hosted.host_renamed", rechain(hosted), None, "OK")
    case("tampered.hosted.host_renamed.relay_key", rechain(hosted), RELAY_KEY, "FAIL")
    unhosted = docs(made["complete.hosted"][0].text(1))
    del unhosted[0]["body"]["host"]  # the mark removed: the signature covered it
    case("tampered.hosted.host_removed.relay_key", rechain(unhosted), RELAY_KEY, "FAIL")
    unsigned = docs(made["complete.hosted"][0].text(1))
    del unsigned[0]["body"]["roster_sig"]  # a host is only ever signed with the roster
    case("tampered.hosted.host_unsigned", rechain(unsigned), None, "FAIL")
    numbered = docs(made["complete.hosted"][0].text(1))
    numbered[0]["body"]["host"] = 7
    case("tampered.hosted.host_not_a_name", rechain(numbered), None, "FAIL")
    case(
        "fabricated.unsigned.relay_key",
        plain(docs(made["complete.unsigned_roster"][0].text(1))),
        RELAY_KEY,
        "OK",
    )
    return out
