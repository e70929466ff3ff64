"""The events a ``net.client._relay_client.RelayClient`` adds to its protocol ``Peer``'s (which pass
through unchanged): the room's roster, the start, a departure, the relay's own errors, the
connection's end and the transcript's. ``net.client._relay_client`` re-exports every name.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

from pointline.net.protocol._events import Event, host_closed_text
from pointline.net.protocol._wire import RosterEntry

__all__ = [
    "ClientEvent",
    "Disconnected",
    "MemberDeparted",
    "RelayError",
    "RosterChanged",
    "SessionStarted",
    "TableClosed",
    "TranscriptFailed",
    "TranscriptSaved",
]


@dataclass(frozen=True, slots=True)
class RosterChanged:
    code: str
    creator: str
    roster: tuple[RosterEntry, ...]


@dataclass(frozen=True, slots=True)
class SessionStarted:
    code: str
    table_id: str
    seat: int
    roster: tuple[RosterEntry, ...]
    transcript_path: Path


@dataclass(frozen=True, slots=True)
class MemberDeparted:
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class RelayError:
    """An error the relay sent outside a request (rate limit, room closed, ...)."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Disconnected:
    """The connection to the relay is gone."""

    reason: str


GOING_AWAY = 1001
"""The close code of a relay that stops (ONLINE.md §9 R11)."""


@dataclass(frozen=True, slots=True)
class TableClosed:
    """The relay closed the connection with 1001 (going away): it is stopping. ``host`` is a
    hosted table's host (its relay stops when the host closes the table), None for a club
    relay. Comes just before ``Disconnected``."""

    host: str | None

    @property
    def text(self) -> str:
        if self.host is not None:
            return f"{host_closed_text(self.host)}."
        return "The relay stopped (its operator shut it down): sign in again when it is back."


@dataclass(frozen=True, slots=True)
class TranscriptSaved:
    """The session is over and its transcript is complete at ``path``."""

    path: Path


@dataclass(frozen=True, slots=True)
class TranscriptFailed:
    """The transcript could not be written (``reason``, plain words): the session ended, and
    the records written before the error are kept at ``path``."""

    path: Path
    reason: str


ClientEvent: TypeAlias = (
    (Event | RosterChanged | SessionStarted | MemberDeparted | RelayError | Disconnected)
    | TableClosed
    | TranscriptSaved
    | TranscriptFailed
)
