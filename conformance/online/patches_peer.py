"""Mutants of ``verify`` (killed by the verifier harness) and of the peer (killed by a client
harness case run against the sans-IO adapter)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pointline.conformance.online.registry import mutant
from pointline.conformance.online.registry import set_attr as _set

# ---------------------------------------------------------------------------- verify


@mutant("verify_accepts_cut", "verify calls a transcript without an outcome OK", "verifier")
def _cut() -> None:
    from pointline.net.protocol import verify

    original = verify._verify

    def lenient(path: Any, relay_key: bytes | None = None) -> Any:
        report = original(path, relay_key)
        if not report.ok and "cut off" in (report.problem or ""):
            return verify.Report(True, "cut", complete=True)
        return report

    _set(verify, "_verify", lenient)


@mutant("verify_ignores_signatures", "verify does not check message signatures", "verifier")
def _no_sigs() -> None:
    from pointline.net.protocol import messages

    _set(messages, "verify_signature", lambda *args: True)


@mutant(
    "verify_ignores_roster_sig", "verify does not check the relay's roster signature", "verifier"
)
def _no_roster_sig() -> None:
    from pointline.net.protocol import verify

    _set(verify, "verify_signature", lambda *args: True)


@mutant("verify_incomplete_is_ok", "verify says OK when the receipts are missing", "verifier")
def _incomplete() -> None:
    from pointline.net.protocol import verify

    original = verify.Report.text
    _set(verify.Report, "text", lambda self: original(replace(self, complete=True)))


@mutant("verify_accepts_any_ending", "verify takes whatever ended outcome is recorded", "verifier")
def _outcome_reason() -> None:
    from pointline.net.protocol import verify

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
    from pointline.net.protocol import verify

    original = verify._report

    def as_lost(state: Any, players: str, receipts_recorded: bool) -> Any:
        ending = state.peer.ending
        if ending is not None and ending.reason is EndReason.DEPARTURE and ending.seat == state.me:
            state.lost = True
        return original(state, players, receipts_recorded)

    _set(verify, "_report", as_lost)


# ---------------------------------------------------------------------------- the peer


@mutant(
    "peer_leave_without_notice",
    "the peer's own leave writes no departure notice (as if the connection were lost)",
    "client:self.leave",
)
def _leave_silent() -> None:
    from pointline.net.protocol.peer import Peer

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
    from pointline.net.protocol.peer import Peer

    _set(Peer, "tick", lambda self, now: None)


@mutant(
    "peer_blames_highest_awaited",
    "a deadline blames the highest awaited seat",
    "client:fault.deadline",
)
def _highest() -> None:
    from pointline.net.protocol.peer import Peer

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
    from pointline.net.protocol import peer as protocol

    original = protocol.Peer._open_round

    def open_round(self: Any, now: float) -> None:
        original(self, now)
        self._deadline = now + 3600.0

    _set(protocol.Peer, "_open_round", open_round)


@mutant("peer_skips_signatures", "the peer accepts any signature", "client:fault.bad_signature")
def _peer_sigs() -> None:
    from pointline.net.protocol import messages

    _set(messages, "verify_signature", lambda *args: True)


@mutant(
    "peer_skips_reveal_check",
    "the peer does not check reveals against commits",
    "client:fault.bad_reveal",
)
def _peer_reveal() -> None:
    from pointline.net.protocol import peer as protocol

    _set(protocol, "verify_commitment", lambda *args, **kw: True)


@mutant(
    "peer_ignores_repeats",
    "the peer drops a repeated message instead of ending",
    "client:fault.replay",
)
def _repeats() -> None:
    from pointline.net.protocol import peer as protocol

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
    from pointline.net.protocol import peer as protocol

    original = protocol.Peer._fault

    def fault(self: Any, reason: Any, seat: Any, now: float, *args: Any, **kw: Any) -> None:
        accused = kw.pop("accused", None)
        original(self, reason, accused if accused is not None else seat, now, *args, **kw)

    _set(protocol.Peer, "_fault", fault)


def _wrap_fault(change: Callable[..., tuple[Any, Any, Any, Any]]) -> None:
    from pointline.net.protocol import peer as protocol

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
    from pointline.net.protocol import peer as protocol
    from pointline.net.protocol.messages import Receipt

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
    from pointline.net.protocol import peer as protocol

    original = getattr(protocol, "derive_dice")  # noqa: B009 - not re-exported
    _set(protocol, "derive_dice", lambda t, n, nonces, *a: original(t, n, list(nonces)[::-1], *a))


@mutant("peer_seq_from_1", "the peer numbers its messages from 1", "client:honest.seats_2")
def _seq() -> None:
    from pointline.net.protocol import peer as protocol

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
    from pointline.net.protocol import peer as protocol

    original = protocol.Peer._all_committed

    def all_committed(self: Any, now: float) -> None:
        self._my_nonce = bytes(32) if self._my_nonce != bytes(32) else b"\x01" * 32
        original(self, now)

    _set(protocol.Peer, "_all_committed", all_committed)
