"""Strict JSON for peer messages and transcripts: malformed, never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pointline.kernel import EndReason
from pointline.net.client._transcript_file import read_records, save_transcript
from pointline.net.client._verify_command import main, verify_transcript
from pointline.net.errors import MalformedMessage, TranscriptError
from pointline.net.protocol._messages import MAX_DEPTH, parse, strict_loads
from tests.kernel.strict_texts import BAD_STRINGS
from tests.net.memnet import Net


@pytest.mark.parametrize("name", sorted(BAD_STRINGS))
def test_strict_loads_refuses(name: str) -> None:
    with pytest.raises(MalformedMessage):
        strict_loads(BAD_STRINGS[name])


def test_strict_loads_accepts_what_the_protocol_writes() -> None:
    doc = {"a": [1, {"b": "é\u2028"}], "c": None, "d": 1.5}
    assert strict_loads(json.dumps(doc)) == doc
    assert strict_loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None


def honest_frame(net: Net) -> dict[str, object]:
    net.peers[0].commit(Net.choose(net.peers[0].table, 0, net.rng), net.now)
    frames = net.peers[0].outgoing()
    assert frames
    return frames[0]


@pytest.mark.parametrize("name", sorted(BAD_STRINGS))
def test_a_peer_frame_with_lax_json_is_malformed(name: str) -> None:
    net = Net(2)
    frame = honest_frame(net)
    text = json.dumps(frame)
    bad = text[:-1] + ',"x":' + BAD_STRINGS[name] + "}"
    if name == "duplicate":
        bad = text[:-1] + ',"seat":0}'
    with pytest.raises(MalformedMessage):
        parse(bad, net.table_id, {0: net.keys[0].public_key, 1: net.keys[1].public_key})
    # delivered to the peer: it ends the session as malformed, it does not crash
    net.peers[1].receive(bad, 0, net.now)
    ending = net.peers[1].ending
    assert ending is not None and ending.reason is EndReason.MALFORMED


def test_a_dict_frame_with_a_lone_surrogate_is_malformed() -> None:
    net = Net(2)
    frame = {**honest_frame(net), "table": "\ud800"}
    with pytest.raises(MalformedMessage):
        parse(frame, net.table_id, {0: net.keys[0].public_key})


@pytest.mark.parametrize("name", sorted(BAD_STRINGS))
def test_a_transcript_line_with_lax_json_is_a_transcript_error_and_a_fail(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    net = Net(2)
    net.run()
    path = save_transcript(net.peers[0].transcript, tmp_path / "t.jsonl")
    path.write_text(path.read_text() + BAD_STRINGS[name] + "\n")
    with pytest.raises(TranscriptError):
        read_records(path)
    report = verify_transcript(path)
    assert not report.ok
    assert main([str(path)]) == 1
    assert capsys.readouterr().out.startswith("FAIL: ")


def test_net_errors_are_pointline_errors_with_code_and_text() -> None:
    from pointline.kernel.errors import PointlineError

    error = MalformedMessage("the frame is not JSON")
    assert isinstance(error, PointlineError)
    assert (error.code, error.text, error.message) == (
        "malformed",
        "the frame is not JSON",
        "the frame is not JSON",
    )
    assert str(error) == "malformed: the frame is not JSON"
    assert isinstance(TranscriptError("x"), PointlineError)
