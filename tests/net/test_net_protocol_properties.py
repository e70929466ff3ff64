"""Property: any honest sequence of random choices on 2–4 seats ends identically everywhere."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from test_net_protocol_harness import Net, random_choice

from kernel import state_hash
from net.protocol import ReceiptStatus, Step
from net.verify import verify_transcript


@settings(max_examples=15)
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
    with tempfile.TemporaryDirectory() as folder:
        report = verify_transcript(peers[seed % seats].transcript.save(Path(folder) / "t.jsonl"))
    assert report.ok, report.text()
