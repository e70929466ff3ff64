"""Positions for the loading topic (generator only): tables reached in play, positions play
cannot reach, and edits that break one thing in a state document. Private to
``conformance.loading`` and ``conformance._invalid_states``."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from pointline.kernel import (
    Abort,
    Allocate,
    Confirm,
    EndReason,
    Line,
    ReduceDontPass,
    Roll,
    Table,
    Throw,
    to_document,
)
from pointline.kernel.table import see_throw

__all__ = ["D", "Doc", "P", "put"]

Doc = dict[str, Any]
P, D = Line.PASS, Line.DONT_PASS


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


# ---------------------------------------------------------------------- invalid positions
def _with(build: Callable[[], Table], edit: Callable[[Doc], None]) -> Callable[[], Doc]:
    def make() -> Doc:
        doc = copy.deepcopy(to_document(build()))
        edit(doc)
        return doc

    return make


def put(path: str, value: Any) -> Callable[[Doc], None]:
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
