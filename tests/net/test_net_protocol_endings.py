"""The protocol core in memory: final receipts, and how an ending names its reporter and what
it proves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pointline.kernel import (
    EndReason,
)
from pointline.net.client._transcript_file import save_transcript
from pointline.net.client._verify_command import verify_transcript
from pointline.net.protocol._messages import AbortNotice, Receipt, Reveal, parse, to_frame
from pointline.net.protocol._peer import (
    ReceiptsIncomplete,
    ReceiptsMismatch,
    ReceiptStatus,
    SessionEnded,
    Step,
    ending_text,
)
from pointline.net.protocol._transcript import record_hash
from tests.net.memnet import (
    Net,
    forge_signature,
    point_phase_net,
    resign,
    saved_report,
)

# ---------------------------------------------------------------------------- receipts


def test_a_missing_receipt_leaves_the_result_but_reports_incomplete() -> None:
    net = Net(3, seed=5)
    net.filters[2] = lambda f: [] if f["kind"] == "receipt" else [f]
    net.run()
    for p in net.honest(2):
        assert p.result is not None
        assert p.receipt_status is ReceiptStatus.INCOMPLETE
        assert ReceiptsIncomplete(EndReason.DEADLINE, 2) in net.log[p.seat]


def test_an_accusation_during_the_receipts_names_reporter_and_accused_each_in_its_place() -> None:
    """Issue 43: Seat 2's unconfirmed accusation of Seat 1 during the receipt exchange read "a
    missed deadline from Seat 2" (the reporter as the accused). It names both now."""
    net = Net(3, seed=5)
    net.filters[1] = lambda f: [] if f["kind"] == "receipt" else [f]
    net.run_until(lambda n: n.peers[0].state is n.peers[2].state is Step.RECEIPTS)
    reader = net.peers[2]
    assert reader.awaiting == (1,)  # Seat 1's receipt is in here; Seat 2 held its own
    notice = net.signed(
        1, AbortNotice(net.table_id, 1, net.peers[1]._my_seq - 1, EndReason.DEADLINE, 0)
    )
    reader.receive(notice, 1, net.now)
    stopped = [e for e in reader.events() if isinstance(e, ReceiptsIncomplete)]
    assert stopped == [ReceiptsIncomplete(EndReason.DEADLINE, 1)]  # the record's (reason, seat)
    assert (stopped[0].reporter, stopped[0].accused) == (1, 0)
    assert stopped[0].text == (
        "Seat 2 reported that Seat 1's move did not arrive in time (its connection or the seat); "
        "this seat saw otherwise"
    )


def test_a_believed_late_receipt_names_the_late_seat_and_its_reporter() -> None:
    net = Net(3, seed=5)
    net.filters[2] = lambda f: [] if f["kind"] == "receipt" else [f]
    net.filters[1] = lambda f: [] if f["kind"] == "receipt" else [f]
    net.run_until(lambda n: n.peers[0].state is n.peers[2].state is Step.RECEIPTS)
    reader = net.peers[0]
    assert reader.awaiting == (1, 2)
    notice = net.signed(
        1, AbortNotice(net.table_id, 1, net.peers[1]._my_seq - 1, EndReason.DEADLINE, 2)
    )
    reader.receive(notice, 1, net.now)
    stopped = [e for e in reader.events() if isinstance(e, ReceiptsIncomplete)]
    assert stopped == [ReceiptsIncomplete(EndReason.DEADLINE, 2)]
    assert stopped[0].text == (
        "Seat 2 reported that Seat 3's move did not arrive in time (its connection or the seat)"
    )


def test_a_lying_receipt_is_a_mismatch() -> None:
    net = Net(3, seed=6)

    def lie(frame: dict[str, Any]) -> list[Any]:
        if frame["kind"] != "receipt":
            return [frame]
        final = tuple(p + 10 for p in frame["final"])
        return [resign(net, 2, frame, final=final)]

    net.filters[2] = lie
    net.run()
    for p in net.honest(2):
        assert p.receipt_status is ReceiptStatus.MISMATCH
        assert ReceiptsMismatch((2,)) in net.log[p.seat]


def test_the_receipt_digest_covers_every_commit_and_reveal() -> None:
    net = Net(2, seed=7)
    net.run()
    receipts = [
        parse(f, net.table_id, {m.seat: m.public_key for m in net.roster})
        for seat in (0, 1)
        for f in net.sent[seat]
        if f["kind"] == "receipt"
    ]
    assert all(isinstance(r, Receipt) for r in receipts)
    assert len({r.digest for r in receipts if isinstance(r, Receipt)}) == 1
    kinds = [f["kind"] for f in net.sent[0]]
    assert kinds.count("commit") == kinds.count("reveal") == net.peers[0].table.throws


def test_frames_are_canonical_json_objects() -> None:
    net = Net(2)
    net.round()
    for frame in net.sent[0]:
        text = json.dumps(frame, sort_keys=True, separators=(",", ":"))
        assert json.loads(text) == frame
        assert set(frame) >= {"v", "kind", "table", "seat", "seq", "sig"}
    assert isinstance(parse(net.sent[0][1], net.table_id, {0: net.keys[0].public_key}), Reveal)
    assert (
        to_frame(parse(net.sent[0][0], net.table_id, {0: net.keys[0].public_key})) == net.sent[0][0]
    )


# ---------------------------------------------------------------------------- endings


def test_a_signed_abort_notice_blaming_seat_0_names_its_reporter_and_proves_nothing() -> None:
    net = Net(4)
    net.round()
    liar = net.peers[3]
    notice = net.signed(3, AbortNotice(net.table_id, 3, liar._my_seq, EndReason.BAD_SIGNATURE, 0))
    net.inject(3, notice)
    for p in net.honest(3):
        ending = p.ending
        assert ending == SessionEnded(EndReason.BAD_SIGNATURE, 3)  # the reporter, not seat 0
        assert ending is not None
        assert (ending.reporter, ending.proven, ending.accused) == (3, False, 0)
        text = ending_text(ending.reason, ending.seat, ending.reporter, ending.proven, 0)
        assert text == ending.text == "Seat 4 reported a bad signature from Seat 1; not proven"
        outcome = p.transcript.records[-1].body
        assert (outcome["seat"], outcome["reporter"], outcome["accused"]) == (3, 3, 0)
        assert outcome["proven"] is False
        assert p.table.ending is not None and p.table.ending.seat == 3  # the kernel's Abort


def test_a_seat_that_leaves_is_named_as_its_own_reporter() -> None:
    net = Net(4)
    net.round()
    leaver = net.peers[3]
    leaver.depart(3, net.now)  # its app leaves: a signed notice naming itself goes out
    for frame in leaver.outgoing():
        net.inject(3, frame)
    for p in net.peers:
        ending = p.ending
        assert ending is not None and (ending.reason, ending.seat) == (EndReason.DEPARTURE, 3)
        assert (ending.reporter, ending.proven) == (3, False)
        assert ending.text == "a departure from Seat 4, reported by that seat itself"


def test_verify_words_a_false_blame_as_the_core_does() -> None:
    net = Net(4)
    net.round()
    notice = net.signed(
        3, AbortNotice(net.table_id, 3, net.peers[3]._my_seq, EndReason.BAD_SIGNATURE, 0)
    )
    net.inject(3, notice)
    report = saved_report(net.peers[1])
    assert report.ok, report.text()
    assert "Seat 4 reported a bad signature from Seat 1; not proven" in report.text()


def test_a_bad_signature_seen_first_hand_is_proven_and_reported_by_me() -> None:
    net, _ = point_phase_net()
    net.filters[2] = forge_signature
    net.run()
    endings = {p.seat: p.ending for p in net.honest(2)}
    first_hand = [s for s, e in endings.items() if e is not None and e.proven]
    assert first_hand  # someone received the forged frame before any notice
    for p in net.honest(2):
        ending = p.ending
        assert ending == SessionEnded(EndReason.BAD_SIGNATURE, 2)
        if ending.proven:
            assert ending.reporter == p.seat
            expected = "a bad signature from Seat 3 (proven)"
        else:  # told by a peer that saw it first hand
            assert ending.reporter in first_hand
            expected = f"Seat {ending.reporter + 1} reported a bad signature from Seat 3"
        report = saved_report(p)
        assert report.ok, report.text()
        assert expected in report.text()


def test_an_outcome_claiming_proof_without_evidence_fails_verification(tmp_path: Path) -> None:
    net = Net(3)
    net.round()
    notice = net.signed(
        2, AbortNotice(net.table_id, 2, net.peers[2]._my_seq, EndReason.DEPARTURE, 2)
    )
    net.inject(2, notice, to=[1])
    path = save_transcript(net.peers[1].transcript, tmp_path / "t.jsonl")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[-1]["body"]["proven"] is False
    lines[-1]["body"]["proven"] = True
    body = lines[-1]["body"]
    lines[-1]["hash"] = record_hash(lines[-1]["index"], lines[-1]["prev"], "outcome", body)
    path.write_text("".join(json.dumps(doc) + "\n" for doc in lines))
    report = verify_transcript(path)
    assert not report.ok
    assert "proven" in (report.problem or "")


# ---------------------------------------------------------------------------- leave or lost


def _abort_kinds(peer: Any) -> list[str]:
    return [
        json.loads(r.body["message"])["kind"]
        for r in peer.transcript.records
        if r.kind.value == "sent" and json.loads(r.body["message"])["kind"] == "abort"
    ]


def test_a_leave_writes_its_notice_and_a_lost_connection_does_not() -> None:
    """spec/ONLINE.md §7: the same ending (my own departure), told apart in my transcript."""
    for how in ("leave", "lost"):
        net, _ = point_phase_net()
        me = net.peers[1]
        now = me.next_deadline() or 0.0
        if how == "leave":
            me.depart(me.seat, now - 1)
        else:
            me.lose_connection(now - 1)
        assert me.ending == SessionEnded(EndReason.DEPARTURE, 1)
        assert me.ending.reporter == 1 and not me.ending.proven
        sent = me.outgoing()
        report = saved_report(me)
        if how == "leave":
            assert [f["kind"] for f in sent] == ["abort"] and _abort_kinds(me) == ["abort"]
            assert report.complete and "reported by that seat itself" in report.summary
        else:
            assert sent == [] and _abort_kinds(me) == []
            assert report.ok and not report.complete
            assert "the relay was lost after throw" in report.summary, report.summary


def test_a_lost_connection_during_the_receipts_ends_the_exchange_without_a_notice() -> None:
    net = Net(2, seed=5)
    net.filters[1] = lambda f: [] if f["kind"] == "receipt" else [f]
    net.run_until(lambda n: n.peers[0].receipt_status is None and n.peers[0].result is not None)
    me = net.peers[0]
    me.outgoing()  # the receipt (the net would carry it)
    me.lose_connection((me.next_deadline() or 1.0) - 1)  # before the receipts deadline
    assert me.receipt_status is ReceiptStatus.INCOMPLETE
    assert me.outgoing() == [] and _abort_kinds(me) == []
    report = saved_report(me)
    assert report.ok and report.receipts == "incomplete" and not report.complete, report.text()
