"""Issue 41, "the close question fits the state and 'Close the app' closes it", with the real app
under a real X server: from the solo table, Play online; a guest seated at a running online
session closes the one window (as a
window manager's close button asks it to). It is asked first (the session would end for everyone;
before, it closed at once); "Keep playing" keeps the session; "Close the app" closes it: the
process exits cleanly and the session's transcript stays in the data folder.

The host's own question (guests seated at the table it hosts) is tested with the real app in
tests/realinput/test_host_close.py, on a link of its own (hosting announces the table by mDNS:
tests/netns.py keeps it off this machine's network), and in the one window offscreen
(tests/gui/online/test_gui_close_ask.py).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.net.support import PASSWORD
from tests.realinput.close_window import ask_to_close_from, visible_windows
from tests.realinput.driver import APP_NAME, RealApp, wait_for
from tests.realinput.test_orca import focused_name, relay_url, tab_to

__all__ = ["relay_url"]  # the fixture this module uses (defined in test_orca)

HOST = (sys.executable, "-m", "pointline.net.client")
"""A headless seat (``pointline-client``)."""
ROOM_CODE = re.compile(r"room code: (\S+)")


@pytest.fixture
def host(relay_url: str, tmp_path: Path) -> Iterator[tuple[str, list[str]]]:
    """A headless ``pointline-client`` seat that opens a room for two and starts it; its join
    code and the lines it printed so far. Its data folder is the test's own (the relay keys it
    pins and its transcripts stay out of the home folder)."""
    process = subprocess.Popen(
        [*HOST, "--url", relay_url, "--name", "host1", "--signup", "--seats", "2", "--wait", "120"],
        env=dict(
            os.environ, POINTLINE_PASSWORD=PASSWORD, POINTLINE_DATA_DIR=str(tmp_path / "host")
        ),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        lines.extend(line.rstrip() for line in process.stdout)

    threading.Thread(target=read, daemon=True).start()
    try:
        code = wait_for(
            "the host's room code",
            lambda: next((m[1] for line in lines if (m := ROOM_CODE.search(line))), None),
        )
        yield code, lines
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


QUESTION = "Close Pointline Table?"


def close_window(app: RealApp) -> None:
    """Ask the app's window to close, as a window manager does (on the app's own display, in
    its network namespace when it has one)."""
    prefix = app.x.prefix
    windows = wait_for("the window", lambda: visible_windows(app.x.env(), APP_NAME, prefix) or None)
    ask_to_close_from(prefix, app.x.display, windows[0])


def asked(app: RealApp) -> Any:
    return app.showing("dialog", QUESTION, prefix=True)


def test_a_guest_is_asked_and_close_the_app_closes_it(
    start_app: Any, relay_url: str, host: tuple[str, list[str]], tmp_path: Path
) -> None:
    code, _host_lines = host
    app = start_app(args=("--relay", relay_url))
    app.ready()
    app.click_button("Play online")  # the online screens, in the one window over the solo table
    wait_for("the name field", lambda: focused_name(app) == "Name", timeout=40)
    app.xdotool("type", "--delay", "20", "closer")
    app.key("Tab")
    app.xdotool("type", "--delay", "20", PASSWORD)
    tab_to(app, "Sign up")
    app.key("Return")
    wait_for("signed in", lambda: app.showing("push button", "Join"), timeout=30)
    tab_to(app, "Join code")
    app.xdotool("type", "--delay", "20", code)
    app.key("Return")
    # the table says where you are after its name (issue 40): "Online table, hand 1 of 5, …"
    wait_for("the online table", lambda: focused_name(app).startswith("Online table"), timeout=40)
    close_window(app)
    wait_for("the close question", lambda: asked(app))
    app.click_button("Keep playing (Esc)")
    wait_for("the question answered", lambda: asked(app) is None)
    assert app.app.poll() is None and app.showing("push button", "Allocate 10")
    close_window(app)
    wait_for("asked again", lambda: asked(app))
    app.click_button("Close the app")
    assert app.app.wait(timeout=30) == 0, app.app_log()  # the process exits cleanly
    assert "Traceback" not in app.app_log()
    transcripts = list((app.home / "data" / "pointline" / "transcripts").glob("*.jsonl"))
    assert len(transcripts) == 1 and transcripts[0].stat().st_size > 0, transcripts
