"""The screen stays awake while I sit at an online table, and is let go after (issue 39).

A private dbus-daemon (a session bus of its own, no service activation) and a small real
org.freedesktop.ScreenSaver service on it (tests/gui/screensaver_service.py, its own process,
jeepney) stand where a desktop's are; the online window plays offscreen at a loopback relay.
Never the machine's session bus, never a system service. Android's window flag cannot run here
(no APK): its selection is checked, not the call.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pointline.gui.awake import KeepAwake, backend_kind, make_backend, session_bus_address
from pointline.gui.online.texts import AWAKE_REASON
from tests.gui.online_support import game, on_qt_loop, play_session, until

SERVICE = Path(__file__).parent.parent / "screensaver_service.py"
BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir={folder}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""

needs_dbus = pytest.mark.skipif(
    shutil.which("dbus-daemon") is None and os.environ.get("CI") != "true",
    reason="needs dbus-daemon (Debian package dbus); under CI=true it fails instead",
)


def wait_for(predicate: Any, what: str, timeout: float = 10.0) -> None:
    """Wait (outside the Qt loop: a fixture) until ``predicate()`` holds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.01)


@dataclass
class Bus:
    """A private session bus and, if started, the screen saver service on it."""

    address: str
    log: Path

    def lines(self) -> list[list[str]]:
        text = self.log.read_text(encoding="utf-8") if self.log.exists() else ""
        return [line.split(" ", 3) for line in text.splitlines()]

    def held(self) -> set[str]:
        """The cookies inhibiting now (given and neither released nor dropped)."""
        live: set[str] = set()
        for line in self.lines():
            if line[0] == "inhibit":
                live.add(line[1])
            elif line[0] in ("uninhibit", "dropped"):
                live.discard(line[1])
        return live

    def count(self, event: str) -> int:
        return sum(1 for line in self.lines() if line[0] == event)


@pytest.fixture
def session_bus(monkeypatch: pytest.MonkeyPatch) -> Iterator[Bus]:
    """A dbus-daemon of the test's own, made the session bus (``DBUS_SESSION_BUS_ADDRESS``)."""
    folder = Path(tempfile.mkdtemp(prefix="plbus"))  # short: a socket path has 108 bytes
    config = folder / "bus.conf"
    config.write_text(BUS_CONFIG.format(folder=folder), encoding="utf-8")
    daemon = subprocess.Popen(
        ["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert daemon.stdout is not None
    address = daemon.stdout.readline().strip()
    assert address.startswith("unix:"), address
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
    try:
        yield Bus(address, folder / "service.log")
    finally:
        daemon.terminate()
        daemon.wait(10)
        daemon.stdout.close()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def screensaver(session_bus: Bus) -> Iterator[Bus]:
    """The private bus with the screen saver service owning its name."""
    service = subprocess.Popen([sys.executable, str(SERVICE), session_bus.address, session_bus.log])
    try:
        wait_for(lambda: session_bus.count("ready") == 1, "the screen saver service")
        yield session_bus
    finally:
        service.terminate()
        service.wait(10)


# ---------------------------------------------------------------------- which backend
def test_the_backend_is_chosen_by_the_platform(tmp_path: Path) -> None:
    bus = {"DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"}
    assert backend_kind("android", {}) == "android"  # FLAG_KEEP_SCREEN_ON: no bus needed
    assert backend_kind("linux", bus) == "freedesktop"
    assert backend_kind("freebsd14", bus) == "freedesktop"
    assert backend_kind("linux", {}) == "none"  # no session bus: none is ever started
    for platform in ("ios", "win32", "darwin"):
        assert backend_kind(platform, bus) == "none", platform
    # the systemd user bus, when the variable is unset but the socket is there
    runtime = Path(tempfile.mkdtemp(prefix="plrun"))
    try:
        assert session_bus_address({"XDG_RUNTIME_DIR": str(runtime)}) == ""
        import socket

        with socket.socket(socket.AF_UNIX) as listening:
            listening.bind(str(runtime / "bus"))
            found = session_bus_address({"XDG_RUNTIME_DIR": str(runtime)})
            assert found == f"unix:path={runtime / 'bus'}"
            assert backend_kind("linux", {"XDG_RUNTIME_DIR": str(runtime)}) == "freedesktop"
    finally:
        shutil.rmtree(runtime, ignore_errors=True)
    assert make_backend("r", "android").kind == "android"
    assert make_backend("r", "ios").kind == "none"


def test_the_android_flag_does_nothing_where_qt_has_no_android_interface(
    qapp: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Here (a desktop PySide6) the Android backend finds no QAndroidApplication: it says so at
    debug level and raises nothing (on a phone it sets the flag on Android's main thread)."""
    caplog.set_level(logging.DEBUG, logger="pointline.gui.awake")
    backend = make_backend("r", "android")
    asyncio.run(backend.hold())
    asyncio.run(backend.release())
    assert "no QAndroidApplication" in caplog.text


def test_without_a_loop_or_a_bus_nothing_happens(
    qapp: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    awake = KeepAwake(AWAKE_REASON)
    assert awake.backend.kind == ("none" if sys.platform != "android" else "android")
    awake.hold(True)  # no event loop running, no bus: quietly nothing
    assert awake.wanted


# ---------------------------------------------------------------------- a real service
@needs_dbus
@on_qt_loop(timeout=90)
async def test_seated_the_screen_is_held_and_the_results_let_it_go(
    tmp_path: Path, screensaver: Bus
) -> None:
    async with game(tmp_path, (844, 390)) as played:  # seated: the session has started
        await until(lambda: len(screensaver.held()) == 1, what="Inhibit while seated")
        ((_, cookie, sender, words),) = [
            line for line in screensaver.lines() if line[0] == "inhibit"
        ]
        assert words == f"Pointline Table|{AWAKE_REASON}"
        assert screensaver.count("refused") == 0
        await play_session(played.bridge, played.other)
        await until(lambda: played.bridge.screen == "results", what="the results")
        await until(lambda: screensaver.held() == set(), what="UnInhibit at the results")
        assert ["uninhibit", cookie, sender] in screensaver.lines()  # asked, not dropped
        played.bridge.backToLobby()  # a fresh room: not seated, so not held
        await until(lambda: played.bridge.screen == "lobby", what="the lobby")
    assert screensaver.count("inhibit") == 1 and screensaver.count("refused") == 0


@needs_dbus
@pytest.mark.parametrize("way", ["leave", "window", "quit"])
@on_qt_loop(timeout=60)
async def test_leaving_closing_or_quitting_mid_session_lets_it_go(
    tmp_path: Path, screensaver: Bus, way: str
) -> None:
    """Leave table (asked), the window closed (as Frame.qml reports it), and the app quitting
    with the session open (gui/app.py and gui/online/app.py await ``shutdown`` on quit)."""
    async with game(tmp_path, (390, 844)) as played:
        bridge = played.bridge
        await until(lambda: len(screensaver.held()) == 1, what="Inhibit while seated")
        if way == "leave":
            bridge.askLeave()
            bridge.confirmLeave()
            await until(lambda: bridge.screen == "results", what="the results")
        elif way == "window":
            bridge.windowClosed()
        else:
            assert bridge.session_running()
            await bridge.shutdown()
        await until(lambda: screensaver.count("uninhibit") == 1, what=f"UnInhibit on {way}")
        assert screensaver.held() == set() and screensaver.count("dropped") == 0


@needs_dbus
def test_a_killed_app_leaves_no_screen_held(screensaver: Bus) -> None:
    """A crash: the inhibition lives on the app's own bus connection, so the desktop drops it
    when the process dies (the service sees the connection go)."""
    script = (
        "import asyncio\n"
        "from pointline.gui.awake import KeepAwake\n"
        "async def main():\n"
        "    awake = KeepAwake('crash test')\n"
        "    awake.hold(True)\n"
        "    await asyncio.sleep(3600)\n"
        "asyncio.run(main())\n"
    )
    env = {**os.environ, "DBUS_SESSION_BUS_ADDRESS": screensaver.address}
    app = subprocess.Popen([sys.executable, "-c", script], env=env)
    try:
        wait_for(lambda: len(screensaver.held()) == 1, "Inhibit from the app")
    finally:
        app.send_signal(signal.SIGKILL)
        app.wait(10)
    wait_for(lambda: screensaver.held() == set(), "the inhibition dropped")
    assert screensaver.count("dropped") == 1 and screensaver.count("uninhibit") == 0


@needs_dbus
@on_qt_loop(timeout=60)
async def test_where_no_service_answers_nothing_is_shown(
    tmp_path: Path, session_bus: Bus, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="pointline.gui.awake")
    async with game(tmp_path, (844, 390)) as played:
        bridge = played.bridge
        await until(lambda: "no screen saver service" in caplog.text, what="the debug line")
        assert bridge.error == "" and bridge.screen == "table"
        assert "ScreenSaver" not in bridge.table.presenter.notice
        await play_session(bridge, played.other)
        await until(lambda: bridge.screen == "results", what="the results")
        assert bridge.error == ""
    assert all(r.levelno == logging.DEBUG for r in caplog.records if r.name.endswith("awake"))
