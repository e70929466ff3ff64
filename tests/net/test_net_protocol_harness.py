"""The in-memory protocol harness itself (``tests/net/memnet.py``): delivery and the clock."""

from __future__ import annotations

from tests.net.memnet import Net


def test_harness_delivers_every_frame_to_every_other_peer() -> None:
    net = Net(3)
    net.round()
    # one round: every seat sent a commit and a reveal, every peer applied the throw
    assert all(len(frames) == 2 for frames in net.sent.values())
    assert {p.table.throws for p in net.peers} == {1}


def test_harness_clock_moves_to_the_earliest_deadline() -> None:
    net = Net(2)
    start = net.now
    assert net.advance()
    assert net.now == start + net.timeouts.confirm
