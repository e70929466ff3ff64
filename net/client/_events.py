"""The events a ``net.client._relay_client.RelayClient`` adds to its protocol ``Peer``'s (which pass
through unchanged): the room's roster, the start, a departure, the relay's own errors, the
connection's end and the transcript's. ``net.client._relay_client`` re-exports every name.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

from pointline.net.protocol._events import Event
from pointline.net.protocol._wire import RosterEntry

__all__ = [
    "ClientEvent",
    "Disconnected",
    "MemberDeparted",
    "RelayError",
    "RosterChanged",
    "SessionStarted",
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
    | TranscriptSaved
    | TranscriptFailed
)
