"""Tables nearby with real parts (issue 32): two network namespaces joined by a veth pair, real
mDNS between them, a host process in one and a guest process in the other that is never handed
the URL. Needs root and iproute2 (``ip netns``): see tests/netns.py."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.netns import linked_namespaces

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 90


@dataclass(frozen=True)
class Lan:
    """Two namespaces ``a`` and ``b`` with addresses ``addr_a`` and ``addr_b`` on one link."""

    a: str
    b: str
    addr_a: str
    addr_b: str

    def run(self, ns: str, *argv: str, data: Path, **kw: object) -> subprocess.Popen[str]:
        env = {**os.environ, "POINTLINE_DATA_DIR": str(data)}
        return subprocess.Popen(
            ["ip", "netns", "exec", ns, *argv],
            cwd=REPO,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            **kw,  # type: ignore[arg-type]
        )


@pytest.fixture
def lan() -> Iterator[Lan]:
    with linked_namespaces("plh", 231) as (a, b):
        yield Lan(a.name, b.name, a.address, b.address)


def _finish(proc: subprocess.Popen[str], what: str, code: int = 0) -> str:
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"the {what} did not finish: {out}\n{err}")
    assert proc.returncode == code, f"the {what} failed ({proc.returncode}):\n{out}\n{err}"
    return out


def _lines(out: str, key: str) -> list[str]:
    return [line.split(" ", 1)[1] for line in out.splitlines() if line.startswith(key + " ")]


def test_a_guest_finds_the_hosted_table_and_plays_a_verified_session(
    lan: Lan, tmp_path: Path
) -> None:
    py = sys.executable
    guest = lan.run(
        lan.b, py, "-m", "tests.net.lan_actors", "guest", lan.addr_b, data=tmp_path / "g"
    )
    host = lan.run(lan.a, py, "-m", "tests.net.lan_actors", "host", lan.addr_a, data=tmp_path / "h")
    host_out, guest_out = _finish(host, "host"), _finish(guest, "guest")
    # the guest found the table by mDNS and pinned the fingerprint the host has
    assert _lines(guest_out, "fingerprint") == _lines(host_out, "fingerprint")
    assert f"at wss://{lan.addr_a}:" in guest_out
    pointline = str(Path(py).with_name("pointline"))
    for out in (host_out, guest_out):
        (transcript,) = _lines(out, "transcript")
        check = subprocess.run(
            [pointline, "verify", transcript], capture_output=True, text=True, timeout=60
        )
        assert check.returncode == 0, check.stdout + check.stderr
        assert "OK" in check.stdout, check.stdout


def test_relay_announce_is_found_with_its_name_and_open_rooms(lan: Lan, tmp_path: Path) -> None:
    relay_bin = str(Path(sys.executable).with_name("pointline-relay"))
    relay = lan.run(
        lan.a,
        relay_bin,
        "--announce",
        "Chess club",
        "--host",
        lan.addr_a,
        "--port",
        "8765",
        "--db",
        str(tmp_path / "relay.sqlite3"),
        data=tmp_path / "r",
    )
    try:
        browse = lan.run(
            lan.b, sys.executable, "-m", "tests.net.lan_actors", "browse", lan.addr_b, data=tmp_path
        )
        out = _finish(browse, "browser")
    finally:
        relay.terminate()
        relay.communicate(timeout=30)
    assert f"relay Chess club rooms=0 url=ws://{lan.addr_a}:8765" in out


def test_a_killed_host_reads_as_the_relay_lost(lan: Lan, tmp_path: Path) -> None:
    py = sys.executable
    guest = lan.run(
        lan.b, py, "-m", "tests.net.lan_actors", "guest", lan.addr_b, data=tmp_path / "g"
    )
    host = lan.run(
        lan.a, py, "-m", "tests.net.lan_actors", "crash", lan.addr_a, data=tmp_path / "h"
    )
    _finish(host, "host", -signal.SIGKILL)
    guest_out = _finish(guest, "guest", 3)
    (transcript,) = _lines(guest_out, "transcript")
    pointline = str(Path(py).with_name("pointline"))
    check = subprocess.run([pointline, "verify", transcript], capture_output=True, text=True)
    # every record up to the crash checks; the session is incomplete, never OK, never FAIL
    assert check.returncode == 2, check.stdout + check.stderr
    assert "the relay was lost after throw" in check.stdout, check.stdout
