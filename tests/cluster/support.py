"""Helpers shared by the cluster tests (a plain module: test files import it, never conftest):
the cluster's backends, relays in this process or as their own processes (to be killed with
``kill -9``), a poll with a deadline, and signed-in clients playing whole sessions.

Deadlines are short (a presence TTL of ``TTL`` seconds) so the files run in well under a minute.
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

from bench.servers import child_env
from pointline.net.client._relay_client import RelayClient
from pointline.net.relay._cluster import ClusterConfig
from pointline.net.relay._server import RunningRelay, running_relay
from tests.net.support import (
    PASSWORD,
    RELAXED,
    assert_complete,
    play,
    random_chooser,
    relay_config,
    start_room,
    until,
)

TTL = 1.5
ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True)
class Backends:
    store: str  # postgresql://...
    presence: str  # redis://...


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


names = iter(range(10**6))
"""Numbers for unique account names across the tests of one run."""


async def signed_in(url: str, name: str | None = None) -> RelayClient:
    client = await RelayClient.connect(url, timeouts=RELAXED)
    await client.signup(name or f"cl{next(names)}", PASSWORD)
    return client


async def whole_session(clients: list[RelayClient], started: bool = False) -> None:
    if not started:
        await start_room(clients)
    peers = await asyncio.gather(
        *(play(c, random_chooser(i)) for i, c in enumerate(clients)), return_exceptions=False
    )
    for c in clients:
        await c.close()
    assert_complete(clients, list(peers))
