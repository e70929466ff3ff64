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

from pointline.conformance._invalid_states import _FRESH_TEXT, INVALID, RAW_INVALID
from pointline.conformance._positions import (
    Doc,
    P,
    _at,
    _draft,
    _ended,
    _hands,
    _played,
    _point,
    _refunded,
    _rolled,
    _sealed,
    _table,
)
from pointline.conformance.casebook import Case
from pointline.kernel import (
    Action,
    Allocate,
    BadState,
    Confirm,
    Invariant,
    Roll,
    Table,
    Throw,
    from_document,
    to_document,
)
from pointline.kernel import canonical_bytes as dumps

__all__ = [
    "INVALID",
    "RAW_INVALID",
    "UNCHECKED",
    "VALID",
    "cases",
    "invalid",
    "refused_hellos",
    "unchecked",
    "valid",
]

RULES = ("R28", "R24")
"""Each invalid document (``conformance._invalid_states``) names the sub-code it must be
refused with (PROTOCOL.md, "load_state"): every ``Invariant`` is broken by at least one (the
generator checks it)."""


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
    # A refund with no reduction just before it may be 0 (play never writes one): it loads.
    doc = to_document(_hands(1))
    doc["seats"][0]["ledger"].append({"type": "refunded", "hand": 1, "throw": 1, "amount": 0})
    c = _load("loading.valid.orphan_refund_of_0", "a refund of 0 with no reduction loads", doc)
    _play_on(c, random.Random("orphan"), 6)
    cases.append(c)
    # A session that agreed protocol 1 has no load_state (PROTOCOL.md, "hello").
    c = Case(
        "loading.protocol_1_has_no_load_state",
        "after hello with protocol 1, load_state is an unknown op (bad_request) and the table"
        " stays; after hello with protocol 2 it loads",
        RULES,
        seats=2,
    )
    c.request({"op": "hello", "protocol": 1})
    c.steps[-1]["expect"] = {"protocol": 1}
    c.request({"op": "load_state", "state": to_document(_point(1))})
    c.do(Confirm(1), full=True)
    c.request({"op": "hello", "protocol": 2})
    c.steps[-1]["expect"] = {"protocol": 2}
    c.request({"op": "load_state", "state": to_document(_point(1))})
    c.do(Roll(0), full=True)
    cases.append(c)
    cases.extend(refused_hellos())
    cases.extend(unchecked())
    # -0 is the integer 0: a document spelling an amount -0 is the canonical document.
    text = dumps(to_document(_table(1))).decode().replace('"pass":0', '"pass":-0', 1)
    c = Case("loading.valid.minus_zero", "an amount written -0 is 0 (R28)", RULES)
    c.raw('{"op":"load_state","state":' + text + "}")
    c.do(Confirm(0), full=True)
    cases.append(c)
    return cases


def refused_hellos() -> list[Case]:
    """A refused ``hello`` leaves the version agreed before, and the table, as they were
    (PROTOCOL.md, "hello"; issue 37, K9)."""
    c = Case(
        "loading.refused_hello_keeps_the_version",
        "after hello with 1, a refused hello (3, 2.0, true) keeps version 1: load_state stays"
        ' an unknown op and the table stays; after hello with 2, a refused hello ("2", 0)'
        " keeps version 2: load_state loads",
        RULES,
        seats=2,
    )
    c.request({"op": "hello", "protocol": 1})
    c.steps[-1]["expect"] = {"protocol": 1}
    c.request({"op": "hello", "protocol": 3})
    c.request({"op": "load_state", "state": to_document(_point(1))})
    c.raw('{"op":"hello","protocol":2.0}')
    c.request({"op": "load_state", "state": to_document(_point(1))})
    c.request({"op": "hello", "protocol": True})
    c.request({"op": "load_state", "state": to_document(_point(1))})
    c.do(Confirm(1), full=True)
    c.request({"op": "hello", "protocol": 2})
    c.steps[-1]["expect"] = {"protocol": 2}
    c.request({"op": "hello", "protocol": "2"})
    c.request({"op": "load_state", "state": to_document(_point(1))})
    c.request({"op": "hello", "protocol": 0})
    c.do(Roll(0), full=True)
    return [c]


def _renumbered(doc: Doc) -> Doc:
    """``_hands(2)``'s document with its two hands' numbers swapped in every entry: hand 1's
    entries say hand 2, throw 2 and hand 2's say hand 1, throw 1 (a settlement still names the
    throw recorded just before it)."""
    for seat in doc["seats"]:
        for entry in seat["ledger"]:
            entry["hand"] = 3 - entry["hand"]
            if "throw" in entry:
                entry["throw"] = 3 - entry["throw"]
    return doc


def _void_reason(doc: Doc) -> Doc:
    """An ended document whose voids name another reason than its ending."""
    voids = [e for seat in doc["seats"] for e in seat["ledger"] if e["type"] == "voided"]
    assert voids and all(e["reason"] == doc["ending"]["reason"] != "deadline" for e in voids)
    for entry in voids:
        entry["reason"] = "deadline"
    return doc


def _fewer_hands(doc: Doc) -> Doc:
    """Two hands resolved in the ledger, one in ``hands_resolved``."""
    assert doc["hands_resolved"] == 2
    doc["hands_resolved"] = 1
    return doc


UNCHECKED: list[tuple[str, str, Callable[[], Doc]]] = [
    (
        "entry_numbers_out_of_order",
        "ledger entries numbered hand 2, throw 2 before hand 1, throw 1",
        lambda: _renumbered(to_document(_hands(2))),
    ),
    (
        "void_reason_not_the_ending",
        "voids naming deadline in a session ended by a departure",
        lambda: _void_reason(to_document(_ended())),
    ),
    (
        "hands_resolved_not_the_ledgers",
        "hands_resolved 1 where the ledgers show two hands resolved",
        lambda: _fewer_hands(to_document(_hands(2))),
    ),
]
"""Documents whose ledgers play would have written otherwise, in ways no check of R28 reads
(PROTOCOL.md, "What load_state does not compare"; issue 37): each loads and plays on."""


def unchecked() -> list[Case]:
    cases = []
    for name, description, make in UNCHECKED:
        c = _load(f"loading.valid.{name}", f"{description}: loads, then play goes on", make())
        _play_on(c, random.Random(name), 12)
        cases.append(c)
    return cases


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
        # where the duplicate-member check stands: before every other check (issue 33, K1)
        "before_shape": fresh.replace('"version":1', '"version":2').replace(
            '"balance":1000', '"balance":1000,"balance":1000'
        ),
        "before_balance_replay": fresh.replace('"balance":1000', '"balance":1010,"balance":1010'),
        "before_not_canonical": fresh.replace('"version":1', '"comment":"x","version":1').replace(
            '"sealed":false', '"sealed":false,"sealed":false'
        ),
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
