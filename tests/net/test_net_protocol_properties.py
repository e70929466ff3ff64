"""Property: any honest sequence of random choices on 2–4 seats ends identically everywhere."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pointline.kernel import Choice, EndReason, state_hash
from pointline.net.protocol._peer import ReceiptStatus, Step
from tests.net.memnet import Net, random_choice, saved_report


@settings(max_examples=15, deadline=None)
@given(
    seats=st.integers(min_value=2, max_value=4),
    seed=st.integers(0, 2**32 - 1),
    chaos=st.booleans(),
)
def test_random_honest_sessions_agree(seats: int, seed: int, chaos: bool) -> None:
    """Random choices, and with ``chaos`` frames of different senders in any interleaving."""
    net = Net(seats, seed=seed, choose=random_choice, chaos=chaos)
    net.run()
    peers = net.peers
    assert {p.state for p in peers} <= {Step.COMPLETE, Step.ENDED}
    assert len({state_hash(p.table) for p in peers}) == 1
    assert len({(p.result, p.ending) for p in peers}) == 1
    if peers[0].result is not None:
        assert all(p.receipt_status is ReceiptStatus.MATCHED for p in peers)
    report = saved_report(peers[seed % seats])
    assert report.ok, report.text()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=30, deadline=None)
@given(
    field=st.sampled_from(["v", "kind", "table", "seat", "seq", "throw", "commitment", "sig"]),
    value=JSON,
)
def test_any_edited_field_ends_the_session_with_a_reason_and_never_raises(
    field: str, value: object
) -> None:
    net = Net(2)
    net.peers[1].commit(Choice(10, 0), net.now)
    frame = dict(net.peers[1].outgoing()[0])
    if frame.get(field) == value:
        return
    frame[field] = value
    peer = net.peers[0]
    peer.receive(frame, 1, net.now)
    assert peer.ending is not None
    assert peer.ending.seat == 1
    assert peer.ending.reason in {
        EndReason.MALFORMED,
        EndReason.BAD_SIGNATURE,
        EndReason.NON_MEMBER,
        EndReason.REPLAY,
    }
    report = saved_report(peer)
    assert report.ok, report.text()


@settings(max_examples=30, deadline=None)
@given(frame=JSON | st.binary(max_size=64))
def test_any_garbage_frame_is_refused_without_raising(frame: object) -> None:
    net = Net(2)
    peer = net.peers[0]
    peer.receive(frame, 1, net.now)
    assert peer.ending is not None and peer.ending.reason is EndReason.MALFORMED
