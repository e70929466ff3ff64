"""Pointline Table's rules kernel: pure, typed, deterministic; the dice are an input.

>>> from kernel import Table, Allocate, Confirm, Throw, Line
>>> table = Table(seats=1)
>>> table.push(Allocate(0, Line.PASS))
>>> table.push(Confirm(0))
>>> table.push(Throw(3, 4))
>>> table.balance(0), table.hands_resolved
(1010, 1)
"""

from pointline.kernel.actions import (
    SEAT_KINDS,
    Abort,
    Action,
    ActionKind,
    Allocate,
    Confirm,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    SeatAction,
    Throw,
)
from pointline.kernel.canonical import from_document, loads, state_bytes, state_hash, to_document
from pointline.kernel.choice import Choice, current_choice, plan
from pointline.kernel.dice import (
    PROTOCOL_VERSION,
    commitment,
    derive_dice,
    dice_from_seed,
    dice_seed,
    verify_commitment,
)
from pointline.kernel.errors import BadState, IllegalAction, MalformedAction, PointlineError
from pointline.kernel.ledger import (
    ContractChanged,
    Contracted,
    Entry,
    Refunded,
    Settled,
    ThrowSeen,
    Voided,
    replay_balance,
)
from pointline.kernel.rules import TRANSITIONS, Code, Effect, Guard, Transition, When
from pointline.kernel.table import (
    Contracts,
    Ending,
    Result,
    SeatState,
    Standing,
    Table,
    competition_ranks,
)
from pointline.kernel.values import (
    HAND_LIMIT,
    HANDS_PER_SESSION,
    MAX_SEATS,
    MIN_SEATS,
    ONLINE_SEATS_MAX,
    ONLINE_SEATS_MIN,
    POINT_NUMBERS,
    STARTING_POINTS,
    THROW_CAP,
    UNIT,
    EndReason,
    Line,
    Outcome,
    Phase,
    is_online_seat_count,
)

__all__ = [
    "HANDS_PER_SESSION",
    "HAND_LIMIT",
    "MAX_SEATS",
    "MIN_SEATS",
    "ONLINE_SEATS_MAX",
    "ONLINE_SEATS_MIN",
    "POINT_NUMBERS",
    "PROTOCOL_VERSION",
    "SEAT_KINDS",
    "STARTING_POINTS",
    "THROW_CAP",
    "TRANSITIONS",
    "UNIT",
    "Abort",
    "Action",
    "ActionKind",
    "Allocate",
    "BadState",
    "Choice",
    "Code",
    "Confirm",
    "ContractChanged",
    "Contracted",
    "Contracts",
    "Effect",
    "EndReason",
    "Ending",
    "Entry",
    "Guard",
    "IllegalAction",
    "Line",
    "MalformedAction",
    "Outcome",
    "Phase",
    "PointlineError",
    "ReduceDontPass",
    "Refunded",
    "RemoveDontPass",
    "Reset",
    "Result",
    "Roll",
    "SeatAction",
    "SeatState",
    "Settled",
    "Standing",
    "Table",
    "Throw",
    "ThrowSeen",
    "Transition",
    "Voided",
    "When",
    "commitment",
    "competition_ranks",
    "current_choice",
    "derive_dice",
    "dice_from_seed",
    "dice_seed",
    "from_document",
    "is_online_seat_count",
    "loads",
    "plan",
    "replay_balance",
    "state_bytes",
    "state_hash",
    "to_document",
    "verify_commitment",
]
