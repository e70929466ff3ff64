"""Issue 37 O27, O29, O34: what a client reads of the relay's frames (spec/ONLINE.md §8, §9)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from pointline.conformance.online.sim import Session
from pointline.kernel import EndReason
from pointline.net.client._verify_command import verify_transcript
from pointline.net.protocol._messages import RepeatedMembers
from pointline.net.protocol._peer import FRAME_CHARS, Peer, SessionEnded, rejected_frame
from pointline.net.protocol._verify import verify_text
from pointline.net.protocol._wire import Deliver, Departed, Error, Started, WireError, parse_relay
from tests.net.support import RELAXED, play, random_chooser, relay, run, seated

STARTED = {
    "op": "started",
    "code": "ABCDEF",
    "table_id": "t1",
    "seat": 0,
    "roster": [{"seat": 0, "name": "ann", "session_key": "11" * 32}],
    "roster_sig": "ab" * 64,
}


def refused(doc: dict[str, object]) -> bool:
    try:
        parse_relay(json.dumps(doc))
    except WireError as error:
        return error.code == "bad_frame"
    return False


def test_a_started_frame_without_its_roster_signature_is_dropped() -> None:
    """O29: §9 makes `roster_sig` required in `started`; a client drops a frame without it."""
    assert isinstance(parse_relay(json.dumps(STARTED)), Started)
    assert refused({k: v for k, v in STARTED.items() if k != "roster_sig"})
    assert refused({**STARTED, "roster_sig": None})


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        # strings of at most 256 characters, counted as code points
        (
            {"op": "departed", "seat": 1, "name": "\U0001f3b2" * 256},
            {"op": "departed", "seat": 1, "name": "n" * 257},
        ),
        # an error message up to 4,096
        (
            {"op": "error", "code": "busy", "message": "m" * 4096},
            {"op": "error", "code": "busy", "message": "m" * 4097},
        ),
        # integers are non-negative: a seat, a from_seat
        (
            {"op": "deliver", "from_seat": 0, "payload": {}},
            {"op": "deliver", "from_seat": -1, "payload": {}},
        ),
        ({"op": "departed", "seat": 0, "name": "ann"}, {"op": "departed", "seat": -1, "name": "a"}),
        ({**STARTED, "seat": 0}, {**STARTED, "seat": -1}),
    ],
)
def test_the_limits_of_section_9_hold_for_frames_a_client_receives(
    good: dict[str, object], bad: dict[str, object]
) -> None:
    """O34: §9's string lengths and signs apply both ways: a received frame that breaks them
    is dropped (bad_frame, logged), as one with a missing field is."""
    assert isinstance(parse_relay(json.dumps(good)), Deliver | Departed | Error | Started)
    assert refused(bad)


def test_a_payloads_contents_are_not_held_to_the_limits() -> None:
    """The payload is §3's to check: a long string in it is delivered, and the peer refuses
    the message (`malformed`), naming the sender."""
    frame = parse_relay(json.dumps({"op": "deliver", "from_seat": 1, "payload": {"x": "y" * 999}}))
    assert isinstance(frame, Deliver) and frame.payload["x"] == "y" * 999


def test_a_repeated_member_is_written_twice_in_the_rejected_frame_and_verifies() -> None:
    """O27: the `rejected` record's frame keeps both members, so verify's replay refuses it
    again; a repeated member delivered through the wire keeps every member in order."""
    frame = parse_relay('{"op":"deliver","from_seat":1,"payload":{"b":1,"a":2,"b":3}}')
    assert isinstance(frame, Deliver) and isinstance(frame.payload, RepeatedMembers)
    assert rejected_frame(frame.payload) == '{"a":2,"b":1,"b":3}'
    peer: Peer = Session(2, seed=3).peers[0]
    peer.receive(frame.payload, 1, 1000.5)
    rejected = [r for r in peer.transcript.records if r.kind.value == "rejected"]
    assert [r.body["error"] for r in rejected] == ["malformed"]
    assert rejected[0].body["frame"] == '{"a":2,"b":1,"b":3}'
    assert verify_text("".join(line + "\n" for line in peer.transcript.lines())).ok


def test_a_rejected_frame_keeps_4096_code_points() -> None:
    """O32: counted as code points: a character outside the BMP counts one."""
    text = "\U0001f3b2" * 5000
    assert rejected_frame(text) == "\U0001f3b2" * FRAME_CHARS


@pytest.mark.skipif(
    sys.platform != "linux" or not Path("/dev/full").exists(), reason="needs /dev/full"
)
def test_a_failed_transcript_write_sends_the_departure_notice(tmp_path: Path) -> None:
    """O33: a disk error ends the session as a leave: this seat's signed notice reaches the
    others (they name it as the reporter of its own departure); the file, which lacks its last
    records, reads as cut off (FAIL)."""

    async def scenario() -> None:
        async with relay(tmp_path) as running:
            a, b = await seated(running.url, 2, "disk37", RELAXED)
            try:
                writer = a._writer_file
                assert writer is not None
                writer._file = open("/dev/full", "ab", buffering=0)  # noqa: SIM115
                other: list[tuple[float, object]] = []
                await asyncio.gather(
                    play(a, random_chooser(1), [], timeout=20),
                    play(b, random_chooser(2), other, timeout=20),
                )
                endings = [e for _, e in other if isinstance(e, SessionEnded)]
                assert [(e.reason, e.seat, e.reporter) for e in endings] == [
                    (EndReason.DEPARTURE, 0, 0)  # from a's own notice, not the relay's word
                ]
                assert a.transcript_path is not None
                report = verify_transcript(a.transcript_path)
                assert not report.ok and "cut off" in (report.problem or "")
            finally:
                await a.close()
                await b.close()

    run(scenario(), timeout=60)
