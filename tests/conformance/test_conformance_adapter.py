"""The reference adapter refuses bad requests without changing anything, and never dies."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from pointline.conformance.adapter import Adapter, serve


def _talk(*lines: str) -> list[dict[str, Any]]:
    out = io.StringIO()
    serve(Adapter(), io.StringIO("\n".join(lines) + "\n"), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize("reply", ["everything", 7, None, True, ["hash"]])
def test_a_bad_reply_refuses_apply_and_changes_nothing(reply: Any) -> None:
    new = json.dumps({"id": 1, "op": "new_table", "seats": 1, "table_id": "t"})
    bad = json.dumps(
        {
            "id": 2,
            "op": "apply",
            "action": {"kind": "allocate", "seat": 0, "line": "pass", "amount": 10},
            "reply": reply,
        }
    )
    state = json.dumps({"id": 3, "op": "state"})
    first, refused, after = _talk(new, bad, state)
    assert refused["ok"] is False and refused["error"]["code"] == "bad_request"
    assert after["hash"] == first["hash"]
    assert after["state"]["seats"][0]["draft"] == {"pass": 0, "dont_pass": 0}


def test_a_bad_reply_refuses_new_table_and_keeps_the_old_table() -> None:
    old = json.dumps({"id": 1, "op": "new_table", "seats": 1, "table_id": "old"})
    bad = json.dumps({"id": 2, "op": "new_table", "seats": 3, "table_id": "n", "reply": "x"})
    state = json.dumps({"id": 3, "op": "state"})
    first, refused, after = _talk(old, bad, state)
    assert refused["error"]["code"] == "bad_request"
    assert after["state"]["table_id"] == "old" and after["hash"] == first["hash"]


def test_a_lone_surrogate_table_id_is_refused_and_the_adapter_goes_on() -> None:
    bad = '{"id": 1, "op": "new_table", "seats": 1, "table_id": "a\\ud800b"}'
    good = json.dumps({"id": 2, "op": "new_table", "seats": 1, "table_id": "t"})
    refused, fine = _talk(bad, good)
    assert refused["ok"] is False and refused["error"]["code"] == "bad_action"
    assert fine["ok"] is True


@pytest.mark.parametrize("version", [True, 1.0, "1"])
def test_hello_takes_the_protocol_as_a_number_only(version: Any) -> None:
    (reply,) = _talk(json.dumps({"id": 1, "op": "hello", "protocol": version}))
    assert reply["ok"] is False and reply["error"]["code"] == "bad_request"
    (good,) = _talk(json.dumps({"id": 1, "op": "hello", "protocol": 1}))
    assert good["ok"] is True
