"""Mutants of ``verify`` (killed by the verifier harness) and of the peer (killed by a client
harness case run against the sans-IO adapter)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pointline.conformance.online.registry import mutant, replace_everywhere
from pointline.conformance.online.registry import set_attr as _set

# ---------------------------------------------------------------------------- verify


@mutant("verify_accepts_cut", "verify calls a transcript without an outcome OK", "verifier")
def _cut() -> None:
    from pointline.net.protocol import _verify as verify

    original = verify._verify

    def lenient(path: Any, relay_key: bytes | None = None) -> Any:
        report = original(path, relay_key)
        if not report.ok and "cut off" in (report.problem or ""):
            return verify.Report(True, "cut", complete=True)
        return report

    _set(verify, "_verify", lenient)


@mutant("verify_ignores_signatures", "verify does not check message signatures", "verifier")
def _no_sigs() -> None:
    from pointline.net.protocol import _messages as messages

    _set(messages, "verify_signature", lambda *args: True)


@mutant(
    "verify_ignores_roster_sig", "verify does not check the relay's roster signature", "verifier"
)
def _no_roster_sig() -> None:
    from pointline.net.protocol import _verify as verify

    _set(verify, "verify_signature", lambda *args: True)


@mutant("verify_incomplete_is_ok", "verify says OK when the receipts are missing", "verifier")
def _incomplete() -> None:
    from pointline.net.protocol import _verify as verify

    original = verify.Report.text
    _set(verify.Report, "text", lambda self: original(replace(self, complete=True)))


@mutant("verify_accepts_any_ending", "verify takes whatever ended outcome is recorded", "verifier")
def _outcome_reason() -> None:
    from pointline.net.protocol import _verify as verify

    original = verify._compare

    def lenient(state: Any, index: int, doc: dict[str, Any], produced: Any) -> None:
        if doc["kind"] == "outcome" == produced.kind.value and doc["body"].get("status") == "ended":
            return
        original(state, index, doc, produced)

    _set(verify, "_compare", lenient)


@mutant(
    "verify_leave_reads_as_lost",
    "verify reads this seat's own departure as a lost relay, notice or not",
    "verifier",
)
def _leave_lost() -> None:
    from pointline.kernel import EndReason
    from pointline.net.protocol import _verify as verify

    original = verify._report

    def as_lost(state: Any, *args: Any, **kwargs: Any) -> Any:
        ending = state.peer.ending
        if ending is not None and ending.reason is EndReason.DEPARTURE and ending.seat == state.me:
            state.lost = True
        return original(state, *args, **kwargs)  # every argument as given (``host`` came later)

    _set(verify, "_report", as_lost)


# ---------------------------------------------------------------------------- the peer


@mutant(
    "peer_leave_without_notice",
    "the peer's own leave writes no departure notice (as if the connection were lost)",
    "client:self.leave",
)
def _leave_silent() -> None:
    from pointline.net.protocol._peer import Peer

    original = Peer.depart

    def depart(self: Any, seat: int, now: float) -> None:
        if seat == self.seat:
            self.lose_connection(now)
        else:
            original(self, seat, now)

    _set(Peer, "depart", depart)


@mutant(
    "peer_deadline_not_enforced",
    "the peer never fires a deadline",
    "client:fault.withheld_reveal.alone",
)
def _no_deadline() -> None:
    from pointline.net.protocol._peer import Peer

    _set(Peer, "tick", lambda self, now: None)


@mutant(
    "peer_blames_highest_awaited",
    "a deadline blames the highest awaited seat",
    "client:fault.deadline",
)
def _highest() -> None:
    from pointline.net.protocol._peer import Peer

    original = Peer._fault

    def fault(self: Any, reason: Any, seat: Any, now: float, *args: Any, **kw: Any) -> None:
        waiting = self.awaiting
        if reason.value == "deadline" and waiting and seat == waiting[0]:
            seat = waiting[-1]
        original(self, reason, seat, now, *args, **kw)

    _set(Peer, "_fault", fault)


@mutant(
    "peer_confirm_deadline_ignored", "the confirm deadline is never armed", "client:fault.deadline"
)
def _confirm() -> None:
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer._open_round

    def open_round(self: Any, now: float) -> None:
        original(self, now)
        self._deadline = now + 3600.0

    _set(protocol.Peer, "_open_round", open_round)


@mutant("peer_skips_signatures", "the peer accepts any signature", "client:fault.bad_signature")
def _peer_sigs() -> None:
    from pointline.net.protocol import _messages as messages

    _set(messages, "verify_signature", lambda *args: True)


@mutant(
    "peer_skips_reveal_check",
    "the peer does not check reveals against commits",
    "client:fault.bad_reveal",
)
def _peer_reveal() -> None:
    from pointline.net.protocol import _peer as protocol

    _set(protocol, "verify_commitment", lambda *args, **kw: True)


@mutant(
    "peer_ignores_repeats",
    "the peer drops a repeated message instead of ending",
    "client:fault.replay",
)
def _repeats() -> None:
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer.receive
    seen: set[str] = set()

    def receive(self: Any, frame: object, from_seat: int, now: float) -> None:
        key = json.dumps(frame, sort_keys=True) if isinstance(frame, dict) else repr(frame)
        if key in seen:
            return
        seen.add(key)
        original(self, frame, from_seat, now)

    _set(protocol.Peer, "receive", receive)


@mutant("peer_notice_proven", "a received notice counts as proven", "client:fault.false_blame")
def _notice_proven() -> None:
    _wrap_fault(lambda reason, seat, reporter, proven: (reason, seat, reporter, True))


@mutant(
    "peer_blames_accused",
    "an unproven accusation ends naming the accused",
    "client:fault.false_blame",
)
def _blames_accused() -> None:
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer._fault

    def fault(self: Any, reason: Any, seat: Any, now: float, *args: Any, **kw: Any) -> None:
        accused = kw.pop("accused", None)
        original(self, reason, accused if accused is not None else seat, now, *args, **kw)

    _set(protocol.Peer, "_fault", fault)


def _wrap_fault(change: Callable[..., tuple[Any, Any, Any, Any]]) -> None:
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer._fault

    def fault(
        self: Any,
        reason: Any,
        seat: Any,
        now: float,
        notify: bool = True,
        reporter: Any = None,
        proven: bool = False,
        **kw: Any,
    ) -> None:
        if not notify and reporter is not None:
            reason, seat, reporter, proven = change(reason, seat, reporter, proven)
        original(self, reason, seat, now, notify, reporter, proven, **kw)

    _set(protocol.Peer, "_fault", fault)


@mutant("peer_no_receipt", "the peer never sends its receipt", "client:honest.seats_2")
def _no_receipt() -> None:
    from pointline.net.protocol import _peer as protocol
    from pointline.net.protocol._messages import Receipt

    original = protocol.Peer._send

    def send(self: Any, message: Any, now: float) -> Any:
        signed = original(self, message, now)
        if isinstance(signed, Receipt):
            self._out.pop()
        return signed

    _set(protocol.Peer, "_send", send)


@mutant(
    "peer_dice_nonces_reversed",
    "the peer derives the dice from the nonces in reverse seat order",
    "client:honest.seats_3",
)
def _peer_dice() -> None:
    from pointline.net.protocol import _peer as protocol

    original = getattr(protocol, "derive_dice")  # noqa: B009 - not re-exported
    _set(protocol, "derive_dice", lambda t, n, nonces, *a: original(t, n, list(nonces)[::-1], *a))


@mutant("peer_seq_from_1", "the peer numbers its messages from 1", "client:honest.seats_2")
def _seq() -> None:
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer.__init__

    def init(self: Any, *args: Any, **kw: Any) -> None:
        original(self, *args, **kw)
        self._my_seq = 1
        self._order._next_seq[self.seat] = 1

    _set(protocol.Peer, "__init__", init)


@mutant(
    "peer_reveals_own_choice_wrong",
    "the peer reveals a choice other than it committed",
    "client:honest.seats_2",
)
def _own_choice() -> None:
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer._all_committed

    def all_committed(self: Any, now: float) -> None:
        self._my_nonce = bytes(32) if self._my_nonce != bytes(32) else b"\x01" * 32
        original(self, now)

    _set(protocol.Peer, "_all_committed", all_committed)


# ---------------------------------------------------------------------------- issue 33: each
# online decision of ONLINE.md that a port could take the other way, and the case that fails
# when it does (conformance/online/HARNESS.md, "Decisions and what pins them")


@mutant(
    "peer_throw_cap_not_proven",
    "the throw cap is recorded as not proven (§7: the 128 signed rounds prove it)",
    "vectors",
)
def _cap_unproven() -> None:
    from pointline.kernel import EndReason
    from pointline.net.protocol._peer import Peer

    original = Peer._finish_ended

    def finish(self: Any, reason: Any, seat: Any, reporter: int, proven: bool, *a: Any) -> None:
        original(self, reason, seat, reporter, proven and reason is not EndReason.THROW_CAP, *a)

    _set(Peer, "_finish_ended", finish)


@mutant(
    "peer_bad_reveal_received",
    "a bad reveal is written as received, not rejected (§8)",
    "vectors",
)
def _bad_reveal_received() -> None:
    from pointline.kernel import EndReason
    from pointline.net.protocol import _peer as protocol
    from pointline.net.protocol._transcript import RecordKind

    original = protocol.Peer._reject

    def reject(self: Any, frame: object, from_seat: Any, error: Any, now: float) -> None:
        if error.code != "bad_reveal":
            original(self, frame, from_seat, error, now)
            return
        text = frame if isinstance(frame, str) else protocol.encode_any(frame)  # type: ignore[arg-type]
        self.transcript.append_message(RecordKind.RECEIVED, from_seat, now, text)
        self._fault(EndReason.BAD_REVEAL, from_seat, now, proven=True)

    _set(protocol.Peer, "_reject", reject)


@mutant(
    "peer_outcome_before_notice",
    "the outcome is written before this peer's own notice (§8: the notice first)",
    "vectors",
)
def _outcome_first() -> None:
    from pointline.net.protocol import _peer as protocol
    from pointline.net.protocol._messages import AbortNotice

    original = protocol.Peer._fault

    def fault(
        self: Any, reason: Any, seat: Any, now: float, notify: bool = True, *a: Any, **kw: Any
    ) -> None:
        if self.is_finished:
            return
        original(self, reason, seat, now, False, *a, **kw)
        if notify:
            self._send(AbortNotice(self.table_id, self.seat, self._my_seq, reason, seat), now)

    _set(protocol.Peer, "_fault", fault)


@mutant(
    "peer_wrong_throw_code_replay",
    "a commit for the wrong throw is recorded with code replay, not wrong_throw (§8)",
    "client:rejected.wrong_throw",
)
def _wrong_throw_code() -> None:
    from pointline.net import errors

    _set(errors.WrongThrow, "code", errors.NetCode.REPLAY)


@mutant(
    "peer_extra_members_ignored",
    "a message with a member too many is read without it (§3 check 2: malformed)",
    "client:rejected.malformed",
)
def _extra_members() -> None:
    from pointline.net.protocol import _peer as protocol

    known = {"v", "kind", "table", "seat", "seq", "sig", "throw", "commitment", "nonce"}
    known |= {"choice", "throws", "final", "digest", "reason", "blame"}
    original = getattr(protocol, "parse_encoded")  # noqa: B009 - not re-exported

    def parse(frame: object, *args: Any) -> Any:
        if isinstance(frame, dict):
            frame = {k: v for k, v in frame.items() if k in known}
        return original(frame, *args)

    _set(protocol, "parse_encoded", parse)


@mutant(
    "peer_wrong_table_malformed",
    "a message for another table ends the session malformed, not non_member (§3 check 4)",
    "client:rejected.wrong_table",
)
def _wrong_table() -> None:
    from pointline.kernel import EndReason
    from pointline.net import errors

    _set(errors.WrongTable, "reason", EndReason.MALFORMED)


@mutant(
    "peer_outside_seat_malformed",
    "a message claiming a seat outside the roster ends malformed, not non_member (§3 check 5)",
    "client:rejected.non_member",
)
def _outside_seat() -> None:
    from pointline.kernel import EndReason
    from pointline.net import errors

    _set(errors.NonMemberSeat, "reason", EndReason.MALFORMED)


@mutant(
    "peer_non_member_delivery_proven",
    "a delivery the relay names from no roster seat is proven (§7: nobody to name)",
    "vectors",
)
def _non_member_proven() -> None:
    _wrap_ended(lambda reason, seat, reporter, proven: proven or reason.value == "non_member")


def _wrap_ended(proven_as: Callable[..., bool]) -> None:
    from pointline.net.protocol._peer import Peer

    original = Peer._finish_ended

    def finish(self: Any, reason: Any, seat: Any, reporter: int, proven: bool, *a: Any) -> None:
        original(self, reason, seat, reporter, proven_as(reason, seat, reporter, proven), *a)

    _set(Peer, "_finish_ended", finish)


@mutant(
    "peer_self_notice_names_nobody",
    "a notice naming its own sender (background) ends naming no seat (§7)",
    "client:ending.background",
)
def _self_notice() -> None:
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer._fault

    def fault(self: Any, reason: Any, seat: Any, now: float, *a: Any, **kw: Any) -> None:
        if kw.get("reporter") is not None and kw["reporter"] == seat:
            seat = None
        original(self, reason, seat, now, *a, **kw)

    _set(protocol.Peer, "_fault", fault)


@mutant(
    "peer_receipt_throws_unchecked",
    "a receipt's throws is not checked (§6: a refused frame, not a match)",
    "client:receipts.wrong_throws",
)
def _receipt_throws() -> None:
    from pointline.net.protocol import _ordering as ordering
    from pointline.net.protocol._messages import Receipt

    original = ordering.OrderChecker.accept

    def accept(self: Any, message: Any, from_seat: int) -> None:
        if isinstance(message, Receipt):
            message = replace(message, throws=self._reveals[message.seat])
        original(self, message, from_seat)

    _set(ordering.OrderChecker, "accept", accept)


@mutant(
    "peer_receipts_compare_digest_only",
    "receipts are compared by digest only, not final points (§6)",
    "client:receipts.mismatch",
)
def _digest_only() -> None:
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer._compare_receipts

    def compare(self: Any) -> None:
        mine = self._my_receipt
        self._receipts = {s: replace(r, final=mine.final) for s, r in self._receipts.items()}
        original(self)

    _set(protocol.Peer, "_compare_receipts", compare)


@mutant(
    "peer_receipts_wait_forever",
    "the receipts deadline is never armed (§6, §7: 8 s, then incomplete)",
    "client:receipts.withheld",
)
def _receipts_forever() -> None:
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer._complete

    def complete(self: Any, now: float) -> None:
        original(self, now)
        if self._deadline is not None:
            self._deadline = now + 3600.0

    _set(protocol.Peer, "_complete", complete)


@mutant(
    "peer_matched_counts_others",
    "receipts matched counts the other seats only (§6: every seat, this one included)",
    "vectors",
)
def _matched_count() -> None:
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer._finish_receipts

    def finish(self: Any, status: Any, detail: dict[str, Any]) -> None:
        if "count" in detail:
            detail = {**detail, "count": detail["count"] - 1}
        original(self, status, detail)

    _set(protocol.Peer, "_finish_receipts", finish)


@mutant(
    "peer_receipts_ignore_notices",
    "a notice during the receipt exchange is ignored (§6: the accusation rules apply)",
    "vectors",
)
def _receipts_notices() -> None:
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer._reported

    def reported(self: Any, notice: Any, now: float, awaiting: Any) -> None:
        if self.state.value != "receipts":
            original(self, notice, now, awaiting)

    _set(protocol.Peer, "_reported", reported)


@mutant(
    "peer_receipts_commit_waits",
    "a commit where a receipt belongs waits for ever (§6: the exchange ends replay)",
    "vectors",
)
def _commit_waits() -> None:
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer._take

    def take(self: Any, s: int, now: float) -> bool:
        inbox = self._inbox[s]
        if self.state.value == "receipts" and inbox and inbox[0][0].kind != "receipt":
            return False
        return bool(original(self, s, now))

    _set(protocol.Peer, "_take", take)


@mutant(
    "peer_awaiting_excludes_own_seat",
    "a deadline notice naming this peer's own awaited seat is an unproven accusation",
    "vectors",
)
def _awaiting_me() -> None:
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer._reported

    def reported(self: Any, notice: Any, now: float, awaiting: Any) -> None:
        original(self, notice, now, tuple(s for s in awaiting if s != self.seat))

    _set(protocol.Peer, "_reported", reported)


@mutant(
    "adapter_round_balance_with_contracts",
    "the round line's balance counts the contracts in play back in (HARNESS: before them)",
    "client:honest.seats_2",
)
def _round_balance() -> None:
    from pointline.conformance.online import stdio

    original = stdio.view

    def view(peer: Any, throw: int, seat: int | None = None) -> dict[str, Any]:
        line = original(peer, throw, seat)
        return {**line, "balance": line["balance"] + line["pass"] + line["dont_pass"]}

    _set(stdio, "view", view)


@mutant(
    "peer_timeouts_take_booleans",
    "a header timeout of true is taken as 1 s (§8 step 3: a number, not a boolean)",
    "vectors",
)
def _bool_timeouts() -> None:
    from pointline.net.protocol import _peer as protocol
    from pointline.net.protocol._transcript import Transcript

    original = protocol.Peer.__init__

    def init(
        self: Any,
        table_id: str,
        roster: Any,
        seat: int,
        key: Any,
        timeouts: Any = None,
        *args: Any,
        **kw: Any,
    ) -> None:
        doc = timeouts.to_document() if timeouts is not None else None
        if doc is None or not any(type(v) is bool for v in doc.values()):
            original(self, table_id, roster, seat, key, timeouts, *args, **kw)
            return
        numbers = protocol.Timeouts(**{k: float(v) for k, v in doc.items()})
        original(self, table_id, roster, seat, key, numbers, *args, **kw)
        self.timeouts = timeouts
        self.transcript = Transcript({**self.transcript.header, "timeouts": doc})

    _set(protocol.Peer, "__init__", init)


@mutant(
    "peer_table_id_utf16_units",
    "a table id's 128 characters are counted in UTF-16 units (§3: code points)",
    "vectors",
)
def _utf16() -> None:
    from pointline.net.errors import RosterError
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer.__init__

    def init(self: Any, table_id: str, *args: Any, **kw: Any) -> None:
        if isinstance(table_id, str) and len(table_id.encode("utf-16-le")) // 2 > 128:
            raise RosterError("a table id is a string of 1 to 128 characters")
        original(self, table_id, *args, **kw)

    _set(protocol.Peer, "__init__", init)


@mutant(
    "sig_small_order_accepted",
    "signatures are checked without refusing small-order points (§12)",
    "vectors",
)
def _small_order() -> None:
    from pointline.net.protocol import _keys as keys

    identity = bytes([1]) + bytes(31)
    original = keys.verify_signature

    def verify(public_key: bytes, signature: bytes, data: bytes) -> bool:
        if public_key == identity and signature == identity + bytes(32):
            return True  # [S]B = R + [k]A holds for S = 0, R = A = the identity
        return original(public_key, signature, data)

    replace_everywhere(original, verify)


@mutant(
    "sig_small_order_keys_accepted",
    "signatures are checked cofactorless, refusing only the identity key (§12 lists 14)",
    "vectors",
)
def _small_order_keys() -> None:
    from pointline.conformance.online.smallorder import SMALL_ORDER_KEYS, cofactorless_verify
    from pointline.net.protocol import _keys as keys

    listed = {bytes.fromhex(k) for k in SMALL_ORDER_KEYS[1:]}
    original = keys.verify_signature

    def verify(public_key: bytes, signature: bytes, data: bytes) -> bool:
        if public_key in listed:
            return cofactorless_verify(public_key, signature, data)  # as OpenSSL would
        return original(public_key, signature, data)

    replace_everywhere(original, verify)


@mutant(
    "peer_final_length_open",
    "a receipt's final may be shorter than the roster (§3: one per roster seat)",
    "vectors",
)
def _final_short() -> None:
    from pointline.net.protocol import _messages as messages

    original = messages.parse_encoded

    def parse(frame: object, table_id: str, keys: Any, max_seats: int = 8) -> Any:
        if isinstance(frame, str) and '"receipt"' in frame:
            with contextlib.suppress(ValueError):
                frame = json.loads(frame)
        if isinstance(frame, dict) and frame.get("kind") == "receipt":
            final = frame.get("final")
            if isinstance(final, list) and 0 < len(final) < len(keys):
                frame = {**frame, "final": final + [0] * (len(keys) - len(final))}
        return original(frame, table_id, keys, max_seats)

    replace_everywhere(original, parse)


@mutant(
    "transcript_unicode_blank_lines",
    "a transcript line of any Unicode space is read as blank (§8: JSON whitespace only)",
    "vectors",
)
def _unicode_blank() -> None:
    from pointline.net.protocol import _transcript as transcript

    _set(transcript, "JSON_WHITESPACE", None)  # str.strip(None): every Unicode space


@mutant(
    "peer_roster_key_unchecked",
    "a roster showing another key at this peer's seat starts the session (§2: bad_roster)",
    "client:roster.not_my_key",
)
def _roster_key() -> None:
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer.__init__

    def init(
        self: Any, table_id: str, roster: Any, seat: int, key: Any, *a: Any, **kw: Any
    ) -> None:
        roster = tuple(
            replace(m, public_key=key.public_key) if m.seat == seat else m for m in roster
        )
        original(self, table_id, roster, seat, key, *a, **kw)

    _set(protocol.Peer, "__init__", init)


@mutant(
    "peer_early_reveal_refused",
    "a reveal before every commit is in (mine in) ends the session (§5: it is queued)",
    "vectors",
)
def _early_reveal() -> None:
    from pointline.net.errors import Replay
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer.receive

    def receive(self: Any, frame: object, from_seat: int, now: float) -> None:
        doc: Any = frame
        if isinstance(frame, str):
            with contextlib.suppress(ValueError):
                doc = json.loads(frame)
        early = self.state.value == "commit" and self.has_committed and from_seat != self.seat
        if early and isinstance(doc, dict) and doc.get("kind") == "reveal":
            self._reject(frame, from_seat, Replay("a reveal before every commit"), now)
            return
        original(self, frame, from_seat, now)

    _set(protocol.Peer, "receive", receive)


# ---------------------------------------------------------------------------- issue 37


@mutant(
    "peer_digest_counts_unplayed",
    "the receipt's digest also covers a commit queued for a throw never played (§6)",
    "vectors",
)
def _digest_unplayed() -> None:
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer._complete

    def complete(self: Any, now: float) -> None:
        for queue in self._inbox.values():
            self._history.extend(m for m in queue if m[0].kind in ("commit", "reveal"))
        original(self, now)

    _set(protocol.Peer, "_complete", complete)


@mutant(
    "peer_early_receipt_refused_at_once",
    "a receipt that comes while reveals are awaited ends the session at once (§8: it waits)",
    "vectors",
)
def _early_receipt() -> None:
    from pointline.kernel import EndReason
    from pointline.net.protocol import _peer as protocol

    original = protocol.Peer._take

    def take(self: Any, s: int, now: float) -> bool:
        inbox = self._inbox[s]
        if self.state.value == "reveal" and inbox and inbox[0][0].kind == "receipt":
            self._fault(EndReason.REPLAY, s, now)  # ends the session as the commit step does
            return False
        return bool(original(self, s, now))

    _set(protocol.Peer, "_take", take)


@mutant(
    "peer_frame_cut_utf16",
    "a rejected frame is cut at 4,096 UTF-16 units, not code points (§8 `frame`)",
    "vectors",
)
def _cut_utf16() -> None:
    from pointline.net.protocol import _peer as protocol

    def cut(text: str) -> str:
        units = text.encode("utf-16-le")[: 2 * protocol.FRAME_CHARS]
        return units.decode("utf-16-le", "ignore")

    _set(protocol, "cut_frame", cut)


@mutant(
    "verify_exchange_leave_ok",
    "verify calls a leave during the receipt exchange OK, as a leave before the end (§7)",
    "vectors",
)
def _exchange_leave_ok() -> None:
    from pointline.net.protocol import _verify as verify

    original = verify._report

    def report(state: Any, *args: Any, **kwargs: Any) -> Any:
        # every argument passed on as given (a fixed signature broke when _report grew
        # ``host``: the mutant raised on every transcript instead of taking the other answer)
        got = original(state, *args, **kwargs)
        last = state.peer.transcript.records[-1].body
        mine = last.get("reason") == "departure" and last.get("seat") == state.me
        if got.receipts == "incomplete" and mine:
            return replace(got, complete=True)
        return got

    _set(verify, "_report", report)


def _adapter() -> Any:
    """The sans-IO adapter's class: the one in ``__main__`` when the adapter runs as a script
    (``python -m ...adapters.peer --mutant NAME``), else the imported module's."""
    import sys

    main = sys.modules.get("__main__")
    if main is not None and hasattr(main, "Adapter"):
        return main.Adapter
    # the adapter applies its mutant as it starts, so its module is loaded by now (importing it
    # here would close an import cycle: the adapter imports the mutants)
    peer = sys.modules.get("pointline.conformance.online.adapters.peer")
    if peer is None:
        raise RuntimeError("the adapter mutants patch the sans-IO adapter, which is not loaded")
    return peer.Adapter


@mutant(
    "adapter_closed_as_leave",
    "a lost relay connection (HARNESS.md `closed`) is taken as a leave: a notice is written",
    "client:self.lost_connection",
)
def _closed_as_leave() -> None:
    adapter = _adapter()
    original = adapter.on_line

    def on_line(self: Any, doc: dict[str, Any]) -> None:
        if doc.get("op") == "closed" and self.peer is not None:
            doc = {"op": "leave"}
        original(self, doc)

    _set(adapter, "on_line", on_line)


@mutant(
    "adapter_redirect_ignored",
    "a `redirect` (ONLINE.md §9, Relay cluster) is not followed by the same request again",
    "client:join.redirect",
)
def _redirect_ignored() -> None:
    adapter = _adapter()
    original = adapter.on_frame

    def on_frame(self: Any, frame: dict[str, Any]) -> None:
        if frame.get("op") != "redirect":
            original(self, frame)

    _set(adapter, "on_frame", on_frame)


@mutant(
    "peer_repeated_frame_later_value",
    "a rejected frame that named a member twice is written with the later value only (§8)",
    "client:rejected.repeated_member",
)
def _repeated_later_value() -> None:
    from pointline.net.protocol import _messages as messages

    _set(messages.RepeatedMembers, "text", lambda self: messages.canonical_json(self).decode())


@mutant(
    "adapter_resume_resends_all",
    "after `resumed` every send of the room goes again, not only those after its count "
    '(ONLINE.md "A blip is not a departure")',
    "client:resume.cut_mid_session",
)
def _resume_resends_all() -> None:
    adapter = _adapter()
    original = adapter.on_frame

    def on_frame(self: Any, frame: dict[str, Any]) -> None:
        if frame.get("op") == "resumed":
            frame = {**frame, "received": 0}
        original(self, frame)

    _set(adapter, "on_frame", on_frame)
