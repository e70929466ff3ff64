"""The protocol core end to end, in memory: honest sessions, rounds, deadlines and order
(faults: ``test_net_protocol_faults.py``; receipts, endings: ``test_net_protocol_endings.py``)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from pointline.kernel import (
    Choice,
    EndReason,
    IllegalAction,
    derive_dice,
    state_hash,
)
from pointline.net.client._transcript_file import save_transcript
from pointline.net.client._verify_command import verify_transcript
from pointline.net.errors import NotNow
from pointline.net.protocol._messages import Receipt, Reveal
from pointline.net.protocol._peer import (
    AllCommitted,
    DeadlineKind,
    Peer,
    ReceiptsMatched,
    ReceiptStatus,
    RoundOpened,
    SessionComplete,
    SessionEnded,
    Step,
    Thrown,
    Timeouts,
)
from tests.net.memnet import (
    Net,
    assert_ended,
    assert_voided_ending,
    point_phase_net,
    random_choice,
    saved_report,
    seeded_nonces,
)

# ---------------------------------------------------------------------------- honest


@pytest.mark.parametrize("seats", [2, 8])
def test_honest_session_every_peer_agrees_and_receipts_match(seats: int, tmp_path: Any) -> None:
    net = Net(seats, seed=seats, choose=random_choice)
    net.run()
    results = {p.result for p in net.peers}
    assert len(results) == 1 and None not in results
    assert {state_hash(p.table) for p in net.peers} == {state_hash(net.peers[0].table)}
    assert all(p.state is Step.COMPLETE for p in net.peers)
    assert all(p.receipt_status is ReceiptStatus.MATCHED for p in net.peers)
    for p in net.peers:
        kinds = [type(e) for e in net.log[p.seat]]
        assert kinds.count(SessionComplete) == 1
        assert ReceiptsMatched(seats) in net.log[p.seat]
        thrown = [e for e in net.log[p.seat] if isinstance(e, Thrown)]
        assert len(thrown) == p.table.throws
    # every peer saw the same dice
    dice = {
        tuple((e.die1, e.die2) for e in net.log[p.seat] if isinstance(e, Thrown)) for p in net.peers
    }
    assert len(dice) == 1
    for p in net.peers[:2]:
        report = verify_transcript(save_transcript(p.transcript, tmp_path / f"seat{p.seat}.jsonl"))
        assert report.ok, report.text()
        assert report.final == p.result.final  # type: ignore[union-attr]
        assert report.receipts == "matched"


def test_a_round_waits_for_every_commit_then_reveals() -> None:
    net = Net(3)
    a, b, c = net.peers
    assert isinstance(net.log[0][0] if net.log[0] else a.events()[0], RoundOpened)
    a.commit(Choice(10, 0), net.now)
    b.commit(Choice(0, 10), net.now)
    net.deliver()
    assert a.state is Step.COMMIT and a.awaiting == (2,)
    assert a.deadline_kind is DeadlineKind.CONFIRM
    c.commit(Choice(0, 0), net.now)
    net.deliver()
    assert all(AllCommitted(1) in net.log[p.seat] for p in net.peers)
    assert {p.table.throws for p in net.peers} == {1}
    # the dice are the kernel's derivation from the nonces in seat order
    nonces = [seeded_nonces(f"0/{i}")() for i in range(3)]
    assert a.table.seat(0).ledger[-1] is not None
    thrown = next(e for e in net.log[0] if isinstance(e, Thrown))
    assert (thrown.die1, thrown.die2) == derive_dice(net.table_id, 1, nonces)


def test_commit_checks_the_rules_and_the_moment() -> None:
    net = Net(2)
    a = net.peers[0]
    with pytest.raises(IllegalAction):
        a.commit(Choice(100, 10), net.now)  # over the hand limit
    assert a.outgoing() == [] and not a.has_committed
    a.commit(Choice(10, 0), net.now)
    with pytest.raises(NotNow):
        a.commit(Choice(10, 0), net.now)


def test_solo_peer_plays_a_whole_session() -> None:
    net = Net(1)
    net.run()
    peer = net.peers[0]
    assert peer.result is not None and peer.receipt_status is ReceiptStatus.MATCHED


# ---------------------------------------------------------------------------- edges


def test_an_eight_seat_session_with_any_interleaving_agrees() -> None:
    net = Net(8, seed=21, choose=random_choice, chaos=True)
    net.run()
    assert len({p.result for p in net.peers}) == 1 and net.peers[0].result is not None
    assert all(p.receipt_status is ReceiptStatus.MATCHED for p in net.peers)


def test_deadline_kinds_follow_the_round() -> None:
    net = Net(2)
    a, b = net.peers
    assert a.deadline_kind is DeadlineKind.CONFIRM
    assert a.next_deadline() == net.now + net.timeouts.confirm
    a.tick(net.now + net.timeouts.confirm - 0.001)
    assert a.state is Step.COMMIT  # not yet
    a.commit(Choice(10, 0), net.now)
    b.commit(Choice(10, 0), net.now)
    net.filters[1] = lambda f: [] if f["kind"] == "reveal" else [f]  # b's reveal never leaves
    net.deliver()
    assert a.state is Step.REVEAL and a.deadline_kind is DeadlineKind.RESPONSE
    assert a.awaiting == (1,)
    a.tick(net.now + net.timeouts.response)
    assert a.ending == SessionEnded(EndReason.DEADLINE, 1)
    assert a.deadline_kind is None and a.next_deadline() is None


def test_timeouts_must_be_positive() -> None:
    net = Net(2)
    with pytest.raises(Exception, match="timeout"):
        Peer(net.table_id, net.roster, 0, net.keys[0], Timeouts(confirm=0.0))


def test_a_receipt_before_the_session_completes_is_out_of_order() -> None:
    net, _ = point_phase_net()
    peer = net.peers[2]
    fake = Receipt(net.table_id, 2, len(net.sent[2]), peer.table.throws, (1000,) * 3, b"\0" * 32)
    net.inject(2, net.signed(2, fake))
    assert_ended(net, EndReason.REPLAY, 2, exclude=2)


def test_a_reveal_before_my_commit_is_out_of_order() -> None:
    net = Net(3)
    net.peers[2].commit(Choice(10, 0), net.now)
    commit_frame = net.peers[2].outgoing()[0]
    net.silent.add(2)
    nonce = hashlib.sha256(b"early").digest()
    early = Reveal(net.table_id, 2, 1, 1, nonce, Choice(10, 0).to_bytes())
    net.inject(2, commit_frame)
    net.inject(2, net.signed(2, early))
    assert_ended(net, EndReason.REPLAY, 2, exclude=2)


def test_nothing_is_taken_after_the_end() -> None:
    net, _ = point_phase_net()
    net.peers[1].background(net.now)
    net.deliver()
    before = len(net.peers[0].transcript)
    net.inject(2, b"garbage")
    net.peers[0].depart(2, net.now)
    net.peers[0].tick(net.now + 10_000)
    net.collect()
    assert len(net.peers[0].transcript) == before
    assert net.peers[0].ending == SessionEnded(EndReason.BACKGROUND, 1)
    with pytest.raises(NotNow):
        net.peers[0].commit(Choice(0, 0), net.now)


@pytest.mark.parametrize("from_seat", [None, "1", -1, 3, True])
def test_receive_never_raises_on_a_strange_sender(from_seat: Any) -> None:
    net = Net(3)
    net.peers[0].receive(net.sent[1][0] if net.sent[1] else {}, from_seat, net.now)
    assert net.peers[0].ending is not None
    assert net.peers[0].ending.reason is EndReason.NON_MEMBER


def test_my_own_departure_ends_the_session_and_tells_the_others() -> None:
    net, restored = point_phase_net()
    net.peers[0].depart(0, net.now)
    net.deliver()
    assert_voided_ending(net, restored, EndReason.DEPARTURE, 0, exclude=None)


def test_a_bad_reveal_is_caught_on_arrival_even_while_a_commit_is_missing() -> None:
    net = Net(3)
    a, _, c = net.peers
    a.commit(Choice(10, 0), net.now)
    c.commit(Choice(10, 0), net.now)
    a_commit, c_commit = a.outgoing()[0], c.outgoing()[0]
    c.receive(a_commit, 0, net.now)
    net.inject(2, c_commit, to=[0])
    assert a.state is Step.COMMIT and a.awaiting == (1,)
    bad = Reveal(
        net.table_id, 2, 1, 1, hashlib.sha256(b"not it").digest(), Choice(10, 0).to_bytes()
    )
    net.inject(2, net.signed(2, bad), to=[0])
    assert a.ending == SessionEnded(EndReason.BAD_REVEAL, 2)
    report = saved_report(a)
    assert report.ok and report.reason is EndReason.BAD_REVEAL, report.text()
