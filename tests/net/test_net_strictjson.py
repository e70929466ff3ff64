"""Strict JSON everywhere the net layer reads: relay frames, peer messages, transcripts.

Duplicate members, NaN/Infinity, nesting past a small fixed depth and lone surrogates are
refused with a clear error; the relay answers such a frame with an error frame and keeps the
connection (no handler dies with close code 1011)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pointline.net.client._transcript_file import read_records
from pointline.net.errors import MalformedMessage, TranscriptError
from pointline.net.protocol import _strictjson as strictjson
from pointline.net.protocol._messages import load_frame
from pointline.net.protocol._wire import WireError, parse_client
from tests.net.raw import drain, relay_and_clients, room_of
from tests.net.support import run

DEEP = "[" * 100_000 + "]" * 100_000
BAD = {
    "duplicate": '{"op": "send", "op": "start"}',
    "nan": '{"op": "send", "payload": NaN}',
    "infinity": '{"op": "send", "payload": -Infinity}',
    "deep": '{"op": "send", "payload": ' + "[" * 40 + "]" * 40 + "}",
    "very deep": '{"op": "send", "payload": ' + DEEP + "}",
    "surrogate": '{"op": "send", "payload": "\\ud800"}',
    "surrogate key": '{"op": "send", "payload": {"\\udfff": 1}}',
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_every_reader_refuses(name: str) -> None:
    text = BAD[name]
    with pytest.raises(strictjson.StrictJSONError):
        strictjson.loads(text)
    with pytest.raises(WireError):
        parse_client(text)
    with pytest.raises(MalformedMessage):
        load_frame(text)


def test_ordinary_json_still_reads() -> None:
    doc = strictjson.loads('{"a": [1, {"b": "ü \\u2028 \\ud83d\\ude00"}], "c": null}')
    assert doc == {"a": [1, {"b": "ü \u2028 😀"}], "c": None}
    nested = "[" * strictjson.MAX_DEPTH + "]" * strictjson.MAX_DEPTH
    assert strictjson.loads(nested) is not None
    assert strictjson.loads('"[[[[ not nesting inside a string \\" ]]"').startswith("[[[[")


def test_a_transcript_line_nested_100000_deep_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps({"kind": "header"}) + "\n" + DEEP + "\n")
    with pytest.raises(TranscriptError, match="line 2 is not strict JSON"):
        read_records(path)


def test_the_relay_answers_bad_frames_and_keeps_the_connection(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay_and_clients(tmp_path, 2) as (_, clients):
            a, b = clients
            await room_of(clients)
            await a.send({"op": "start", "token": a.token})
            for x in clients:
                await drain(x, "started")
            frames = {k: v for k, v in BAD.items() if k != "very deep"}  # that one is > 64 KiB
            frames["20,000 deep"] = '{"op": "send", "payload": ' + "[" * 20_000 + "]" * 20_000 + "}"
            for name, frame in sorted(frames.items()):
                await b.send(frame)
                reply = await b.recv()
                assert reply["op"] == "error" and reply["code"] == "bad_frame", name
                assert await a.nothing_waiting(), name  # b had its answer: nothing forwarded
            await b.send({"op": "send", "payload": {"still": "here"}})
            assert (await a.recv())["payload"] == {"still": "here"}

    run(scenario())
