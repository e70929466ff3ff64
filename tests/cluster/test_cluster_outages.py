"""Outages of the cluster's servers, with the real ones (issue 37, D3 and D5): a relay lists its
rooms again as soon as Redis answers after coming back empty, and each outage of Redis or
PostgreSQL and its end are logged once, in plain words."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bench.servers import PostgresServer, RedisServer
from pointline.net.relay._cluster import PresenceUnavailable
from pointline.net.relay._presence import Presence, heartbeat
from pointline.net.relay._store import StoreUnavailable
from pointline.net.relay._store_pg import PostgresDatabase
from tests.net.support import run

CODE = "M8HHFE"
DRIVER_WORDS = ("Error 111", "Connect call failed", "errno", "Errno", "connection refused")


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "pointline.relay" and r.levelno >= logging.WARNING
    ]


def test_a_relay_lists_its_rooms_again_as_soon_as_redis_answers(
    own_redis: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="pointline.relay")

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        # a period of 10 s: a re-registration "at the next heartbeat" would take that long
        owner = Presence(own_redis.url, "ws://a.example:1", ttl=30.0)
        other = Presence(own_redis.url, "ws://b.example:1", ttl=30.0)
        beating = asyncio.create_task(heartbeat(owner, lambda: 2, lambda: [CODE]))
        try:
            async with asyncio.timeout(5):
                while await other.owner(CODE) is None:
                    await asyncio.sleep(0.05)
            own_redis.kill()
            with pytest.raises(PresenceUnavailable):
                await owner.owner("ZZZZZZ")  # a join through this relay finds Redis away
            own_redis.start()  # empty: no relay, no room
            began = loop.time()
            found = None
            while found is None and loop.time() - began < 8.0:
                try:
                    found = await other.owner(CODE)
                except PresenceUnavailable:
                    found = None
                if found is None:
                    await asyncio.sleep(0.05)
            took = loop.time() - began
            assert found == "ws://a.example:1"
            assert took < 3.0, f"listed again {took:.1f} s after Redis came back"
            async with asyncio.timeout(5):  # the beat that wrote it has finished
                while not owner.available:
                    await asyncio.sleep(0.05)
        finally:
            beating.cancel()
            await owner.close()
            await other.close()

    run(scenario(), 40)
    said = _warnings(caplog)
    where = f"the room directory (Redis at 127.0.0.1:{own_redis.port})"
    assert said[:2] == [
        f"{where} cannot be reached; the relay keeps running and asks players to try again",
        f"{where} answers again",
    ]
    assert not [line for line in said if any(w in line for w in DRIVER_WORDS)]


def test_each_postgresql_outage_and_its_end_is_logged_once_in_plain_words(
    own_postgres: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="pointline.relay")
    db = PostgresDatabase(own_postgres.new_database(), connect_timeout=1.0)
    try:
        assert db.one("SELECT 1") == (1,)
        assert _warnings(caplog) == []
        own_postgres.kill()
        for _ in range(3):  # every request meanwhile fails; the outage is said once
            with pytest.raises(StoreUnavailable):
                db.one("SELECT 1")
        own_postgres.start()
        assert db.one("SELECT 1") == (1,)
        assert db.one("SELECT 2") == (2,)
    finally:
        db.close()
    said = _warnings(caplog)
    assert said == [
        f"the accounts database ({db.label}) cannot be reached; the relay keeps running and "
        "asks players to try again",
        f"the accounts database ({db.label}) answers again",
    ]
    assert "password" not in " ".join(said)
