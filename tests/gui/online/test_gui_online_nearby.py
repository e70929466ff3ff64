"""Tables nearby tells the truth (issue 41, findings 3, 4 and 12), over real mDNS on loopback
(127.0.0.1; tests never send multicast onto a real network): one browser per list, alive exactly
while the list is shown (no zeroconf left behind, nothing calling into a deleted list), a fresh
list holds only what answers now, and a club relay announced by ``pointline-relay --announce``
is listed with its open rooms."""

from __future__ import annotations

import logging

import pytest
import shiboken6

from pointline.gui.online.bridge import OnlineBridge
from pointline.gui.online.texts import RELAY_NEARBY
from pointline.net.discovery import (
    RECORD_TTL,
    Announcement,
    Announcer,
    NearbyTable,
    TableBrowser,
)
from tests.gui.online_support import FAST, on_qt_loop, until

LOOPBACK = ["127.0.0.1"]


def _rows(bridge: OnlineBridge) -> list[dict[str, object]]:
    return list(bridge.nearby._tables.rows)


@on_qt_loop(timeout=60)
async def test_one_browser_lives_exactly_while_the_list_is_shown() -> None:
    bridge = OnlineBridge(timeouts=FAST)
    nearby = bridge.nearby
    nearby.addresses = LOOPBACK
    base = TableBrowser.running
    try:
        for _ in range(4):  # four online screens
            nearby.browse()
            nearby.browse()  # a second request while one is shown starts nothing
            await until(lambda: nearby.browsing, what="browsing")
            assert TableBrowser.running == base + 1
            closed = Announcement(
                "table", "Gone", "ab" * 32, host="hostana", seats=2, room="ABCDEG"
            )
            stale = NearbyTable("gone._pointline._tcp.local.", "127.0.0.1", 9, closed)
            nearby.show_tables({stale.service: stale})
            assert nearby.tables.rowCount() == 1
            await nearby.stop()  # the list is no longer shown
            assert TableBrowser.running == base
            assert nearby.tables.rowCount() == 0  # the next list starts from what answers then
    finally:
        await bridge.shutdown()


@on_qt_loop(timeout=60)
async def test_a_list_deleted_while_browsing_stops_its_browser_quietly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Finding 4: a window closed without a stop left its browser running, calling into the
    deleted list ("Internal C++ object (RowsModel) already deleted")."""
    base = TableBrowser.running
    bridge = OnlineBridge(timeouts=FAST)
    bridge.nearby.addresses = LOOPBACK
    bridge.nearby.browse()
    await until(lambda: bridge.nearby.browsing, what="browsing")
    shiboken6.delete(bridge)
    await until(lambda: TableBrowser.running == base, what="the browser stopped")
    announcer = Announcer(LOOPBACK, 8765, _club("After", 0))
    with caplog.at_level(logging.INFO):
        await announcer.start()
        try:
            async with TableBrowser(LOOPBACK) as watcher:  # the announcement is out there
                await watcher.wait_for(lambda t: len(t) == 1, 15)
        finally:
            await announcer.stop()
    assert "listener failed" not in caplog.text and "already deleted" not in caplog.text


@on_qt_loop(timeout=60)
async def test_a_club_relay_announced_nearby_is_listed_and_leaves_on_its_goodbye() -> None:
    bridge = OnlineBridge(timeouts=FAST)
    nearby = bridge.nearby
    nearby.addresses = LOOPBACK
    chosen: list[str] = []
    nearby.relayChosen.connect(chosen.append)
    announcer = Announcer(LOOPBACK, 8765, _club("Chess club", 3))
    try:
        await announcer.start()
        assert announcer._info is not None  # short-lived records: a vanished host leaves soon
        assert announcer._info.host_ttl == announcer._info.other_ttl == RECORD_TTL == 20
        nearby.browse()
        await until(lambda: nearby.tables.rowCount() == 1, timeout=15, what="the club listed")
        (row,) = _rows(bridge)
        assert (row["label"], row["kind"]) == ("Chess club · 3 open rooms", "relay")
        nearby.choose(str(row["key"]))
        assert nearby.asking == "relay" and nearby.question == RELAY_NEARBY
        assert chosen == ["ws://127.0.0.1:8765"]
        await announcer.stop()  # its goodbye
        await until(lambda: nearby.tables.rowCount() == 0, timeout=15, what="the club gone")
    finally:
        await announcer.stop()
        await nearby.stop()
        await bridge.shutdown()


def _club(name: str, rooms: int) -> Announcement:
    return Announcement("relay", name, None, rooms=rooms)
