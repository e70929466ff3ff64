"""The host screen of a hosted table (issue 41, finding 11, the host's half): it showed the
certificate words, the roster's words ("compare the words out loud") and a join code a hosted
table never needs, so a newcomer did not know which words to compare. Now it shows what the
table needs — where guests find it with the certificate words they compare, who is in, Start —
explains the roster's words once, telling them apart from the certificate's, and shows no code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtQuick import QQuickItem

from pointline.gui.online.bridge import RECONNECTING_LINE
from pointline.gui.online.texts import (
    HOST_ROSTER_WORDS,
    MAX_PEOPLE,
    host_share,
    host_vanished,
    who_is_in,
)
from tests.gui.online.test_gui_online_hosted import (
    guest_bridge,
    host_a_table,
    host_bridge,
    join_nearby,
)
from tests.gui.online_support import Window, on_qt_loop, until


def kill(table: Any) -> None:
    """The host's process dies: its sockets close with no close frame, nothing listens."""
    server = table.running.server
    server.close(close_connections=False)
    for connection in list(server.connections):
        connection.transport.abort()


def shown_texts(ui: Window) -> list[str]:
    """Every text the window shows now (visible items with a non-empty ``text``)."""
    root = ui.window.contentItem()
    found: list[str] = []

    def walk(item: Any) -> None:
        if not item.isVisible():
            return
        text = item.property("text")
        if isinstance(text, str) and text.strip():
            found.append(text)
        for child in item.childItems():
            walk(child)

    walk(root)
    return found


@on_qt_loop(timeout=90)
async def test_the_host_screen_shows_what_a_hosted_table_needs(tmp_path: Path) -> None:
    host = Window(host_bridge(tmp_path / "host"), (1280, 720))
    guest = Window(guest_bridge("guesty"), (390, 844))
    try:
        await host_a_table(host, "hoster")
        table = host.bridge.host.table
        await host.frame()
        # where guests find it, and the words they compare before joining
        share = host.item("hostShare").property("text")
        assert share == host_share("hoster's table")
        assert "certificate words" in share
        assert host.item("hostWords").property("text") == " ".join(table.words)
        # no join code: guests tap the table nearby; the focus rests on the words instead
        assert not host.item("roomCodeBox").property("visible")
        await until(lambda: host.focus() == "hostPanel", what="the focus on the host's panel")
        code = host.bridge.lobby.roomCode
        with_code = [text for text in shown_texts(host) if code in text]
        assert code and not with_code, with_code

        await join_nearby(guest, table, "guesty")
        await until(lambda: len(host.bridge.lobby.roster) == 2, what="the guest in")
        await host.frame()
        assert host.item("rosterHeading").property("text") == who_is_in(2, MAX_PEOPLE)
        assert host.item("btnStart").property("enabled")
        # the roster's words explained once, told apart from the certificate's
        texts = shown_texts(host)
        assert sum("session key" in text for text in texts) == 1, texts
        assert sum("out loud" in text for text in texts) == 1, texts
        assert host.item("rosterWordsNote").property("text") == HOST_ROSTER_WORDS
        assert "certificate words" in HOST_ROSTER_WORDS
        assert isinstance(host.item("hostPanel"), QQuickItem)
    finally:
        await guest.bridge.shutdown()
        await host.bridge.shutdown()


@on_qt_loop(timeout=90)
async def test_a_host_gone_without_a_word_is_named_to_its_guest(tmp_path: Path) -> None:
    """Found by the real-X game night (tests/realinput/test_game_night.py): a guest whose host's
    app was killed read "The relay connection was lost: sign in again when it is back." — a
    relay the guest never saw, a sign-in the guest never did. Now the host's table is named."""
    host = Window(host_bridge(tmp_path / "host"), (1280, 720))
    guest = Window(guest_bridge("guesty"), (390, 844))
    try:
        await host_a_table(host, "hoster")
        table = host.bridge.host.table
        await join_nearby(guest, table, "guesty")
        kill(table)
        bridge = guest.bridge
        await until(lambda: bridge.screen == "signin", what="the guest back at Play online")
        await until(lambda: bridge.error != RECONNECTING_LINE, what="the reconnecting given up")
        assert bridge.error == host_vanished("hoster")
        assert "sign in again" not in bridge.error and "closed the table" not in bridge.error
    finally:
        await guest.bridge.shutdown()
        await host.bridge.shutdown()


@on_qt_loop(timeout=90)
async def test_a_host_gone_mid_session_is_named_in_the_guests_results(tmp_path: Path) -> None:
    """The same mid-session: the guest's results said "No result: the relay connection was
    lost."; they name the host's table."""
    host = Window(host_bridge(tmp_path / "host"), (1280, 720))
    guest = Window(guest_bridge("guesty"), (390, 844))
    try:
        await host_a_table(host, "hoster")
        table = host.bridge.host.table
        await join_nearby(guest, table, "guesty")
        await until(lambda: len(host.bridge.lobby.roster) == 2, what="the guest in")
        await host.frame()
        await host.click("btnStart")
        bridge = guest.bridge
        await until(lambda: bridge.screen == "table", what="the guest at the table")
        kill(table)
        await until(lambda: bridge.screen == "results", what="the guest's results")
        await until(lambda: bridge.client is None, what="the connection given up")
        assert bridge.results.endText == f"No result: {host_vanished('hoster')}"
    finally:
        await guest.bridge.shutdown()
        await host.bridge.shutdown()
