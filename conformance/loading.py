"""The loading topic (protocol 2): positions loaded with ``load_state``, valid and invalid.

A port validates a position the way python-chess validates a FEN: every valid document loads
(and plays on exactly as the reference does from it), and every document that breaks one
invariant of R28 is refused with ``bad_state`` (generator only).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

from pointline.conformance.casebook import Case
from pointline.kernel import (
    Abort,
    Action,
    Allocate,
    BadState,
    Confirm,
    EndReason,
    Invariant,
    Line,
    ReduceDontPass,
    Roll,
    Table,
    Throw,
    from_document,
    to_document,
)
from pointline.kernel import canonical_bytes as dumps
from pointline.kernel.table import see_throw

__all__ = ["INVALID", "RAW_INVALID", "VALID", "cases", "invalid", "valid"]

Doc = dict[str, Any]
P, D = Line.PASS, Line.DONT_PASS
RULES = ("R28", "R24")

Inv = Invariant
"""Each invalid document names the sub-code it must be refused with (PROTOCOL.md,
"load_state"): every ``Invariant`` is broken by at least one document below (the generator
checks it)."""


# ---------------------------------------------------------------------- positions from play
def _table(seats: int = 1, table_id: str = "t") -> Table:
    return Table(seats, table_id)


def _seal(t: Table, seat: int, p: int, d: int) -> None:
    if p:
        t.push(Allocate(seat, P, p))
    if d:
        t.push(Allocate(seat, D, d))
    t.push(Confirm(seat))


def _draft(seats: int = 1) -> Table:
    t = _table(seats)
    t.push(Allocate(0, P, 30))
    t.push(Allocate(0, D, 20))
    return t


def _sealed(seats: int = 1) -> Table:
    t = _draft(seats)
    t.push(Confirm(0))
    return t


def _point(seats: int = 1) -> Table:
    t = _table(seats)
    for s in range(seats):
        _seal(t, s, 30, 20)
    t.push(Throw(2, 4))
    return t


def _rolled(seats: int = 1) -> Table:
    t = _point(seats)
    t.push(Roll(0))
    return t


def _refunded() -> Table:
    t = _point(1)
    t.push(ReduceDontPass(0))
    t.push(Roll(0))
    t.push(Throw(1, 2))
    return t


def _hands(n: int, seats: int = 2) -> Table:
    t = _table(seats)
    for _ in range(n):
        _seal(t, 0, 10, 0)
        for s in range(1, seats):
            _seal(t, s, 0, 0)
        t.push(Throw(3, 4))
    return t


def _ended(seats: int = 2) -> Table:
    t = _point(seats)
    t.push(Abort(EndReason.DEPARTURE, 0))
    return t


def _at(throws: int, seats: int = 1) -> Table:
    """The point (8) on, seat 0 holding Pass 40 and Don't Pass 60, after ``throws`` throws."""
    t = _table(seats)
    _seal(t, 0, 40, 60)
    for s in range(1, seats):
        _seal(t, s, 0, 0)
    t.push(Throw(4, 4))
    while t.throws < throws:
        for s in t.awaiting:
            t.push(Roll(s))
        t.push(Throw(3, 3))
    return t


def _live_at_128() -> Table:
    """Throw 128 made without the cap ending the session (impossible in play)."""
    t = _at(127)
    t.push(Roll(0))
    see_throw(t, Throw(3, 3))
    return t


def _played(seed: int, seats: int, steps: int, table_id: str = "t") -> Table:
    rng = random.Random(f"loading-{seed}")
    t = _table(seats, table_id)
    for _ in range(steps):
        if t.is_over:
            break
        if t.is_chance_turn:
            t.push(Throw(rng.randint(1, 6), rng.randint(1, 6)))
        else:
            seat = rng.choice(t.awaiting)
            t.push(rng.choice(t.legal_actions(seat)))
    return t


# ---------------------------------------------------------------------- valid positions
def _load(case_id: str, description: str, doc: Doc) -> Case:
    c = Case(case_id, description, RULES, start={"op": "load_state", "state": doc})
    assert "error" not in c.steps[0]["expect"], (case_id, c.steps[0]["expect"])
    return c


def _play_on(c: Case, rng: random.Random, steps: int) -> None:
    """Go on from a loaded position: a probe that may be refused, then play; the last step
    answers the whole state."""
    c.do(Allocate(0, P, 100))
    for i in range(steps):
        t = c.table
        last = i == steps - 1 or t.is_over
        action: Action
        if t.is_over:
            action = Confirm(0)
        elif t.is_chance_turn:
            action = Throw(rng.randint(1, 6), rng.randint(1, 6))
        else:
            seat = rng.choice(t.awaiting)
            action = rng.choice(t.legal_actions(seat))
        c.do(action, full=last)
        if last:
            break


VALID: list[tuple[str, str, Callable[[], Table]]] = [
    ("fresh.1seat", "a fresh come-out, one seat", lambda: _table(1)),
    ("fresh.8seats", "a fresh come-out, eight seats", lambda: _table(8)),
    ("draft", "seat 0's come-out draft open", _draft),
    ("sealed", "seat 0 confirmed at the come-out", _sealed),
    ("sealed.3seats", "seat 0 of three confirmed", lambda: _sealed(3)),
    ("point", "the point is on, seat 0 to choose", _point),
    ("point.3seats", "the point is on, three seats", lambda: _point(3)),
    ("rolled", "the point is on, seat 0 rolled", _rolled),
    ("rolled.2seats", "the point is on, seat 0 of two rolled", lambda: _rolled(2)),
    ("refunded", "after a sealed Don't Pass reduction and a throw", _refunded),
    ("after_4_hands", "four hands resolved", lambda: _hands(4)),
    ("complete", "the session is complete", lambda: _hands(5)),
    ("ended", "ended without a result (departure of seat 0)", _ended),
    ("throw_127", "127 throws made, the point on: the next throw is the last", lambda: _at(127)),
    ("throw_cap", "ended by the 128th throw", lambda: _at(128)),
    ("table_id", "a table id JSON encoders escape differently", lambda: _table(2, "/\x7f\u2028🎲")),
]


def valid() -> list[Case]:
    cases = []
    for name, description, build in VALID:
        doc = to_document(build())
        c = _load(f"loading.valid.{name}", f"{description}: loads, then play goes on", doc)
        _play_on(c, random.Random(name), 12)
        cases.append(c)
    for seed in range(40):
        seats = 1 + seed % 8
        steps = (0, 5, 17, 40, 90, 160, 400, 1000)[seed % 8]
        t = _played(seed, seats, steps)
        c = _load(
            f"loading.valid.played.{seed:02d}",
            f"a position reached in play ({seats} seat(s), {steps} steps), then play goes on",
            to_document(t),
        )
        _play_on(c, random.Random(seed), 30)
        cases.append(c)
    # load_state replaces the table, and a loaded table is a table like any other.
    c = Case(
        "loading.replaces_the_table",
        "load_state replaces a table made by new_table",
        RULES,
        seats=3,
        table_id="old",
    )
    c.request({"op": "load_state", "state": to_document(_point(1))})
    c.do(Confirm(2))
    c.do(Roll(0), full=True)
    c.request({"op": "load_state", "state": to_document(_hands(5))}, full=True)
    c.request({"op": "new_table", "seats": 1, "table_id": "t"}, full=True)
    cases.append(c)
    c = Case("loading.bad_reply", "a bad reply refuses load_state and keeps the table", RULES)
    c.request({"op": "load_state", "state": to_document(_point(1)), "reply": "all"})
    c.do(Roll(0), full=True)
    cases.append(c)
    # -0 is the integer 0: a document spelling an amount -0 is the canonical document.
    text = dumps(to_document(_table(1))).decode().replace('"pass":0', '"pass":-0', 1)
    c = Case("loading.valid.minus_zero", "an amount written -0 is 0 (R28)", RULES)
    c.raw('{"op":"load_state","state":' + text + "}")
    c.do(Confirm(0), full=True)
    cases.append(c)
    return cases


# ---------------------------------------------------------------------- invalid positions
def _with(build: Callable[[], Table], edit: Callable[[Doc], None]) -> Callable[[], Doc]:
    def make() -> Doc:
        doc = copy.deepcopy(to_document(build()))
        edit(doc)
        return doc

    return make


def _set(path: str, value: Any) -> Callable[[Doc], None]:
    def edit(doc: Doc) -> None:
        *parents, last = path.split(".")
        target: Any = doc
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        if value is _DELETE:
            del target[int(last) if last.isdigit() else last]
        else:
            target[int(last) if last.isdigit() else last] = value

    return edit


_DELETE = object()


def _all(*edits: Callable[[Doc], None]) -> Callable[[Doc], None]:
    def edit(doc: Doc) -> None:
        for e in edits:
            e(doc)

    return edit


def _result_of(doc: Doc) -> None:
    final = [s["balance"] for s in doc["seats"]]
    doc["result"] = {"final": final, "ranks": [1 + sum(o > f for o in final) for f in final]}


def _ledger(seat: int, index: int, key: str, value: Any) -> Callable[[Doc], None]:
    def edit(doc: Doc) -> None:
        entry = doc["seats"][seat]["ledger"][index]
        if value is _DELETE:
            del entry[key]
        else:
            entry[key] = value

    return edit


def _entry_index(doc: Doc, seat: int, kind: str) -> int:
    return next(i for i, e in enumerate(doc["seats"][seat]["ledger"]) if e["type"] == kind)


def _edit_entry(seat: int, kind: str, key: str, change: Callable[[Any], Any]) -> Any:
    def edit(doc: Doc) -> None:
        entry = doc["seats"][seat]["ledger"][_entry_index(doc, seat, kind)]
        entry[key] = change(entry[key])

    return edit


def _contracted(p: int, d: int, balance: int, sealed: bool) -> Callable[[Doc], None]:
    """Seat 0 of a fresh come-out holding contracts p/d (draft the same), as its ledger says."""

    def edit(doc: Doc) -> None:
        seat = doc["seats"][0]
        seat.update(
            balance=balance,
            draft={"pass": p, "dont_pass": d},
            contracts={"pass": p, "dont_pass": d},
            sealed=sealed,
            ledger=[{"type": "contracted", "hand": 1, "pass": p, "dont_pass": d}],
        )

    return edit


def _drop_throw(seat: int) -> Callable[[Doc], None]:
    def edit(doc: Doc) -> None:
        ledger = doc["seats"][seat]["ledger"]
        del ledger[_entry_index(doc, seat, "throw")]

    return edit


def _fresh() -> Table:
    return _table(1)


def _pay(seat: int, balance: int, **changes: Any) -> Callable[[Doc], None]:
    """Change seat ``seat``'s first settled entry and move its balance by ``balance``: the
    ledger still replays to the balance, so only the payment itself is wrong."""

    def edit(doc: Doc) -> None:
        doc["seats"][seat]["ledger"][_entry_index(doc, seat, "settled")].update(changes)
        doc["seats"][seat]["balance"] += balance

    return edit


def _refund(amount: int) -> Callable[[Doc], None]:
    """Seat 0's refund becomes ``amount``, its balance moved to match."""

    def edit(doc: Doc) -> None:
        refund = doc["seats"][0]["ledger"][_entry_index(doc, 0, "refunded")]
        doc["seats"][0]["balance"] += amount - refund["amount"]
        refund["amount"] = amount

    return edit


def _lost_dont_pass() -> Table:
    t = _table(1)
    _seal(t, 0, 0, 20)
    t.push(Throw(3, 4))
    return t


def _point_after_six() -> Table:
    """The point 8 on, Pass 40 and Don't Pass 60, then a 6 that decides nothing."""
    return _at(2)


def _settle_on_last_throw(doc: Doc) -> None:
    """Seat 0's Pass settled as a win on the throw of 6 (which decides nothing), and paid."""
    seat = doc["seats"][0]
    throw = seat["ledger"][-1]
    seat["ledger"].append(
        {
            "type": "settled",
            "hand": throw["hand"],
            "throw": throw["throw"],
            "line": "pass",
            "contract": 40,
            "outcome": "win",
            "returned": 80,
            "net": 40,
        }
    )
    seat["balance"] += 80
    seat["contracts"]["pass"] = seat["draft"]["pass"] = 0


INVALID: list[tuple[str, Callable[[], Any], str, Invariant]] = [
    # the invariants of R28, each broken alone
    (
        "resolved_before_thrown",
        _with(_fresh, _set("hands_resolved", 1)),
        "1 resolved hands",
        Inv.RESOLVED_HANDS,
    ),
    (
        "complete_after_4_hands",
        _with(lambda: _hands(4), _all(_set("phase", "complete"), _result_of)),
        "complete exactly when",
        Inv.COMPLETE,
    ),
    (
        "live_after_5_hands",
        _with(lambda: _hands(5), _all(_set("phase", "come_out"), _set("result", None))),
        "complete exactly when",
        Inv.COMPLETE,
    ),
    (
        "ended_without_ending",
        _with(_fresh, _set("phase", "ended")),
        "has an ending exactly when",
        Inv.ENDING,
    ),
    (
        "ending_while_live",
        _with(_fresh, _set("ending", {"reason": "departure", "seat": None})),
        "has an ending exactly when",
        Inv.ENDING,
    ),
    (
        "ending_names_seat_2_of_2",
        _with(_ended, _set("ending.seat", 2)),
        "which this table does not have",
        Inv.ENDING_SEAT,
    ),
    (
        "live_at_throw_128",
        lambda: to_document(_live_at_128()),
        "fewer than 128 throws",
        Inv.THROW_CAP,
    ),
    (
        "draft_of_15",
        _with(_fresh, _set("seats.0.draft", {"pass": 15, "dont_pass": 0})),
        "multiple of 10",
        Inv.UNITS,
    ),
    ("contracts_of_15", _with(_fresh, _contracted(15, 15, 970, True)), "multiple of 10", Inv.UNITS),
    (
        "draft_of_110",
        _with(_fresh, _set("seats.0.draft", {"pass": 60, "dont_pass": 50})),
        "at most 100 points",
        Inv.HAND_LIMIT,
    ),
    (
        "contracts_of_110",
        _with(_fresh, _contracted(60, 50, 890, True)),
        "at most 100 points",
        Inv.HAND_LIMIT,
    ),
    (
        "draft_once_ended",
        _with(_ended, _set("seats.1.draft", {"pass": 10, "dont_pass": 0})),
        "nothing is on the lines",
        Inv.OVER_IS_EMPTY,
    ),
    (
        "sealed_once_complete",
        _with(lambda: _hands(5), _set("seats.0.sealed", True)),
        "nothing is on the lines",
        Inv.OVER_IS_EMPTY,
    ),
    (
        "confirmed_draft_differs",
        _with(_sealed, _set("seats.0.draft", {"pass": 20, "dont_pass": 20})),
        "a confirmed come-out draft equals",
        Inv.CONFIRMED_DRAFT,
    ),
    (
        "contracts_before_confirm",
        _with(_fresh, _contracted(10, 0, 990, False)),
        "before Confirm the hand has no contracts",
        Inv.NO_CONTRACTS_BEFORE_CONFIRM,
    ),
    (
        "draft_above_balance",
        _with(
            _fresh,
            _all(
                _contracted(0, 0, 50, False),
                _set("seats.0.ledger.0.pass", 950),
                _set("seats.0.draft", {"pass": 60, "dont_pass": 0}),
            ),
        ),
        "never above the balance",
        Inv.DRAFT_WITHIN_BALANCE,
    ),
    (
        "pass_raised_on_the_point",
        _with(_point, _set("seats.0.draft", {"pass": 40, "dont_pass": 20})),
        "Pass is locked",
        Inv.POINT_LOCK,
    ),
    (
        "pass_lowered_on_the_point",
        _with(_point, _set("seats.0.draft", {"pass": 20, "dont_pass": 20})),
        "Pass is locked",
        Inv.POINT_LOCK,
    ),
    (
        "dont_pass_raised_on_the_point",
        _with(_point, _set("seats.0.draft", {"pass": 30, "dont_pass": 30})),
        "Don't Pass only comes down",
        Inv.POINT_LOCK,
    ),
    (
        "reduction_left_after_roll",
        _with(_rolled, _set("seats.0.draft", {"pass": 30, "dont_pass": 10})),
        "a sealed roll leaves no reduction",
        Inv.ROLLED_NOTHING_PREPARED,
    ),
    (
        "throws_not_in_ledger",
        _with(_fresh, _set("throws", 1)),
        "the ledger records 0 throws",
        Inv.LEDGER_THROWS,
    ),
    (
        "a_seat_missed_a_throw",
        _with(lambda: _point(2), _drop_throw(1)),
        "seat 1: the ledger",
        Inv.LEDGER_THROWS,
    ),
    # balances checked by replaying the ledger (R24)
    (
        "balance_1010",
        _with(_fresh, _set("seats.0.balance", 1010)),
        "replays to",
        Inv.BALANCE_REPLAY,
    ),
    (
        "balance_off_on_seat_2",
        _with(lambda: _point(3), _set("seats.2.balance", 960)),
        "seat 2: the balance",
        Inv.BALANCE_REPLAY,
    ),
    (
        "settled_returned_changed",
        _with(lambda: _hands(2), _edit_entry(0, "settled", "returned", lambda v: v + 20)),
        "returns 20 (net 10), not 40",
        Inv.PAYMENT,
    ),
    (
        "refund_changed",
        _with(_refunded, _edit_entry(0, "refunded", "amount", lambda v: v + 10)),
        "a refund of 20 where the reduction just recorded is 10",
        Inv.REFUND,
    ),
    (
        "voided_changed",
        _with(_ended, _edit_entry(0, "voided", "amount", lambda v: v - 10)),
        "replays to",
        Inv.BALANCE_REPLAY,
    ),
    (
        "contracted_changed",
        _with(_sealed, _edit_entry(0, "contracted", "pass", lambda v: v + 10)),
        "replays to",
        Inv.BALANCE_REPLAY,
    ),
    # a ledger that disagrees with itself while it replays to the balance (#18)
    (
        "throw_total_not_the_dice",
        _with(_point, _edit_entry(0, "throw", "total", lambda v: v + 1)),
        "totals 6, not 7",
        Inv.THROW_TOTAL,
    ),
    (
        "win_returning_three_times",
        _with(lambda: _hands(1), _pay(0, 10, returned=30, net=20)),
        "returns 20 (net 10), not 30",
        Inv.PAYMENT,
    ),
    (
        "loss_paid_as_a_push",
        _with(_lost_dont_pass, _pay(0, 20, outcome="push", returned=20, net=0)),
        "settled as push, but a 7 there gives loss",
        Inv.PAYMENT,
    ),
    (
        "settled_on_more_than_the_contract",
        _with(lambda: _hands(1), _pay(0, 20, contract=20, returned=40, net=20)),
        "settled as 20 with 10 in play",
        Inv.PAYMENT,
    ),
    (
        "settled_on_a_throw_that_decides_nothing",
        _with(_point_after_six, _settle_on_last_throw),
        "but a 6 there does not settle",
        Inv.PAYMENT,
    ),
    (
        "refund_larger_than_the_reduction",
        _with(_refunded, _refund(20)),
        "a refund of 20 where the reduction just recorded is 10",
        Inv.REFUND,
    ),
    (
        "refund_smaller_than_the_reduction",
        _with(_refunded, _refund(0)),
        "a refund of 0 where the reduction just recorded is 10",
        Inv.REFUND,
    ),
    (
        "reduction_raising_dont_pass",
        _with(
            _refunded, _all(_edit_entry(0, "contract_changed", "after", lambda v: 30), _refund(0))
        ),
        "Don't Pass only comes down",
        Inv.REFUND,
    ),
    (
        "reduction_from_a_contract_not_in_play",
        _with(_refunded, _edit_entry(0, "contract_changed", "before", lambda v: v + 10)),
        "only the Don't Pass in play (20) changes",
        Inv.REFUND,
    ),
    # the document itself
    ("version_2", _with(_fresh, _set("version", 2)), "not a version 1", Inv.SHAPE),
    ("version_true", _with(_fresh, _set("version", True)), "not a version 1", Inv.SHAPE),
    ("version_string", _with(_fresh, _set("version", "1")), "not a version 1", Inv.SHAPE),
    ("no_version", _with(_fresh, _set("version", _DELETE)), "not a version 1", Inv.SHAPE),
    ("no_seats", _with(_fresh, _set("seats", [])), "1 to 8 seats", Inv.SHAPE),
    (
        "nine_seats",
        _with(lambda: _table(8), lambda d: d["seats"].append(d["seats"][0])),
        "1 to 8 seats",
        Inv.SHAPE,
    ),
    ("table_id_number", _with(_fresh, _set("table_id", 5)), "table_id is a string", Inv.SHAPE),
    ("phase_unknown", _with(_fresh, _set("phase", "paused")), "bad phase", Inv.SHAPE),
    ("point_7", _with(_point, _set("point", 7)), "the point is", Inv.POINT),
    ("point_missing_on_the_point", _with(_point, _set("point", None)), "the point is", Inv.POINT),
    ("point_at_the_come_out", _with(_fresh, _set("point", 6)), "the point is", Inv.POINT),
    ("throws_129", _with(_fresh, _set("throws", 129)), "throws must be", Inv.SHAPE),
    ("throws_negative", _with(_fresh, _set("throws", -1)), "throws must be", Inv.SHAPE),
    ("hands_6", _with(_fresh, _set("hands_resolved", 6)), "hands_resolved must be", Inv.SHAPE),
    ("ending_a_string", _with(_ended, _set("ending", "departure")), "ending is null or", Inv.SHAPE),
    (
        "ending_reason_unknown",
        _with(_ended, _set("ending.reason", "quit")),
        "bad reason",
        Inv.SHAPE,
    ),
    ("ending_seat_string", _with(_ended, _set("ending.seat", "0")), "seat must be", Inv.SHAPE),
    ("seat_not_object", _with(_fresh, _set("seats.0", [])), "a seat is an object", Inv.SHAPE),
    (
        "draft_missing_line",
        _with(_fresh, _set("seats.0.draft.dont_pass", _DELETE)),
        "names",
        Inv.SHAPE,
    ),
    ("contracts_extra_line", _with(_fresh, _set("seats.0.contracts.field", 0)), "names", Inv.SHAPE),
    ("balance_boolean", _with(_fresh, _set("seats.0.balance", True)), "balance must be", Inv.SHAPE),
    (
        "sealed_number",
        _with(_fresh, _set("seats.0.sealed", 0)),
        "sealed is true or false",
        Inv.SHAPE,
    ),
    ("ledger_not_list", _with(_fresh, _set("seats.0.ledger", {})), "ledger is a list", Inv.SHAPE),
    (
        "entry_unknown_type",
        _with(_sealed, _ledger(0, 0, "type", "bonus")),
        "unknown ledger entry type",
        Inv.SHAPE,
    ),
    (
        "entry_extra_member",
        _with(_sealed, _ledger(0, 0, "note", "x")),
        "not canonical",
        Inv.NOT_CANONICAL,
    ),
    (
        "entry_missing_member",
        _with(_point, _ledger(0, 1, "point", _DELETE)),
        "missing point",
        Inv.SHAPE,
    ),
    ("entry_die_7", _with(_point, _ledger(0, 1, "die1", 7)), "die1 must be", Inv.SHAPE),
    (
        "stale_result",
        _with(_fresh, _set("result", {"final": [1000], "ranks": [1]})),
        "not canonical",
        Inv.NOT_CANONICAL,
    ),
    (
        "wrong_ranks",
        _with(lambda: _hands(5), _set("result.ranks", [1, 1])),
        "not canonical",
        Inv.NOT_CANONICAL,
    ),
    (
        "no_result_when_complete",
        _with(lambda: _hands(5), _set("result", None)),
        "not canonical",
        Inv.NOT_CANONICAL,
    ),
    ("extra_member", _with(_fresh, _set("comment", "x")), "not canonical", Inv.NOT_CANONICAL),
    ("missing_ending", _with(_fresh, _set("ending", _DELETE)), "not canonical", Inv.NOT_CANONICAL),
    ("state_list", lambda: [], "not a version 1", Inv.SHAPE),
    ("state_null", lambda: None, "not a version 1", Inv.SHAPE),
]

_FRESH_TEXT = dumps(to_document(Table(1, "t"))).decode()
RAW_INVALID: list[tuple[str, str, str, Invariant]] = [
    # number tokens that are not integers, though their values are: refused (R28)
    (
        "version_1.0",
        _FRESH_TEXT.replace('"version":1', '"version":1.0'),
        "not a version 1",
        Inv.SHAPE,
    ),
    (
        "balance_1e3",
        _FRESH_TEXT.replace('"balance":1000', '"balance":1e3'),
        "balance must be",
        Inv.SHAPE,
    ),
    (
        "balance_1000.0",
        _FRESH_TEXT.replace('"balance":1000', '"balance":1000.0'),
        "balance must be",
        Inv.SHAPE,
    ),
    ("throws_0.0", _FRESH_TEXT.replace('"throws":0', '"throws":0.0'), "throws must be", Inv.SHAPE),
    # big integers are exact: 2^64 + 1000 is not 1000
    (
        "balance_2^64+1000",
        _FRESH_TEXT.replace('"balance":1000', f'"balance":{2**64 + 1000}'),
        "balance must be",
        Inv.SHAPE,
    ),
    (
        "table_id_lone_surrogate",
        _FRESH_TEXT.replace('"table_id":"t"', '"table_id":"t\\ud800"'),
        "Unicode text",
        Inv.SHAPE,
    ),
]


def _refused(doc: Any, words: str, invariant: Invariant, name: str) -> None:
    """The reference refuses the document with ``invariant``, for the reason ``words`` say
    (the words are checked here only, in the generator; the fixtures hold the sub-code)."""
    try:
        from_document(doc)
    except BadState as error:
        assert error.invariant is invariant, (name, invariant, error.invariant, error.text)
        assert words in error.text, (name, words, error.text)
        return
    raise AssertionError(f"{name}: the reference loads it")


def _loading_case(case_id: str, description: str, raw: str) -> Case:
    c = Case(case_id, description, RULES)
    c.raw(raw)
    return c


def duplicates() -> list[Case]:
    """Duplicate member names in a request line (PROTOCOL.md, "Duplicate member names")."""
    fresh = _FRESH_TEXT
    cases = []
    doubled = {
        "top_level": fresh.replace('"version":1', '"version":1,"version":1'),
        "seat": fresh.replace('"balance":1000', '"balance":1000,"balance":1000'),
        "draft": fresh.replace('"draft":{"dont_pass":0', '"draft":{"dont_pass":0,"dont_pass":0'),
        "last_wins_would_load": fresh.replace('"balance":1000', '"balance":990,"balance":1000'),
    }
    for name, text in doubled.items():
        c = _loading_case(
            f"loading.invalid.duplicate.{name}",
            f"a state document naming a member twice ({name.replace('_', ' ')}) is refused,"
            " whichever value comes last; then there is no table",
            '{"op":"load_state","state":' + text + "}",
        )
        c.request({"op": "state"})
        cases.append(c)
    c = Case(
        "loading.invalid.duplicate.state_member",
        "load_state naming state twice is not a request: refused, the table stays",
        RULES,
        seats=2,
    )
    c.raw('{"op":"load_state","state":' + fresh + ',"state":' + fresh + "}")
    c.do(Confirm(1), full=True)
    cases.append(c)
    return cases


def invalid() -> list[Case]:
    cases = []
    seen: set[Invariant] = set()
    for name, make, words, invariant in INVALID:
        doc = make()
        _refused(copy.deepcopy(doc), words, invariant, name)
        seen.add(invariant)
        start: dict[str, Any] = {"op": "load_state", "state": doc}
        c = Case(
            f"loading.invalid.{name}",
            f"the position ({name.replace('_', ' ')}) is refused naming {invariant};"
            " then there is no table",
            RULES,
            start=start,
        )
        c.request({"op": "state"})
        cases.append(c)
    for name, text, words, invariant in RAW_INVALID:
        _refused(json.loads(text), words, invariant, name)
        seen.add(invariant)
        c = Case(
            f"loading.invalid.raw.{name}",
            f"a document spelled with {name} is refused naming {invariant} (sent as written)",
            RULES,
        )
        c.raw('{"op":"load_state","state":' + text + "}")
        c.do(Confirm(0))
        cases.append(c)
    c = Case("loading.invalid.no_state_member", "load_state without a state is refused", RULES)
    c.request({"op": "load_state"})
    c.request({"op": "apply", "action": {"kind": "confirm", "seat": 0}})
    cases.append(c)
    cases.extend(duplicates())
    seen.add(Invariant.DUPLICATE_MEMBER)
    missing = sorted(set(Invariant) - seen - {Invariant.NOT_JSON})
    assert not missing, f"no document breaks: {missing}"
    return cases


def cases() -> list[Case]:
    return valid() + invalid()
