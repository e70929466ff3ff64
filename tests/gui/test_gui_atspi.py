"""The app as a Linux screen reader meets it: the AT-SPI tree and a throw's announcement.

A real window under Xvfb, a private D-Bus session with the accessibility bus, and a probe run
by Debian's Python with ``python3-pyatspi`` (tests/gui/atspi_probe.py). It needs the Debian
packages ``xvfb at-spi2-core python3-pyatspi dbus``; ``.ci/run`` installs them, and without
them this test is skipped with that list.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.realinput.driver import missing_packages

PROBE = Path(__file__).with_name("atspi_probe.py")
SYSTEM_PYTHON = "/usr/bin/python3"


def _missing() -> list[str]:
    return missing_packages((("xvfb-run", "xvfb"), ("dbus-run-session", "dbus")))


def test_the_accessible_tree_and_a_throw_announcement(tmp_path) -> None:
    missing = _missing()
    if missing:
        pytest.skip("needs the Debian packages " + " ".join(missing))
    env = dict(os.environ)
    env.pop("QT_QPA_PLATFORM", None)
    env.update(
        QT_QPA_PLATFORM="xcb",
        QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        POINTLINE_REDUCE_MOTION="0",  # the real result moment: the announcement comes after it
    )
    script = (
        f'"{sys.executable}" -m pointline.gui.cli & app=$!; '
        f'"{SYSTEM_PYTHON}" "{PROBE}" "Pointline Table"; status=$?; '
        "kill $app; wait $app; exit $status"
    )
    done = subprocess.run(
        [
            "dbus-run-session",
            "--",
            "xvfb-run",
            "-a",
            "-s",
            "-screen 0 1280x800x24",
            "bash",
            "-c",
            script,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=90,
        check=False,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert lines, done.stdout + done.stderr
    seen = json.loads(lines[-1])
    assert "error" not in seen, seen
    assert seen["left"] == [], seen  # every step happened before the probe's deadline
    # A first launch opens the guide as a dialog the screen reader names, with its way out.
    dialogs = [n["name"] for n in seen["guide"] if n["role"] == "dialog" and n["showing"]]
    assert any(name.startswith("Guide, step 1 of") for name in dialogs), dialogs
    guide_buttons = {
        n["name"] for n in seen["guide"] if n["role"] == "push button" and n["enabled"]
    }
    assert {"Skip (Esc)", "Next"} <= guide_buttons, guide_buttons
    buttons = {n["name"]: n for n in seen["nodes"] if n["role"] == "push button" and n["showing"]}
    # With the guide skipped, every button legal at the start is there with its name, enabled;
    # Reset has nothing to clear yet and is there, disabled.
    for name in ("Allocate 10", "Help (F1)", "New session", "Play online"):
        assert name in buttons and buttons[name]["enabled"], (name, sorted(buttons))
    assert "Reset" in buttons and not buttons["Reset"]["enabled"]
    assert not any(n["role"] == "dialog" and n["showing"] for n in seen["nodes"])
    roles = {n["role"] for n in seen["nodes"]}
    assert {"radio button", "heading", "list"} <= roles
    # Pressed through the Action interface, as a screen reader user does, a throw is announced.
    assert seen["pressed"] == ["Skip (Esc)", "Allocate 10", "Confirm"]
    assert any(a.startswith("Draft: Pass 10") for a in seen["announcements"])
    assert any(a.startswith("Rolled ") for a in seen["announcements"]), seen["announcements"]
