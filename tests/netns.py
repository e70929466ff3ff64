"""Two devices on one link for tests with real networking between them: two network namespaces
joined by a veth pair, each end with its own address, multicast (mDNS) crossing the link as on
one Wi-Fi, and nothing of it reaching this machine's own networks.

Needs root and iproute2 (``ip netns``). A test that cannot make them fails under ``CI=true``
(CI always can) and elsewhere skips, saying why.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

__all__ = ["Netns", "cannot", "linked_namespaces"]


@dataclass(frozen=True)
class Netns:
    """One end of the link: a namespace ``name`` with ``address`` on it (a /24)."""

    name: str
    address: str

    @property
    def prefix(self) -> tuple[str, ...]:
        """The command that runs a process inside this namespace."""
        return ("ip", "netns", "exec", self.name)


def _ip(*argv: str) -> None:
    subprocess.run(["ip", *argv], check=True, capture_output=True, text=True, timeout=20)


def cannot(message: str) -> None:
    """A test's real part is missing here: fail under CI, else skip saying why."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(message)
    pytest.skip(message)


def _delete(*names: str) -> None:
    for name in names:  # deleting a namespace deletes its end of the pair, and so both
        subprocess.run(["ip", "netns", "del", name], capture_output=True, check=False)


@contextmanager
def linked_namespaces(tag: str, subnet: int) -> Iterator[tuple[Netns, Netns]]:
    """Two namespaces ``<tag><pid>a`` and ``…b`` on a veth pair, with the addresses
    ``10.<subnet>.<n>.1`` and ``.2`` (``n`` from the process id, so test runs side by side do
    not meet); both are deleted, with the pair, on leaving. ``tag`` is a few letters of the
    test's own (interface names are at most 15 characters)."""
    pid = os.getpid()
    octet = 10 + pid % 200
    a = Netns(f"{tag}{pid % 100000}a", f"10.{subnet}.{octet}.1")
    b = Netns(f"{tag}{pid % 100000}b", f"10.{subnet}.{octet}.2")
    try:
        if shutil.which("ip") is None:
            raise OSError("iproute2's ip is not installed")
        _ip("netns", "add", a.name)
        _ip("netns", "add", b.name)
        _ip("link", "add", f"{a.name}v", "type", "veth", "peer", "name", f"{b.name}v")
        for end in (a, b):
            dev = f"{end.name}v"
            _ip("link", "set", dev, "netns", end.name)
            _ip("-n", end.name, "addr", "add", f"{end.address}/24", "dev", dev)
            _ip("-n", end.name, "link", "set", dev, "up")
            _ip("-n", end.name, "link", "set", "lo", "up")
    except (OSError, subprocess.CalledProcessError) as exc:
        _delete(a.name, b.name)
        why = getattr(exc, "stderr", "") or str(exc)
        cannot(f"cannot make network namespaces here: {why.strip()}")
    try:
        yield a, b
    finally:
        _delete(a.name, b.name)
