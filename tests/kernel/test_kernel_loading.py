"""Loading a position validates it: from_document refuses every impossible state, naming the
invariant it breaks (as python-chess refuses an invalid FEN), and accepts every reachable one."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from pointline.conformance._positions import put
from pointline.kernel import (
    Allocate,
    BadState,
    Confirm,
    Invariant,
    Line,
    ReduceDontPass,
    Roll,
    Table,
    Throw,
    from_document,
    invariant_broken,
    loads,
    to_document,
)

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


def _settled_doc() -> Doc:
    """Two seats after one come-out 7: seat 0 won Pass 10, seat 1 lost Don't Pass 20."""
    table = Table(2)
    table.push(Allocate(0, Line.PASS))
    table.push(Confirm(0))
    table.push(Allocate(1, Line.DONT_PASS, 20))
    table.push(Confirm(1))
    table.push(Throw(3, 4))
    return to_document(table)


def _refunded_doc() -> Doc:
    """Don't Pass 20 reduced to 10 before a throw: a refund of 10."""
    table = Table(1)
    table.push(Allocate(0, Line.DONT_PASS, 20))
    table.push(Confirm(0))
    table.push(Throw(2, 2))
    table.push(ReduceDontPass(0))
    table.push(Roll(0))
    table.push(Throw(1, 2))
    return to_document(table)


def _entry(doc: Doc, seat: int, kind: str) -> Doc:
    entry: Doc = next(e for e in doc["seats"][seat]["ledger"] if e["type"] == kind)
    return entry


def _pay(seat: int, balance: int, **changes: Any) -> Callable[[Doc], None]:
    """Change seat ``seat``'s settled entry and move its balance by ``balance``: the ledger
    still replays to the balance, so only the payment itself is wrong."""

    def edit(doc: Doc) -> None:
        _entry(doc, seat, "settled").update(changes)
        doc["seats"][seat]["balance"] += balance

    return edit


def _refund(amount: int, after: int | None = None) -> Callable[[Doc], None]:
    def edit(doc: Doc) -> None:
        refund = _entry(doc, 0, "refunded")
        doc["seats"][0]["balance"] += amount - refund["amount"]
        refund["amount"] = amount
        if after is not None:
            _entry(doc, 0, "contract_changed")["after"] = after

    return edit


IMPOSSIBLE: dict[str, tuple[Doc, Invariant]] = {
    # the four the issue found accepted
    "a draft of 5000": (
        _edit(put("seats.0.draft", {"pass": 5000, "dont_pass": 0})),
        Invariant.HAND_LIMIT,
    ),
    "ended with no ending": (_edit(put("phase", "ended")), Invariant.ENDING),
    "an ending naming seat 7 of one": (
        _edit(
            lambda d: (
                d.update(phase="ended", ending={"reason": "departure", "seat": 7}),
                d.update(seats=[{**d["seats"][0], "draft": {"pass": 0, "dont_pass": 0}}]),
            )
        ),
        Invariant.ENDING_SEAT,
    ),
    "4 hands after 0 throws": (_edit(put("hands_resolved", 4)), Invariant.RESOLVED_HANDS),
    # and the rest of the proofs' invariants
    "complete before five hands": (_edit(put("phase", "complete")), Invariant.COMPLETE),
    "an amount off the unit": (
        _edit(put("seats.0.draft", {"pass": 15, "dont_pass": 0})),
        Invariant.UNITS,
    ),
    "a balance the ledger does not give": (
        _edit(put("seats.0.balance", 20)),
        Invariant.BALANCE_REPLAY,
    ),
    "throws the ledger never saw": (_edit(put("throws", 3)), Invariant.LEDGER_THROWS),
    "contracts before Confirm": (
        _edit(put("seats.0.contracts", {"pass": 10, "dont_pass": 0})),
        Invariant.NO_CONTRACTS_BEFORE_CONFIRM,
    ),
    "Pass raised on the point": (
        _edit(put("seats.0.draft", {"pass": 20, "dont_pass": 20}), _point_doc),
        Invariant.POINT_LOCK,
    ),
    "Don't Pass raised on the point": (
        _edit(put("seats.0.draft", {"pass": 10, "dont_pass": 30}), _point_doc),
        Invariant.POINT_LOCK,
    ),
    "a point of 7": (_edit(put("point", 7), _point_doc), Invariant.POINT),
    "a table id of 5": (_edit(put("table_id", 5)), Invariant.SHAPE),
    "an extra member": (_edit(put("note", "x")), Invariant.NOT_CANONICAL),
    # a ledger that disagrees with itself, though it replays to the balance (#18)
    "a throw of 2 and 2 totalling 5": (
        _edit(lambda d: _entry(d, 0, "throw").update(total=5), _point_doc),
        Invariant.THROW_TOTAL,
    ),
    "a win returning three times the contract": (
        _edit(_pay(0, 10, returned=30, net=20), _settled_doc),
        Invariant.PAYMENT,
    ),
    "a loss paid as a push": (
        _edit(_pay(1, 20, outcome="push", returned=20, net=0), _settled_doc),
        Invariant.PAYMENT,
    ),
    "a win settled on more than the contract": (
        _edit(_pay(0, 20, contract=20, returned=40, net=20), _settled_doc),
        Invariant.PAYMENT,
    ),
    "a refund larger than the reduction": (
        _edit(_refund(20), _refunded_doc),
        Invariant.REFUND,
    ),
    "a refund smaller than the reduction": (
        _edit(_refund(0), _refunded_doc),
        Invariant.REFUND,
    ),
    "a reduction raising Don't Pass": (
        _edit(_refund(-10, after=30), _refunded_doc),
        Invariant.SHAPE,  # a negative amount is out of range before anything else
    ),
    # issue 33: contracts tied to the ledger, ledger amounts in tens
    "contracts the ledger does not leave in play": (
        _edit(put("seats.0.contracts.dont_pass", 20), _refunded_doc),
        Invariant.CONTRACTS_IN_PLAY,
    ),
    "a net off the unit": (
        _edit(lambda d: _entry(d, 0, "settled").update(net=15), _settled_doc),
        Invariant.SHAPE,
    ),
}


@pytest.mark.parametrize("name", sorted(IMPOSSIBLE))
def test_an_impossible_state_is_refused_with_its_invariant(name: str) -> None:
    doc, invariant = IMPOSSIBLE[name]
    with pytest.raises(BadState) as caught:
        from_document(doc)
    assert caught.value.code == "bad_state"
    assert caught.value.invariant is invariant, caught.value.text


@pytest.mark.parametrize("build", [_settled_doc, _refunded_doc, _point_doc])
def test_the_untampered_ledgers_load(build: Callable[[], Doc]) -> None:
    assert to_document(from_document(build())) == build()


def test_a_reduction_that_raises_dont_pass_is_a_refund_problem() -> None:
    doc = _refunded_doc()
    change = _entry(doc, 0, "contract_changed")
    change.update(before=20, after=30)
    _refund(0)(doc)
    with pytest.raises(BadState) as caught:
        from_document(doc)
    assert caught.value.invariant is Invariant.REFUND


def test_loads_refuses_a_member_named_twice_and_text_that_is_not_json() -> None:
    text = '{"version":1,"version":1,"seats":[]}'
    with pytest.raises(BadState) as caught:
        loads(text)
    assert caught.value.invariant is Invariant.DUPLICATE_MEMBER
    with pytest.raises(BadState) as caught:
        loads(b"{\xff")
    assert caught.value.invariant is Invariant.NOT_JSON


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
        put("version", True),
        put("version", 1.0),
        put("table_id", "a\ud800"),
        put("seats.0.sealed", 0),
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


def test_an_extra_member_nested_too_deep_to_encode_is_not_canonical() -> None:
    deep: Any = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(BadState) as caught:
        from_document({**to_document(Table(1)), "extra": deep})
    assert caught.value.invariant is Invariant.NOT_CANONICAL


def test_the_check_table_names_every_sub_code_once_with_a_test_where_the_table_is_read() -> None:
    """``CHECKS`` is the one order of ``load_state``: every sub-code but ``not_json`` once; a
    test for each check of the table or a seat, none for the stages made elsewhere."""
    from pointline.kernel.invariants import CHECK_ORDER, CHECKS, CheckStage

    assert sorted(CHECK_ORDER) == sorted(set(Invariant) - {Invariant.NOT_JSON})
    assert [c.stage for c in CHECKS] == sorted((c.stage for c in CHECKS), key=_stage_rank)
    for check in CHECKS:
        assert (check.table_test is not None) == (check.stage is CheckStage.TABLE)
        assert (check.seat_test is not None) == (check.stage is CheckStage.SEAT)


def _stage_rank(stage: object) -> int:
    """Stages run document, table, then seats (each seat's ledger read inside its checks),
    then last: the ledger's checks sit between two seat checks, so rank them as seats."""
    from pointline.kernel.invariants import CheckStage

    order = [CheckStage.DOCUMENT, CheckStage.TABLE, CheckStage.SEAT, CheckStage.LAST]
    return order.index(CheckStage.SEAT if stage is CheckStage.LEDGER else stage)


def test_a_table_breaking_two_checks_is_named_by_the_first_in_the_table() -> None:
    """Seat 0's checks come before seat 1's, and within a seat the table's order decides: seat
    1 with 105 on Pass and seat 0's balance off its ledger is seat 0's ``balance_replay``; with
    seat 0 sound it is seat 1's ``units``, though ``hand_limit`` and ``balance_replay`` are
    broken there too, further down the table."""
    doc = to_document(Table(2))
    doc["seats"][0]["balance"] = 990
    doc["seats"][1]["draft"] = {"pass": 105, "dont_pass": 0}
    doc["seats"][1]["balance"] = 1005
    broken = invariant_broken(_lenient(doc))
    assert broken is not None and broken[0] is Invariant.BALANCE_REPLAY
    assert broken[1].startswith("seat 0:")
    doc["seats"][0]["balance"] = 1000
    broken = invariant_broken(_lenient(doc))
    assert broken is not None
    assert (broken[0], broken[1][:7]) == (Invariant.UNITS, "seat 1:")


def _lenient(doc: Doc) -> Table:
    """The table a document describes, with no check of R28 made (the shape only)."""
    from pointline.kernel import canonical

    checked = canonical.invariant_broken
    canonical.invariant_broken = lambda table: None  # type: ignore[assignment]
    try:
        return from_document(doc)
    except BadState as error:  # only the re-encoding can still refuse it
        raise AssertionError(error.text) from None
    finally:
        canonical.invariant_broken = checked
