"""The protocol core end to end, in memory: honest sessions and every fault."""

from __future__ import annotations

import hashlib
import json
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pointline.kernel import (
    THROW_CAP,
    Choice,
    Ending,
    EndReason,
    IllegalAction,
    Phase,
    Voided,
    commitment,
    derive_dice,
    state_hash,
)
from pointline.kernel.values import POINT_NUMBERS
from pointline.net.errors import NotNow
from pointline.net.messages import AbortNotice, Commit, Receipt, Reveal, parse, to_frame
from pointline.net.protocol import (
    AllCommitted,
    DeadlineKind,
    Peer,
    ReceiptsIncomplete,
    ReceiptsMatched,
    ReceiptsMismatch,
    ReceiptStatus,
    RoundOpened,
    SessionComplete,
    SessionEnded,
    Step,
    Thrown,
    Timeouts,
    ending_text,
)
from pointline.net.transcript import record_hash
from pointline.net.verify import verify_transcript
from tests.net.test_net_protocol_harness import (
    Net,
    in_point_phase_with_contracts,
    random_choice,
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
        report = verify_transcript(p.transcript.save(tmp_path / f"seat{p.seat}.jsonl"))
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


# ---------------------------------------------------------------------------- faults


def assert_ended(net: Net, reason: EndReason, seat: int | None, exclude: int | None) -> None:
    """Every honest peer ended without a result, with ``reason`` and ``seat``."""
    for p in net.honest(exclude):
        assert p.state is Step.ENDED, p.seat
        assert p.ending == SessionEnded(reason, seat), (p.seat, p.ending)
        assert p.table.ending == Ending(reason, seat)
        assert p.result is None
        assert SessionEnded(reason, seat) in net.log[p.seat]
        with tempfile.TemporaryDirectory() as folder:
            report = verify_transcript(p.transcript.save(Path(folder) / "t.jsonl"))
        assert report.ok, (p.seat, report.text())
        assert (report.reason, report.seat) == (reason, seat)


def point_phase_net(seats: int = 3, seed: int = 11) -> tuple[Net, list[int]]:
    """A session in the point phase with contracts on; returns it and balances+contracts."""
    net = Net(seats, seed=seed)
    net.run_until(in_point_phase_with_contracts)
    table = net.peers[0].table
    restored = [table.balance(s) + table.contracts(s).total for s in range(seats)]
    return net, restored


def assert_voided(net: Net, restored: list[int], exclude: int | None) -> None:
    for p in net.honest(exclude):
        table = p.table
        for s in range(table.seat_count):
            assert table.balance(s) == restored[s]
            assert any(isinstance(e, Voided) for e in table.seat(s).ledger)


def test_a_seat_that_stops_answering_misses_the_confirm_deadline() -> None:
    net, restored = point_phase_net()
    net.silent.add(2)
    start = net.now
    net.run()
    assert_ended(net, EndReason.DEADLINE, 2, exclude=2)
    assert net.now == start + net.timeouts.confirm
    assert_voided(net, restored, exclude=2)


def test_a_seat_that_commits_but_never_reveals_misses_the_response_deadline() -> None:
    net, restored = point_phase_net()

    def stop_at_reveal(frame: dict[str, Any]) -> list[Any]:
        if frame["kind"] == "reveal":
            net.silent.add(2)  # seat 2 goes quiet after its commit
            return []
        return [frame]

    net.filters[2] = stop_at_reveal
    start = net.now
    net.run()
    assert_ended(net, EndReason.DEADLINE, 2, exclude=2)
    assert net.now == start + net.timeouts.response
    assert_voided(net, restored, exclude=2)


def test_the_whole_session_has_a_deadline() -> None:
    net = Net(2, timeouts=Timeouts(confirm=45.0, session=30.0))
    start = net.now
    net.silent.add(1)
    net.run()
    assert net.now == start + 30.0
    assert_ended(net, EndReason.DEADLINE, None, exclude=1)


def _resign(net: Net, seat: int, frame: dict[str, Any], **changes: Any) -> dict[str, Any]:
    message = parse(frame, net.table_id, {m.seat: m.public_key for m in net.roster})
    return net.signed(seat, replace(message, **changes))


def test_a_reveal_with_another_nonce_is_a_bad_reveal() -> None:
    net, restored = point_phase_net()
    other = hashlib.sha256(b"another nonce").digest()
    net.filters[2] = lambda f: [_resign(net, 2, f, nonce=other) if f["kind"] == "reveal" else f]
    net.run()
    assert_ended(net, EndReason.BAD_REVEAL, 2, exclude=2)
    assert_voided(net, restored, exclude=2)


def test_a_reveal_with_another_choice_is_a_bad_reveal() -> None:
    net, restored = point_phase_net()
    other = Choice(0, 0).to_bytes()
    net.filters[2] = lambda f: [_resign(net, 2, f, choice=other) if f["kind"] == "reveal" else f]
    net.run()
    assert_ended(net, EndReason.BAD_REVEAL, 2, exclude=2)
    assert_voided(net, restored, exclude=2)


def test_an_illegal_choice_committed_and_revealed_is_a_bad_reveal() -> None:
    net, restored = point_phase_net()
    cheat = Choice(100, 0).to_bytes()  # raising Pass while the point is on
    nonce = hashlib.sha256(b"cheat").digest()

    def lie(frame: dict[str, Any]) -> list[Any]:
        if frame["kind"] == "commit":
            digest = commitment(net.table_id, frame["throw"], 2, nonce, cheat)
            return [_resign(net, 2, frame, commitment=digest)]
        if frame["kind"] == "reveal":
            return [_resign(net, 2, frame, nonce=nonce, choice=cheat)]
        return [frame]

    net.filters[2] = lie
    net.run()
    assert_ended(net, EndReason.BAD_REVEAL, 2, exclude=2)
    assert_voided(net, restored, exclude=2)


def test_a_forged_signature_ends_the_session() -> None:
    net, restored = point_phase_net()

    def forge(frame: dict[str, Any]) -> list[Any]:
        sig = frame["sig"]
        return [{**frame, "sig": ("0" if sig[0] != "0" else "1") + sig[1:]}]

    net.filters[2] = forge
    net.run()
    assert_ended(net, EndReason.BAD_SIGNATURE, 2, exclude=2)
    assert_voided(net, restored, exclude=2)


def test_a_message_signed_with_my_key_but_claiming_another_seat_is_a_bad_signature() -> None:
    net, _ = point_phase_net()
    forged = net.signed(2, Commit(net.table_id, 1, 0, net.peers[0].throw_index, b"\0" * 32))
    net.inject(2, forged)
    assert_ended(net, EndReason.BAD_SIGNATURE, 2, exclude=2)


def test_a_replayed_message_ends_the_session() -> None:
    net, restored = point_phase_net()
    old = net.sent[2][0]  # seat 2's first commit, long ago
    net.inject(2, old)
    assert_ended(net, EndReason.REPLAY, 2, exclude=2)
    assert_voided(net, restored, exclude=2)


def test_forwarding_another_seats_message_is_a_replay() -> None:
    net, _ = point_phase_net()
    net.inject(2, net.sent[1][-1], to=[0])
    assert net.peers[0].ending == SessionEnded(EndReason.REPLAY, 2)


def test_a_commit_for_the_wrong_throw_is_out_of_order() -> None:
    net, _ = point_phase_net()
    peer = net.peers[2]
    wrong = Commit(net.table_id, 2, len(net.sent[2]), peer.throw_index + 3, b"\1" * 32)
    net.inject(2, net.signed(2, wrong))
    assert_ended(net, EndReason.REPLAY, 2, exclude=2)


def test_a_message_for_another_table_is_from_a_non_member() -> None:
    net, restored = point_phase_net()
    net.filters[2] = lambda f: [_resign(net, 2, f, table="another-room")]
    net.run()
    assert_ended(net, EndReason.NON_MEMBER, 2, exclude=2)
    assert_voided(net, restored, exclude=2)


def test_a_message_claiming_a_seat_outside_the_roster_is_from_a_non_member() -> None:
    net, _ = point_phase_net()
    claim = Commit(net.table_id, 7, 0, net.peers[0].throw_index, b"\2" * 32)
    net.inject(2, net.signed(2, claim))
    assert_ended(net, EndReason.NON_MEMBER, 2, exclude=2)


def test_a_delivery_from_a_seat_the_relay_does_not_know_is_from_a_non_member() -> None:
    net, _ = point_phase_net()
    for p in net.peers:
        p.receive({"kind": "commit"}, 9, net.now)
    net.collect()
    assert_ended(net, EndReason.NON_MEMBER, None, exclude=None)


@pytest.mark.parametrize(
    "garbage",
    [
        b"{not json",
        b"\xff\xfe",
        "[1, 2, 3]",
        {"kind": "commit"},
        {"kind": "nonsense", "v": 1},
        b'{"kind":"commit","kind":"reveal"}',
        b"x" * 100_000,
        42,
        "\ud800",
        {"kind": "\udfff", "v": [{}]},
        {"kind": "commit", 1: 2},
        '{"kind":"\u2028\u0085"}',
    ],
    ids=[
        "bad-json",
        "not-utf8",
        "array",
        "missing-fields",
        "unknown-kind",
        "duplicate",
        "huge",
        "int",
        "lone-surrogate",
        "surrogate-in-dict",
        "int-key",
        "line-separators",
    ],
)
def test_garbage_is_malformed(garbage: Any) -> None:
    net, restored = point_phase_net()
    net.inject(2, garbage)
    assert_ended(net, EndReason.MALFORMED, 2, exclude=2)
    assert_voided(net, restored, exclude=2)


def test_a_frame_with_a_wrongly_typed_field_is_malformed() -> None:
    net, _ = point_phase_net()

    def mistype(frame: dict[str, Any]) -> list[Any]:
        return [{**frame, "seq": str(frame["seq"])}]

    net.filters[2] = mistype
    net.run()
    assert_ended(net, EndReason.MALFORMED, 2, exclude=2)


def test_background_ends_the_session_for_everyone() -> None:
    net, restored = point_phase_net()
    net.peers[1].background(net.now)
    net.deliver()
    assert_ended(net, EndReason.BACKGROUND, 1, exclude=None)
    assert_voided(net, restored, exclude=None)


def test_a_departure_ends_the_session() -> None:
    net, restored = point_phase_net()
    net.silent.add(2)
    for p in net.honest(2):
        p.depart(2, net.now)
    net.deliver()
    assert_ended(net, EndReason.DEPARTURE, 2, exclude=2)
    assert_voided(net, restored, exclude=2)


def test_an_abort_notice_from_one_peer_ends_everyone_with_its_reason() -> None:
    net, _ = point_phase_net()
    net.peers[0].depart(0, net.now)  # seat 0 leaves and says so
    net.deliver()
    assert_ended(net, EndReason.DEPARTURE, 0, exclude=None)


def test_a_departure_only_one_peer_heard_of_ends_naming_that_peer_as_its_reporter() -> None:
    net, _ = point_phase_net()
    net.peers[0].depart(1, net.now)  # only seat 0 hears of it: the others cannot check it
    net.deliver()
    assert net.peers[0].ending == SessionEnded(EndReason.DEPARTURE, 1)
    for p in net.peers[1:]:
        ending = p.ending
        assert ending == SessionEnded(EndReason.DEPARTURE, 0)
        assert ending is not None and (ending.reporter, ending.accused) == (0, 1)
        assert ending.text == "Seat 1 reported a departure from Seat 2; not proven"


def test_the_throw_cap_ends_the_session_without_a_result() -> None:
    holder: dict[str, Peer] = {}
    other = seeded_nonces("cap/1")
    pending: list[bytes] = []

    def seat1() -> bytes:
        nonce = pending.pop(0) if pending else other()
        return nonce

    def rigged() -> bytes:
        table = holder["peer"].table
        n = table.throws + 1
        theirs = other()
        pending.append(theirs)
        for j in range(10_000):
            mine = hashlib.sha256(f"rig/{n}/{j}".encode()).digest()
            total = sum(derive_dice("table-1", n, [mine, theirs]))
            if table.phase is Phase.COME_OUT and total in POINT_NUMBERS:
                return mine
            if table.phase is Phase.POINT and total not in (7, table.point):
                return mine
        raise AssertionError("no rigged nonce")

    net = Net(2, nonce_sources={0: rigged, 1: seat1})
    holder["peer"] = net.peers[0]
    net.run()
    assert_ended(net, EndReason.THROW_CAP, None, exclude=None)
    assert {p.table.throws for p in net.peers} == {THROW_CAP}


# ---------------------------------------------------------------------------- receipts


def test_a_missing_receipt_leaves_the_result_but_reports_incomplete() -> None:
    net = Net(3, seed=5)
    net.filters[2] = lambda f: [] if f["kind"] == "receipt" else [f]
    net.run()
    for p in net.honest(2):
        assert p.result is not None
        assert p.receipt_status is ReceiptStatus.INCOMPLETE
        assert ReceiptsIncomplete(EndReason.DEADLINE, 2) in net.log[p.seat]


def test_a_lying_receipt_is_a_mismatch() -> None:
    net = Net(3, seed=6)

    def lie(frame: dict[str, Any]) -> list[Any]:
        if frame["kind"] != "receipt":
            return [frame]
        final = tuple(p + 10 for p in frame["final"])
        return [_resign(net, 2, frame, final=final)]

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
    assert_ended(net, EndReason.DEPARTURE, 0, exclude=None)
    assert_voided(net, restored, exclude=None)


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
    with tempfile.TemporaryDirectory() as folder:
        report = verify_transcript(a.transcript.save(Path(folder) / "t.jsonl"))
    assert report.ok and report.reason is EndReason.BAD_REVEAL, report.text()


@pytest.mark.parametrize("seats", [2, 8])
@pytest.mark.parametrize("fault", ["silent", "forged", "replay", "bad_reveal", "background"])
def test_faults_at_two_and_eight_seats(seats: int, fault: str) -> None:
    net, restored = point_phase_net(seats, seed=30 + seats)
    liar = seats - 1
    expected = {
        "silent": EndReason.DEADLINE,
        "forged": EndReason.BAD_SIGNATURE,
        "replay": EndReason.REPLAY,
        "bad_reveal": EndReason.BAD_REVEAL,
        "background": EndReason.BACKGROUND,
    }[fault]
    if fault == "silent":
        net.silent.add(liar)
    elif fault == "forged":
        net.filters[liar] = lambda f: [{**f, "sig": f["sig"][::-1]}]
    elif fault == "replay":
        net.inject(liar, net.sent[liar][0])
    elif fault == "bad_reveal":
        other = hashlib.sha256(b"other").digest()
        net.filters[liar] = lambda f: [
            _resign(net, liar, f, nonce=other) if f["kind"] == "reveal" else f
        ]
    else:
        net.peers[liar].background(net.now)
    net.run()
    exclude = None if fault == "background" else liar
    assert_ended(net, expected, liar, exclude=exclude)
    assert_voided(net, restored, exclude=exclude)


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


def test_verify_words_a_false_blame_as_the_core_does() -> None:
    net = Net(4)
    net.round()
    notice = net.signed(
        3, AbortNotice(net.table_id, 3, net.peers[3]._my_seq, EndReason.BAD_SIGNATURE, 0)
    )
    net.inject(3, notice)
    with tempfile.TemporaryDirectory() as folder:
        report = verify_transcript(net.peers[1].transcript.save(Path(folder) / "t.jsonl"))
    assert report.ok, report.text()
    assert "Seat 4 reported a bad signature from Seat 1; not proven" in report.text()


def test_a_bad_signature_seen_first_hand_is_proven_and_reported_by_me() -> None:
    net, _ = point_phase_net()

    def forge(frame: dict[str, Any]) -> list[Any]:
        sig = frame["sig"]
        return [{**frame, "sig": ("0" if sig[0] != "0" else "1") + sig[1:]}]

    net.filters[2] = forge
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
        with tempfile.TemporaryDirectory() as folder:
            report = verify_transcript(p.transcript.save(Path(folder) / "t.jsonl"))
        assert report.ok, report.text()
        assert expected in report.text()


def test_an_outcome_claiming_proof_without_evidence_fails_verification() -> None:
    net = Net(3)
    net.round()
    notice = net.signed(
        2, AbortNotice(net.table_id, 2, net.peers[2]._my_seq, EndReason.DEPARTURE, 2)
    )
    net.inject(2, notice, to=[1])
    with tempfile.TemporaryDirectory() as folder:
        path = net.peers[1].transcript.save(Path(folder) / "t.jsonl")
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        assert lines[-1]["body"]["proven"] is False
        lines[-1]["body"]["proven"] = True
        body = lines[-1]["body"]
        lines[-1]["hash"] = record_hash(lines[-1]["index"], lines[-1]["prev"], "outcome", body)
        path.write_text("".join(json.dumps(doc) + "\n" for doc in lines))
        report = verify_transcript(path)
    assert not report.ok
    assert "proven" in (report.problem or "")
