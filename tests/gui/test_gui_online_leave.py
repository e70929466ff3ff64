"""open_online inside a running app and qasync loop, and the way back to the solo table."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt
from PySide6.QtTest import QTest

from pointline.gui.online.app import LoadedOnline, open_online
from pointline.kernel import EndReason
from pointline.net.client import ClientError, RelayClient
from pointline.net.protocol import SessionEnded
from tests.gui.test_gui_online_bridge import ended_event
from tests.gui.test_gui_online_harness import (
    FAST,
    PASSWORD,
    fresh_name,
    headless,
    online_data,  # noqa: F401 - the fixture, used by pytestmark
    relay,
    run_qt,
    until,
)

pytestmark = pytest.mark.usefixtures("online_data")


async def click(loaded: LoadedOnline, name: str) -> None:
    window = loaded.window
    item = window.findChild(QObject, name)
    assert item is not None and item.isVisible() and item.isEnabled(), name
    p = item.mapToScene(QPointF(item.width() / 2, item.height() / 2))
    done = asyncio.get_running_loop().create_future()

    def press() -> None:
        QTest.mouseClick(
            window,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
            QPoint(round(p.x()), round(p.y())),
        )
        done.set_result(None)

    asyncio.get_running_loop().call_soon(press)
    await asyncio.wait_for(done, 5.0)


def _flush(qapp: Any) -> None:
    qapp.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    qapp.processEvents()


@pytest.fixture(autouse=True)
def _solo_window_stays(qapp: Any) -> Any:
    """In the app the solo window is still open when the online one closes: the app runs on."""
    before = qapp.quitOnLastWindowClosed()
    qapp.setQuitOnLastWindowClosed(False)
    yield
    qapp.setQuitOnLastWindowClosed(before)
    _flush(qapp)


def test_back_to_solo_from_sign_in_sends_nothing_and_calls_on_leave(qapp: Any) -> None:
    left: list[str] = []

    async def scenario() -> None:
        loaded = open_online(qapp, "ws://127.0.0.1:1", None, lambda: left.append("solo"))
        assert loaded.window.isVisible() and loaded.bridge.canLeave
        gone: list[bool] = []
        loaded.engine.destroyed.connect(lambda: gone.append(True))
        await until(loaded.window.isExposed, what="the window")
        await click(loaded, "btnSignInBackToSolo")
        await until(lambda: left == ["solo"], what="on_leave")
        await until(lambda: gone, what="the online window and engine to go")
        assert loaded.bridge.client is None and loaded.bridge.error == ""

    run_qt(qapp, scenario())


def test_back_to_solo_from_a_room_signs_out_and_leaves_the_room(qapp: Any, tmp_path: Path) -> None:
    left: list[bool] = []

    async def scenario() -> None:
        async with relay(tmp_path) as running:
            loaded = open_online(qapp, running.url, None, lambda: left.append(True), timeouts=FAST)
            bridge = loaded.bridge
            bridge.signUp(running.url, fresh_name("solo"), PASSWORD)
            await until(lambda: not bridge.busy)
            bridge.createRoom()
            await until(lambda: not bridge.busy)
            other = await headless(running.url, fresh_name("peer"))
            await other.join_room(bridge.roomCode)
            await until(lambda: len(bridge.roster) == 2, what="two in the room")
            token = bridge.client.token
            await click(loaded, "btnLobbyBackToSolo")
            await until(lambda: left == [True], what="on_leave")
            assert bridge.client is None and bridge.screen == "signin"
            await until(lambda: other.room is None, what="the room closing for the other")
            probe = await RelayClient.connect(running.url, timeouts=FAST)
            probe.token = token
            with pytest.raises(ClientError) as refused:
                await probe.create_room()
            assert refused.value.code == "bad_token"
            await probe.close()
            await other.close()

    run_qt(qapp, scenario())


def test_closing_the_online_window_mid_session_is_a_departure_then_solo(
    qapp: Any, tmp_path: Path
) -> None:
    left: list[bool] = []

    async def scenario() -> None:
        async with relay(tmp_path) as running:
            loaded = open_online(qapp, running.url, None, lambda: left.append(True), timeouts=FAST)
            bridge = loaded.bridge
            bridge.signUp(running.url, fresh_name("closer"), PASSWORD)
            await until(lambda: not bridge.busy)
            bridge.createRoom()
            await until(lambda: not bridge.busy)
            other = await headless(running.url, fresh_name("peer"))
            await other.join_room(bridge.roomCode)
            await until(lambda: bridge.canStart, what="two in the room")
            bridge.startRoom()
            await other.wait_started(5.0)
            await until(lambda: bridge.screen == "table", what="the table")
            loaded.window.close()
            assert await ended_event(other) == SessionEnded(EndReason.DEPARTURE, 0)
            await until(lambda: left == [True], what="on_leave")
            await other.close()

    run_qt(qapp, scenario())
