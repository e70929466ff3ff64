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
