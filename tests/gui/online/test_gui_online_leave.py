"""open_online inside a running app and qasync loop, and the way back to the solo table."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent

from pointline.gui.online.app import LoadedOnline, open_online
from pointline.kernel import EndReason
from pointline.net.client._relay_client import RelayClient
from pointline.net.protocol._peer import SessionEnded
from tests.gui.online_support import (
    FAST,
    Window,
    ended_event,
    on_qt_loop,
    open_room,
    relay,
    until,
)


@pytest.fixture(autouse=True)
def _solo_window_stays(qapp: Any) -> Any:
    """In the app the solo window is still open when the online one closes: the app runs on."""
    before = qapp.quitOnLastWindowClosed()
    qapp.setQuitOnLastWindowClosed(False)
    yield
    qapp.setQuitOnLastWindowClosed(before)
    qapp.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    qapp.processEvents()


@dataclass
class FromSolo:
    """The online window as the solo table opens it, and what its ``on_leave`` noted."""

    loaded: LoadedOnline
    other: RelayClient
    left: list[bool] = field(default_factory=list)


@asynccontextmanager
async def from_solo(qapp: Any, tmp_path: Path) -> AsyncIterator[FromSolo]:
    """``open_online`` as the solo table calls it, signed up at a private relay in a room a
    headless peer joined; the peer is closed afterwards."""
    left: list[bool] = []
    async with relay(tmp_path) as running:
        loaded = open_online(qapp, running.url, None, lambda: left.append(True), timeouts=FAST)
        (other,) = await open_room(running.url, loaded.bridge)
        try:
            yield FromSolo(loaded, other, left)
        finally:
            await other.close()


@on_qt_loop()
async def test_back_to_solo_from_sign_in_sends_nothing_and_calls_on_leave(qapp: Any) -> None:
    left: list[str] = []

    loaded = open_online(qapp, "ws://127.0.0.1:1", None, lambda: left.append("solo"))
    assert loaded.window.isVisible() and loaded.bridge.canLeave
    gone: list[bool] = []
    loaded.engine.destroyed.connect(lambda: gone.append(True))
    await until(loaded.window.isExposed, what="the window")
    await Window.around(loaded).click("btnSignInBackToSolo")
    await until(lambda: left == ["solo"], what="on_leave")
    await until(lambda: gone, what="the online window and engine to go")
    assert loaded.bridge.client is None and loaded.bridge.error == ""


@on_qt_loop()
async def test_back_to_solo_from_a_room_leaves_the_room_and_keeps_the_sign_in(
    qapp: Any, tmp_path: Path
) -> None:
    """Issue 41: going back to solo never signs out (coming back is one tap); it leaves the
    room. Only "Sign out" / "Forget this table" cancel a sign-in."""
    async with from_solo(qapp, tmp_path) as solo:
        bridge, other = solo.loaded.bridge, solo.other
        token = bridge.client.token
        await Window.around(solo.loaded).click("btnLobbyBackToSolo")
        await until(lambda: solo.left == [True], what="on_leave")
        assert bridge.client is None and bridge.screen == "signin"
        await until(lambda: other.room is None, what="the room closing for the other")
        probe = await RelayClient.connect(bridge.account.relayUrl, timeouts=FAST)
        probe.token = token
        room = await probe.create_room()  # the token is still live
        assert room.seat == 0
        await probe.close()


@on_qt_loop()
async def test_closing_the_online_window_mid_session_is_a_departure_then_solo(
    qapp: Any, tmp_path: Path
) -> None:
    async with from_solo(qapp, tmp_path) as solo:
        await until(lambda: solo.loaded.bridge.lobby.canStart, what="two in the room")
        solo.loaded.bridge.lobby.startRoom()
        await solo.other.wait_started(5.0)
        await until(lambda: solo.loaded.bridge.screen == "table", what="the table")
        solo.loaded.window.close()  # asked first: leaving ends the session for everyone
        asking = solo.loaded.bridge.extras.closeQuestion
        assert asking.asked and solo.loaded.window.isVisible()
        asking.confirm()  # Close the app
        assert await ended_event(solo.other) == SessionEnded(EndReason.DEPARTURE, 0)
        await until(lambda: solo.left == [True], what="on_leave")
