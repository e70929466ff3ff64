"""A game night as people play it (issue 41), with real parts: two real app processes, each a
device of its own — its own network namespace on one veth link, its own Xvfb, D-Bus session bus
and data folder — driven by XTEST clicks and keys and read through AT-SPI. Nothing hands the
guest an address: it finds the table by real mDNS, as a phone on the same Wi-Fi would.

The evening: the host hosts by taps; a new guest finds the table in Tables nearby, compares the
certificate words, signs up and plays a hand; the guest leaves the table, quits the app and
relaunches it, and is back in the host's next room in two taps; the host closes up and the
guest reads it and no longer lists the table; the guest watches the session again at 390x844.
The taps are the clicks this test sends, counted from the solo table (README "Play with
friends in the same room"). A club's relay (``pointline-relay --announce``) stands in the same
building the whole evening: once it shows in a fresh list, every table that answers has too,
so a table missing beside it is truly gone (no test waits out a record's TTL).

The second test kills the host's app (SIGKILL: no goodbye, no close) with a guest in its room.

Needs root and iproute2 for the namespaces as well as the real-input packages; under
``CI=true`` a missing part fails, elsewhere it skips saying why.
"""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pointline.gui.online.texts import host_vanished
from tests.net.support import PASSWORD
from tests.netns import linked_namespaces
from tests.realinput.driver import STATUS, RealApp, RealX, require_packages, wait_for

HOST = "hostana"
GUEST = "guestbo"
TABLE = f"{HOST}'s table"
CLUB = "Chess club"
PROMISE = 35.0
"""README: a table leaves every list "within about half a minute, at once when the host's app
says goodbye"; discovery's bound for a host that vanished is ~35 s (net/discovery.py)."""
PHONE = (390, 844)
LOST = host_vanished(HOST)


# ---------------------------------------------------------------------- the devices
@dataclass
class Device:
    """One device: a network namespace with an address on the shared link, and its screen."""

    ns: str
    address: str
    home: Path
    x: RealX | None = None
    apps: list[RealApp] = field(default_factory=list)
    taps: int = 0

    def launch(self, *args: str) -> RealApp:
        assert self.x is not None
        app = RealApp(self.x, self.home, args=args)
        self.apps.append(app)
        return app


@pytest.fixture
def lan(tmp_path: Path) -> Iterator[tuple[Device, Device]]:
    """The host's device and the guest's, on one link (tests/netns.py)."""
    require_packages()
    with linked_namespaces("plg", 232) as (a, b):
        host = Device(a.name, a.address, tmp_path / "host")
        guest = Device(b.name, b.address, tmp_path / "guest")
        try:
            host.x = RealX(prefix=a.prefix)
            guest.x = RealX(1280, 900, prefix=b.prefix)  # 390x844 fits
            yield host, guest
        finally:
            for device in (host, guest):
                for app in device.apps:
                    app.close()
                if device.x is not None:
                    device.x.close()


@pytest.fixture
def club(lan: tuple[Device, Device], tmp_path: Path) -> Iterator[None]:
    """A club's relay announced on the host's side of the link all evening (the list's control)."""
    host, _ = lan
    relay = subprocess.Popen(
        [
            *("ip", "netns", "exec", host.ns),
            str(Path(sys.executable).with_name("pointline-relay")),
            *("--announce", CLUB, "--host", host.address, "--port", "8765"),
            *("--db", str(tmp_path / "club.sqlite3")),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    yield
    relay.terminate()
    try:
        relay.wait(timeout=20)
    except subprocess.TimeoutExpired:
        relay.kill()
        relay.wait()


# ---------------------------------------------------------------------- reading and tapping
def button(app: RealApp, name: str, prefix: bool = False) -> dict[str, Any] | None:
    node = app.showing("push button", name, prefix)
    return node if node is not None and node["enabled"] else None


def tap(device: Device, app: RealApp, name: str, prefix: bool = False, timeout: float = 30) -> None:
    """Click the showing, enabled button ``name`` (one tap, counted on ``device``)."""
    found = wait_for(f"the button {name!r}", lambda: button(app, name, prefix), timeout)
    app.click(*found["center"])
    device.taps += 1


def text_of(app: RealApp, prefix: str) -> str | None:
    """The name of the showing node whose name starts with ``prefix`` (no-break spaces read as
    spaces: the replay's seat lines keep "Pass 0" together with one)."""
    for node in app.nodes() or []:
        name = str(node["name"] or "").replace("\u00a0", " ")
        if node["showing"] and name.startswith(prefix):
            return name
    return None


def focused(app: RealApp) -> str:
    return str((app.focused() or {}).get("name") or "")


def focus_on(app: RealApp, name: str) -> None:
    seen: list[str] = []
    with contextlib.suppress(AssertionError):
        wait_for(f"the focus on {name}", lambda: seen.append(focused(app)) or seen[-1] == name)
        return
    now = [n for n in app.nodes() or [] if n["focused"] or n["role"] in ("text", "password text")]
    raise AssertionError(f"the focus never reached {name!r}: last on {seen[-1:]!r} {now}")


def typed(app: RealApp, text: str) -> None:
    app.xdotool("type", "--delay", "20", text)


def in_room(app: RealApp) -> bool:
    return text_of(app, "Roster: 2 of") is not None


def listed(app: RealApp, name: str) -> dict[str, Any] | None:
    return app.showing("push button", name, prefix=True)


def open_table(host: Device) -> tuple[RealApp, str]:
    """The host, from the solo table: Play online, a name the first time, Host a table."""
    app = host.launch()
    app.ready()
    host.taps = 0
    tap(host, app, "Play online")
    focus_on(app, "Name")
    typed(app, HOST)
    tap(host, app, "Host a table")
    words = wait_for("the certificate words", lambda: text_of(app, "Certificate words "))
    assert host.taps <= 3, host.taps  # the goal for a host
    return app, words.removeprefix("Certificate words ")


def join_new(guest: Device, words: str) -> RealApp:
    """A new guest in the README's order: Play online, the table, the words, name and password,
    Join."""
    app = guest.launch()
    app.ready()
    guest.taps = 0
    tap(guest, app, "Play online")
    tap(guest, app, TABLE, prefix=True)
    shown = wait_for("the words on the guest", lambda: text_of(app, "Certificate words "))
    assert shown == f"Certificate words {words}"  # the same four words as the host's screen
    focus_on(app, "Name")
    typed(app, GUEST)
    app.key("Return")  # the keyboard's Next: the password field
    # (the password field is focused; over AT-SPI it has no name: its role says what it is)
    wait_for("the focus in Password", lambda: (app.focused() or {}).get("role") == "password text")
    typed(app, PASSWORD)
    tap(guest, app, "Join")
    wait_for("the guest in the room", lambda: in_room(app))
    assert guest.taps <= 4, guest.taps  # the goal for a new guest
    return app


def status(app: RealApp) -> tuple[int, int] | None:
    """The showing table's hand and throw (the solo table's status waits, hidden, beneath)."""
    for node in app.nodes() or []:
        found = STATUS.fullmatch(node["name"] or "")
        if found and node["showing"]:
            return int(found.group(2)), int(found.group(4))
    return None


def play_a_hand(host: RealApp, guest: RealApp) -> None:
    """Each puts 10 on the Pass line and confirms; both roll until hand 2."""
    for app in (host, guest):
        app.click(*wait_for("Allocate", lambda a=app: button(a, "Allocate 10"), 30)["center"])
        wait_for("Confirm", lambda a=app: button(a, "Confirm"))
    for _ in range(40):
        if all((status(app) or (1, 0))[0] >= 2 for app in (host, guest)):
            return
        for app in (host, guest):
            for name in ("Confirm", "Roll"):
                node = button(app, name)
                if node is None:
                    continue
                before = status(app)
                app.click(*node["center"])
                try:
                    wait_for(
                        f"{name} taken",
                        lambda a=app, n=name, b=before: button(a, n) is None or status(a) != b,
                    )
                except AssertionError:
                    dump = [
                        (n["role"], n["name"], n["enabled"], n["focused"])
                        for n in app.nodes() or []
                        if n["showing"]
                    ]
                    raise AssertionError(f"{name} stuck: {before} {dump}") from None
                break
        wait_for(
            "a throw or the next choice",
            lambda: (
                any(button(a, n) for a in (host, guest) for n in ("Confirm", "Roll"))
                or all((status(a) or (1, 0))[0] >= 2 for a in (host, guest))
            ),
            timeout=60,
        )
    raise AssertionError("hand 1 never resolved")


# ---------------------------------------------------------------------- the evening
def test_a_whole_game_night_on_two_devices(lan: tuple[Device, Device], club: None) -> None:
    host, guest = lan
    hosting, words = open_table(host)
    guest_app = join_new(guest, words)

    tap(host, hosting, "Start (2 in)")
    play_a_hand(hosting, guest_app)

    # the guest leaves the table (the session ends for everyone), then quits the app
    tap(guest, guest_app, "Leave table")
    tap(guest, guest_app, "Leave and end it")
    tap(guest, guest_app, "Back to solo table")
    guest_app.ready()
    guest_app.close()
    assert guest_app.app.returncode == 0, guest_app.app_log()
    transcripts = sorted((guest.home / "data" / "pointline" / "transcripts").glob("*"))
    assert transcripts, "the guest's session was not saved"

    # the host opens the next room: one tap with the kept name
    tap(host, hosting, "Back to Play online")
    tap(host, hosting, f"Host a table as {HOST}")
    wait_for("the host's next room", lambda: text_of(hosting, "Roster: 1 of"))

    # the guest relaunches: two taps and it is in the host's next room, no password asked
    again = guest.launch()
    again.ready()
    guest.taps = 0
    tap(guest, again, "Play online")
    tap(guest, again, TABLE, prefix=True)
    wait_for("the returning guest in the room", lambda: in_room(again))
    assert guest.taps <= 2, guest.taps

    # the host closes up: the guest reads it, and a fresh list has the club but not the table
    tap(host, hosting, "Close the table")
    wait_for("the close said", lambda: text_of(again, f"{HOST} closed the table"), PROMISE)
    wait_for("the club in the list", lambda: listed(again, CLUB), PROMISE)
    assert listed(again, TABLE) is None

    # watch the session again on a phone's screen
    again.close()
    replay = guest.launch("--size", f"{PHONE[0]}x{PHONE[1]}", "replay", str(transcripts[-1]))
    wait_for("verify's verdict", lambda: replay.showing("label", "OK"), timeout=40)
    (window,) = wait_for("the window", replay.windows)
    assert (window["width"], window["height"]) == PHONE
    ending = text_of(replay, "table ")
    assert ending is not None and "ended without a result: a departure from Seat 2" in ending
    assert text_of(replay, f"Seat 2 {GUEST}: 1,000 · Pass 0") is not None  # before throw 1
    tap(guest, replay, "End")
    wait_for("the last throw", lambda: text_of(replay, f"Seat 2 {GUEST}: 1,000") is None)


def test_a_killed_host_leaves_the_guest_told_and_the_list_true(
    lan: tuple[Device, Device], club: None
) -> None:
    host, guest = lan
    hosting, words = open_table(host)
    guest_app = join_new(guest, words)
    hosting.app.send_signal(signal.SIGKILL)
    hosting.app.wait()
    # no goodbye and no close frame: the guest is told, back where the tables are listed
    said = wait_for("the guest told", lambda: guest_app.showing("alert", LOST), PROMISE)
    assert said["name"] == LOST
    assert "closed the table" not in said["name"]  # nobody saw the host close anything
    # a fresh list: the club answers, the killed table does not (and is never listed)
    wait_for("the club in the list", lambda: listed(guest_app, CLUB), PROMISE)
    assert listed(guest_app, TABLE) is None
