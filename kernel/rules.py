"""The transition table: the one place the rules of the table live, as data.

Every phase × action kind has rows. A row names the throw totals it applies to (``when``),
the guards that must hold (each with the code it rejects with), and either an effect or a
rejection code. For a given state and action exactly one row applies; ``kernel.table`` reads
these rows to step the table and ``spec/RULES.md`` is rendered from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from pointline.kernel.actions import ActionKind
from pointline.kernel.codes import Code
from pointline.kernel.values import (
    HAND_LIMIT,
    HANDS_PER_SESSION,
    POINT_NUMBERS,
    THROW_CAP,
    UNIT,
    Outcome,
    Phase,
    ordinal,
)

__all__ = [
    "SEALING_EFFECTS",
    "TRANSITIONS",
    "Effect",
    "Guard",
    "Then",
    "Transition",
    "When",
    "row_for",
    "rows_for",
]


class Guard(Enum):
    """A condition a row needs; when it fails the action is rejected with its code."""

    SEAT_OPEN = (
        "The seat has not sealed its choices for this throw.",
        Code.SEAT_SEALED,
        "R5",
    )
    WITHIN_HAND_LIMIT = (
        f"The draft on both lines together stays at most {HAND_LIMIT}.",
        Code.HAND_LIMIT,
        "R3",
    )
    WITHIN_BALANCE = (
        "The draft on both lines together stays at most the seat's balance.",
        Code.OVER_BALANCE,
        "R3",
    )
    LINE_IS_DONT_PASS = (
        "Pass is locked in the point phase; only Don't Pass is named here.",
        Code.PASS_LOCKED,
        "R13",
    )
    DONT_PASS_PREPARED = (
        f"The prepared Don't Pass is at least {UNIT}.",
        Code.NOTHING_TO_REDUCE,
        "R14",
    )
    DRAFT_CHANGED = (
        "The draft differs from what the seat last sealed.",
        Code.NOTHING_TO_RESET,
        "R6",
    )
    EVERY_SEAT_SEALED = (
        "Every seat has sealed its choices for this throw.",
        Code.AWAITING_SEATS,
        "R8",
    )

    @property
    def text(self) -> str:
        return str(self.value[0])

    @property
    def code(self) -> Code:
        code = self.value[1]
        assert isinstance(code, Code)
        return code

    @property
    def rule(self) -> str:
        return str(self.value[2])


class When(Enum):
    """Which throw totals a row applies to; ``ALWAYS`` for every action that is not a throw."""

    ALWAYS = "any"
    NATURAL = "total 7 or 11"
    CRAPS = "total 2 or 3"
    TWELVE = "total 12"
    POINT_NUMBER = "total 4, 5, 6, 8, 9 or 10"
    POINT_MADE = "total equals the point"
    SEVEN_OUT = "total 7"
    NO_DECISION = "any other total"

    def holds(self, total: int, point: int | None) -> bool:
        """Whether a throw of ``total`` with ``point`` on (or off) falls under this row."""
        if self is When.ALWAYS:
            return True
        if self is When.NATURAL:
            return total in (7, 11)
        if self is When.CRAPS:
            return total in (2, 3)
        if self is When.TWELVE:
            return total == 12
        if self is When.POINT_NUMBER:
            return total in POINT_NUMBERS
        if self is When.POINT_MADE:
            return total == point
        if self is When.SEVEN_OUT:
            return total == 7
        return total != 7 and total != point


class Effect(Enum):
    """What a row does when its guards hold."""

    ADD_TO_DRAFT = "Add the amount to the draft on the named line."
    RESTORE_DRAFT = "Restore the draft to the current contracts (at come-out: nothing)."
    SEAL_CONTRACTS = (
        "Seal the draft as the hand's original contracts, take them from the balance"
        " and mark the seat sealed."
    )
    PREPARE_REDUCTION = "Lower the prepared Don't Pass by 10."
    PREPARE_REMOVAL = "Lower the prepared Don't Pass to 0."
    SEAL_ROLL = (
        "Seal the prepared Don't Pass: the reduced part returns to the balance"
        " as a withdrawal refund, and the seat is marked sealed."
    )
    SETTLE_HAND = "Settle both lines as listed, resolve the hand, and start the next one."
    ESTABLISH_POINT = "The total becomes the point; contracts stay; the point phase begins."
    KEEP_POINT = "Nothing changes: same point, same contracts; every seat chooses again."
    VOID_HAND = "Return every contract in play with no profit and end without a result."

    @property
    def seals(self) -> bool:
        """Whether this effect seals the seat's choices for the next throw (Confirm, Roll)."""
        return self in SEALING_EFFECTS


SEALING_EFFECTS = frozenset({Effect.SEAL_CONTRACTS, Effect.SEAL_ROLL})
"""The effects that seal a seat's choices: once every seat has applied one, the dice are due."""


class Then(Enum):
    """Where an accepting row leaves the table: the phase after its effect (R17, R20, R22)."""

    STAY = "the same phase"
    POINT = f"the point phase; ended instead after the {ordinal(THROW_CAP)} throw (R22)"
    SAME_POINT = f"the same point phase; ended instead after the {ordinal(THROW_CAP)} throw (R22)"
    NEXT_HAND = (
        f"complete after the {ordinal(HANDS_PER_SESSION)} resolved hand (R20); else the next"
        f" hand's come-out, ended instead after the {ordinal(THROW_CAP)} throw (R22)"
    )
    ENDED = "ended without a result"


@dataclass(frozen=True, slots=True)
class Transition:
    """One row of the table."""

    phase: Phase
    kind: ActionKind
    when: When
    guards: tuple[Guard, ...]
    effect: Effect | None
    reject: Code | None
    pass_outcome: Outcome | None
    dont_pass_outcome: Outcome | None
    rules: tuple[str, ...]
    then: Then | None = None
    """The phase after an accepting row (None for a rejecting row: nothing changes)."""

    @property
    def accepts(self) -> bool:
        return self.effect is not None


def _row(
    phase: Phase,
    kind: ActionKind,
    *,
    guards: tuple[Guard, ...] = (),
    effect: Effect | None = None,
    reject: Code | None = None,
    when: When = When.ALWAYS,
    settles: tuple[Outcome, Outcome] | None = None,
    rules: tuple[str, ...] = (),
    then: Then | None = None,
) -> Transition:
    if effect is not None and then is None:
        then = Then.STAY
    return Transition(
        phase=phase,
        kind=kind,
        when=when,
        guards=guards,
        effect=effect,
        reject=reject,
        pass_outcome=settles[0] if settles else None,
        dont_pass_outcome=settles[1] if settles else None,
        rules=rules,
        then=then,
    )


def _choice(
    phase: Phase, kind: ActionKind, effect: Effect, rules: tuple[str, ...], *guards: Guard
) -> Transition:
    """An accepting row for a seat's own choice: the seat must not have sealed yet (R5)."""
    return _row(phase, kind, guards=(Guard.SEAT_OPEN, *guards), effect=effect, rules=rules)


def _throw(
    phase: Phase,
    when: When,
    effect: Effect,
    rules: tuple[str, ...],
    then: Then,
    settles: tuple[Outcome, Outcome] | None = None,
) -> Transition:
    """A throw row: the dice are due once every seat has sealed (R8), then ``rules`` decide."""
    return _row(
        phase,
        ActionKind.THROW,
        when=when,
        guards=(Guard.EVERY_SEAT_SEALED,),
        effect=effect,
        settles=settles,
        rules=("R8", *rules),
        then=then,
    )


def _settle(phase: Phase, when: When, settles: tuple[Outcome, Outcome], rule: str) -> Transition:
    """A deciding throw: ``rule`` gives the outcomes (Pass, Don't Pass), both lines settle as
    R16 pays and the hand resolves (R17)."""
    return _throw(phase, when, Effect.SETTLE_HAND, (rule, "R16", "R17"), Then.NEXT_HAND, settles)


_C, _P = Phase.COME_OUT, Phase.POINT
_W, _L, _U = Outcome.WIN, Outcome.LOSS, Outcome.PUSH
K = ActionKind
G = Guard

TRANSITIONS: tuple[Transition, ...] = (
    # --- Come-out: the draft is open until Confirm seals it.
    _choice(
        _C, K.ALLOCATE, Effect.ADD_TO_DRAFT, ("R3", "R4"), G.WITHIN_HAND_LIMIT, G.WITHIN_BALANCE
    ),
    _choice(_C, K.RESET, Effect.RESTORE_DRAFT, ("R6",), G.DRAFT_CHANGED),
    _choice(_C, K.CONFIRM, Effect.SEAL_CONTRACTS, ("R5", "R7")),
    _row(_C, K.REDUCE_DONT_PASS, reject=Code.NO_POINT, rules=("R14",)),
    _row(_C, K.REMOVE_DONT_PASS, reject=Code.NO_POINT, rules=("R14",)),
    _row(_C, K.ROLL, reject=Code.CONFIRM_FIRST, rules=("R5",)),
    _settle(_C, When.NATURAL, (_W, _L), "R9"),
    _settle(_C, When.CRAPS, (_L, _W), "R10"),
    _settle(_C, When.TWELVE, (_L, _U), "R10"),
    _throw(_C, When.POINT_NUMBER, Effect.ESTABLISH_POINT, ("R11",), Then.POINT),
    _row(_C, K.ABORT, effect=Effect.VOID_HAND, rules=("R23",), then=Then.ENDED),
    # --- Point phase: Pass is locked; Don't Pass may come down before each throw.
    _row(
        _P,
        K.ALLOCATE,
        guards=(G.LINE_IS_DONT_PASS,),
        reject=Code.DONT_PASS_NO_INCREASE,
        rules=("R13", "R15"),
    ),
    _choice(_P, K.RESET, Effect.RESTORE_DRAFT, ("R6", "R14"), G.DRAFT_CHANGED),
    _row(_P, K.CONFIRM, reject=Code.ALREADY_CONFIRMED, rules=("R12",)),
    _choice(_P, K.REDUCE_DONT_PASS, Effect.PREPARE_REDUCTION, ("R14",), G.DONT_PASS_PREPARED),
    _choice(_P, K.REMOVE_DONT_PASS, Effect.PREPARE_REMOVAL, ("R14",), G.DONT_PASS_PREPARED),
    _choice(_P, K.ROLL, Effect.SEAL_ROLL, ("R12", "R14", "R15")),
    _settle(_P, When.POINT_MADE, (_W, _L), "R18"),
    _settle(_P, When.SEVEN_OUT, (_L, _W), "R18"),
    _throw(_P, When.NO_DECISION, Effect.KEEP_POINT, ("R19",), Then.SAME_POINT),
    _row(_P, K.ABORT, effect=Effect.VOID_HAND, rules=("R23",), then=Then.ENDED),
    # --- Over: nothing more happens in this session.
    *(
        _row(phase, kind, reject=Code.SESSION_OVER, rules=("R25",))
        for phase in (Phase.COMPLETE, Phase.ENDED)
        for kind in ActionKind
    ),
)
"""Every row of the table, in the order ``spec/RULES.md`` shows them.

A row's guards are checked in order; the first that fails rejects with its code. When all
hold, an accepting row applies its effect and a rejecting row rejects with its own code.
"""


def rows_for(phase: Phase, kind: ActionKind) -> tuple[Transition, ...]:
    """The rows for one phase and action kind (several only for throws, split by total)."""
    return tuple(r for r in TRANSITIONS if r.phase is phase and r.kind is kind)


def row_for(phase: Phase, kind: ActionKind, total: int = 0, point: int | None = None) -> Transition:
    """The single row that applies; ``total`` and ``point`` matter only for throws."""
    for row in TRANSITIONS:
        if row.phase is phase and row.kind is kind and row.when.holds(total, point):
            return row
    raise LookupError(f"no row for {phase} {kind} total={total} point={point}")
