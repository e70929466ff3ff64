"""SIGTERM and SIGHUP (a shutdown, logging out) end the session the way closing the window
does: the real app in its own process, a throw played, then the signal; Stats records the
session as ended without a result (issue 30 finding 6)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pointline.gui.stats import LEFT_CLOSED
from tests.gui.script_run import ROOT

# The real app (gui/app.py's run): the guide skipped, one throw, then "ready" on stdout; the
# test sends the signal. Every wait polls a condition (the window is up, the main loop runs).
APP = """
import json, sys
from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtQml import QQmlEngine
from pointline.gui.app import run
from pointline.gui.bridge import TableBridge
from pointline.gui.extras import extras_of

seen = {}
def poll():
    app = QGuiApplication.instance()
    shown = [w for w in app.topLevelWindows() if w.isVisible()] if app else []
    engine = QQmlEngine.contextForObject(shown[0]).engine() if shown else None
    bridge = engine.findChild(TableBridge) if engine is not None else None
    if bridge is None or bridge.sounds.available is None:  # the main loop is not running yet
        QTimer.singleShot(20, poll)
        return
    extras_of(bridge).skipGuide()
    bridge.selectLine("pass"); bridge.act("allocate"); bridge.act("confirm")
    seen["throws"] = bridge.table.throws
    print("ready", flush=True)
QTimer.singleShot(0, poll)
code = run()
print(json.dumps({"code": code, **seen}), flush=True)
"""


def _stats(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((folder / "stats").glob("*"))]


@pytest.mark.skipif(sys.platform == "win32", reason="no SIGTERM/SIGHUP from outside on Windows")
@pytest.mark.parametrize("stop", ["SIGTERM", "SIGHUP"])
def test_a_stop_signal_mid_session_records_it_as_closing_the_window(
    tmp_path: Path, stop: str
) -> None:
    data = tmp_path / "data"
    env = dict(os.environ, POINTLINE_DATA_DIR=str(data), HOME=str(tmp_path))
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen(
        [sys.executable, "-c", APP],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # blocks until the throw is played (or the app died)
        assert line == "ready\n", (line, proc.stderr.read() if proc.stderr else "")
        assert _stats(data) == []  # nothing recorded before the signal
        proc.send_signal(getattr(signal, stop))
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err[-2000:]
    report = json.loads(out.strip().splitlines()[-1])
    assert report == {"code": 0, "throws": 1}
    [record] = _stats(data)
    assert record["reason"] == LEFT_CLOSED and record["throws"] == 1, record


# The real app, Play online: sign up, create a room, print its code, start once the test's
# player is in, print "ready" at the table; the test sends the signal.
ONLINE = """
import gc, json, sys
from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtQml import QQmlEngine
from pointline.gui.app import run
from pointline.gui.bridge import TableBridge
from pointline.gui.online.bridge import OnlineBridge

url = sys.argv[1]
said = set()
def say(word, *more):
    if word not in said:
        said.add(word)
        print(word, *more, flush=True)

def poll():
    QTimer.singleShot(20, poll)
    online = [o for o in gc.get_objects() if isinstance(o, OnlineBridge)]
    if not online:
        app = QGuiApplication.instance()
        shown = [w for w in app.topLevelWindows() if w.isVisible()] if app else []
        engine = QQmlEngine.contextForObject(shown[0]).engine() if shown else None
        solo = engine.findChild(TableBridge) if engine is not None else None
        if solo is not None and solo.sounds.available is not None and "online" not in said:
            say("online")
            solo.playOnline()
        return
    bridge = online[0]
    if bridge.screen == "signin" and "signup" not in said and not bridge.busy:
        say("signup")
        bridge.account.signUp(url, "sigterm_host", "sigterm-password")
    elif bridge.screen == "lobby" and not bridge.lobby.roomCode and "create" not in said:
        say("create")
        bridge.lobby.createRoom()
    elif bridge.screen == "lobby" and bridge.lobby.roomCode:
        say("code", bridge.lobby.roomCode)
        if bridge.lobby.canStart and "start" not in said:
            say("start")
            bridge.lobby.startRoom()
    elif bridge.screen == "table":
        say("ready")

QTimer.singleShot(0, poll)
code = run(relay=url)
print(json.dumps({"code": code}), flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="no SIGTERM from outside on Windows")
def test_a_stop_signal_mid_online_session_is_a_leave(tmp_path: Path) -> None:
    """Online, the signal takes the leave path: the other seat sees this seat's departure,
    and this seat's own transcript holds its notice, so verify reads a departure (OK)."""
    import asyncio

    from pointline.kernel import EndReason
    from pointline.net.client._relay_client import RelayClient
    from pointline.net.client._verify_command import verify_transcript
    from pointline.net.protocol._events import SessionEnded
    from tests.net.support import PASSWORD, RELAXED, relay, run

    data = tmp_path / "data"
    env = dict(os.environ, POINTLINE_DATA_DIR=str(data), HOME=str(tmp_path))
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), QT_QPA_PLATFORM="offscreen")

    async def scenario() -> None:
        async with relay(tmp_path) as running:
            app = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                ONLINE,
                running.url,
                cwd=ROOT,
                env=env,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
            assert app.stdout is not None and app.stderr is not None
            other = await RelayClient.connect(running.url, RELAXED)
            try:
                async with asyncio.timeout(60):
                    while not (line := (await app.stdout.readline()).decode()).startswith("code"):
                        assert line, (await app.stderr.read()).decode()[-2000:]
                    await other.signup("sigterm_guest", PASSWORD)
                    await other.join_room(line.split()[1])
                    while (line := (await app.stdout.readline()).decode()) != "ready\n":
                        assert line, (await app.stderr.read()).decode()[-2000:]
                    await other.wait_started(10)
                app.send_signal(signal.SIGTERM)
                async with asyncio.timeout(30):
                    ended = None
                    async for event in other.events():
                        if isinstance(event, SessionEnded):
                            ended = event
                            break
                    out, err = await app.communicate()
                assert ended == SessionEnded(EndReason.DEPARTURE, 0), ended
                assert app.returncode == 0, err.decode()[-2000:]
                assert json.loads(out.decode().strip().splitlines()[-1]) == {"code": 0}
            finally:
                if app.returncode is None:
                    app.kill()
                    await app.wait()
                await other.close()

    run(scenario(), timeout=90)
    [saved] = sorted((data / "transcripts").glob("*.jsonl"))
    report = verify_transcript(saved)
    assert report.ok and report.complete, report.text()
    assert report.summary.endswith("a departure from Seat 1, reported by that seat itself")
