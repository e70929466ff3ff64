"""Issue 30, finding 4, on a real X server: Start never takes the focus when a player joins.

The online app (``pointline --online``) against a private relay on loopback; its creator signs
up and creates a room by XTEST keys; a headless player joins by the code read through AT-SPI.
Start turns on, the focus stays on the join code, and a stray Space starts nothing (the words
are compared out loud first); the creator reaches Start by Tab.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from pointline.net.client._relay_client import RelayClient
from tests.net.support import PASSWORD, relay
from tests.realinput.driver import RealApp, wait_for
from tests.realinput.loop_thread import LoopThread


@pytest.fixture
def relay_url(tmp_path: Path) -> Iterator[tuple[LoopThread, str]]:
    loop = LoopThread()
    stack = contextlib.AsyncExitStack()
    running = loop.run(stack.enter_async_context(relay(tmp_path / "relay")))
    yield loop, running.url
    loop.run(stack.aclose())
    loop.close()


def focused_name(app: RealApp) -> str:
    return str((app.focused() or {}).get("name") or "")


def tab_to(app: RealApp, name: str, most: int = 8) -> None:
    """Tab until ``name`` has the focus: each Tab is waited for (the focus moves) before the
    next, so the count never races the app; fails after ``most`` Tabs."""
    for _ in range(most):
        before = focused_name(app)
        app.key("Tab")
        now = wait_for("the focus to move", lambda b=before: (focused_name(app) != b) or None)
        if focused_name(app) == name:
            return
        assert now
    raise AssertionError(f"{name} never took the focus in {most} Tabs")


def marker(app: RealApp) -> None:
    """Every key sent so far has been handled: Help opened by F1 after them, then closed."""
    app.key("F1")
    wait_for("Help", lambda: app.showing("dialog", "Help", prefix=True))
    app.key("Escape")
    wait_for("Help closed", lambda: app.showing("dialog", "Help", prefix=True) is None)


def test_start_never_takes_the_focus(start_app, relay_url) -> None:
    loop, url = relay_url
    app = start_app(args=("--online", "--relay", url))
    wait_for("the name field", lambda: focused_name(app) == "Name", timeout=40)
    app.xdotool("type", "--delay", "20", "creator1")
    app.key("Tab")
    app.xdotool("type", "--delay", "20", PASSWORD)
    tab_to(app, "Sign up")
    app.key("Return")
    wait_for("Create a room", lambda: focused_name(app) == "Create a room")
    app.key("space")
    code_label = wait_for("the join code", lambda: app.showing("label", "Room join code", True))
    code = "".join(re.sub(r"^Room join code ", "", code_label["name"]).split())

    async def join() -> RelayClient:
        peer = await RelayClient.connect(url)
        await peer.signup("joiner1", PASSWORD)
        await peer.join_room(code)
        return peer

    peer = loop.run(join())
    try:
        start = "Start (2 in)"
        wait_for("Start on", lambda: (app.showing("push button", start) or {}).get("enabled"))
        marker(app)  # the lobby's focus rules have run (and run again as Help closes)
        assert focused_name(app).startswith("Room join code"), app.focused()
        app.key("space", "Return")  # stray keys: nothing starts
        marker(app)
        assert app.showing("push button", "Start (2 in)") is not None
        assert focused_name(app).startswith("Room join code"), app.focused()
        # the creator's own way: Tab from the join code down to Start, the lowest button (under
        # the thumb on a phone: Sign out and Back to solo sit above it, issue 39)
        tab_to(app, "Start (2 in)", most=4)
    finally:
        loop.run(peer.close())
