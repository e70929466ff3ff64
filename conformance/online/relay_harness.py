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


async def run_relay(
    command: list[str], only: str | None, fail_fast: bool, say: Callable[[str], None] = _print
) -> tuple[int, int]:
    """Start the relay ``command`` and run the relay cases against it: (passed, failed); one
    line per case to ``say``."""
    cases = [c for c in RELAY_CASES if only is None or only in c.name]
    if not cases:
        return 0, 0
    with tempfile.TemporaryDirectory(prefix="relay-harness-") as tmp:
        port = _free_port()
        peers = Path(tmp) / "peers"
        env_before = os.environ.get("POINTLINE_DATA_DIR")
        sessions = any(c.name.startswith("relay.session.") for c in cases)
        if sessions:  # the reference peers' transcripts
            os.environ["POINTLINE_DATA_DIR"] = str(peers)
        log = (Path(tmp) / "relay.log").open("wb")
        proc = await asyncio.create_subprocess_exec(
            *relay_command(command, port, Path(tmp) / "data"),
            stdout=asyncio.subprocess.PIPE,
            stderr=log,
            stdin=asyncio.subprocess.DEVNULL,
        )
        assert proc.stdout is not None
        try:
            try:
                first = await asyncio.wait_for(proc.stdout.readline(), STARTUP)
            except TimeoutError:
                first = b""
            key = first.decode("utf-8", "replace").strip()
            problem = None
            if not _KEY.fullmatch(key):
                problem = f"the relay's first line is not its public key: {key[:80]!r}"
            elif not await _listening(port, STARTUP):
                problem = f"the relay does not accept connections on port {port}"
            if problem is not None:
                say(f"FAIL relay start: {problem}")
                return 0, len(cases)
            drain = asyncio.create_task(proc.stdout.read())
            run = secrets.token_hex(2)
            slots = asyncio.Semaphore(1 if fail_fast else AT_ONCE)
            url = f"ws://127.0.0.1:{port}"
            settings = [Setting(url, key, f"r{run}c{n:02d}", peers) for n, _ in enumerate(cases)]
            tasks = [
                asyncio.create_task(_one(c, s, slots)) for c, s in zip(cases, settings, strict=True)
            ]
            passed = failed = 0
            for case, task in zip(cases, tasks, strict=True):
                found = await task
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
            drain.cancel()
            return passed, failed
        finally:
            if proc.returncode is None:
                proc.terminate()
                try:
                    await asyncio.wait_for(proc.wait(), 5.0)
                except TimeoutError:
                    proc.kill()
                    await proc.wait()
            log.close()
            if not sessions:
                pass
            elif env_before is None:
                os.environ.pop("POINTLINE_DATA_DIR", None)
            else:
                os.environ["POINTLINE_DATA_DIR"] = env_before
