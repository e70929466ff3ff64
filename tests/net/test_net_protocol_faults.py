"""The protocol core in memory: every fault ends the session without a result, voids the hand
in flight and names the seat at fault."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from pointline.kernel import (
    THROW_CAP,
    Choice,
    EndReason,
    Phase,
    commitment,
    derive_dice,
)
from pointline.kernel.values import POINT_NUMBERS
from pointline.net.protocol._messages import Commit
from pointline.net.protocol._peer import (
    Peer,
    SessionEnded,
    Timeouts,
)
from tests.net.memnet import (
    Net,
    assert_ended,
    assert_voided,
    assert_voided_ending,
    forge_signature,
    point_phase_net,
    resign,
    seeded_nonces,
)

# ---------------------------------------------------------------------------- faults


@pytest.mark.parametrize("quiet_at", ["commit", "reveal"])
def test_a_seat_that_stops_answering_misses_that_steps_deadline(quiet_at: str) -> None:
    """Quiet instead of committing: the confirm deadline; committed but quiet instead of
    revealing: the response deadline."""
    net, restored = point_phase_net()

    def go_quiet(frame: dict[str, Any]) -> list[Any]:
        if frame["kind"] == quiet_at:
            net.silent.add(2)  # seat 2 sends nothing from here on
            return []
        return [frame]

    net.filters[2] = go_quiet
    start = net.now
    net.run()
    assert_ended(net, EndReason.DEADLINE, 2, exclude=2)
    waited = net.timeouts.confirm if quiet_at == "commit" else net.timeouts.response
    assert net.now == start + waited
    assert_voided(net, restored, exclude=2)


def test_the_whole_session_has_a_deadline() -> None:
    net = Net(2, timeouts=Timeouts(confirm=45.0, session=30.0))
    start = net.now
    net.silent.add(1)
    net.run()
    assert net.now == start + 30.0
    assert_ended(net, EndReason.DEADLINE, None, exclude=1)


def test_a_reveal_with_another_nonce_is_a_bad_reveal() -> None:
    net, restored = point_phase_net()
    other = hashlib.sha256(b"another nonce").digest()
    net.filters[2] = lambda f: [resign(net, 2, f, nonce=other) if f["kind"] == "reveal" else f]
    net.run()
    assert_voided_ending(net, restored, EndReason.BAD_REVEAL, 2, exclude=2)


def test_a_reveal_with_another_choice_is_a_bad_reveal() -> None:
    net, restored = point_phase_net()
    other = Choice(0, 0).to_bytes()
    net.filters[2] = lambda f: [resign(net, 2, f, choice=other) if f["kind"] == "reveal" else f]
    net.run()
    assert_voided_ending(net, restored, EndReason.BAD_REVEAL, 2, exclude=2)


def test_an_illegal_choice_committed_and_revealed_is_a_bad_reveal() -> None:
    net, restored = point_phase_net()
    cheat = Choice(100, 0).to_bytes()  # raising Pass while the point is on
    nonce = hashlib.sha256(b"cheat").digest()

    def lie(frame: dict[str, Any]) -> list[Any]:
        if frame["kind"] == "commit":
            digest = commitment(net.table_id, frame["throw"], 2, nonce, cheat)
            return [resign(net, 2, frame, commitment=digest)]
        if frame["kind"] == "reveal":
            return [resign(net, 2, frame, nonce=nonce, choice=cheat)]
        return [frame]

    net.filters[2] = lie
    net.run()
    assert_voided_ending(net, restored, EndReason.BAD_REVEAL, 2, exclude=2)


def test_a_forged_signature_ends_the_session() -> None:
    net, restored = point_phase_net()
    net.filters[2] = forge_signature
    net.run()
    assert_voided_ending(net, restored, EndReason.BAD_SIGNATURE, 2, exclude=2)


def test_a_message_signed_with_my_key_but_claiming_another_seat_is_a_bad_signature() -> None:
    net, _ = point_phase_net()
    forged = net.signed(2, Commit(net.table_id, 1, 0, net.peers[0].throw_index, b"\0" * 32))
    net.inject(2, forged)
    assert_ended(net, EndReason.BAD_SIGNATURE, 2, exclude=2)


def test_a_replayed_message_ends_the_session() -> None:
    net, restored = point_phase_net()
    old = net.sent[2][0]  # seat 2's first commit, long ago
    net.inject(2, old)
    assert_voided_ending(net, restored, EndReason.REPLAY, 2, exclude=2)


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
    net.filters[2] = lambda f: [resign(net, 2, f, table="another-room")]
    net.run()
    assert_voided_ending(net, restored, EndReason.NON_MEMBER, 2, exclude=2)


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
    assert_voided_ending(net, restored, EndReason.MALFORMED, 2, exclude=2)


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
    assert_voided_ending(net, restored, EndReason.BACKGROUND, 1, exclude=None)


def test_a_departure_ends_the_session() -> None:
    net, restored = point_phase_net()
    net.silent.add(2)
    for p in net.honest(2):
        p.depart(2, net.now)
    net.deliver()
    assert_voided_ending(net, restored, EndReason.DEPARTURE, 2, exclude=2)


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
            resign(net, liar, f, nonce=other) if f["kind"] == "reveal" else f
        ]
    else:
        net.peers[liar].background(net.now)
    net.run()
    exclude = None if fault == "background" else liar
    assert_voided_ending(net, restored, expected, liar, exclude=exclude)
