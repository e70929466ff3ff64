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

``python -m bench host --cpu-quota 0.25`` (issue 41: a host on a phone's budget) plays the hosted
table only, alternating sessions with the host process under a CPU quota of a quarter core (a
cgroup made for it) and unthrottled, and prints the round p99 at seats 2-8 of each, their ratio
(goal <= 3x), the throttled host's loop lag (goal p99 <= 50 ms) and the guests' sign-up time at
the hosted relay's own argon2 cost (``net.hosting.HOSTED_HASH``; goal <= 1 s under the quota).
The cgroup: v1's ``cpu`` controller (``/sys/fs/cgroup/cpu/…/cpu.cfs_quota_us``), tested here; on
a cgroup v2 system ``cpu.max`` under ``/sys/fs/cgroup`` (written, untested on this machine: it
has v1 only). Making a cgroup needs root: without it the bench says so and measures nothing.

Measured 2026-12-06 as root on the same 2-core machine, shared with five other engineers' jobs
(load average 5.7-6.7 at the ends), three runs with ``--cpu-quota 0.25`` (the quota throttled
the host in 128/275, 114/283 and 108/277 of its 100 ms periods): round p99 at seats 2-8
throttled 342 / 237 / 452 ms against unthrottled 413 / 387 / 134 ms, ratio 0.83x / 0.61x /
3.37x; the throttled host's loop lag p99 72 / 23 / 81 ms (max 129 / 47 / 90 ms); sign-up at
``HOSTED_HASH`` under the quota p50 195 / 208 / 195 ms, max 0.59 / 0.68 / 0.60 s (unthrottled
max 0.34 / 0.35 / 0.21 s). So: sign-up <= 1 s in every run; the ratio goal (<= 3x) in two runs
of three and the loop-lag goal (<= 50 ms) in one: on this loaded machine the unthrottled table
swings as much as the throttled one, and a quiet machine's figures are still to be taken.

Measured 2026-12-06 on the 2-core machine shared with other jobs (load average 7-9 all along,
so the figures swing run to run), three runs: p99 ratio hosted/standalone 1.30x, 1.77x, 0.89x;
host loop lag p99 39 / 91 / 17 ms (max 125 / 154 / 17 ms); the standalone seat-1 process's own
timer, without the relay, p99 19 / 88 / 7 ms. Round p99 hosted 219 / 299 / 96 ms against
standalone 172 / 162 / 108 ms (p50 97 / 74 / 27 against 85 / 68 / 18 ms). On this loaded machine
the goals are met in two runs of three; a quiet machine's figures are still to be taken.
"""

from __future__ import annotations

import asyncio
import contextlib
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
GOAL_QUOTA_RATIO = 3.0
GOAL_SIGNUP = 1.0

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


async def _guests(
    url: str, cert: str, code: str, out: list[float], signups: list[float] | None = None
) -> None:
    from pointline.net.client import RelayClient, pinned_tls_context, steady_choice
    from pointline.net.protocol import RoundOpened, Thrown

    context = pinned_tls_context(Path(cert).read_text())
    tag = secrets.token_hex(3)
    clients = [await RelayClient.connect(url, ssl_context=context) for _ in range(7)]
    loop = asyncio.get_running_loop()
    for i, c in enumerate(clients):
        began = loop.time()
        await c.signup(f"g{tag}_{i}", "bench-password")
        if signups is not None:
            signups.append(loop.time() - began)
        await c.join_room(code)

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


def _session(
    argv: list[str],
    data: Path,
    cgroup: _Cgroup | None = None,
    signups: list[float] | None = None,
) -> tuple[list[float], list[float], list[float]]:
    """One session with seat 1 in a Qt app process: (guests' rounds, seat 1's, its timer's);
    the process runs in ``cgroup`` when one is given (from its first milliseconds)."""
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / "_host_app.py"), argv[0], str(data), *argv[1:]],
        stdout=subprocess.PIPE,
        env=_env(),
        text=True,
    )
    try:
        if cgroup is not None:
            cgroup.add(proc.pid)
        url, cert, code = _read(proc, "url"), _read(proc, "cert"), _read(proc, "code")
        guests: list[float] = []
        asyncio.run(_guests(url, cert, code, guests, signups))
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


class _Cgroup:
    """A CPU-quota cgroup for the host process: ``quota`` cores (0.25: a quarter of one)."""

    PERIOD_US = 100_000

    def __init__(self, path: Path, version: int) -> None:
        self.path, self.version = path, version

    @classmethod
    def make(cls, quota: float) -> _Cgroup | str:
        """The cgroup, or why none could be made (plain words)."""
        name = f"pointline-bench-host-{os.getpid()}"
        v1 = Path("/sys/fs/cgroup/cpu")
        v2 = Path("/sys/fs/cgroup")
        limit = max(1000, int(quota * cls.PERIOD_US))
        try:
            if (v1 / "cpu.cfs_quota_us").exists():  # cgroup v1 "cpu" (this machine)
                group = cls(v1 / name, 1)
                group.path.mkdir()
                (group.path / "cpu.cfs_period_us").write_text(str(cls.PERIOD_US))
                (group.path / "cpu.cfs_quota_us").write_text(str(limit))
                return group
            if (v2 / "cgroup.controllers").exists():  # cgroup v2: written, UNTESTED here
                group = cls(v2 / name, 2)
                with contextlib.suppress(OSError):  # let children use the cpu controller
                    (v2 / "cgroup.subtree_control").write_text("+cpu")
                group.path.mkdir()
                (group.path / "cpu.max").write_text(f"{limit} {cls.PERIOD_US}")
                return group
        except PermissionError:
            return "making a cgroup needs root (run the bench as root to throttle the host)"
        except OSError as exc:
            return f"no cgroup could be made ({exc.strerror or exc})"
        return "this system has no cgroup cpu controller (neither v1 cpu nor v2 cpu.max)"

    def add(self, pid: int) -> None:
        (self.path / "cgroup.procs").write_text(str(pid))

    def stat(self) -> str:
        """How often the quota throttled the host (the cgroup's ``cpu.stat``), in words."""
        try:
            fields = dict(
                line.split() for line in (self.path / "cpu.stat").read_text().splitlines()
            )
        except (OSError, ValueError):
            return "cpu.stat unreadable"
        periods, throttled = fields.get("nr_periods", "?"), fields.get("nr_throttled", "?")
        held = int(fields.get("throttled_time", 0)) / 1e9  # v1: ns
        if "throttled_usec" in fields:  # v2
            held = int(fields["throttled_usec"]) / 1e6
        return f"throttled in {throttled} of {periods} 100 ms periods, {held:.1f} s in all"

    def remove(self) -> None:
        with contextlib.suppress(OSError):
            self.path.rmdir()


def _quota_run(quota: float) -> None:
    """Issue 41: the hosted table with its host under ``quota`` cores and unthrottled."""
    group = _Cgroup.make(quota)
    if isinstance(group, str):
        print(f"--cpu-quota {quota:g}: skipped: {group}.")
        return
    untested = " (v2: untested here)" if group.version == 2 else ""
    where = f"cgroup v{group.version} {group.path}{untested}"
    print(f"host process under a CPU quota of {quota:g} core ({where}); CPUs: {os.cpu_count()}")
    figures: dict[str, tuple[list[float], list[float], list[float]]] = {
        "throttled": ([], [], []),
        "unthrottled": ([], [], []),
    }
    signups: dict[str, list[float]] = {"throttled": [], "unthrottled": []}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            base = Path(tmp)
            os.environ.setdefault("POINTLINE_DATA_DIR", str(base / "data"))
            for n in range(SESSIONS):
                for name in ("throttled", "unthrottled"):
                    cgroup = group if name == "throttled" else None
                    got = _session(["host", "hosted"], base / f"{name}{n}", cgroup, signups[name])
                    for into, more in zip(figures[name], got, strict=True):
                        into.extend(more)
        stat = group.stat()
    finally:
        group.remove()
    print(f"one hosted 8-seat table, {SESSIONS} sessions each, alternating:")
    print(f"    the quota held the host back: {stat}")
    for name, (guests, seat1, lag) in figures.items():
        print(_line(name, guests, seat1, lag))
        ups = signups[name]
        print(
            f"    {name}: sign-up at the hosted relay (argon2id, its own cost) p50 "
            f"{statistics.median(ups) * 1e3:.0f} ms, max {max(ups) * 1e3:.0f} ms ({len(ups)})"
        )
    slow, fast = figures["throttled"], figures["unthrottled"]
    p99_slow, p99_fast = pct(slow[0], 0.99), pct(fast[0], 0.99)
    lag = slow[2]
    print(
        f"round p99 at seats 2-8: throttled {p99_slow * 1e3:.1f} ms, unthrottled "
        f"{p99_fast * 1e3:.1f} ms, ratio {p99_slow / p99_fast:.2f}\u00d7 (goal <= "
        f"{GOAL_QUOTA_RATIO:g}\u00d7); throttled host loop lag p99 {pct(lag, 0.99) * 1e3:.1f} ms, "
        f"max {max(lag) * 1e3:.1f} ms (goal p99 <= {GOAL_LAG * 1e3:.0f} ms); sign-up max "
        f"{max(signups['throttled']):.2f} s (goal <= {GOAL_SIGNUP:g} s)"
    )
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (other jobs share the CPUs)")


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench host")
    parser.add_argument(
        "--cpu-quota",
        type=float,
        metavar="CORES",
        help="run the hosted table with its host process under this CPU quota (0.25: a "
        "quarter core, a phone's budget) and unthrottled, side by side (needs root)",
    )
    args = parser.parse_args(argv or [])
    if args.cpu_quota is not None:
        if not 0 < args.cpu_quota <= (os.cpu_count() or 1):
            parser.error("--cpu-quota is a number of cores above 0")
        _quota_run(args.cpu_quota)
        return
    _compare()


def _compare() -> None:
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
