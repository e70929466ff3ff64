"""The cluster's directory in Redis (``pointline-relay --presence redis://...``).

Each room lives in exactly one relay process; Redis says which (the model of Colyseus's
presence). Keys, all under ``prefix``:

- ``relay:<id>`` -> ``{"url": public url, "load": seats in rooms}``, with a TTL;
- ``room:<CODE>`` -> the owning relay's public url, with the same TTL.

A relay writes both in one pipelined round trip per heartbeat (every ``ttl / 3`` seconds) and
reads the other relays' entries in the same beat; a relay that dies stops heart-beating, so
its entries vanish within ``ttl`` and new rooms go to the relays that are left at once (the
client of a dead relay's redirect falls back to the relay it asked). A room's code is claimed
with ``SET NX`` so two relays never hand out the same code. After Redis comes back (perhaps
empty), the heartbeat writes everything again at once (``heartbeat``). Uses the ``redis``
package's asyncio client (Redis or Valkey).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from pointline.net.relay._cluster import DEFAULT_TTL, PresenceUnavailable
from pointline.net.relay._store import Outage

__all__ = ["REDIRECT_MARGIN", "Peer", "Presence", "heartbeat"]

log = logging.getLogger("pointline.relay")

REDIRECT_MARGIN: Final = 8
"""A new room goes to another relay only when that one holds at least a full table fewer
seats: loads that differ less are not worth the client's reconnect (and two relays with
slightly stale views never send a request back and forth)."""
RETRY: Final = 0.5
"""Seconds between two heartbeats while Redis cannot be reached."""
MAX_REQUESTS: Final = 32
"""Requests to Redis one relay has in flight at once (redis-py's pool holds 100)."""


@dataclass(frozen=True, slots=True)
class Peer:
    """Another live relay as the last heartbeat saw it."""

    relay_id: str
    url: str
    load: int


def _where(url: str) -> str:
    """``host:port`` of a ``redis://`` URL (never its password)."""
    parts = urlsplit(url)
    return f"{parts.hostname or 'localhost'}:{parts.port or 6379}"


class Presence:
    """One relay's view of, and entry in, the cluster directory."""

    def __init__(
        self,
        url: str,
        public_url: str,
        ttl: float = DEFAULT_TTL,
        prefix: str = "pointline:",
        relay_id: str | None = None,
    ) -> None:
        self.public_url = public_url
        self.ttl = ttl
        self.prefix = prefix
        self.relay_id = relay_id or secrets.token_hex(6)
        timeout = max(0.5, min(2.0, ttl / 3))
        self.redis: aioredis.Redis = aioredis.from_url(
            url, socket_timeout=timeout, socket_connect_timeout=timeout, decode_responses=True
        )
        self.peers: dict[str, Peer] = {}
        self.round_trips = 0
        """Round trips to Redis for requests (claim, lookup, release): per join, in the bench."""
        self.heartbeat_round_trips = 0
        """Round trips of the heartbeats (write, scan, read): every ``ttl / 3`` s, whatever
        the traffic."""
        self.outage = Outage(f"the room directory (Redis at {_where(url)})")
        self.wake = asyncio.Event()
        """Set when an outage starts or ends: the heartbeat beats at once (and then every
        ``RETRY`` seconds while Redis is away)."""
        self._slots = asyncio.Semaphore(MAX_REQUESTS)
        """Requests at once: more wait their turn (many rooms closing together would
        otherwise exhaust redis-py's pool of 100 connections and fail)."""

    @property
    def _ttl_ms(self) -> int:
        return max(1, round(self.ttl * 1000))

    def _key(self, kind: str, name: str) -> str:
        return f"{self.prefix}{kind}:{name}"

    async def _do(self, what: str, fn: Callable[[], Any], trips: int = 1) -> Any:
        if what == "heartbeat":
            self.heartbeat_round_trips += trips
        else:
            self.round_trips += trips
        try:
            async with self._slots:
                result = await fn()
        except (RedisError, OSError) as exc:
            if self.outage.failed(exc):
                self.wake.set()
            raise PresenceUnavailable(f"{what}: {exc}") from None
        if self.outage.answered():
            self.wake.set()
        return result

    @property
    def available(self) -> bool:
        """Whether Redis answered the last request."""
        return not self.outage.down

    async def beat(self, load: int, codes: Iterable[str]) -> None:
        """Write this relay's entry and its rooms' entries, and read every other relay's."""
        entry = json.dumps({"url": self.public_url, "load": load})
        pattern = self._key("relay", "*")

        async def run() -> list[Peer]:
            pipe = self.redis.pipeline(transaction=False)
            pipe.set(self._key("relay", self.relay_id), entry, px=self._ttl_ms)
            for code in codes:
                pipe.set(self._key("room", code), self.public_url, px=self._ttl_ms)
            await pipe.execute()
            keys = [k async for k in self.redis.scan_iter(match=pattern, count=100)]
            values = await self.redis.mget(keys) if keys else []
            peers = []
            for key, value in zip(keys, values, strict=True):
                relay_id = key.rsplit(":", 1)[1]
                if value is None or relay_id == self.relay_id:
                    continue
                with contextlib.suppress(ValueError, KeyError, TypeError):
                    doc = json.loads(value)
                    peers.append(Peer(relay_id, str(doc["url"]), int(doc["load"])))
            return peers

        peers = await self._do("heartbeat", run, 3)
        self.peers = {p.relay_id: p for p in peers}

    async def claim(self, code: str) -> bool:
        """Take ``code`` for a room here; False when another relay holds it."""
        key = self._key("room", code)
        got = await self._do(
            "claim", lambda: self.redis.set(key, self.public_url, nx=True, px=self._ttl_ms)
        )
        return bool(got)

    async def release(self, code: str) -> None:
        """The room is gone: drop its entry (only if it is still ours)."""
        key = self._key("room", code)

        async def run() -> None:
            if await self.redis.get(key) == self.public_url:
                await self.redis.delete(key)

        with contextlib.suppress(PresenceUnavailable):  # it expires within the TTL anyway
            await self._do("release", run, 2)

    async def owner(self, code: str) -> str | None:
        """The public url of the relay that holds room ``code``, or None."""
        value = await self._do("lookup", lambda: self.redis.get(self._key("room", code)))
        return None if value is None else str(value)

    def least_loaded(self, own_load: int) -> str | None:
        """Where a new room should go: another relay's url when it holds at least
        ``REDIRECT_MARGIN`` seats fewer than this one (by the last heartbeat), else None (here).
        The chosen relay's load is raised locally by a table, so a burst of new rooms between
        two heartbeats spreads instead of piling onto one relay."""
        if not self.available or not self.peers:
            return None
        best = min(self.peers.values(), key=lambda p: (p.load, p.relay_id))
        if best.load + REDIRECT_MARGIN > own_load:
            return None
        self.peers[best.relay_id] = Peer(best.relay_id, best.url, best.load + REDIRECT_MARGIN)
        return best.url

    async def leave(self, codes: Iterable[str] = ()) -> None:
        """A clean shutdown: remove this relay's entry and its rooms' entries at once."""
        keys = [self._key("relay", self.relay_id), *(self._key("room", c) for c in codes)]
        with contextlib.suppress(PresenceUnavailable):
            await self._do("leave", lambda: self.redis.delete(*keys))

    async def close(self) -> None:
        await self.redis.aclose()


async def heartbeat(
    presence: Presence, load: Callable[[], int], codes: Callable[[], list[str]]
) -> None:
    """Beat every ``ttl / 3`` seconds until cancelled. Once any request finds Redis away, a beat
    is tried every ``RETRY`` seconds, and a request that finds it back wakes the heartbeat at
    once: after an outage (a Redis that comes back empty) this relay's rooms are listed again
    as soon as Redis answers, not a whole period later."""
    period = presence.ttl / 3
    while True:
        presence.wake.clear()
        with contextlib.suppress(PresenceUnavailable):
            await presence.beat(load(), codes())
        presence.wake.clear()  # a change seen by this beat itself: it acted on it
        wait = period if presence.available else min(period, RETRY)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(presence.wake.wait(), wait)
