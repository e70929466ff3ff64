"""The 06_throw_cap, 07_seats, 10_ranks, 12_session and 13_abort topics: whole sessions on
shared dice (generator only)."""

from __future__ import annotations

import random

from pointline.conformance.casebook import Case
from pointline.conformance.states import NO_DECISION, REASONS, STATES, P
from pointline.kernel import (
    Abort,
    Allocate,
    Confirm,
    EndReason,
    Phase,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    Throw,
)

__all__ = ["aborts", "ranks", "seats", "session", "throw_cap"]


def _nodecision_run(c: Case, until: int, point: int) -> None:
    while c.table.throws < until:
        c.roll_all()
        c.throw(NO_DECISION[point])


def throw_cap() -> list[Case]:
    """The 127th, 128th and 129th throw, with and without the session completing on them."""
    cases = []
    for seats in (1, 3):
        choices = [(40, 60), (0, 0), (100, 0)][:seats]

        def start(cid: str, desc: str, seats: int = seats) -> Case:
            return Case(
                f"throw_cap.{seats}seat.{cid}",
                f"{desc} ({seats} seat(s))",
                ("R22", "R23", "R20"),
                seats=seats,
            )

        # Cap in hand 1, no decision on the 128th: voided.
        c = start(
            "hand1_void_at_128", "the point stays on to throw 128: the hand is voided, no result"
        )
        c.seal_all(choices)
        c.throw(4)
        _nodecision_run(c, 126, 4)
        c.roll_all()
        c.throw(6, full=True)
        c.roll_all()
        c.throw(6, full=True)
        c.do(Throw(2, 2), full=True)
        c.do(Roll(0), full=True)
        c.do(Abort(EndReason.DEPARTURE), full=True)
        cases.append(c)
        for decide in (7, 4):
            c = start(
                f"hand1_decided_at_128_{decide}",
                "the 128th throw resolves hand 1 but the session is not complete: ended",
            )
            c.seal_all(choices)
            c.throw(4)
            _nodecision_run(c, 127, 4)
            c.roll_all()
            c.throw(decide, full=True)
            c.do(Throw(1, 1), full=True)
            cases.append(c)
        for at in (127, 128):
            for decide in (7, 5):
                c = start(
                    f"complete_at_{at}_{decide}",
                    f"hand 5 resolves on throw {at}: complete with a result",
                )
                for _ in range(4):
                    c.seal_all(choices)
                    c.throw(11)
                c.seal_all(choices)
                c.throw(5)
                _nodecision_run(c, at - 1, 5)
                c.roll_all()
                c.throw(decide, full=True)
                c.do(Throw(1, 2), full=True)
                c.do(Abort(EndReason.DEADLINE), full=True)
                cases.append(c)
        c = start("hand5_void_at_128", "hand 5 is still on at throw 128: ended, voided, no result")
        for _ in range(4):
            c.seal_all(choices)
            c.throw(2)
        c.seal_all(choices)
        c.throw(10)
        _nodecision_run(c, 127, 10)
        c.roll_all()
        c.throw(6, full=True)
        cases.append(c)
        for total in (4, 7, 12):
            c = start(f"come_out_at_128_{total}", f"the 128th throw is a come-out {total}")
            c.seal_all(choices)
            c.throw(8)
            _nodecision_run(c, 126, 8)
            c.roll_all()
            c.throw(8)
            c.seal_all(choices)
            c.throw(total, full=True)
            cases.append(c)
        c = start(
            "reduced_before_cap",
            "Don't Pass reduced across many throws, then the cap voids what is left",
        )
        c.seal_all(choices)
        c.throw(9)
        while c.table.throws < 128:
            if c.table.contracts(0).dont_pass_amount:
                c.ok(ReduceDontPass(0))
            c.roll_all()
            c.throw(6, full=c.table.throws == 127)
        cases.append(c)
        c = start(
            "abort_sealed_at_127",
            "every seat sealed for throw 128, then an abort: its reason, not the cap",
        )
        c.seal_all(choices)
        c.throw(4)
        _nodecision_run(c, 127, 4)
        c.roll_all()
        c.do(Abort(EndReason.BACKGROUND, 0), full=True)
        cases.append(c)
    return cases


def session() -> list[Case]:
    """Five resolved hands, sit-outs counted, the result, and nothing after it."""
    cases = []
    scripts = {
        "naturals": [[7]] * 5,
        "mixed": [[2], [4, 6, 4], [11], [12], [9, 7]],
        "points": [[4, 4], [5, 7], [6, 3, 6], [8, 8], [10, 2, 7]],
        "long_fifth": [[7], [7], [7], [7], [6, 2, 3, 11, 12, 5, 4, 8, 6]],
    }
    sitout_patterns = {"never": [], "hand1": [0], "hands135": [0, 2, 4], "always": [0, 1, 2, 3, 4]}
    for sname, script in scripts.items():
        for pname, sitouts in sitout_patterns.items():
            c = Case(
                f"session.{sname}.sitout_{pname}",
                f"hands {script}; seat 0 sits out hands {sitouts}",
                ("R7", "R17", "R20", "R21"),
                seats=2,
            )
            for h, throws in enumerate(script):
                c.seal_all([(0, 0) if h in sitouts else (30, 20), (10 * (h + 1), 10)])
                for i, total in enumerate(throws):
                    if i:
                        c.roll_all()
                    c.throw(total, full=i == len(throws) - 1)
            for a in (
                Allocate(0, P),
                Confirm(1),
                Roll(0),
                Reset(1),
                ReduceDontPass(0),
                RemoveDontPass(1),
                Throw(3, 4),
                Abort(EndReason.DEPARTURE),
            ):
                c.do(a, full=isinstance(a, Abort))
            cases.append(c)
    c = Case(
        "session.all_sit_out",
        "every seat sits out every hand: the dice still roll and five hands resolve",
        ("R7", "R20", "R21"),
        seats=3,
    )
    for _ in range(5):
        c.seal_all([(0, 0)] * 3)
        c.throw(3, full=True)
    cases.append(c)
    c = Case(
        "session.all_sit_out_points",
        "sat-out hands with a point still need the point or a seven",
        ("R7", "R18", "R20"),
        seats=2,
    )
    for total in (4, 5, 6, 8, 9):
        c.seal_all([(0, 0)] * 2)
        c.throw(total)
        c.roll_all()
        c.throw(NO_DECISION[total])
        c.roll_all()
        c.throw(total, full=True)
    cases.append(c)
    return cases


def seats() -> list[Case]:
    """Two to eight seats: independent contracts, shared dice and point, every seat seals."""
    cases = []
    for n in range(2, 9):
        for variant in range(8):
            rng = random.Random(f"seats-{n}-{variant}")
            c = Case(
                f"seats.{n}.v{variant}",
                f"{n} seats with their own contracts on the same dice (variant {variant})",
                ("R2", "R5", "R8", "R12"),
                seats=n,
            )
            c.do(Throw(3, 4), full=True)
            c.do({"kind": "confirm", "seat": n}, full=False)
            for _hand in range(5):
                if c.table.is_over:
                    break
                order = list(range(n))
                rng.shuffle(order)
                for k, s in enumerate(order):
                    p = rng.choice((0, 0, 10, 20, 50, 100))
                    d = rng.choice((0, 0, 10, 30, 100 - p))
                    if p + d > 100:
                        d = 0
                    c.seal(s, p, d)
                    if k == n // 2:
                        c.do(Throw(1, 1))
                c.throw(rng.choice((4, 5, 6, 8, 9, 10, 7, 2, 12, 11)))
                while c.table.phase is Phase.POINT:
                    for s in rng.sample(range(n), n):
                        dp = c.table.contracts(s).dont_pass_amount
                        if dp and rng.random() < 0.3:
                            c.ok(ReduceDontPass(s))
                        elif dp and rng.random() < 0.1:
                            c.ok(RemoveDontPass(s))
                        c.ok(Roll(s))
                    c.do(Throw(rng.randint(1, 6), rng.randint(1, 6)))
                c.do(Roll(0), full=True)
            cases.append(c)
    return cases


def ranks() -> list[Case]:
    """Competition ranks with ties (1, 1, 3): final points decide, seat order never does."""
    cases = []
    patterns: list[list[tuple[int, int]]] = [
        [(10, 0), (10, 0)],
        [(10, 0), (0, 10)],
        [(0, 10), (10, 0), (0, 10)],
        [(50, 0), (50, 0), (0, 50)],
        [(0, 50), (50, 0), (50, 0)],
        [(20, 0), (10, 10), (0, 0), (20, 0)],
        [(0, 0)] * 5,
        [(100, 0), (0, 100), (0, 0), (50, 50), (100, 0), (0, 100), (0, 0), (50, 50)],
    ]
    rng = random.Random("ranks")
    for _ in range(40):
        n = rng.randint(2, 8)
        patterns.append([rng.choice(((10, 0), (0, 10), (0, 0), (20, 0))) for _ in range(n)])
    for i, pattern in enumerate(patterns):
        for script in ([7, 11, 7, 7, 7], [2, 3, 7, 12, 7], [4, 4, 9, 7, 12]):
            c = Case(
                f"ranks.p{i}.{''.join(map(str, script))}",
                f"choices {pattern} every hand; throws {script}",
                ("R21",),
                seats=len(pattern),
            )
            for t in script:
                c.seal_all(pattern)
                c.throw(t)
                if c.table.phase is Phase.POINT:
                    c.roll_all()
                    c.throw(t if t != 7 else 7)
            c.roll_all() if c.table.phase is Phase.POINT else None
            while not c.table.is_over:
                c.seal_all(pattern) if c.table.phase is Phase.COME_OUT else c.roll_all()
                c.throw(7)
            c.do(Confirm(0), full=True)
            cases.append(c)
    return cases


def aborts() -> list[Case]:
    """Every abort reason in every phase: the hand in flight is voided, no result."""
    cases = []
    for reason in REASONS:
        for k, (sname, sdesc, prep) in enumerate(STATES):
            seat = (None, 0, 1)[k % 3]
            c = Case(
                f"abort.{reason.value}.{sname}",
                f"{sdesc}; then abort for {reason.value} (seat {seat})",
                ("R23", "R25", "R24"),
                seats=2,
            )
            prep(c)
            c.do(Abort(reason, seat), full=True)
            c.do(Confirm(0), full=True)
            cases.append(c)
    for sname, sdesc, prep in STATES:
        c = Case(
            f"abort.throw_cap_reason.{sname}",
            f"{sdesc}; the throw cap is not a reason a caller may give",
            ("R22", "R23"),
            seats=2,
        )
        prep(c)
        c.do({"kind": "abort", "reason": "throw_cap", "seat": None}, full=True)
        cases.append(c)
    return cases
