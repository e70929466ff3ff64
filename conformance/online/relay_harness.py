"""The relay cases' runner (HARNESS.md, "The relay cases"): start a relay by its command line,
read its public key from standard output's first line, and check it with the cases of
``relay_cases`` over real websockets. ``harness.py --relay "COMMAND"`` calls ``run_relay``;
without ``--relay`` the default run checks the reference relay (``REFERENCE_RELAY``).

The relay's command line is ``COMMAND --port PORT --data FOLDER --test-profile``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import socket
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Final

from pointline.conformance.online.relay_cases import (
    RELAY_CASES,
    Refused,
    RelayCase,
    Scene,
    Setting,
)

__all__ = ["REFERENCE_RELAY", "relay_command", "run_relay"]

REFERENCE_RELAY: Final = [sys.executable, "-m", "pointline.net.relay"]
STARTUP: Final = 30.0
"""Seconds a relay may take to print its key and accept connections."""
AT_ONCE: Final = 4
"""Cases run at once (each on its own sockets and accounts)."""
_KEY: Final = re.compile(r"[0-9a-f]{64}")


def relay_command(command: list[str], port: int, data: Path) -> list[str]:
    """HARNESS.md's relay command line."""
    return [*command, "--port", str(port), "--data", str(data), "--test-profile"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _listening(port: int, limit: float) -> bool:
    loop = asyncio.get_running_loop()
    until = loop.time() + limit
    while loop.time() < until:
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return True
        await asyncio.sleep(0.05)
    return False


async def _one(case: RelayCase, setting: Setting, slots: asyncio.Semaphore) -> str | None:
    async with slots:
        scene = Scene(setting)
        try:
            async with asyncio.timeout(case.limit):
                await case.run(scene)
        except Refused as exc:
            return exc.text
        except TimeoutError:
            return f"the case did not finish within {case.limit:g} s"
        except Exception as exc:  # a relay's frame no case foresaw: the case fails
            return f"{type(exc).__name__}: {exc}"
        finally:
            await scene.close()
    return None


def _print(line: str) -> None:
    print(line, flush=True)


class _Process:
    """The relay under test: started, read for its key, stopped, started again."""

    def __init__(
        self,
        command: list[str],
        port: int,
        data: Path,
        log: Path,
        starts: asyncio.Semaphore | None = None,
    ) -> None:
        self.args = relay_command(command, port, data)
        self.port = port
        self.log = log
        self.starts = starts
        """Shared by relays started side by side (the mutants): a start's deadline counts its
        own start, not the queue of two dozen Pythons importing at once on two cores."""
        self.proc: asyncio.subprocess.Process | None = None
        self.drain: asyncio.Task[bytes] | None = None

    async def start(self) -> tuple[str, str | None]:
        """(its key, what is wrong with its start or None)."""
        if self.starts is None:
            return await self._start()
        async with self.starts:
            return await self._start()

    async def _start(self) -> tuple[str, str | None]:
        with self.log.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                *self.args,
                stdout=asyncio.subprocess.PIPE,
                stderr=log,
                stdin=asyncio.subprocess.DEVNULL,
            )
        assert self.proc.stdout is not None
        try:
            first = await asyncio.wait_for(self.proc.stdout.readline(), STARTUP)
        except TimeoutError:
            first = b""
        key = first.decode("utf-8", "replace").strip()
        if not _KEY.fullmatch(key):
            return key, f"the relay's first line is not its public key: {key[:80]!r}"
        if not await _listening(self.port, STARTUP):
            return key, f"the relay does not accept connections on port {self.port}"
        self.drain = asyncio.create_task(self.proc.stdout.read())
        return key, None

    async def stop(self) -> None:
        """SIGTERM, then SIGKILL after 5 s."""
        if self.drain is not None:
            self.drain.cancel()
            self.drain = None
        proc, self.proc = self.proc, None
        if proc is None or proc.returncode is not None:
            return
        proc.terminate()
        try:
            await asyncio.wait_for(proc.wait(), 5.0)
        except TimeoutError:
            proc.kill()
            await proc.wait()

    async def restart(self) -> str:
        await self.stop()
        key, problem = await self.start()
        if problem is not None:
            raise Refused(f"after a restart {problem}")
        return key


async def run_relay(
    command: list[str],
    only: str | None,
    fail_fast: bool,
    say: Callable[[str], None] = _print,
    starts: asyncio.Semaphore | None = None,
) -> tuple[int, int]:
    """Start the relay ``command`` and run the relay cases against it: (passed, failed); one
    line per case to ``say``. The cases that run alone come last, one at a time. ``starts``:
    how many relays run side by side may be starting at once (None: no limit)."""
    cases = [c for c in RELAY_CASES if only is None or only in c.name]
    cases.sort(key=lambda c: c.alone)  # stable: the others first, in their order
    if not cases:
        return 0, 0
    with tempfile.TemporaryDirectory(prefix="relay-harness-") as tmp:
        port = _free_port()
        peers = Path(tmp) / "peers"
        env_before = os.environ.get("POINTLINE_DATA_DIR")
        sessions = any(c.name.startswith("relay.session.") for c in cases)
        if sessions:  # the reference peers' transcripts
            os.environ["POINTLINE_DATA_DIR"] = str(peers)
        relay = _Process(command, port, Path(tmp) / "data", Path(tmp) / "relay.log", starts)
        try:
            key, problem = await relay.start()
            if problem is not None:
                say(f"FAIL relay start: {problem}")
                return 0, len(cases)
            run = secrets.token_hex(2)
            slots = asyncio.Semaphore(1 if fail_fast else AT_ONCE)
            url = f"ws://127.0.0.1:{port}"
            settings = [
                Setting(url, key, f"r{run}c{n:02d}", peers, relay.restart if c.alone else None)
                for n, c in enumerate(cases)
            ]
            together = [c for c in cases if not c.alone]
            tasks = [
                asyncio.create_task(_one(c, s, slots))
                for c, s in zip(together, settings, strict=False)
            ]
            passed = failed = 0
            for n, case in enumerate(cases):
                if case.alone:
                    found = await _one(case, settings[n], asyncio.Semaphore(1))
                else:
                    found = await tasks[n]
                if found is None:
                    passed += 1
                    say(f"ok relay {case.name}")
                    continue
                failed += 1
                say(f"FAIL relay {case.name}: {found}")
                if fail_fast:
                    for rest in tasks:
                        rest.cancel()
                    break
            await asyncio.gather(*tasks, return_exceptions=True)
            return passed, failed
        finally:
            await relay.stop()
            if not sessions:
                pass
            elif env_before is None:
                os.environ.pop("POINTLINE_DATA_DIR", None)
            else:
                os.environ["POINTLINE_DATA_DIR"] = env_before
