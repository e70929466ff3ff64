"""The canonical JSON form round-trips, and anything that is not one raises BadState."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from pointline.kernel import (
    BadState,
    Table,
    from_document,
    loads,
    state_bytes,
    state_hash,
    to_document,
)
from pointline.kernel.canonical import dumps
from tests.kernel._kernel_support import random_session


@pytest.mark.parametrize("seed", range(40))
def test_round_trip_in_random_sessions(seed: int) -> None:
    seats = 1 + seed % 8
    for stop in (None, 7 * (seed + 1)):
        table = random_session(seed, seats, abort_chance=0.01 if seed % 3 else 0.0, stop_after=stop)
        doc = to_document(table)
        data = state_bytes(table)
        assert data == dumps(doc)
        again = from_document(copy.deepcopy(doc))
        assert to_document(again) == doc
        assert state_bytes(loads(data)) == data
        assert state_bytes(loads(data.decode("utf-8"))) == data
        assert state_hash(again) == state_hash(table)
        # The copy plays on exactly like the original.
        assert again.awaiting == table.awaiting and again.phase is table.phase
        for seat in range(seats):
            assert again.legal_actions(seat) == table.legal_actions(seat)
            assert again.seat(seat) == table.seat(seat)
        assert again.result == table.result and again.ending == table.ending


def test_canonical_bytes_are_sorted_compact_integers() -> None:
    table = random_session(3, 3)
    data = state_bytes(table)
    assert b" " not in data.replace(b'" ', b"")  # no separators with spaces
    assert data == json.dumps(json.loads(data), sort_keys=True, separators=(",", ":")).encode()
    assert b"." not in data.replace(table.table_id.encode(), b"")


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _delete(path: tuple[Any, ...]) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


MALFORMED = {
    "version": _set(("version",), 2),
    "no version": _delete(("version",)),
    "seats not a list": _set(("seats",), {}),
    "no seats": _set(("seats",), []),
    "nine seats": lambda d: d.__setitem__("seats", d["seats"] * 9),
    "table id": _set(("table_id",), 7),
    "phase": _set(("phase",), "bonus"),
    "point missing": _delete(("point",)),
    "point float": _set(("point",), 6.0),
    "throws over cap": _set(("throws",), 129),
    "throws negative": _set(("throws",), -1),
    "hands over five": _set(("hands_resolved",), 6),
    "balance float": _set(("seats", 0, "balance"), 1000.0),
    "balance bool": _set(("seats", 0, "balance"), True),
    "balance negative": _set(("seats", 0, "balance"), -10),
    "draft keys": _set(("seats", 0, "draft"), {"pass": 0}),
    "contracts not object": _set(("seats", 0, "contracts"), [0, 0]),
    "sealed not bool": _set(("seats", 0, "sealed"), 1),
    "ledger not list": _set(("seats", 0, "ledger"), {}),
    "entry not object": _set(("seats", 0, "ledger", 0), "throw"),
    "entry type": _set(("seats", 0, "ledger", 0, "type"), "bonus"),
    "entry line": _set(("seats", 0, "ledger", 2, "line"), "come"),
    "entry die": _set(("seats", 0, "ledger", 1, "die1"), 7),
    "ending not object": _set(("ending",), "departure"),
    "ending reason": _set(("ending",), {"reason": "tired", "seat": None}),
    "result disagrees": _set(("result",), {"final": [1000], "ranks": [1]}),
    "seat not object": _set(("seats", 0), 1000),
    "extra field": _set(("bonus",), 1),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_documents_raise_bad_state(name: str) -> None:
    doc = _played_doc()
    MALFORMED[name](doc)
    with pytest.raises(BadState) as info:
        from_document(doc)
    assert info.value.code == "bad_state"
    with pytest.raises(BadState):
        loads(json.dumps(doc))


def _played_doc() -> dict[str, Any]:
    """A one-seat document on the point with a reduced Don't Pass in its ledger."""
    from pointline.kernel import Allocate, Confirm, Line, ReduceDontPass, Roll, Throw

    table = Table(1, "doc")
    table.push(Allocate(0, Line.DONT_PASS, 20))
    table.push(Confirm(0))
    table.push(Throw(2, 2))
    table.push(ReduceDontPass(0))
    table.push(Roll(0))
    doc = to_document(table)
    types = [e["type"] for e in doc["seats"][0]["ledger"]]
    assert types[:3] == ["contracted", "throw", "contract_changed"]
    from_document(copy.deepcopy(doc))
    return doc


@pytest.mark.parametrize("data", [b"", b"{", b"[]", b"null", b"\xff\xfe", "1e3"])
def test_loads_rejects_non_documents(data: bytes | str) -> None:
    with pytest.raises(BadState):
        loads(data)


@pytest.mark.parametrize(
    ("phase", "point"),
    [("point", 7), ("point", 3), ("point", None), ("come_out", 6), ("complete", 4), ("ended", 5)],
)
def test_phase_and_point_must_agree(phase: str, point: int | None) -> None:
    """Regression: such documents used to load, and the next throw raised KeyError."""
    doc = to_document(Table(1))
    doc["phase"], doc["point"] = phase, point
    with pytest.raises(BadState):
        from_document(doc)
