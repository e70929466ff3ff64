"""Fixtures for the cluster tests: real Redis and PostgreSQL servers (``bench/servers.py``); the
helpers the tests share are in ``support.py``.

One Redis and one PostgreSQL serve the whole session; each test gets an empty database and an
empty Redis. A test that kills a server starts its own (``own_redis``, ``own_postgres``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from bench.servers import (
    PostgresServer,
    RedisServer,
    missing,
    postgres_server,
    redis_server,
)
from tests.cluster.support import Backends
from tests.net.support import data_dir  # noqa: F401  (transcripts in a private folder)


def _need_servers() -> None:
    reason = missing()
    if reason is not None:  # CI installs both (.ci/run): missing servers are a failure
        pytest.fail(f"the cluster tests need real servers: {reason}")


@pytest.fixture(scope="session")
def shared_redis() -> Iterator[RedisServer]:
    _need_servers()
    with redis_server() as server:
        yield server


@pytest.fixture(scope="session")
def shared_postgres() -> Iterator[PostgresServer]:
    _need_servers()
    with postgres_server() as server:
        yield server


@pytest.fixture
def backends(shared_redis: RedisServer, shared_postgres: PostgresServer) -> Backends:
    """An empty PostgreSQL database and an empty Redis for this test."""
    import redis

    with contextlib.closing(redis.Redis.from_url(shared_redis.url)) as client:
        client.flushall()
    return Backends(shared_postgres.new_database(), shared_redis.url)


@pytest.fixture
def own_redis() -> Iterator[RedisServer]:
    _need_servers()
    with redis_server() as server:
        yield server


@pytest.fixture
def own_postgres() -> Iterator[PostgresServer]:
    _need_servers()
    with postgres_server() as server:
        yield server
