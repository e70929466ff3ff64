"""Relays as a cluster: the settings, and where a new or joined room goes.

Design (spec/ONLINE.md, "Relay cluster"): each room lives in exactly one relay process, and
a request for a room elsewhere is answered with a ``redirect`` to that relay; the client
reconnects there with its token and asks again (Colyseus's two-step seat reservation). Frames
of a room never cross Redis: it holds only the directory (``net.relay._presence``), so a session's
round trips are exactly those of a single relay.

``Router`` decides, for one relay: a ``create_room`` goes to the least-loaded live relay
(another one only when it holds a full table fewer seats); a ``join_room`` for a code that is
not here goes to the relay the directory names. A connection is never sent to the same relay
twice for the same kind of request: when it comes back (that relay could not be reached),
its room is made here, or its join is answered "that room's relay cannot be reached".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar, Final, Protocol

from pointline.net.protocol._wire import ErrorCode
from pointline.net.relay._rooms import RoomError, normalize_code
from pointline.net.relay._store import Unavailable

__all__ = [
    "DEFAULT_TTL",
    "ClusterConfig",
    "Directory",
    "PresenceUnavailable",
    "Redirects",
    "Router",
]

DEFAULT_TTL: Final = 10.0


class PresenceUnavailable(Unavailable):
    """Redis cannot be reached now: rooms on other relays cannot be found."""

    what: ClassVar[str] = "the room directory"


@dataclass(frozen=True, slots=True)
class ClusterConfig:
    """``--store``, ``--presence``, ``--public-url``, ``--presence-ttl``; all None: one relay
    on its SQLite file, exactly as without a cluster."""

    store: str | None = None  # postgresql://... : accounts, tokens, relay key, sign-in limits
    presence: str | None = None  # redis://... : which relay holds which room
    public_url: str | None = None  # how clients reach this relay (default: the bound address)
    presence_ttl: float = DEFAULT_TTL  # seconds a dead relay's rooms stay in the directory


@dataclass(slots=True)
class Redirects:
    """Where one connection was sent already (per request kind)."""

    create: set[str] = field(default_factory=set)
    join: set[str] = field(default_factory=set)


class Directory(Protocol):
    """What routing asks of the cluster's directory: ``net.relay._presence.Presence`` in Redis
    (imported only when a cluster runs: the redis client is the cluster extra)."""

    public_url: str

    async def claim(self, code: str) -> bool: ...
    async def release(self, code: str) -> None: ...
    async def owner(self, code: str) -> str | None: ...
    def least_loaded(self, own_load: int) -> str | None: ...


class Router:
    """One relay's routing decisions over the shared directory."""

    def __init__(self, presence: Directory) -> None:
        self.presence = presence
        self.redirected = 0

    async def claim_code(self, pick: Callable[[], str]) -> str:
        """A join code (from ``pick``) claimed for a new room here. Redis unreachable: the
        code is used anyway (rooms here keep working; other relays find it once the directory
        is back)."""
        for _ in range(8):
            code = pick()
            try:
                if await self.presence.claim(code):
                    return code
            except PresenceUnavailable:
                return code
        raise RoomError(ErrorCode.BUSY, "no free room code right now; try again")

    def for_create(self, sent: Redirects, own_load: int) -> str | None:
        """The url to send a new room to, or None: here."""
        url = self.presence.least_loaded(own_load)
        if url is None or url in sent.create or url == self.presence.public_url:
            return None
        sent.create.add(url)
        self.redirected += 1
        return url

    async def for_join(self, sent: Redirects, code: str) -> str | None:
        """The url of the relay holding room ``code`` (not here), or None: no such room."""
        url = await self.presence.owner(normalize_code(code))
        if url is None or url == self.presence.public_url:
            return None
        if url in sent.join:
            raise RoomError(
                ErrorCode.NO_ROOM,
                "the relay holding that room cannot be reached now; ask for a new code",
            )
        sent.join.add(url)
        self.redirected += 1
        return url
