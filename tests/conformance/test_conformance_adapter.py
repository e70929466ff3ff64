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


def test_load_state_is_a_version_2_op() -> None:
    load = json.dumps({"id": 2, "op": "load_state", "state": {"version": 1}})
    v1 = _talk(json.dumps({"id": 1, "op": "hello", "protocol": 1}), load)
    assert v1[1]["ok"] is False and v1[1]["error"]["code"] == "bad_request"
    v2 = _talk(json.dumps({"id": 1, "op": "hello", "protocol": 2}), load)
    assert v2[0]["protocol"] == 2
    assert v2[1]["ok"] is False and v2[1]["error"] == {
        "code": "bad_state",
        "class": "malformed",
        "invariant": "shape",
        "message": v2[1]["error"]["message"],
    }


def test_duplicate_members_are_refused_by_where_they_are() -> None:
    """In the action: bad_action; in a load_state document: bad_state naming duplicate_member;
    anywhere else in the request: bad_request. Nothing is applied; the id is answered."""
    new = json.dumps({"id": 1, "op": "new_table", "seats": 1, "table_id": "t"})
    action = '{"id":2,"op":"apply","action":{"kind":"confirm","seat":0,"seat":0}}'
    request = (
        '{"id":3,"op":"apply","action":{"kind":"confirm","seat":0},"reply":"hash","reply":"x"}'
    )
    state = json.dumps({"id": 4, "op": "state"})
    load = '{"id":5,"op":"load_state","state":{"version":1,"version":1}}'
    first, in_action, in_request, after, in_state = _talk(new, action, request, state, load)
    assert in_action["id"] == 2 and in_action["error"]["code"] == "bad_action"
    assert in_action["hash"] == first["hash"]
    assert in_request["id"] == 3 and in_request["error"]["code"] == "bad_request"
    assert after["hash"] == first["hash"] and after["state"]["seats"][0]["sealed"] is False
    assert in_state["error"]["code"] == "bad_state"
    assert in_state["error"]["invariant"] == "duplicate_member"


def test_a_refused_load_state_leaves_no_table() -> None:
    new = json.dumps({"id": 1, "op": "new_table", "seats": 1, "table_id": "t"})
    load = json.dumps({"id": 2, "op": "load_state", "state": {"version": 1}})
    state = json.dumps({"id": 3, "op": "state"})
    _, refused, after = _talk(new, load, state)
    assert refused["error"]["code"] == "bad_state"
    assert after["error"]["code"] == "bad_request"


def test_responses_put_the_id_first_and_the_state_in_canonical_order() -> None:
    new = json.dumps({"id": 1, "op": "new_table", "seats": 1, "table_id": "t", "reply": "state"})
    out = io.StringIO()
    serve(Adapter(), io.StringIO(new + "\n"), out)
    line = out.getvalue()
    assert line.startswith('{"id":1,"ok":true,')
    state = json.loads(line)["state"]
    assert list(state) == sorted(state)
    assert list(state["seats"][0]) == sorted(state["seats"][0])


@pytest.mark.parametrize("version", [True, 1.0, "1", 3, 0])
def test_hello_takes_the_protocol_as_a_number_only(version: Any) -> None:
    (reply,) = _talk(json.dumps({"id": 1, "op": "hello", "protocol": version}))
    assert reply["ok"] is False and reply["error"]["code"] == "bad_request"
    (good,) = _talk(json.dumps({"id": 1, "op": "hello", "protocol": 1}))
    assert good["ok"] is True


def test_the_curated_surfaces_export_what_they_list() -> None:
    """Every name in ``pointline.conformance.__all__`` and ``pointline.spec.__all__`` resolves
    (the lazy ones too), and the conformance errors hang under the project's one root."""
    import pointline.conformance as conformance
    import pointline.spec as spec
    from pointline.kernel import PointlineError

    for package in (conformance, spec):
        for name in package.__all__:
            assert getattr(package, name) is not None, name
    assert callable(spec.render_rules) and not isinstance(spec.render_rules, type(conformance))
    for error in (conformance.BadAction, conformance.ImplFailure, conformance.FixturesMissing):
        assert issubclass(error, PointlineError)
        assert error("x").code == error.default_code and error("x").text == "x"


def test_a_request_nested_too_deep_is_refused_and_the_adapter_goes_on() -> None:
    deep = '{"id":1,"op":"state","x":' + "[" * 100_000 + "]" * 100_000 + "}"
    refused, fine = _talk(deep, json.dumps({"id": 2, "op": "hello", "protocol": 2}))
    assert refused["ok"] is False and refused["error"]["code"] == "bad_request"
    assert fine["ok"] is True and fine["id"] == 2
