"""The table's vocabulary: lines, phases, outcomes, reasons and the session's fixed numbers."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType
from typing import Final, NamedTuple

__all__ = [
    "ABORT_REASONS",
    "CREATOR_SEAT",
    "ENDING_WORDS",
    "HANDS_PER_SESSION",
    "HAND_LIMIT",
    "MAX_SEATS",
    "MIN_SEATS",
    "NET_MULTIPLE",
    "ONLINE_SEATS_MAX",
    "ONLINE_SEATS_MIN",
    "ONLINE_TABLE_ID_MAX",
    "POINT_NUMBERS",
    "RETURNED_MULTIPLE",
    "STARTING_POINTS",
    "THROW_CAP",
    "UNIT",
    "EndReason",
    "EndingWords",
    "Line",
    "Outcome",
    "Phase",
    "is_online_seat_count",
    "ordinal",
    "spelled",
]

STARTING_POINTS = 1000
"""Every seat starts a session with 1,000 free fictional points (R1)."""
UNIT = 10
"""Every amount on a line is a multiple of 10 (R3)."""
HAND_LIMIT = 100
"""A seat puts at most 100 points on the two lines together in one hand (R3)."""
HANDS_PER_SESSION = 5
"""A session completes after five resolved hands (R20)."""
THROW_CAP = 128
"""A session has at most 128 throws (R22)."""
MIN_SEATS = 1
"""A table has 1 to 8 seats; solo is one seat (R1)."""
MAX_SEATS = 8
ONLINE_SEATS_MIN = 2
"""An online room starts with at least 2 signed-in people (the card: exactly 2-8)."""
ONLINE_SEATS_MAX = MAX_SEATS
"""An online room holds at most 8 people, one seat each."""
ONLINE_TABLE_ID_MAX = 128
"""An online table id is a string of 1 to 128 characters (``net.messages`` and the protocol's
``Peer`` refuse any other); the kernel itself takes any Unicode text."""
CREATOR_SEAT = 0
"""The relay seats an online room's creator at seat 0 of its roster (``net.rooms``; the online
window marks the creator by it)."""
POINT_NUMBERS = frozenset({4, 5, 6, 8, 9, 10})
"""Totals that become the point on the come-out (R11)."""


_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


_ORDINALS = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def ordinal(number: int) -> str:
    """``number`` as an ordinal word up to eighth ("the fifth hand"), else "128th"."""
    if 0 <= number < len(_ORDINALS):
        return _ORDINALS[number]
    last = 0 if number % 100 in (11, 12, 13) else number % 10
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(last, "th")
    return f"{number}{suffix}"


def spelled(number: int) -> str:
    """``number`` as a sentence writes it: a word up to ten ("five hands"), else its digits
    ("128 throws"), so a sentence about a rule is built from the rule's constant."""
    return _WORDS[number] if 0 <= number < len(_WORDS) else str(number)


def is_online_seat_count(people: int) -> bool:
    """Whether an online room of ``people`` may start: 2 to 8, the one place this is decided."""
    return type(people) is int and ONLINE_SEATS_MIN <= people <= ONLINE_SEATS_MAX


class Line(Enum):
    """One of the two lines a seat may put points on."""

    PASS = "pass"
    DONT_PASS = "dont_pass"


class Phase(Enum):
    """Where the table is in the session.

    ``COME_OUT`` and ``POINT`` are live; ``COMPLETE`` has a result; ``ENDED`` ended without one.
    """

    COME_OUT = "come_out"
    POINT = "point"
    COMPLETE = "complete"
    ENDED = "ended"


class Outcome(Enum):
    """How one line settles on a deciding throw."""

    WIN = "win"
    LOSS = "loss"
    PUSH = "push"


class EndReason(Enum):
    """Why a session ended without a result (R23)."""

    THROW_CAP = "throw_cap"
    DEPARTURE = "departure"
    BACKGROUND = "background"
    BAD_REVEAL = "bad_reveal"
    DEADLINE = "deadline"
    BAD_SIGNATURE = "bad_signature"
    REPLAY = "replay"
    NON_MEMBER = "non_member"
    MALFORMED = "malformed"


ABORT_REASONS = frozenset(EndReason) - {EndReason.THROW_CAP}
"""Reasons a caller may give in an ``Abort``; the throw cap is reached only by throwing (R22)."""


class EndingWords(NamedTuple):
    """The words for one reason a session ended without a result, in the two forms a
    sentence needs."""

    clause: str
    """A statement of its own: "a player left" (the app's "No result: a player left")."""
    cause: str
    """What happened, for a seat to follow: "a departure" ("a departure from Seat 2")."""


ENDING_WORDS: Final[Mapping[EndReason, EndingWords]] = MappingProxyType(
    {
        EndReason.THROW_CAP: EndingWords(
            f"{THROW_CAP} throws reached before the {ordinal(HANDS_PER_SESSION)} hand resolved",
            "the throw limit was reached",
        ),
        EndReason.DEPARTURE: EndingWords("a player left", "a departure"),
        EndReason.BACKGROUND: EndingWords(
            "the app went to the background", "the app going to the background"
        ),
        EndReason.BAD_REVEAL: EndingWords(
            "a reveal did not match its commitment", "a reveal that does not match its commitment"
        ),
        EndReason.DEADLINE: EndingWords("a deadline passed", "a missed deadline"),
        EndReason.BAD_SIGNATURE: EndingWords("a message had a bad signature", "a bad signature"),
        EndReason.REPLAY: EndingWords(
            "a message was replayed", "a replayed or out-of-order message"
        ),
        EndReason.NON_MEMBER: EndingWords(
            "a message came from outside the room", "a message from a seat not in the room"
        ),
        EndReason.MALFORMED: EndingWords("a message was malformed", "a malformed message"),
    }
)
"""The one table of ending words, for every layer above the kernel: the app's history, result
view, announcements and stats say the ``clause`` (solo too, with no networking code loaded);
``net.events.ending_text`` (online endings, receipts, ``pointline verify``) the ``cause``."""


RETURNED_MULTIPLE = {Outcome.WIN: 2, Outcome.PUSH: 1, Outcome.LOSS: 0}
"""What a settled line gives back, as a multiple of its contract (R16)."""
NET_MULTIPLE = {Outcome.WIN: 1, Outcome.PUSH: 0, Outcome.LOSS: -1}
"""A settled line's net, as a multiple of its contract (R16)."""
