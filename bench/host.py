"""A hosted table against a standalone relay: one 8-seat table, the same run, side by side.

Hosted: the relay runs inside a host app process (``net.hosting.HostedTable``: the relay, the
host's own peer in seat 1 and a Qt event loop, offscreen, on qasync, as the app runs), announced
on 127.0.0.1. Standalone: ``pointline-relay``'s server in its own process, and seat 1 in the same
kind of Qt app process without the relay. Both serve ``wss://`` with a kept host certificate and
the relay's limits on (per-address limits raised: every seat is 127.0.0.1). Seats 2-8 are real
``RelayClient`` peers in this process in both cases.

Printed: the throw-round latency (round open to throw applied, at seats 2-8 and seat 1) p50 and
p99 of each, the p99 ratio hosted/standalone, and how late the seat-1 process's 16 ms Qt timer
fires (p99 and max) in each. Sessions alternate hosted/standalone (``SESSIONS`` pairs) so other
jobs on the machine weigh on both. Goals: p99 ratio <= 1.5x, host loop lag p99 <= 50 ms.
Run: ``python -m bench host`` (about 30 s).

Measured 2026-12-06 on the 2-core machine shared with other jobs (load average 7-9 all along,
so the figures swing run to run), three runs: p99 ratio hosted/standalone 1.30x, 1.77x, 0.89x;
host loop lag p99 39 / 91 / 17 ms (max 125 / 154 / 17 ms); the standalone seat-1 process's own
timer, without the relay, p99 19 / 88 / 7 ms. Round p99 hosted 219 / 299 / 96 ms against
standalone 172 / 162 / 108 ms (p50 97 / 74 / 27 against 85 / 68 / 18 ms). On this loaded machine
the goals are met in two runs of three; a quiet machine's figures are still to be taken.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SESSIONS = 3
GOAL_RATIO = 1.5
GOAL_LAG = 0.050

_RELAY = """
import asyncio, sys
from pointline.net.relay import FAST_HASH
from pointline.net.relay import LOOPBACK_TESTS, RelayConfig, serve_forever, tls_context
config = RelayConfig(hash_params=FAST_HASH, **LOOPBACK_TESTS)
context = tls_context(sys.argv[2], sys.argv[3])
asyncio.run(serve_forever(sys.argv[1], "127.0.0.1", 0, context, config))
"""


def _env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, "QT_QPA_PLATFORM": "offscreen"}


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _read(proc: subprocess.Popen[str], key: str) -> str:
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the seat-1 process ended before saying {key}")
        if line.startswith(key + " "):
            return line.split(" ", 1)[1].strip()


async def _guests(url: str, cert: str, code: str, out: list[float]) -> None:
    from pointline.net.client import RelayClient, pinned_tls_context, steady_choice
    from pointline.net.protocol import RoundOpened, Thrown

    context = pinned_tls_context(Path(cert).read_text())
    tag = secrets.token_hex(3)
    clients = [await RelayClient.connect(url, ssl_context=context) for _ in range(7)]
    for i, c in enumerate(clients):
        await c.signup(f"g{tag}_{i}", "bench-password")
        await c.join_room(code)
    loop = asyncio.get_running_loop()

    async def drive(c: RelayClient) -> None:
        await c.wait_started(120)
        opened: dict[int, float] = {}
        async for event in c.events():
            peer = c.peer
            if isinstance(event, RoundOpened) and peer is not None and not peer.is_finished:
                opened[event.throw] = loop.time()
                c.commit(steady_choice(peer.table, peer.seat))
            elif isinstance(event, Thrown) and event.throw in opened:
                out.append(loop.time() - opened[event.throw])

    try:
        await asyncio.wait_for(asyncio.gather(*(drive(c) for c in clients)), 300)
    finally:
        for c in clients:
            await c.close()


def _session(argv: list[str], data: Path) -> tuple[list[float], list[float], list[float]]:
    """One session with seat 1 in a Qt app process: (guests' rounds, seat 1's, its timer's)."""
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / "_host_app.py"), argv[0], str(data), *argv[1:]],
        stdout=subprocess.PIPE,
        env=_env(),
        text=True,
    )
    try:
        url, cert, code = _read(proc, "url"), _read(proc, "cert"), _read(proc, "code")
        guests: list[float] = []
        asyncio.run(_guests(url, cert, code, guests))
        assert proc.stdout is not None
        result = json.loads(proc.stdout.read().strip().splitlines()[-1])
        proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return guests, result["rounds"], result["lateness"]


def _line(name: str, guests: list[float], seat1: list[float], lag: list[float]) -> str:
    return (
        f"    {name}: rounds at seats 2-8 p50 {statistics.median(guests) * 1e3:6.1f} ms, p99 "
        f"{pct(guests, 0.99) * 1e3:6.1f} ms ({len(guests)} samples); at seat 1 p50 "
        f"{statistics.median(seat1) * 1e3:5.1f} ms, p99 {pct(seat1, 0.99) * 1e3:6.1f} ms; "
        f"16 ms Qt timer late by p99 {pct(lag, 0.99) * 1e3:5.1f} ms, max {max(lag) * 1e3:5.1f} ms "
        f"({len(lag)} ticks)"
    )


def main() -> None:
    from pointline.net.hostcert import ensure_host_certificate

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        os.environ.setdefault("POINTLINE_DATA_DIR", str(base / "data"))
        cert = ensure_host_certificate(base / "standalone-cert")
        relay = subprocess.Popen(
            [
                sys.executable,
                "-c",
                _RELAY,
                str(base / "relay.sqlite3"),
                str(cert.cert_path),
                str(cert.key_path),
            ],
            stdout=subprocess.PIPE,
            env=_env(),
            text=True,
        )
        try:
            assert relay.stdout is not None
            url = relay.stdout.readline().split()[3]
            print(f"standalone relay {url} (own process); CPUs: {os.cpu_count()}", flush=True)
            figures: dict[str, tuple[list[float], list[float], list[float]]] = {
                "hosted": ([], [], []),
                "standalone": ([], [], []),
            }
            for n in range(SESSIONS):
                for name in ("hosted", "standalone"):
                    argv = ["host"] if name == "hosted" else ["peer", url, str(cert.cert_path)]
                    got = _session(argv, base / f"{name}{n}")
                    for into, more in zip(figures[name], got, strict=True):
                        into.extend(more)
            print(f"one 8-seat table, {SESSIONS} sessions each, alternating:")
            for name, (guests, seat1, lag) in figures.items():
                print(_line(name, guests, seat1, lag))
            hosted, alone = figures["hosted"], figures["standalone"]
            ratio = pct(hosted[0] + hosted[1], 0.99) / pct(alone[0] + alone[1], 0.99)
            lag99 = pct(hosted[2], 0.99)
            print(
                f"p99 ratio hosted/standalone (all seats): {ratio:.2f}\u00d7 (goal <= "
                f"{GOAL_RATIO:g}\u00d7); host loop lag p99 {lag99 * 1e3:.1f} ms (goal <= "
                f"{GOAL_LAG * 1e3:.0f} ms)"
            )
            print(f"load average at the end: {os.getloadavg()[0]:.1f} (other jobs share the CPUs)")
        finally:
            relay.terminate()
            relay.wait(10)


if __name__ == "__main__":
    main()
