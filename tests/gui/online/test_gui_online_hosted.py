"""Host a table from the app, and join one nearby, by the taps a person makes (issue 32).

A real ``HostedTable`` runs in the host bridge's own loop on loopback (127.0.0.1, not announced:
tests never send multicast onto a real network; mDNS between two network namespaces is
tests/net/test_net_lan.py), and a real guest bridge lists it as the browser lists a table it
found (``Nearby.show_tables`` with the table's own announcement, address and port). Every step
is a click or typing in the online window, as QML does it; the taps are counted from the solo
table: "Play online" is one tap (tests/gui/online/test_gui_play_online.py drives it), plus the
clicks below.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from pointline.gui.online.bridge import OnlineBridge
from pointline.gui.online.texts import CERTIFICATE_CHANGED, FIRST_VISIT, FORGED, TRUSTED_NEW
from pointline.gui.tools.scenes import counter_nonces
from pointline.net.client._trust import UNENCRYPTED, KnownTables
from pointline.net.discovery import NearbyTable
from tests.gui.online_support import (
    FAST,
    PASSWORD,
    Window,
    on_qt_loop,
    play_by_bridge,
    turns_of,
    until,
    verified,
)

PLAY_ONLINE = 1
"""The solo table's "Play online": one tap before the online window's first screen."""


def host_bridge(folder: Path) -> OnlineBridge:
    bridge = OnlineBridge(timeouts=FAST, nonce_source=counter_nonces(b"host"))
    bridge.host.folder, bridge.host.address, bridge.host.announce = folder, "127.0.0.1", False
    return bridge


def guest_bridge(name: str) -> OnlineBridge:
    return OnlineBridge(timeouts=FAST, nonce_source=counter_nonces(name.encode()))


def listed(table: Any) -> dict[str, NearbyTable]:
    """The host's table as the guest's browser lists it."""
    service = f"{table.host_name}._pointline._tcp.local."
    return {service: NearbyTable(service, "127.0.0.1", table.running.port, table.announcement)}


class Taps:
    """Clicks in a window, counted."""

    def __init__(self, ui: Window) -> None:
        self.ui, self.count = ui, PLAY_ONLINE

    async def click(self, name: str) -> None:
        await self.ui.click(name)
        self.count += 1


async def host_a_table(ui: Window, name: str | None) -> int:
    """Host a table by taps (typing ``name`` the first time); the taps from the solo table."""
    taps = Taps(ui)
    await ui.frame()
    if name is not None:  # the first time: the focus waits in the name field
        await ui.activate()
        await until(lambda: ui.focus() == "fieldNameInput", what="focus on the name field")
        await ui.type(name)
    await taps.click("btnHost")
    bridge = ui.bridge
    await until(lambda: bridge.host.hosting and bridge.screen == "lobby", what="the host's room")
    return taps.count


async def join_nearby(ui: Window, table: Any, name: str | None = None) -> int:
    """A guest taps the table nearby (and, the first time, types a name and password and taps
    Join); the taps from the solo table until seated in its room."""
    taps = Taps(ui)
    bridge = ui.bridge
    bridge.nearby.show_tables(listed(table))
    await until(lambda: bridge.nearby.tables.rowCount() == 1, what="the table in the list")
    await ui.frame()
    await taps.click("nearbyTable0")
    if name is not None:
        await until(lambda: bridge.nearby.asking == "first", what="the first visit's words")
        assert bridge.nearby.question == FIRST_VISIT
        assert bridge.nearby.words.split() == list(table.words)  # the host's screen's words
        ui.item("fieldName").setProperty("text", name)  # typed once, as the fields take it
        ui.item("fieldPassword").setProperty("text", PASSWORD)
        await taps.click("btnNearbyGo")
    await until(lambda: bridge.screen == "lobby" and bridge.lobby.roomCode != "", what="seated")
    return taps.count


@on_qt_loop(timeout=120)
async def test_host_and_guest_play_a_session_at_a_hosted_table_in_few_taps(
    tmp_path: Path,
) -> None:
    host = Window(host_bridge(tmp_path / "host"), (1280, 720))
    guest = Window(guest_bridge("guest"), (390, 844))
    try:
        assert await host_a_table(host, "hoster") == 2  # Play online, Host (+ the name)
        table = host.bridge.host.table
        assert host.bridge.lobby.mySeat == 0 and host.bridge.host.tableName == "hoster's table"
        assert host.item("hostWords").property("text") == " ".join(table.words)
        assert "the host vouches for the names" in host.bridge.hostedNote
        assert "closing the table" in host.bridge.hostedNote
        assert await join_nearby(guest, table, "guesty") == 3  # Play online, table, Join
        await until(lambda: len(host.bridge.lobby.roster) == 2, what="the guest in the roster")
        assert list(host.bridge.host.players) == ["hoster", "guesty"]
        assert "hoster hosts this table" in guest.bridge.hostedNote
        await host.frame()
        assert host.focus() != "btnStart"  # Start never takes focus by itself
        await host.click("btnStart")
        bridges = [host.bridge, guest.bridge]
        async for turn in turns_of(bridges):
            play_by_bridge(turn)
        for bridge in bridges:
            await until(lambda b=bridge: b.screen == "results", what="the results")
            await verified(bridge)
            assert bridge.results.verifyOk, bridge.results.verifyText
            assert "vouches for the names" in bridge.hostedNote
        assert host.item("resultsHostedNote").property("visible")
        # a hosted table holds one session: back to Play online, where hosting again is a tap
        await host.click("btnBackToLobby")
        await until(lambda: host.bridge.screen == "signin", what="back to Play online")
        assert host.bridge.host.table is None and host.bridge.hostedNote == ""
        assert await host_a_table(host, None) == 2  # (Play online counted) Host as hoster
    finally:
        await host.bridge.shutdown()
        await guest.bridge.shutdown()


@on_qt_loop(timeout=60)
async def test_a_returning_host_and_guest_need_two_taps(tmp_path: Path) -> None:
    host = Window(host_bridge(tmp_path / "host"), (844, 390))
    first = Window(guest_bridge("first"), (390, 844))
    try:
        await host_a_table(host, "hoster")
        await join_nearby(first, host.bridge.host.table, "comeback")
        await first.bridge.shutdown()
        await host.bridge.shutdown()
        host.close()
        again = Window(host_bridge(tmp_path / "host"), (844, 390))  # the next game night
        await until(lambda: again.bridge.host.keptName == "hoster", what="the kept name")
        assert await host_a_table(again, None) == 2  # Play online, Host as hoster
        returning = Window(guest_bridge("again"), (390, 844))
        assert await join_nearby(returning, again.bridge.host.table) == 2  # Play online, table
        assert returning.bridge.account.name == "comeback"
        await returning.bridge.shutdown()
        await again.bridge.shutdown()
    finally:
        await first.bridge.shutdown()
        await host.bridge.shutdown()


@on_qt_loop(timeout=60)
async def test_a_changed_certificate_asks_and_a_forged_announcement_is_refused(
    tmp_path: Path, online_env: Path
) -> None:
    host = Window(host_bridge(tmp_path / "host"), (1280, 720))
    guest = Window(guest_bridge("guest"), (390, 844))
    try:
        await host_a_table(host, "hoster")
        table = host.bridge.host.table
        known = KnownTables(online_env)
        # a forged announcement: the host's name, another certificate: never trusted
        forged = dataclasses.replace(table.announcement, fingerprint="ab" * 32)
        bridge = guest.bridge
        bridge.nearby.show_tables({"x": NearbyTable("x", "127.0.0.1", table.running.port, forged)})
        bridge.nearby.choose("x")
        assert bridge.nearby.asking == "first"
        guest.item("fieldName").setProperty("text", "guesty")
        guest.item("fieldPassword").setProperty("text", PASSWORD)
        await guest.click("btnNearbyGo")
        await until(lambda: bridge.error == FORGED, what="the forged table refused")
        assert bridge.screen == "signin" and known.pinned("hoster") is None
        # the real table, pinned with another certificate before (a reinstall): it asks
        known.trust("hoster", "cd" * 32)
        bridge.nearby.show_tables(listed(table))
        bridge.nearby.choose(next(iter(listed(table))))
        assert bridge.nearby.asking == "changed" and bridge.nearby.question == CERTIFICATE_CHANGED
        assert bridge.nearby.words.split() == list(table.words)
        assert guest.item("btnNearbyGo").property("text") == "Trust the new certificate"
        assert known.pinned("hoster")[0] == "cd" * 32  # nothing changed by asking
        await guest.click("btnNearbyGo")  # the explicit choice
        await until(lambda: bridge.nearby.asking == "first", what="sign in after trusting")
        assert bridge.nearby.question == TRUSTED_NEW  # why the password is asked (finding 11)
        assert known.pinned("hoster")[0] == table.fingerprint
        await guest.click("btnNearbyGo")  # Join with the name and password typed
        await until(lambda: bridge.screen == "lobby", what="seated after trusting")
    finally:
        await host.bridge.shutdown()
        await guest.bridge.shutdown()


@on_qt_loop(timeout=60)
async def test_the_host_is_asked_before_closing_with_guests_seated(tmp_path: Path) -> None:
    host = Window(host_bridge(tmp_path / "host"), (1280, 720))
    guest = Window(guest_bridge("guest"), (390, 844))
    try:
        await host_a_table(host, "hoster")
        host.window.close()  # nobody seated but me: no question
        assert not host.bridge.host.closeQuestion.asked
    finally:
        await host.bridge.shutdown()
    host = Window(host_bridge(tmp_path / "host"), (1280, 720))
    try:
        await host_a_table(host, None)
        await join_nearby(guest, host.bridge.host.table, "guesty")
        await until(lambda: len(host.bridge.host.players) == 2, what="the guest seated")
        host.window.close()
        assert host.window.isVisible() and host.bridge.host.closeQuestion.asked
        # issue 41, finding 6: in the room no session has started, so none "ends for everyone"
        asked = host.item("closeText").property("text")
        assert "1 guest is in your room" in asked and "session" not in asked
        await host.click("btnCloseCancel")
        assert host.window.isVisible() and host.bridge.host.table is not None
        host.window.close()
        await host.click("btnCloseConfirm")
        await until(lambda: host.bridge.host.table is None, what="the table closed")
        await until(lambda: guest.bridge.screen == "signin" or guest.bridge.error != "")
    finally:
        await host.bridge.shutdown()
        await guest.bridge.shutdown()


@on_qt_loop(timeout=30)
async def test_a_ws_address_says_plainly_it_is_not_encrypted() -> None:
    ui = Window(guest_bridge("typist"), (390, 844))
    await ui.frame()
    field, warning = ui.item("fieldRelay"), ui.item("relayWarning")
    field.setProperty("text", "ws://192.168.1.20:8765")
    await ui.frame()
    assert warning.property("visible") and warning.property("text") == UNENCRYPTED
    field.setProperty("text", "wss://192.168.1.20:8765")
    await ui.frame()
    assert not warning.property("visible")


@on_qt_loop(timeout=60)
async def test_a_phone_host_going_to_the_background_ends_the_session_and_stops_the_relay(
    tmp_path: Path, monkeypatch: Any
) -> None:
    from PySide6.QtCore import Qt

    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "1")
    host = Window(host_bridge(tmp_path / "host"), (390, 844))
    guest = Window(guest_bridge("guest"), (390, 844))
    try:
        await host_a_table(host, "phonehost")
        table = host.bridge.host.table
        await join_nearby(guest, table, "guesty")
        await until(lambda: host.bridge.lobby.canStart, what="two seated")
        await host.click("btnStart")
        await until(lambda: guest.bridge.screen == "table", what="the session running")
        host.bridge.applicationStateChanged(Qt.ApplicationState.ApplicationSuspended.value)
        await until(lambda: table.running is None, what="the relay stopped")
        assert host.bridge.host.table is None and not host.bridge.host.hosting
        await until(lambda: guest.bridge.screen == "results", what="the guest's ending")
        ended = guest.bridge.results.endText
        assert ended and "background" in ended.lower(), ended
        peer = guest.bridge.peer
        assert peer is None or peer.is_finished
    finally:
        await host.bridge.shutdown()
        await guest.bridge.shutdown()


@on_qt_loop(timeout=30)
async def test_a_build_without_the_relay_says_so_in_plain_words(
    tmp_path: Path, monkeypatch: Any
) -> None:
    import sys

    from pointline.gui.online.host import NOT_IN_THIS_BUILD

    monkeypatch.setitem(sys.modules, "pointline.net.hosting", None)  # as on the phone, so far
    ui = Window(host_bridge(tmp_path / "host"), (390, 844))
    await ui.activate()
    await until(lambda: ui.focus() == "fieldNameInput", what="focus on the name field")
    await ui.type("hoster")
    await ui.click("btnHost")
    await until(lambda: ui.bridge.error == NOT_IN_THIS_BUILD, what="the plain words")
    assert ui.bridge.screen == "signin" and not ui.bridge.host.hosting
