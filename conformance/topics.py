"""The fixture topics: each function returns the cases of one file (generator only)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pointline.conformance import edges, topics_session
from pointline.conformance.casebook import ALL_PAIRS, DICE_FOR, Case
from pointline.conformance.states import STATES, P, seat_actions
from pointline.conformance.topics_dice import commitments, dice
from pointline.conformance.topics_lines import allocation, dont_pass
from pointline.conformance.topics_session import aborts, ranks, session, throw_cap
from pointline.kernel import (
    Abort,
    Allocate,
    EndReason,
    Phase,
    Throw,
)

__all__ = [
    "MALFORMED",
    "TOPICS",
    "TOPIC_PROTOCOL",
    "aborts",
    "allocation",
    "canonical",
    "commitments",
    "dice",
    "dont_pass",
    "malformed",
    "ranks",
    "rows",
    "session",
    "throw_cap",
    "totals",
]


def rows() -> list[Case]:
    """Every action kind from every kind of state: each row of the table and each guard."""
    cases = []
    for seats in (1, 3):
        for sname, sdesc, prep in STATES:
            acts = seat_actions(0)
            if seats > 1:
                acts += [("last_seat_allocate_pass", Allocate(seats - 1, P))]
            acts += [(f"throw_{t}", Throw(*DICE_FOR[t])) for t in range(2, 13)]
            acts += [("abort_deadline", Abort(EndReason.DEADLINE, 0))]
            for aname, action in acts:
                c = Case(
                    f"rows.{seats}seat.{sname}.{aname}",
                    f"{sdesc} ({seats} seat(s)); then {aname}",
                    seats=seats,
                )
                prep(c)
                c.do(action, full=True)
                cases.append(c)
    return cases + edges.guard_order()


MALFORMED: list[tuple[str, dict[str, Any]]] = [
    *(
        (f"amount_{v!r}", {"kind": "allocate", "seat": 0, "line": "pass", "amount": v})
        for v in (15, 0, -10, 5, 1, 105, -100, "10", None, True, [10])
    ),
    ("amount_missing", {"kind": "allocate", "seat": 0, "line": "dont_pass"}),
    *(
        (f"die1_{v!r}", {"kind": "throw", "die1": v, "die2": 3})
        for v in (0, 7, -1, 9, "3", None, True)
    ),
    *((f"die2_{v!r}", {"kind": "throw", "die1": 3, "die2": v}) for v in (0, 7, 12, "6", None)),
    ("dice_missing", {"kind": "throw"}),
    *(
        (f"seat_{k}_{v!r}", {"kind": k, "seat": v})
        for v in (-1, 9, 8, 3, None, "0", True)
        for k in ("confirm", "roll")
    ),
    ("seat_missing", {"kind": "reset"}),
    *(
        (f"line_{v!r}", {"kind": "allocate", "seat": 0, "line": v, "amount": 10})
        for v in ("both", "PASS", "", None, 1, "dont pass")
    ),
    *((f"kind_{v!r}", {"kind": v, "seat": 0}) for v in ("jump", "", None, 3, "Roll", "ALLOCATE")),
    ("kind_missing", {"seat": 0}),
    ("action_list", [0]),  # type: ignore[list-item]
    ("action_string", "roll"),  # type: ignore[list-item]
    ("action_null", None),  # type: ignore[list-item]
    *(
        (f"reason_{v!r}", {"kind": "abort", "reason": v, "seat": None})
        for v in ("throw_cap", "quit", "", None, 3, "DEPARTURE")
    ),
    *(
        (f"abort_seat_{v!r}", {"kind": "abort", "reason": "departure", "seat": v})
        for v in (-1, 9, 3, "0", True)
    ),
    # Precedence: the first check that fails names the error.
    ("seat_before_amount", {"kind": "allocate", "seat": 9, "line": "pass", "amount": 15}),
    ("seat_before_line", {"kind": "allocate", "seat": 9, "line": "up", "amount": 10}),
    ("line_before_amount", {"kind": "allocate", "seat": 0, "line": "up", "amount": 15}),
    ("reason_before_seat", {"kind": "abort", "reason": "quit", "seat": 9}),
    ("die_before_die", {"kind": "throw", "die1": 0, "die2": 7}),
]


def malformed() -> list[Case]:
    """Actions that are not well formed, in every phase: the malformed code wins over state."""
    cases = []
    for sname, sdesc, prep in [
        STATES[0],
        STATES[2],
        STATES[4],
        STATES[5],
        STATES[8],
        STATES[12],
        STATES[13],
    ]:
        for mname, doc in MALFORMED:
            c = Case(
                f"malformed.{sname}.{mname}",
                f"{sdesc} (3 seats); then the malformed {mname}",
                ("R3", "R8"),
                seats=3,
            )
            prep(c)
            c.do(doc, full=mname.startswith("amount_1"))
            c.roll_all() if not c.table.is_over and c.table.phase is Phase.POINT else None
            cases.append(c)
    for v in (0, 9, -1, 100, "2", None, True, 2.5):
        c = Case(
            f"malformed.new_table.seats_{v!r}",
            f"a table of {v!r} seats cannot be made",
            ("R2",),
            seats=v,
        )
        cases.append(c)
    bad_ids: tuple[object, ...] = (5, None, ["t"])
    for bad_id in bad_ids:
        c = Case(
            f"malformed.new_table.table_id_{bad_id!r}",
            "the table id must be a string",
            ("R2", "R28"),
            table_id=bad_id,
        )
        cases.append(c)
    cases += edges.new_table_members()
    cases += edges.replies()
    cases += edges.abort_without_seat()
    cases += edges.numbers()
    cases += edges.duplicate_members()
    cases += edges.hellos()
    return cases


def canonical() -> list[Case]:
    """Table ids keep every character in the canonical UTF-8 JSON (escapes as JSON requires)."""
    cases = []
    for tid in (
        "",
        "tablé ü",
        'q"uote\\back',
        "line\nbreak\ttab\x01ctl",
        "🎲 dice",
        "\u2028sep",
        "\x7f\x1f",
        *edges.ESCAPED_IDS,
    ):
        c = Case(
            f"canonical.table_id_{tid.encode('unicode_escape').decode('ascii')}",
            "table ids keep their characters in canonical UTF-8 JSON",
            ("R28",),
            table_id=tid,
            full_start=True,
        )
        c.seal(0, 10, 0)
        c.throw(4, full=True)
        cases.append(c)
    return cases


def totals() -> list[Case]:
    """Every pair of dice at the come-out, and in the point phase for every point."""
    cases = []
    configs = [(10, 0), (0, 10), (60, 40), (0, 0)]
    for a, b in ALL_PAIRS:
        for p, d in configs:
            c = Case(
                f"totals.come_out.{a}{b}.p{p}d{d}",
                f"come-out throw {a}+{b}={a + b} with Pass {p}, Don't Pass {d}",
                ("R9", "R10", "R11", "R16", "R7"),
            )
            c.seal(0, p, d)
            c.throw((a, b), full=True)
            cases.append(c)
        c = Case(
            f"totals.come_out.{a}{b}.3seats",
            f"come-out throw {a}+{b} with three seats on different lines",
            ("R2", "R16"),
            seats=3,
        )
        c.seal_all([(30, 0), (0, 50), (20, 20)])
        c.throw((a, b), full=True)
        cases.append(c)
    for point in (4, 5, 6, 8, 9, 10):
        for a, b in ALL_PAIRS:
            c = Case(
                f"totals.point{point}.{a}{b}.1seat",
                f"point {point}, then {a}+{b}={a + b}",
                ("R11", "R18", "R19", "R16"),
            )
            c.seal(0, 40, 60)
            c.throw(point)
            c.roll_all()
            c.throw((a, b), full=True)
            if not c.table.is_over and c.table.phase is Phase.POINT:
                c.roll_all()
                c.throw(point)
            cases.append(c)
            c = Case(
                f"totals.point{point}.{a}{b}.3seats",
                f"point {point} with three seats, then {a}+{b}",
                ("R2", "R11", "R18", "R19"),
                seats=3,
            )
            c.seal_all([(50, 0), (0, 100), (0, 0)])
            c.throw(point)
            c.roll_all()
            c.throw((a, b), full=True)
            cases.append(c)
    return cases


def _sessions_witness() -> list[Case]:
    from pointline.conformance import witnesses

    return witnesses.cases()


def _loading() -> list[Case]:
    from pointline.conformance import loading

    return loading.cases()


def _random() -> list[Case]:
    from pointline.conformance import sessions

    return sessions.random_cases()


def _hypothesis() -> list[Case]:
    from pointline.conformance import sessions

    return sessions.hypothesis_cases()


TOPIC_PROTOCOL = {"15_loading": 2}
"""Topics whose cases need a newer adapter protocol than 1 (the runner skips them, and says so,
for an implementation that speaks an older one)."""

TOPICS: list[tuple[str, str, Callable[[], list[Any]]]] = [
    ("01_dice", "dice derivation vectors incl. rejection sampling", dice),
    ("02_commitment", "commitment vectors, good and tampered", commitments),
    ("03_canonical", "canonical UTF-8 JSON of table ids with escapes and non-ASCII", canonical),
    ("04_rows", "every action kind from every kind of state: each transition row and guard", rows),
    ("05_malformed", "malformed actions and tables in every phase", malformed),
    ("06_throw_cap", "the 127th, 128th and 129th throw", throw_cap),
    ("07_seats", "two to eight seats on shared dice", topics_session.seats),
    ("08_dont_pass", "Don't Pass reductions, removals, refunds and Reset", dont_pass),
    (
        "09_allocation",
        "allocation amounts, the hand limit, the balance guard, Pass after the point",
        allocation,
    ),
    ("10_ranks", "competition ranks with ties", ranks),
    ("11_totals", "every pair of dice at the come-out and for every point", totals),
    ("12_session", "five resolved hands, sit-outs and the result", session),
    ("13_abort", "every abort reason in every phase", aborts),
    ("14_witnesses", "z3 witnesses at the invariants' edges", _sessions_witness),
    (
        "15_loading",
        "positions loaded with load_state (protocol 2): valid ones play on, invalid ones refused",
        _loading,
    ),
    ("20_random", "long random sessions from a seeded generator", _random),
    ("21_hypothesis", "random sessions drawn by hypothesis (derandomized)", _hypothesis),
]
