"""One ordering checker: ``Peer`` and ``pointline verify`` reject the same misorderings."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from pointline.kernel import EndReason
from pointline.net.client._transcript_file import save_transcript
from pointline.net.client._verify_command import verify_transcript
from pointline.net.errors import MessageError
from pointline.net.protocol._messages import Commit, Message, Receipt, Reveal
from pointline.net.protocol._ordering import OrderChecker
from pointline.net.protocol._transcript import record_hash
from tests.net.memnet import Net

T = "table-1"
# after one full round seat 1 has sent C1 (seq 0) and R1 (seq 1): its next is seq 2, throw 2
MISORDERED: dict[str, Callable[[], Message]] = {
    "an old sequence number": lambda: Commit(T, 1, 1, 2, b"\1" * 32),
    "a skipped sequence number": lambda: Commit(T, 1, 3, 2, b"\1" * 32),
    "a commit for a later throw": lambda: Commit(T, 1, 2, 3, b"\1" * 32),
    "a reveal before its commit": lambda: Reveal(T, 1, 2, 2, b"\2" * 32, b"0,0"),
    "a receipt out of turn": lambda: Receipt(T, 1, 2, 5, (0, 0), b"\3" * 32),
}


@pytest.mark.parametrize("name", sorted(MISORDERED))
def test_peer_and_verify_reject_the_same_misordering(name: str, tmp_path: Path) -> None:
    net = Net(2)
    net.round()
    frame = net.signed(1, MISORDERED[name]())
    # the checker itself
    checker = OrderChecker(2, 0)
    for message in (Commit(T, 0, 0, 1, b"\0" * 32), Commit(T, 1, 0, 1, b"\0" * 32)):
        checker.accept(message, message.seat)
    checker.accept(Reveal(T, 0, 1, 1, b"\0" * 32, b"0,0"), 0)
    checker.accept(Reveal(T, 1, 1, 1, b"\0" * 32, b"0,0"), 1)
    with pytest.raises(MessageError):
        checker.accept(MISORDERED[name](), 1)
    # the peer: ends the session, the frame recorded as rejected
    net.inject(1, frame)
    ending = net.peers[0].ending
    assert ending is not None and ending.seat == 1
    assert ending.reason is EndReason.REPLAY
    path = save_transcript(net.peers[0].transcript, tmp_path / "t.jsonl")
    records = [json.loads(line) for line in path.read_text().splitlines()]
    rejected = next(i for i, r in enumerate(records) if r["kind"] == "rejected")
    assert verify_transcript(path).ok
    # verify: the same message recorded as received (a forger rechaining the log) is a FAIL
    text = json.dumps(frame, sort_keys=True, separators=(",", ":"))
    body = {"from": 1, "at": records[rejected]["body"]["at"], "message": text}
    prev = records[rejected - 1]["hash"]
    forged = [
        *records[:rejected],
        {
            "index": rejected,
            "prev": prev,
            "kind": "received",
            "body": body,
            "hash": record_hash(rejected, prev, "received", body),
        },
    ]
    out = tmp_path / "forged.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in forged))
    report = verify_transcript(out)
    assert not report.ok
    assert report.record == rejected
    assert (report.problem or "").startswith("out of order: ")
