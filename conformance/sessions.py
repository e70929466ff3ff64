"""Long random sessions: a seeded driver, and hypothesis (derandomized) choosing its parameters."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from pointline.conformance.casebook import Case
from pointline.kernel import (
    ABORT_REASONS,
    Abort,
    Allocate,
    Confirm,
    Line,
    Phase,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    SeatAction,
    Throw,
)

__all__ = [
    "NOISE",
    "REASONS",
    "STYLES",
    "Style",
    "drive",
    "hypothesis_cases",
    "hypothesis_params",
    "random_cases",
]

REASONS = sorted(ABORT_REASONS, key=lambda r: r.value)
NOISE: list[dict[str, Any]] = [
    {"kind": "allocate", "seat": 0, "line": "pass", "amount": 15},
    {"kind": "allocate", "seat": 0, "line": "both", "amount": 10},
    {"kind": "throw", "die1": 7, "die2": 1},
    {"kind": "throw", "die1": 0, "die2": 6},
    {"kind": "roll", "seat": 9},
    {"kind": "jump", "seat": 0},
    {"kind": "abort", "reason": "throw_cap", "seat": None},
    {"kind": "allocate", "seat": 0, "line": "dont_pass", "amount": -10},
]


@dataclass(frozen=True)
class Style:
    """How a session is driven: how often it errs, stalls the point, or is aborted."""

    noise: float
    stall: float
    abort: float
    fiddle: float


STYLES = {
    "short": Style(noise=0.05, stall=0.0, abort=0.0, fiddle=0.2),
    "long": Style(noise=0.05, stall=0.8, abort=0.0, fiddle=0.3),
    "cap": Style(noise=0.02, stall=0.97, abort=0.0, fiddle=0.1),
    "abort": Style(noise=0.05, stall=0.5, abort=0.01, fiddle=0.3),
}


def _random_seat_action(rng: random.Random, seat: int) -> Any:
    return rng.choice(
        (
            Allocate(seat, Line.PASS, rng.choice((10, 20, 50, 100))),
            Allocate(seat, Line.DONT_PASS, rng.choice((10, 30, 60))),
            Reset(seat),
            Confirm(seat),
            ReduceDontPass(seat),
            RemoveDontPass(seat),
            Roll(seat),
        )
    )


def drive(c: Case, rng: random.Random, style: Style) -> None:
    """Play a whole session, legal moves mostly, with the style's noise and stalls."""
    while not c.table.is_over:
        t = c.table
        roll = rng.random()
        if roll < style.noise:
            if rng.random() < 0.5:
                c.do(NOISE[rng.randrange(len(NOISE))])
            else:
                c.do(_random_seat_action(rng, rng.randrange(t.seat_count)))
            continue
        if roll < style.noise + style.abort:
            seat = rng.choice((None, rng.randrange(t.seat_count)))
            c.do(Abort(rng.choice(REASONS), seat), full=True)
            break
        if t.is_chance_turn:
            point = t.point
            if point is not None and rng.random() < style.stall:
                pairs = [
                    (a, b) for a in range(1, 7) for b in range(1, 7) if a + b not in (7, point)
                ]
                d1, d2 = rng.choice(pairs)
            else:
                d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            c.do(Throw(d1, d2), full=t.throws in (126, 127))
            continue
        seat = rng.choice(t.awaiting)
        legal = t.legal_actions(seat)
        seal: list[SeatAction] = [
            a for a in legal if isinstance(a, Confirm if t.phase is Phase.COME_OUT else Roll)
        ]
        others = [a for a in legal if a not in seal]
        if others and rng.random() < (0.75 if t.phase is Phase.COME_OUT else style.fiddle):
            action: Any = rng.choice(others)
            if isinstance(action, Allocate) and rng.random() < 0.3:
                action = Allocate(seat, action.line, rng.choice((20, 50, 90, 100)))
        else:
            action = seal[0]
        c.do(action)
    c.do(Throw(0, 0), full=True)


def random_cases(count: int = 230) -> list[Case]:
    cases = []
    names = ["short"] * 6 + ["long", "long", "abort", "cap"]
    for i in range(count):
        seats = 1 + i % 8
        style = names[i % len(names)]
        if style == "cap" and seats > 4:
            seats = 1 + seats % 3
        rng = random.Random(f"session-{i}")
        c = Case(
            f"random.{i:04d}.{style}.{seats}seat",
            f"a {style} random session of {seats} seat(s) (seed session-{i})",
            ("R1", "R2", "R17", "R20", "R24"),
            seats=seats,
            table_id=f"random-{i}",
        )
        drive(c, rng, STYLES[style])
        cases.append(c)
    return cases


_DRAWN: dict[int, list[tuple[int, str, int, str]]] = {}


def hypothesis_params(count: int = 40) -> list[tuple[int, str, int, str]]:
    """The (seats, style, seed, table id) of each session, drawn by hypothesis (derandomized,
    no database). Drawn once per process and before any session is driven: what hypothesis
    draws must not depend on what else the process ran before (``generate`` draws them first,
    so ``--only`` and a full run give the same bytes)."""
    if count in _DRAWN:
        return _DRAWN[count]
    from hypothesis import HealthCheck, given, settings
    from hypothesis import Phase as HPhase
    from hypothesis import strategies as st

    drawn: list[tuple[int, str, int, str]] = []
    params = st.tuples(
        st.integers(1, 8),
        st.sampled_from(sorted(STYLES)),
        st.integers(0, 2**32 - 1),
        st.sampled_from(["h", "hyp", "tablé", "🎲"]),
    )

    @settings(
        derandomize=True,
        database=None,
        max_examples=count,
        phases=[HPhase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(params)
    def run(p: tuple[int, str, int, str]) -> None:
        drawn.append(p)

    run()
    _DRAWN[count] = drawn
    return drawn


def hypothesis_cases(count: int = 40) -> list[Case]:
    """Sessions whose seat count, style and seed hypothesis draws (``hypothesis_params``)."""
    cases: list[Case] = []
    for seats, style, seed, table_id in hypothesis_params(count):
        c = Case(
            f"hypothesis.{len(cases):03d}.{style}.{seats}seat",
            f"a {style} session of {seats} seat(s), table {table_id!r}, seed {seed}",
            ("R1", "R2", "R17", "R20", "R24"),
            seats=seats,
            table_id=table_id,
        )
        drive(c, random.Random(seed), STYLES[style])
        cases.append(c)
    return cases
