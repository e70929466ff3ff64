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
    Line,
    ReduceDontPass,
    Roll,
    Table,
    Throw,
    from_document,
    to_document,
)
from pointline.kernel.canonical import dumps
from pointline.kernel.table import _see_throw

Doc = dict[str, Any]
P, D = Line.PASS, Line.DONT_PASS
RULES = ("R28", "R24")

# The fixed words of every invariant ``kernel.canonical.invariant_broken`` names: each one is
# broken by at least one document below (the generator checks it).
INVARIANTS = {
    "resolved hands after only": "no more resolved hands than throws",
    "complete exactly when": "complete exactly when five hands are resolved",
    "has an ending exactly when": "ended exactly when there is an ending",
    "which this table does not have": "the ending's seat is a seat of the table",
    "fewer than 128 throws": "fewer than 128 throws while live",
    "is a multiple of": "every amount a multiple of 10",
    "points a hand on the two lines together": "at most 100 on the two lines",
    "nothing is on the lines once the session is over": "nothing on the lines once over",
    "a confirmed come-out draft equals its contracts": "a confirmed draft equals its contracts",
    "before Confirm the hand has no contracts": "no contracts before Confirm",
    "an open draft is never above the balance": "an open draft within the balance",
    "Pass is locked and Don't Pass only comes down": "Pass locked, Don't Pass only down",
    "a sealed roll leaves no reduction prepared": "sealed means nothing left prepared",
    "the ledger records": "each ledger records exactly `throws` throws",
    "is not what the ledger replays to": "each balance is what its ledger replays to",
}


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
    _see_throw(t, Throw(3, 3))
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


INVALID: list[tuple[str, Callable[[], Any], str]] = [
    # the invariants of R28, each broken alone
    ("resolved_before_thrown", _with(_fresh, _set("hands_resolved", 1)), "1 resolved hands"),
    (
        "complete_after_4_hands",
        _with(lambda: _hands(4), _all(_set("phase", "complete"), _result_of)),
        "complete exactly when",
    ),
    (
        "live_after_5_hands",
        _with(lambda: _hands(5), _all(_set("phase", "come_out"), _set("result", None))),
        "complete exactly when",
    ),
    ("ended_without_ending", _with(_fresh, _set("phase", "ended")), "has an ending exactly when"),
    (
        "ending_while_live",
        _with(_fresh, _set("ending", {"reason": "departure", "seat": None})),
        "has an ending exactly when",
    ),
    (
        "ending_names_seat_2_of_2",
        _with(_ended, _set("ending.seat", 2)),
        "which this table does not have",
    ),
    ("live_at_throw_128", lambda: to_document(_live_at_128()), "fewer than 128 throws"),
    (
        "draft_of_15",
        _with(_fresh, _set("seats.0.draft", {"pass": 15, "dont_pass": 0})),
        "multiple of 10",
    ),
    ("contracts_of_15", _with(_fresh, _contracted(15, 15, 970, True)), "multiple of 10"),
    (
        "draft_of_110",
        _with(_fresh, _set("seats.0.draft", {"pass": 60, "dont_pass": 50})),
        "at most 100 points",
    ),
    ("contracts_of_110", _with(_fresh, _contracted(60, 50, 890, True)), "at most 100 points"),
    (
        "draft_once_ended",
        _with(_ended, _set("seats.1.draft", {"pass": 10, "dont_pass": 0})),
        "nothing is on the lines",
    ),
    (
        "sealed_once_complete",
        _with(lambda: _hands(5), _set("seats.0.sealed", True)),
        "nothing is on the lines",
    ),
    (
        "confirmed_draft_differs",
        _with(_sealed, _set("seats.0.draft", {"pass": 20, "dont_pass": 20})),
        "a confirmed come-out draft equals",
    ),
    (
        "contracts_before_confirm",
        _with(_fresh, _contracted(10, 0, 990, False)),
        "before Confirm the hand has no contracts",
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
    ),
    (
        "pass_raised_on_the_point",
        _with(_point, _set("seats.0.draft", {"pass": 40, "dont_pass": 20})),
        "Pass is locked",
    ),
    (
        "pass_lowered_on_the_point",
        _with(_point, _set("seats.0.draft", {"pass": 20, "dont_pass": 20})),
        "Pass is locked",
    ),
    (
        "dont_pass_raised_on_the_point",
        _with(_point, _set("seats.0.draft", {"pass": 30, "dont_pass": 30})),
        "Don't Pass only comes down",
    ),
    (
        "reduction_left_after_roll",
        _with(_rolled, _set("seats.0.draft", {"pass": 30, "dont_pass": 10})),
        "a sealed roll leaves no reduction",
    ),
    ("throws_not_in_ledger", _with(_fresh, _set("throws", 1)), "the ledger records 0 throws"),
    ("a_seat_missed_a_throw", _with(lambda: _point(2), _drop_throw(1)), "seat 1: the ledger"),
    # balances checked by replaying the ledger (R24)
    ("balance_1010", _with(_fresh, _set("seats.0.balance", 1010)), "replays to"),
    (
        "balance_off_on_seat_2",
        _with(lambda: _point(3), _set("seats.2.balance", 960)),
        "seat 2: the balance",
    ),
    (
        "settled_returned_changed",
        _with(lambda: _hands(2), _edit_entry(0, "settled", "returned", lambda v: v + 20)),
        "replays to",
    ),
    (
        "refund_changed",
        _with(_refunded, _edit_entry(0, "refunded", "amount", lambda v: v + 10)),
        "replays to",
    ),
    (
        "voided_changed",
        _with(_ended, _edit_entry(0, "voided", "amount", lambda v: v - 10)),
        "replays to",
    ),
    (
        "contracted_changed",
        _with(_sealed, _edit_entry(0, "contracted", "pass", lambda v: v + 10)),
        "replays to",
    ),
    # the document itself
    ("version_2", _with(_fresh, _set("version", 2)), "not a version 1"),
    ("version_true", _with(_fresh, _set("version", True)), "not a version 1"),
    ("version_string", _with(_fresh, _set("version", "1")), "not a version 1"),
    ("no_version", _with(_fresh, _set("version", _DELETE)), "not a version 1"),
    ("no_seats", _with(_fresh, _set("seats", [])), "1 to 8 seats"),
    (
        "nine_seats",
        _with(lambda: _table(8), lambda d: d["seats"].append(d["seats"][0])),
        "1 to 8 seats",
    ),
    ("table_id_number", _with(_fresh, _set("table_id", 5)), "table_id is a string"),
    ("phase_unknown", _with(_fresh, _set("phase", "paused")), "bad phase"),
    ("point_7", _with(_point, _set("point", 7)), "the point is"),
    ("point_missing_on_the_point", _with(_point, _set("point", None)), "the point is"),
    ("point_at_the_come_out", _with(_fresh, _set("point", 6)), "the point is"),
    ("throws_129", _with(_fresh, _set("throws", 129)), "throws must be"),
    ("throws_negative", _with(_fresh, _set("throws", -1)), "throws must be"),
    ("hands_6", _with(_fresh, _set("hands_resolved", 6)), "hands_resolved must be"),
    ("ending_a_string", _with(_ended, _set("ending", "departure")), "ending is null or"),
    ("ending_reason_unknown", _with(_ended, _set("ending.reason", "quit")), "bad reason"),
    ("ending_seat_string", _with(_ended, _set("ending.seat", "0")), "seat must be"),
    ("seat_not_object", _with(_fresh, _set("seats.0", [])), "a seat is an object"),
    ("draft_missing_line", _with(_fresh, _set("seats.0.draft.dont_pass", _DELETE)), "names"),
    ("contracts_extra_line", _with(_fresh, _set("seats.0.contracts.field", 0)), "names"),
    ("balance_boolean", _with(_fresh, _set("seats.0.balance", True)), "balance must be"),
    ("sealed_number", _with(_fresh, _set("seats.0.sealed", 0)), "sealed is true or false"),
    ("ledger_not_list", _with(_fresh, _set("seats.0.ledger", {})), "ledger is a list"),
    (
        "entry_unknown_type",
        _with(_sealed, _ledger(0, 0, "type", "bonus")),
        "unknown ledger entry type",
    ),
    ("entry_extra_member", _with(_sealed, _ledger(0, 0, "note", "x")), "not canonical"),
    ("entry_missing_member", _with(_point, _ledger(0, 1, "point", _DELETE)), "missing point"),
    ("entry_die_7", _with(_point, _ledger(0, 1, "die1", 7)), "die1 must be"),
    (
        "stale_result",
        _with(_fresh, _set("result", {"final": [1000], "ranks": [1]})),
        "not canonical",
    ),
    (
        "wrong_ranks",
        _with(lambda: _hands(5), _set("result.ranks", [1, 1])),
        "not canonical",
    ),
    ("no_result_when_complete", _with(lambda: _hands(5), _set("result", None)), "not canonical"),
    ("extra_member", _with(_fresh, _set("comment", "x")), "not canonical"),
    ("missing_ending", _with(_fresh, _set("ending", _DELETE)), "not canonical"),
    ("state_list", lambda: [], "not a version 1"),
    ("state_null", lambda: None, "not a version 1"),
]

_FRESH_TEXT = dumps(to_document(Table(1, "t"))).decode()
RAW_INVALID: list[tuple[str, str, str]] = [
    # number tokens that are not integers, though their values are: refused (R28)
    ("version_1.0", _FRESH_TEXT.replace('"version":1', '"version":1.0'), "not a version 1"),
    ("balance_1e3", _FRESH_TEXT.replace('"balance":1000', '"balance":1e3'), "balance must be"),
    (
        "balance_1000.0",
        _FRESH_TEXT.replace('"balance":1000', '"balance":1000.0'),
        "balance must be",
    ),
    ("throws_0.0", _FRESH_TEXT.replace('"throws":0', '"throws":0.0'), "throws must be"),
    # big integers are exact: 2^64 + 1000 is not 1000
    (
        "balance_2^64+1000",
        _FRESH_TEXT.replace('"balance":1000', f'"balance":{2**64 + 1000}'),
        "balance must be",
    ),
    (
        "table_id_lone_surrogate",
        _FRESH_TEXT.replace('"table_id":"t"', '"table_id":"t\\ud800"'),
        "Unicode text",
    ),
]


def _refused(doc: Any, words: str, name: str) -> None:
    try:
        from_document(doc)
    except BadState as error:
        assert words in error.text, (name, words, error.text)
        return
    raise AssertionError(f"{name}: the reference loads it")


def invalid() -> list[Case]:
    cases = []
    seen: set[str] = set()
    for name, make, words in INVALID:
        doc = make()
        _refused(copy.deepcopy(doc), words, name)
        try:
            from_document(copy.deepcopy(doc))
        except BadState as error:
            seen.update(k for k in INVARIANTS if k in error.text)
        start: dict[str, Any] = {"op": "load_state", "state": doc}
        c = Case(
            f"loading.invalid.{name}",
            f"the position ({name.replace('_', ' ')}) is refused; then there is no table",
            RULES,
            start=start,
        )
        c.request({"op": "state"})
        cases.append(c)
    for name, text, words in RAW_INVALID:
        _refused(json.loads(text), words, name)
        c = Case(
            f"loading.invalid.raw.{name}",
            f"a document spelled with {name} is refused (sent as written)",
            RULES,
        )
        c.raw('{"op":"load_state","state":' + text + "}")
        c.do(Confirm(0))
        cases.append(c)
    c = Case("loading.invalid.no_state_member", "load_state without a state is refused", RULES)
    c.request({"op": "load_state"})
    c.request({"op": "apply", "action": {"kind": "confirm", "seat": 0}})
    cases.append(c)
    missing = sorted(set(INVARIANTS) - seen)
    assert not missing, f"no document breaks: {missing}"
    return cases


def cases() -> list[Case]:
    return valid() + invalid()
