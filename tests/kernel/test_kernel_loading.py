"""Loading a position validates it: from_document refuses every impossible state, naming the
invariant it breaks (as python-chess refuses an invalid FEN), and accepts every reachable one."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from pointline.kernel import Allocate, Confirm, Line, Table, Throw
from pointline.kernel.canonical import from_document, invariant_broken, to_document
from pointline.kernel.errors import BadState

Doc = dict[str, Any]


def _played(seed: int, seats: int = 2, steps: int = 60) -> Table:
    rng = random.Random(seed)
    table = Table(seats, "t")
    for _ in range(steps):
        if table.is_over:
            break
        if table.is_chance_turn:
            table.push(Throw(rng.randint(1, 6), rng.randint(1, 6)))
            continue
        seat = table.awaiting[0]
        table.push(rng.choice(table.legal_actions(seat)))
    return table


def _point_doc() -> Doc:
    table = Table(1)
    table.push(Allocate(0, Line.PASS))
    table.push(Allocate(0, Line.DONT_PASS, 20))
    table.push(Confirm(0))
    table.push(Throw(2, 2))
    return to_document(table)


def _edit(edit: Callable[[Doc], None], base: Callable[[], Doc] | None = None) -> Doc:
    doc = copy.deepcopy(base() if base else to_document(Table(1)))
    edit(doc)
    return doc


def _set(path: str, value: Any) -> Callable[[Doc], None]:
    def edit(doc: Doc) -> None:
        *parents, last = path.split(".")
        target: Any = doc
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(last) if last.isdigit() else last] = value

    return edit


IMPOSSIBLE: dict[str, tuple[Doc, str]] = {
    # the four the issue found accepted
    "a draft of 5000": (
        _edit(_set("seats.0.draft", {"pass": 5000, "dont_pass": 0})),
        "at most 100 points a hand",
    ),
    "ended with no ending": (_edit(_set("phase", "ended")), "has an ending exactly when"),
    "an ending naming seat 7 of one": (
        _edit(
            lambda d: (
                d.update(phase="ended", ending={"reason": "departure", "seat": 7}),
                d.update(seats=[{**d["seats"][0], "draft": {"pass": 0, "dont_pass": 0}}]),
            )
        ),
        "names seat 7",
    ),
    "4 hands after 0 throws": (_edit(_set("hands_resolved", 4)), "4 resolved hands after only 0"),
    # and the rest of the proofs' invariants
    "complete before five hands": (_edit(_set("phase", "complete")), "complete exactly when"),
    "an amount off the unit": (
        _edit(_set("seats.0.draft", {"pass": 15, "dont_pass": 0})),
        "multiple of 10",
    ),
    "a balance the ledger does not give": (
        _edit(_set("seats.0.balance", 20)),
        "not what the ledger replays to",
    ),
    "throws the ledger never saw": (_edit(_set("throws", 3)), "the ledger records 0 throws"),
    "contracts before Confirm": (
        _edit(_set("seats.0.contracts", {"pass": 10, "dont_pass": 0})),
        "before Confirm the hand has no contracts",
    ),
    "Pass raised on the point": (
        _edit(_set("seats.0.draft", {"pass": 20, "dont_pass": 20}), _point_doc),
        "Pass is locked",
    ),
    "Don't Pass raised on the point": (
        _edit(_set("seats.0.draft", {"pass": 10, "dont_pass": 30}), _point_doc),
        "Don't Pass only comes down",
    ),
}


@pytest.mark.parametrize("name", sorted(IMPOSSIBLE))
def test_an_impossible_state_is_refused_with_its_invariant(name: str) -> None:
    doc, words = IMPOSSIBLE[name]
    with pytest.raises(BadState) as caught:
        from_document(doc)
    assert caught.value.code == "bad_state"
    assert words in caught.value.text, caught.value.text


def test_a_draft_of_5000_can_no_longer_be_confirmed_into_debt() -> None:
    with pytest.raises(BadState):
        from_document(IMPOSSIBLE["a draft of 5000"][0])


@pytest.mark.parametrize("seed", range(40))
def test_every_reached_state_loads_back_and_breaks_nothing(seed: int) -> None:
    for steps in (0, 7, 25, 60, 400):
        table = _played(seed, seats=1 + seed % 4, steps=steps)
        assert invariant_broken(table) is None
        again = from_document(to_document(table))
        assert to_document(again) == to_document(table)


def _complete_doc() -> Doc:
    table = Table(2, "t")
    for _ in range(5):
        table.push(Allocate(0, Line.PASS))
        table.push(Confirm(0))
        table.push(Confirm(1))
        table.push(Throw(3, 4))
    return to_document(table)


@pytest.mark.parametrize(
    "edit",
    [
        _set("version", True),
        _set("version", 1.0),
        _set("table_id", "a\ud800"),
        _set("seats.0.sealed", 0),
    ],
    ids=["version true", "version 1.0", "lone surrogate id", "sealed 0"],
)
def test_values_python_takes_as_equal_are_refused(edit: Callable[[Doc], None]) -> None:
    with pytest.raises(BadState):
        from_document(_edit(edit))


@pytest.mark.parametrize(
    "result",
    [
        {"final": [1050.0, 1000], "ranks": [1, 2]},
        {"final": [1050, 1000], "ranks": [True, 2]},
        {"final": [1050, 1000], "ranks": [1.0, 2]},
    ],
)
def test_a_result_spelled_with_floats_or_booleans_is_refused(result: Doc) -> None:
    doc = _complete_doc()
    assert doc["result"] == {"final": [1050, 1000], "ranks": [1, 2]}
    from_document(copy.deepcopy(doc))
    with pytest.raises(BadState):
        from_document({**doc, "result": result})
