"""A real-input driver: the real app under Xvfb, keys and clicks through XTEST, AT-SPI to read.

``RealX`` starts a private X server (Xvfb, no window manager) and a private D-Bus session bus;
``RealApp`` starts the app on them (``python -m pointline.gui.cli``, or with reproducible dice),
sends keys and clicks with ``xdotool`` (XTEST: the X server makes the events, as a keyboard
would) and reads the outcome from another process, ``probe.py``, through the accessibility bus.

Needs the Debian packages ``xvfb xdotool at-spi2-core python3-pyatspi dbus`` (``.ci/run``
installs them). Without them the tests skip with that list, except under ``CI=true``, where
they fail: CI always has them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

PROBE = Path(__file__).with_name("probe.py")
SYSTEM_PYTHON = "/usr/bin/python3"
ROOT = Path(__file__).resolve().parents[2]
APP_NAME = "Pointline Table"
STATUS = re.compile(r"Balance (-?\d+), hand (\d+) of (\d+), throw (\d+) of (\d+)")
T = TypeVar("T")


REAL_INPUT_TOOLS = (("Xvfb", "xvfb"), ("xdotool", "xdotool"), ("dbus-daemon", "dbus"))
"""The commands these tests run, each with the Debian package that has it."""


def missing_packages(tools: tuple[tuple[str, str], ...] = REAL_INPUT_TOOLS) -> list[str]:
    """The Debian packages a real window read through AT-SPI needs (``tools``, the accessibility
    bus and Debian's pyatspi) that this machine lacks."""
    missing = [pkg for tool, pkg in tools if shutil.which(tool) is None]
    if not Path("/usr/libexec/at-spi-bus-launcher").exists():
        missing.append("at-spi2-core")
    probe = (
        subprocess.run([SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True, check=False)
        if Path(SYSTEM_PYTHON).exists()
        else None
    )
    if probe is None or probe.returncode != 0:
        missing.append("python3-pyatspi")
    return missing


def require_packages() -> None:
    missing = missing_packages()
    if not missing:
        return
    message = "needs the Debian packages " + " ".join(missing)
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(message + " (CI installs them: .ci/run)")
    pytest.skip(message)


def wait_for(what: str, check: Callable[[], T | None], timeout: float = 20.0) -> T:
    """Poll ``check`` until it returns something other than None or False, or fail."""
    end = time.monotonic() + timeout
    last: T | None = None
    while time.monotonic() < end:
        last = check()
        if last is not None and last is not False:
            return last
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")


@dataclass
class Status:
    balance: int
    hand: int
    hands: int
    throw: int


class RealX:
    """A private Xvfb display (no window manager) and a private D-Bus session bus.

    ``prefix`` runs every process of this display (Xvfb, the bus, the app, its probe, xdotool)
    through a command, e.g. ``("ip", "netns", "exec", NAME)``: a whole device in a network
    namespace of its own (tests/realinput/test_game_night.py)."""

    def __init__(self, width: int = 1280, height: int = 800, prefix: tuple[str, ...] = ()) -> None:
        self.prefix = prefix
        read, write = os.pipe()
        self.xvfb = subprocess.Popen(
            [
                *prefix,
                "Xvfb",
                "-displayfd",
                str(write),
                "-screen",
                "0",
                f"{width}x{height}x24",
                "-nolisten",
                "tcp",
                "-noreset",
            ],
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            self.xvfb.kill()
            raise RuntimeError("Xvfb did not start")
        self.display = f":{number}"
        # The accessibility bus's socket is $XDG_RUNTIME_DIR/at-spi/bus, else ~/.cache/at-spi/bus:
        # one path for every display of this user, so a test starting or ending beside this one
        # (other checkouts run theirs at the same time) replaced it under the app ("Not connected
        # to D-Bus server"). The session bus, and the launcher it starts, get a folder of their own.
        self.runtime = tempfile.mkdtemp(prefix="pointline-realx-")
        self.bus = subprocess.Popen(
            [*prefix, "dbus-daemon", "--session", "--nofork", "--print-address=1"],
            env={**os.environ, "XDG_RUNTIME_DIR": self.runtime},
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.bus.stdout is not None
        self.bus_address = self.bus.stdout.readline().strip()
        self._start_accessibility_bus()

    def _start_accessibility_bus(self) -> None:
        """Start the accessibility bus now and wait for its address: an app that asks for it
        while its launcher is still starting (a loaded machine) is never on the bus ("Error
        in contacting registry ... Not connected"), and every AT-SPI read then times out."""
        self._dbus_send(
            "--session", "--dest=org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress"
        )

    def _dbus_send(self, *args: str) -> str:
        done = subprocess.run(
            ["dbus-send", "--print-reply", "--reply-timeout=20000", *args],
            env=RealX.env(self),  # a subclass's env() may need what its __init__ sets later
            capture_output=True,
            text=True,
            check=False,
            timeout=30,
        )
        return done.stdout

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(DISPLAY=self.display, DBUS_SESSION_BUS_ADDRESS=self.bus_address)
        return env

    def close(self) -> None:
        for process in (self.bus, self.xvfb):
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(self.runtime, ignore_errors=True)


class RealApp:
    """The app on a ``RealX``: keys and clicks in through XTEST, its state out through AT-SPI."""

    def __init__(
        self,
        x: RealX,
        home: Path,
        args: tuple[str, ...] = (),
        dice: str | None = None,
        guide_seen: bool = True,
        reduce_motion: bool = True,
    ) -> None:
        self.x = x
        data = home / "data"
        (data / "pointline").mkdir(parents=True, exist_ok=True)
        if guide_seen:
            (data / "pointline" / "guide.json").write_text('{"seen": true}\n')
        env = x.env()
        env.pop("QT_QPA_PLATFORM", None)
        env.pop("POINTLINE_DATA_DIR", None)  # its data folder is XDG_DATA_HOME's, set below
        env.update(
            QT_QPA_PLATFORM="xcb",
            QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
            XDG_CONFIG_HOME=str(home / "config"),
            XDG_DATA_HOME=str(data),
            XDG_RUNTIME_DIR=str(home / "run"),
            POINTLINE_REDUCE_MOTION="1" if reduce_motion else "0",
            PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""),
        )
        (home / "run").mkdir(mode=0o700, exist_ok=True)
        self.env = env
        command = [sys.executable, "-m", "pointline.gui.cli", *args]
        if dice is not None:  # the real CLI with reproducible dice (tests/realinput/seeded.py)
            command = [sys.executable, "-m", "tests.realinput.seeded", dice, *args]
        self.log = open(home / "app.log", "w")  # noqa: SIM115 (closed in close())
        command = [*x.prefix, *command]
        self.app = subprocess.Popen(command, env=env, cwd=ROOT, stdout=self.log, stderr=self.log)
        self.probe = subprocess.Popen(
            [*x.prefix, SYSTEM_PYTHON, str(PROBE), APP_NAME],
            env={k: v for k, v in env.items() if k != "PYTHONPATH"},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.home = home

    # ------------------------------------------------------------------ reading
    def ask(self, command: str) -> dict[str, Any]:
        assert self.probe.stdin is not None and self.probe.stdout is not None
        if self.app.poll() is not None:
            raise AssertionError(f"the app exited ({self.app.returncode}): {self.app_log()}")
        self.probe.stdin.write(command + "\n")
        self.probe.stdin.flush()
        reply: dict[str, Any] = json.loads(self.probe.stdout.readline())
        return reply

    def app_log(self) -> str:
        self.log.flush()
        return (self.home / "app.log").read_text(errors="replace")[-3000:]

    def nodes(self) -> list[dict[str, Any]] | None:
        reply = self.ask("nodes")
        return reply.get("nodes")

    def windows(self) -> list[dict[str, Any]] | None:
        return self.ask("windows").get("windows")

    def status(self) -> Status | None:
        for node in self.nodes() or []:
            found = STATUS.fullmatch(node["name"] or "")
            if found:
                b, h, hs, t, _ = (int(g) for g in found.groups())
                return Status(b, h, hs, t)
        return None

    def showing(self, role: str, name: str, prefix: bool = False) -> dict[str, Any] | None:
        """The showing node of ``role`` named ``name`` (or starting with it), if any."""
        for node in self.nodes() or []:
            named = node["name"] == name or (prefix and (node["name"] or "").startswith(name))
            if node["role"] == role and node["showing"] and named:
                return node
        return None

    def focused(self) -> dict[str, Any] | None:
        """The focused node deepest in the tree (a card and its focused button both say so)."""
        focused = [node for node in self.nodes() or [] if node["focused"]]
        return focused[-1] if focused else None

    def ready(self) -> Status:
        """Wait for the table to be readable (the window is up and on the accessibility bus)."""
        return wait_for("the table's status line", self.status, timeout=40)

    # ------------------------------------------------------------------ input (XTEST)
    def xdotool(self, *args: str) -> None:
        subprocess.run([*self.x.prefix, "xdotool", *args], env=self.x.env(), check=True)

    def key(self, *keys: str) -> None:
        self.xdotool("key", "--delay", "60", *keys)

    @contextmanager
    def held(self, key: str) -> Iterator[None]:
        self.xdotool("keydown", key)
        try:
            yield
        finally:
            self.xdotool("keyup", key)

    def hold(self, key: str, seconds: float) -> None:
        """Hold ``key`` down for ``seconds`` (the X server repeats it, as a keyboard does)."""
        with self.held(key):
            time.sleep(seconds)

    def click(self, x: int, y: int) -> None:
        self.xdotool("mousemove", str(x), str(y), "click", "1")

    def click_button(self, name: str) -> None:
        """Click the showing, enabled button ``name`` with the pointer, at its centre."""
        button = wait_for(
            f"the button {name!r}",
            lambda: (b := self.showing("push button", name)) is not None and b["enabled"] and b,
        )
        self.click(*button["center"])

    # ------------------------------------------------------------------ end
    def close(self) -> None:
        for process in (self.probe, self.app):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        self.log.close()
