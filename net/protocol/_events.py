"""What a protocol ``Peer`` reports: its settings, its steps and its events, and the plain
words for an ending (seats counted from 1). ``net.protocol._peer`` re-exports every name.

``ENDING_WORDS`` and ``EndingWords`` are the kernel's (``kernel.values``, beside ``EndReason``),
named here too for the callers that found them here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Union

from pointline.kernel import ENDING_WORDS, Choice, EndingWords, EndReason, Phase, Result

__all__ = [
    "ENDING_WORDS",
    "AllCommitted",
    "DeadlineKind",
    "EndingWords",
    "Event",
    "HandResolved",
    "ReceiptStatus",
    "ReceiptsIncomplete",
    "ReceiptsMatched",
    "ReceiptsMismatch",
    "Revealed",
    "RoundOpened",
    "SessionComplete",
    "SessionEnded",
    "Step",
    "ThrowCommitted",
    "Thrown",
    "Timeouts",
    "ending_text",
    "host_closed_text",
    "named_host",
    "seat_label",
]

# ---------------------------------------------------------------------------- settings


@dataclass(frozen=True, slots=True)
class Timeouts:
    """Deadlines in seconds (the card's values by default; tests make them short)."""

    confirm: float = 45.0
    response: float = 10.0
    session: float = 600.0
    receipts: float = 8.0

    def to_document(self) -> dict[str, float]:
        return {
            "confirm": self.confirm,
            "response": self.response,
            "session": self.session,
            "receipts": self.receipts,
        }


class Step(Enum):
    """What the peer is doing: the first three are live, the last two final."""

    COMMIT = "commit"
    REVEAL = "reveal"
    RECEIPTS = "receipts"
    COMPLETE = "complete"
    ENDED = "ended"


class DeadlineKind(Enum):
    """Which deadline the countdown shows."""

    CONFIRM = "confirm"
    RESPONSE = "response"
    RECEIPTS = "receipts"


class ReceiptStatus(Enum):
    MATCHED = "matched"
    MISMATCH = "mismatch"
    INCOMPLETE = "incomplete"


# ---------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class RoundOpened:
    """Throw ``throw`` waits for every seat's commit until ``deadline``."""

    throw: int
    deadline: float


@dataclass(frozen=True, slots=True)
class ThrowCommitted:
    seat: int
    throw: int


@dataclass(frozen=True, slots=True)
class AllCommitted:
    throw: int


@dataclass(frozen=True, slots=True)
class Revealed:
    seat: int
    throw: int
    choice: Choice


@dataclass(frozen=True, slots=True)
class Thrown:
    """The dice of throw ``throw``, applied to the table after every seat's choices."""

    throw: int
    die1: int
    die2: int
    total: int
    phase: Phase
    point: int | None


@dataclass(frozen=True, slots=True)
class HandResolved:
    hands_resolved: int


@dataclass(frozen=True, slots=True)
class SessionComplete:
    result: Result


@dataclass(frozen=True, slots=True)
class SessionEnded:
    """The session ended without a result.

    ``seat`` is the seat the reason names (or none); ``reporter`` the seat that found the fault
    (this peer's own seat, or the sender of the abort notice it received); ``proven`` is True
    only when this peer's transcript holds the signed evidence of the fault (the rejected
    frame, or a reveal against its signed commitment), False when it was only reported or
    observed (a deadline, a departure). ``accused`` is set when another seat's notice accused
    a seat this peer cannot convict from what it holds: the ending then names the reporter
    (``seat`` is the reporter) and the accusation stands only as reported, never proven.
    Seats count from 0 here; ``text`` (``ending_text``) counts from 1. Equality compares what
    ended (reason and seat): honest peers agree on it even when each reports it from its own
    view.
    """

    reason: EndReason
    seat: int | None
    reporter: int | None = field(default=None, compare=False)
    proven: bool = field(default=False, compare=False)
    accused: int | None = field(default=None, compare=False)
    host: str | None = field(default=None, compare=False)
    """A hosted table's host, set (``named_host``) only when this is the departure of the seat
    the signed roster names as host: then the words are "hostana closed the table"."""

    @property
    def text(self) -> str:
        """Plain words for people, seats counted from 1 (``ending_text``)."""
        if self.host is not None and self.reason is EndReason.DEPARTURE:
            return host_closed_text(self.host)
        return ending_text(self.reason, self.seat, self.reporter, self.proven, self.accused)


def host_closed_text(host: str) -> str:
    """How a hosted table's end by its host reads: the host's departure, or the host's relay
    going away (issue 41)."""
    return f"{host} closed the table"


def named_host(event: SessionEnded, host: str | None, host_seat: int | None) -> SessionEnded:
    """``event`` saying the host closed the table when it is the departure of ``host_seat``
    (the seat whose roster name is the signed ``host``); otherwise ``event`` unchanged. Derived
    from records that exist (the departure, the roster, the header's ``host``): no new record."""
    if host is None or event.reason is not EndReason.DEPARTURE or event.seat != host_seat:
        return event
    return SessionEnded(
        event.reason, event.seat, event.reporter, event.proven, event.accused, host=host
    )


def seat_label(seat: int) -> str:
    """How people read a seat: "Seat 1" to "Seat 8" (the protocol's 0-based index + 1).

    The one numbering for people: the app's screens, the results and ``pointline verify``'s
    words all use it; frames and transcripts keep the 0-based index.
    """
    return f"Seat {seat + 1}"


def ending_text(
    reason: EndReason,
    seat: int | None,
    reporter: int | None,
    proven: bool,
    accused: int | None = None,
) -> str:
    """Plain words for an ending, seats counted from 1 (protocol seats count from 0).

    "Seat 4 reported a bad signature from Seat 1" when another seat only reported it;
    "a bad signature from Seat 1 (proven)" when the signed evidence is in the transcript;
    "Seat 4 reported a bad signature from Seat 1; not proven" when the ending names the
    reporter of an accusation (``accused``) nobody else could check; "a departure from Seat 4,
    reported by that seat itself" when the seat named is the one that reported it (its own
    departure, its app going to the background).
    """
    what = ENDING_WORDS[reason].cause
    if reason is EndReason.THROW_CAP:
        return what
    if accused is not None and reporter is not None:
        return f"{seat_label(reporter)} reported {what} from {seat_label(accused)}; not proven"
    source = f" from {seat_label(seat)}" if seat is not None else ""
    if proven:
        return f"{what}{source} (proven)"
    if seat is not None and seat == reporter:
        return f"{what}{source}, reported by that seat itself"
    if reporter is not None:
        return f"{seat_label(reporter)} reported {what}{source}"
    return f"{what}{source} (reported)"


@dataclass(frozen=True, slots=True)
class ReceiptsMatched:
    count: int


@dataclass(frozen=True, slots=True)
class ReceiptsMismatch:
    """Seats whose receipt differs from this peer's (final points or digest)."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ReceiptsIncomplete:
    """The receipt exchange stopped (deadline, departure, bad message); the result stands."""

    reason: EndReason
    seat: int | None


Event = Union[  # noqa: UP007 - a runtime alias
    RoundOpened,
    ThrowCommitted,
    AllCommitted,
    Revealed,
    Thrown,
    HandResolved,
    SessionComplete,
    SessionEnded,
    ReceiptsMatched,
    ReceiptsMismatch,
    ReceiptsIncomplete,
]
