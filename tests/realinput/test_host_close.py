"""The host's close question with the real app under a real X server (issue 41: "the close
question fits the state and 'Close the app' closes it"; before, only offscreen:
tests/gui/online/test_gui_close_ask.py). The host's device is a network namespace of its own
with its own Xvfb (hosting announces the table by mDNS: it stays on the test's link,
tests/netns.py); the guest is a headless device on the other end of the link
(tests/realinput/seated_guest.py) that finds the table, signs up and sits in the host's room.

The host closes the window as a window manager's close button asks it to: the question shows,
and the footer says what Escape does there (solo's words); Escape keeps the table, the guest
still seated and told nothing; closing again and choosing "Close the app" closes the table
and the app, and the guest is told the host closed it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pointline.gui.online.texts import FREE_POINTS
from pointline.gui.texts import close_keys
from pointline.net.client import TableClosed
from tests.netns import Netns, linked_namespaces
from tests.realinput.driver import ROOT, RealX, require_packages, wait_for
from tests.realinput.test_close_question import asked, close_window
from tests.realinput.test_game_night import HOST, Device, open_table, text_of

GUEST = "guestbo"
ACTOR = "tests.realinput.seated_guest"


@pytest.fixture
def host_and_guest(tmp_path: Path) -> Iterator[tuple[Device, Netns]]:
    """The host's device (its namespace and screen) and the guest's end of the link."""
    require_packages()
    with linked_namespaces("plc", 233) as (a, b):
        host = Device(a.name, a.address, tmp_path / "host")
        try:
            host.x = RealX(prefix=a.prefix)
            yield host, b
        finally:
            for app in host.apps:
                app.close()
            if host.x is not None:
                host.x.close()


def test_the_host_is_asked_esc_keeps_the_table_and_close_tells_the_guest(
    host_and_guest: tuple[Device, Netns], tmp_path: Path
) -> None:
    host, guest_end = host_and_guest
    said = tmp_path / "guest.out"

    def told() -> list[str]:
        return said.read_text(encoding="utf-8").splitlines()

    with said.open("w", encoding="utf-8") as out:
        guest = subprocess.Popen(
            [*guest_end.prefix, sys.executable, "-m", ACTOR, guest_end.address, GUEST],
            cwd=ROOT,
            env={**os.environ, "POINTLINE_DATA_DIR": str(tmp_path / "guest")},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        hosting, _words = open_table(host)  # the guest looks for the table meanwhile
        wait_for("the guest seated", lambda: any(x.startswith("seated ") for x in told()), 40)
        wait_for("the guest in the host's room", lambda: text_of(hosting, "Roster: 2 of"))

        close_window(hosting)
        wait_for("the close question", lambda: asked(hosting))
        question = text_of(hosting, "1 guest is in your room")
        assert question is not None and "Closing the app closes the table" in question
        # the footer says what the keys do on the question, as the solo table's does
        keys = close_keys("Keep playing (Esc)")
        footer = wait_for("the footer", lambda: text_of(hosting, f"{FREE_POINTS}. {keys}"))
        assert "Esc keeps playing" in footer
        hosting.key("Escape")  # keeps playing, as the footer said
        wait_for("the question answered", lambda: asked(hosting) is None)
        assert text_of(hosting, "Roster: 2 of") is not None  # the table kept, the guest seated
        assert guest.poll() is None and told() == [x for x in told() if x.startswith("seated")]

        close_window(hosting)
        wait_for("asked again", lambda: asked(hosting))
        hosting.click_button("Close the app")
        assert hosting.app.wait(timeout=30) == 0, hosting.app_log()  # the app closes
        assert "Traceback" not in hosting.app_log()
        assert guest.wait(timeout=30) == 0, told()
        assert f"told {TableClosed(HOST).text}" in told(), told()  # "hostana closed the table."
    finally:
        if guest.poll() is None:
            guest.kill()
            guest.wait()
