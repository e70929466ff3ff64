"""Fixtures for the cluster tests: real Redis and PostgreSQL servers (``servers.py``), relays
in this process or as their own processes (to be killed with ``kill -9``).

One Redis and one PostgreSQL serve the whole session; each test gets an empty database and an
empty Redis. A test that kills a server starts its own (``own_redis``, ``own_postgres``).
Deadlines are short (a presence TTL of ``TTL`` seconds) so the file runs in well under a minute.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pointline.net.accounts import FAST_HASH
from pointline.net.cluster import ClusterConfig
from pointline.net.relay import LOOPBACK_TESTS, RelayConfig, RunningRelay, running_relay
from tests.cluster.servers import (
    PostgresServer,
    RedisServer,
    child_env,
    missing,
    postgres_server,
    redis_server,
)
from tests.net.support import data_dir  # noqa: F401  (transcripts in a private folder)

TTL = 1.5
ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True)
class Backends:
    store: str  # postgresql://...
    presence: str  # redis://...


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


def relay_config(**changes: Any) -> RelayConfig:
    return RelayConfig(hash_params=FAST_HASH, **{**LOOPBACK_TESTS, **changes})


@contextlib.asynccontextmanager
async def relays(
    tmp_path: Path, backends: Backends, count: int, **changes: Any
) -> AsyncIterator[list[RunningRelay]]:
    """``count`` relays of one cluster in this process (each its own server and port)."""
    cluster = ClusterConfig(backends.store, backends.presence, None, TTL)
    async with contextlib.AsyncExitStack() as stack:
        running = [
            await stack.enter_async_context(
                running_relay(
                    tmp_path / f"unused{i}.sqlite3", config=relay_config(**changes), cluster=cluster
                )
            )
            for i in range(count)
        ]
        await until(
            lambda: all(
                len(r.relay.router.presence.peers) == count - 1
                for r in running
                if r.relay.router is not None
            )
        )
        yield running


async def until(condition: Any, timeout: float = 10.0, what: str = "the condition") -> None:
    """Wait (polling) until ``condition()`` holds; fail after ``timeout`` seconds."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.02)


class RelayProcess:
    """``pointline-relay`` as its own process, as an operator runs it (``kill()``: kill -9)."""

    def __init__(self, backends: Backends, *flags: str) -> None:
        command = [sys.executable, "-m", "pointline.net.relay", "--port", "0"]
        command += ["--store", backends.store, "--presence", backends.presence]
        command += ["--presence-ttl", str(TTL), "--hash-time-cost", "1", "--hash-memory", "1024"]
        command += ["--connections-per-address", "10000", "--auth-per-address", "100000"]
        env = child_env()
        self.proc = subprocess.Popen(
            [*command, *flags],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()  # "pointline-relay listening on ws://... (...)"
        if "listening on" not in line:
            self.proc.kill()
            raise RuntimeError(f"the relay did not start: {line!r} {self.proc.stderr.read()!r}")
        self.url = line.split("listening on ", 1)[1].split()[0]
        self.line = line

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@contextlib.contextmanager
def relay_processes(backends: Backends, count: int) -> Iterator[list[RelayProcess]]:
    started: list[RelayProcess] = []
    try:
        for _ in range(count):
            started.append(RelayProcess(backends))
        yield started
    finally:
        for relay in started:
            relay.stop()
