"""A game night's seams in the online screens (issue 41): a new guest types a name and a
password where the focus already is and Enter joins; the typed address never takes a hosted
table's address; a host closing the table is said as such, not as a lost connection; a club's
relay tapped in the list goes into the sign-in form."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt

from pointline.gui.online.texts import DEFAULT_RELAY, RELAY_NEARBY
from pointline.net.discovery import Announcement, NearbyTable
from tests.gui.online.test_gui_online_hosted import (
    PLAY_ONLINE,
    guest_bridge,
    host_a_table,
    host_bridge,
    listed,
)
from tests.gui.online_support import PASSWORD, Window, on_qt_loop, until


@on_qt_loop(timeout=90)
async def test_a_new_guest_types_where_the_focus_is_and_enter_joins(tmp_path: Path) -> None:
    """Finding 2: tapping a table put the focus on "Don't join" (the Name field needed its own
    tap) and Enter cancelled the join; now: tap the table, type, Tab, type, Enter — seated."""
    host = Window(host_bridge(tmp_path / "host"), (844, 390))
    guest = Window(guest_bridge("newcomer"), (390, 844))
    guest.bridge.nearby.folder = tmp_path / "guest"
    try:
        await host_a_table(host, "hoster")
        table = host.bridge.host.table
        bridge = guest.bridge
        bridge.nearby.show_tables(listed(table))
        await until(lambda: bridge.nearby.tables.rowCount() == 1, what="the table in the list")
        await guest.frame()
        await guest.activate()
        await guest.click("nearbyTable0")
        taps = PLAY_ONLINE + 1
        await until(lambda: bridge.nearby.asking == "first", what="the first visit's words")
        await until(lambda: guest.focus() == "fieldNameInput", what="the focus in the Name field")
        await guest.type("newcomer")
        await guest.key(Qt.Key.Key_Tab)
        await until(lambda: guest.focus() == "fieldPasswordInput", what="the password field")
        await guest.type(PASSWORD)
        await guest.key(Qt.Key.Key_Return)
        await until(lambda: bridge.screen == "lobby" and bridge.lobby.roomCode != "", what="seated")
        assert taps <= 4  # the goal for a new guest, from the solo table
        # finding 8: the typed address is not the hosted table's wss://…:port, dead once it
        # closes; it still holds what it held before
        assert bridge.account.relayUrl == DEFAULT_RELAY
        assert str(table.running.port) not in bridge.account.relayUrl
    finally:
        await guest.bridge.shutdown()
        await host.bridge.shutdown()


@on_qt_loop(timeout=90)
async def test_the_host_closing_the_table_is_said_in_the_guests_lobby(tmp_path: Path) -> None:
    """Finding 5: from the lobby the guest read "The relay connection was lost: sign in again
    when it is back"; the host's relay now closes with "going away" and the guest reads that
    the host closed the table."""
    from tests.gui.online.test_gui_online_hosted import join_nearby

    host = Window(host_bridge(tmp_path / "host"), (844, 390))
    guest = Window(guest_bridge("stayer"), (390, 844))
    guest.bridge.nearby.folder = tmp_path / "guest"
    try:
        await host_a_table(host, "hoster")
        await join_nearby(guest, host.bridge.host.table, "stayer")
        await host.bridge.shutdown()  # the host closes up: its relay stops
        bridge = guest.bridge
        await until(lambda: bridge.screen == "signin", what="the guest back at sign-in")
        assert bridge.error == "hoster closed the table."
        assert "lost" not in bridge.error
    finally:
        await guest.bridge.shutdown()


@on_qt_loop(timeout=30)
async def test_a_club_relay_tapped_in_the_list_goes_into_the_sign_in_form() -> None:
    """Finding 12: a relay announced with ``pointline-relay --announce`` is listed; tapping it
    asks once, and "Use this relay" puts its address in the typed field."""
    guest = Window(guest_bridge("clubber"), (390, 844))
    bridge = guest.bridge
    try:
        club = Announcement(kind="relay", name="Chess club", fingerprint="ab" * 32, rooms=3)
        service = "club._pointline._tcp.local."
        url = "wss://127.0.0.1:47000"
        bridge.nearby.show_tables({service: NearbyTable(service, "127.0.0.1", 47000, club)})
        await until(lambda: bridge.nearby.tables.rowCount() == 1, what="the club in the list")
        await guest.frame()
        await guest.click("nearbyTable0")
        await until(lambda: bridge.nearby.asking == "relay", what="the club's question")
        assert bridge.nearby.question == RELAY_NEARBY
        await guest.frame()
        assert guest.item("btnNearbyGo").property("text") == "Use this relay"
        await guest.click("btnNearbyGo")
        await until(lambda: bridge.nearby.asking == "", what="the sign-in form")
        assert bridge.account.relayUrl == url
    finally:
        await guest.bridge.shutdown()


@on_qt_loop(timeout=90)
async def test_forget_beside_a_kept_table_is_the_one_way_to_drop_its_sign_in(
    tmp_path: Path,
) -> None:
    """Issue 41: leaving keeps the sign-in, so the list offers "Forget" beside a table this app
    keeps one for (and only there); tapping it drops the token and the offer."""
    import json

    from pointline.net.joining import GUEST_TOKENS_FILE
    from tests.gui.online.test_gui_online_hosted import join_nearby

    host = Window(host_bridge(tmp_path / "host"), (844, 390))
    guest = Window(guest_bridge("keeper"), (390, 844))
    folder = tmp_path / "guest"
    guest.bridge.nearby.folder = folder
    back: Window | None = None
    try:
        await host_a_table(host, "hoster")
        table = host.bridge.host.table
        await join_nearby(guest, table, "keeper")
        left: list[bool] = []
        guest.bridge.left.connect(lambda: left.append(True))
        guest.bridge.leave()
        await until(lambda: left, what="back at the solo table")
        back = Window(guest_bridge("keeper"), (390, 844))  # Play online again
        nearby = back.bridge.nearby
        nearby.folder = folder
        nearby.show_tables(listed(table))
        await until(lambda: nearby.tables.rowCount() == 1, what="the table listed")
        assert [row["kept"] for row in nearby.tables.rows] == [True]
        await back.frame()
        forget = back.item("nearbyForget0")
        assert forget.property("visible") and forget.property("text") == "Forget"
        await back.click("nearbyForget0")
        await until(
            lambda: json.loads((folder / GUEST_TOKENS_FILE).read_text())["tokens"] == {},
            what="the sign-in forgotten",
        )
        await until(lambda: not forget.property("visible"), what="no more offer to forget")
        assert [row["kept"] for row in nearby.tables.rows] == [False]
    finally:
        for ui in (back, guest, host):
            if ui is not None:
                await ui.bridge.shutdown()


@on_qt_loop(timeout=30)
async def test_a_blip_reads_reconnecting_and_then_nothing_more() -> None:
    """Issue 43: while the client takes its seat back the screen says "Reconnecting…" (and a
    screen reader hears it); once it is back the line clears, with no other word."""
    from pointline.net.client import RECONNECTING, Reconnected, Reconnecting

    ui = Window(guest_bridge("blipper"), (844, 390))
    bridge = ui.bridge
    try:
        await ui.frame()
        bridge._on_event(Reconnecting("no pong within 3 s"))  # as the client's pump hands it
        assert bridge.error.lower() == RECONNECTING
        assert "pong" not in bridge.error  # the reason is for logs, never for people
        bridge._on_event(Reconnected(resent=1))
        assert bridge.error == ""
    finally:
        await bridge.shutdown()


@on_qt_loop(timeout=30)
async def test_a_table_of_another_app_version_is_listed_in_words_and_never_joined() -> None:
    """Issue 41, "Versions meet": a host of a newer (or older) app is listed with plain words,
    and tapping it says so before any sign-in; nothing is sent to it."""
    from pointline.net.discovery import PROTOCOL_VERSION

    guest = Window(guest_bridge("updater"), (390, 844))
    bridge = guest.bridge
    try:
        tables = {}
        for host, version in (("newhost", PROTOCOL_VERSION + 1), ("oldhost", PROTOCOL_VERSION)):
            ann = Announcement(
                kind="table",
                name=f"{host}'s table",
                fingerprint="cd" * 32,
                host=host,
                seats=1,
                room="ABCDEG",
            )
            service = f"{host}._pointline._tcp.local."
            tables[service] = NearbyTable(
                service, "127.0.0.1", 47001, replace(ann, version=version)
            )
        bridge.nearby.show_tables(tables)
        await until(lambda: bridge.nearby.tables.rowCount() == 2, what="both listed")
        labels = [row["label"] for row in bridge.nearby.tables.rows]
        assert labels == [
            "newhost's table · 1 seated · needs a newer app",
            "oldhost's table · 1 seated",
        ]
        await guest.frame()
        await guest.click("nearbyTable0")
        assert bridge.error == "newhost's table runs a newer Pointline: update this app to join it."
        assert bridge.nearby.asking == "" and bridge.client is None  # nothing asked, nothing sent
    finally:
        await bridge.shutdown()


@on_qt_loop(timeout=60)
async def test_a_club_relays_lobby_does_not_repeat_a_hosted_tables_words(tmp_path: Path) -> None:
    """Finding 7: after a hosted table, a relay signed in by its address showed that table's
    "hostana hosts this table … vouches for the names"."""
    from tests.gui.online_support import at_sign_in, fresh_name, sign_up_and_create_by_keys

    async with at_sign_in(tmp_path) as played:
        bridge, ui = played.bridge, played.window
        bridge.set_hosted("hostana", False)  # as seated at hostana's table earlier
        assert "hostana" in bridge.hostedNote
        await sign_up_and_create_by_keys(ui, fresh_name("club"))
        assert bridge.screen == "lobby" and bridge.hostedNote == ""
