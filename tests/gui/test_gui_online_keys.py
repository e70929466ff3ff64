"""The online QML app driven like a person: key events only, against a real loopback relay."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRectF, Qt
from PySide6.QtTest import QTest

from pointline.gui.online.app import load_online
from pointline.gui.online.bridge import OnlineBridge
from pointline.net.client import RelayClient, play, steady_choice
from pointline.net.verify import verify_transcript
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
K = Qt.Key
BUTTONS = (
    "chip10",
    "chip50",
    "chip100",
    "btnAllocate",
    "btnConfirm",
    "btnRepeat",
    "btnReset",
    "btnReduce",
    "btnRemove",
    "btnRoll",
    "btnHelp",
    "btnMute",
    "btnWindow",
    "btnLeaveTable",
)


class Window:
    def __init__(self, bridge: OnlineBridge, size: tuple[int, int]) -> None:
        self.loaded = load_online(bridge, size)
        self.window = self.loaded.window
        self.bridge = bridge
        self.window.show()
        self.window.requestActivate()
        _made.append(self)  # the fixture deletes the engine while the bridge is alive

    def item(self, name: str) -> Any:
        found = self.window.findChild(QObject, name)
        assert found is not None, f"no item named {name}"
        return found

    def focus(self) -> str:
        item = self.window.activeFocusItem()
        return "" if item is None else item.objectName()

    async def activate(self) -> None:
        if not self.window.isActive():
            self.window.requestActivate()
            await until(self.window.isActive, timeout=5.0, what="the window to be active")

    async def key(self, key: Qt.Key, modifier: Any = Qt.KeyboardModifier.NoModifier) -> None:
        await self.activate()
        # Delivered from a loop callback, as Qt delivers real keys: outside any asyncio task,
        # so a slot may start tasks while the key is handled.
        done = asyncio.get_running_loop().create_future()

        def press() -> None:
            QTest.keyClick(self.window, key, modifier)
            done.set_result(None)

        asyncio.get_running_loop().call_soon(press)
        await asyncio.wait_for(done, 5.0)
        await asyncio.sleep(0.01)

    async def type(self, text: str) -> None:
        for ch in text:  # letters, digits, '_' and '-': their key codes are their upper case
            await self.key(Qt.Key(ord(ch.upper())))

    async def tab_to(self, name: str, limit: int = 12) -> None:
        for _ in range(limit):
            if self.focus() == name:
                return
            await self.key(K.Key_Tab)
        assert self.focus() == name, f"Tab never reached {name} (at {self.focus()})"

    async def frame(self) -> None:
        """Wait for the next rendered frame: layouts are polished before it, so item positions
        are current (a click right after a screen change would otherwise aim at stale ones)."""
        done = asyncio.get_running_loop().create_future()

        def swapped() -> None:
            if not done.done():
                done.set_result(None)

        self.window.frameSwapped.connect(swapped)
        try:
            self.window.update()
            await asyncio.wait_for(done, 5.0)
        finally:
            self.window.frameSwapped.disconnect(swapped)

    async def click(self, name: str) -> None:
        await self.activate()
        await self.frame()
        item = self.item(name)
        assert item.isVisible() and item.isEnabled(), f"{name} cannot be clicked now"
        p = item.mapToScene(QPointF(item.width() / 2, item.height() / 2))
        done = asyncio.get_running_loop().create_future()

        def press() -> None:
            QTest.mouseClick(
                self.window,
                Qt.MouseButton.LeftButton,
                Qt.KeyboardModifier.NoModifier,
                QPoint(round(p.x()), round(p.y())),
            )
            done.set_result(None)

        asyncio.get_running_loop().call_soon(press)
        await asyncio.wait_for(done, 5.0)
        await asyncio.sleep(0.02)

    def rect(self, name: str) -> QRectF:
        item = self.item(name)
        return QRectF(item.mapToScene(QPointF(0, 0)), item.size())

    def close(self) -> None:
        self.window.hide()


_made: list[Window] = []


@pytest.fixture(autouse=True)
def _delete_windows(qapp: Any) -> Iterator[None]:
    """After the loop is gone: delete each engine while its bridge is still alive."""
    yield
    for ui in _made:
        ui.window.hide()
        ui.loaded.engine.deleteLater()
    qapp.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    qapp.processEvents()
    _made.clear()


async def sign_up_and_create_by_keys(ui: Window, name: str) -> None:
    await until(lambda: ui.focus() == "fieldNameInput", what="focus on the name field")
    await ui.type(name)
    await ui.key(K.Key_Tab)
    assert ui.focus() == "fieldPasswordInput"
    await ui.type(PASSWORD)
    await ui.tab_to("btnSignUp")
    await ui.key(K.Key_Return)
    await until(lambda: ui.bridge.screen == "lobby", what="the lobby")
    await until(lambda: ui.focus() == "btnCreateRoom", what="focus on Create")
    await ui.key(K.Key_Space)
    await until(lambda: ui.bridge.roomCode != "", what="a room")
    assert ui.item("roomCode").property("text") == ui.bridge.roomCode


def test_a_full_two_seat_session_played_by_keys(qapp: Any, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            bridge = OnlineBridge(running.url, timeouts=FAST)
            sent: list[str] = []  # my choices that reached the client
            bridge.submitted.connect(sent.append)
            ui = Window(bridge, (1280, 720))
            name = fresh_name("keys")
            await sign_up_and_create_by_keys(ui, name)
            other = await headless(running.url, fresh_name("peer"))
            await other.join_room(bridge.roomCode)
            await until(lambda: bridge.canStart, what="two in the room")
            await ui.tab_to("btnStart")
            await ui.key(K.Key_Return)
            await until(lambda: bridge.screen == "table", what="the table")
            task = asyncio.ensure_future(play(other, steady_choice, timeout=40))
            await until(lambda: ui.focus() == "tableArea", what="focus on the table")
            while bridge.screen == "table":
                await until(
                    lambda: (
                        bridge.screen != "table" or bridge.legal["confirm"] or bridge.legal["roll"]
                    ),
                    what="my turn",
                )
                if bridge.screen != "table":
                    break
                before = len(sent)
                if bridge.phase == "point":
                    await ui.key(K.Key_Return)
                else:
                    await ui.key(K.Key_Up)
                    await ui.key(K.Key_Space)
                    await ui.key(K.Key_Space)
                    await ui.key(K.Key_Down)
                    await ui.key(K.Key_Space)
                    assert (bridge.draftPass, bridge.draftDontPass) == (20, 10)
                    await ui.key(K.Key_Return)
                assert len(sent) == before + 1
            peer = await asyncio.wait_for(task, 20)
            await until(
                lambda: bridge.transcriptPath and bridge.verifyText and not bridge.verifying,
                what="the transcript's verdict",
            )
            assert bridge.screen == "results" and bridge.outcome == "complete"
            assert peer.result is not None
            mine = next(r for r in bridge.standings if r["you"])
            assert (mine["final"], mine["rank"]) == (
                peer.result.final[bridge.mySeat],
                peer.result.ranks[bridge.mySeat],
            )
            assert ui.item("rankList").property("count") == 2
            assert ui.item("receiptsText").property("text").startswith("2 of 2")
            assert bridge.casualNotice in ui.item("casualNotice").findChildren(QObject)[0].property(
                "text"
            )
            assert "accepts" in ui.item("transcriptText").property("text")
            assert verify_transcript(Path(bridge.transcriptPath)).ok
            await until(lambda: ui.focus() == "btnBackToLobby", what="focus on results")
            await bridge.shutdown()
            await other.close()
            ui.close()

    run_qt(qapp, scenario(), timeout=50)


def _check_no_overlap(ui: Window, w: int, h: int) -> None:
    # the shared table shows only this phase's actions (the others are hidden, not dimmed)
    names = [n for n in (*BUTTONS, "onlineFelt", "countdown", "seats") if ui.item(n).isVisible()]
    rects = {n: ui.rect(n) for n in names}
    bounds = QRectF(0, 0, w, h)
    for n, r in rects.items():
        assert bounds.contains(r), f"{n} {r} leaves the {w}x{h} window"
        if n.startswith("btn"):
            assert r.width() >= 44 and r.height() >= 44, f"{n} is smaller than 44 px"
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            inter = rects[a].intersected(rects[b])
            assert inter.width() < 1 or inter.height() < 1, f"{a} overlaps {b} at {w}x{h}"


def test_the_table_keys_tab_order_help_and_layout(qapp: Any, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            ahead = [0.0]  # the countdown's clock, moved by hand: no test waits a second

            def clock() -> float:
                return asyncio.get_event_loop().time() + ahead[0]

            bridge = OnlineBridge(running.url, timeouts=FAST.__class__(confirm=30.0), clock=clock)
            sent: list[str] = []  # my choices that reached the client
            bridge.submitted.connect(sent.append)
            ui = Window(bridge, (1280, 720))
            await sign_up_and_create_by_keys(ui, fresh_name("tab"))
            other: RelayClient = await headless(running.url, fresh_name("peer"))
            await other.join_room(bridge.roomCode)
            await until(lambda: bridge.canStart, what="two in the room")
            bridge.startRoom()
            await until(lambda: ui.focus() == "tableArea", what="the table")
            await until(lambda: bridge.legal["allocate"], what="the first round open")
            await ui.key(K.Key_Space)
            # Tab visits only the legal buttons (Roll and Reduce are not legal at come-out)
            seen: list[str] = []
            for _ in range(len(BUTTONS) + 2):
                await ui.key(K.Key_Tab)
                if ui.focus() in seen:
                    break
                seen.append(ui.focus())
            legal = [n for n in BUTTONS if ui.item(n).isEnabled()]
            assert sorted(seen) == sorted(legal)
            assert "btnRoll" not in seen and "btnConfirm" in seen
            # F1 opens Help; nothing can be submitted; the countdown keeps running; Escape closes
            first = bridge.countdown.secondsLeft
            await ui.key(K.Key_F1)
            assert bridge.helpOpen and ui.focus() == "btnHelpClose"
            await ui.key(K.Key_Backspace)
            assert bridge.draftPass == 10
            ahead[0] = 5.0  # five seconds pass with Help open
            await until(lambda: bridge.countdown.secondsLeft <= first - 5, what="the countdown")
            await ui.key(K.Key_Escape)
            assert not bridge.helpOpen
            await until(lambda: ui.focus() != "btnHelpClose", what="focus back")
            await ui.key(K.Key_Delete)
            assert bridge.draftPass == 0 and len(sent) == 0
            # M mutes; blur and resizing submit nothing; layout holds in both orientations
            await ui.key(K.Key_M)
            assert bridge.muted
            for w, h in ((844, 390), (1280, 720), (390, 844), (360, 640), (1920, 1080)):
                ui.window.resize(w, h)
                await until(lambda w=w, h=h: ui.window.width() == w and ui.window.height() == h)
                await asyncio.sleep(0.05)
                _check_no_overlap(ui, w, h)
            bridge.applicationStateChanged(Qt.ApplicationState.ApplicationInactive.value)
            assert len(sent) == 0 and bridge.screen == "table"
            await bridge.shutdown()
            await other.close()
            ui.close()

    run_qt(qapp, scenario(), timeout=40)


def test_a_peer_leaving_mid_hand_shows_no_result_and_why_on_screen(
    qapp: Any, tmp_path: Path
) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            bridge = OnlineBridge(running.url, timeouts=FAST)
            ui = Window(bridge, (390, 844))
            await sign_up_and_create_by_keys(ui, fresh_name("left"))
            other = await headless(running.url, fresh_name("leaver"))
            await other.join_room(bridge.roomCode)
            await until(lambda: bridge.canStart, what="two in the room")
            await ui.tab_to("btnStart")
            await ui.key(K.Key_Space)
            await until(lambda: ui.focus() == "tableArea", what="the table")
            await ui.key(K.Key_Space)
            await ui.key(K.Key_Return)  # Pass 10 committed for throw 1
            assert bridge.committed
            await other.leave()
            await until(lambda: bridge.screen == "results", what="the end")
            assert ui.item("resultTitle").property("text") == "No result"
            shown = ui.item("endText").property("text")
            assert "a departure from Seat 2" in shown
            assert not ui.item("rankList").isVisible()
            await until(lambda: "accepts" in ui.item("transcriptText").property("text"))
            await bridge.shutdown()
            await other.close()
            ui.close()

    run_qt(qapp, scenario())


def test_two_app_windows_play_a_full_session_by_keys_and_show_the_same_ranks(
    qapp: Any, tmp_path: Path
) -> None:
    """The issue's "done when": two windows, two accounts, one local relay, the same ranks."""

    async def scenario() -> None:
        async with relay(tmp_path) as running:
            a = Window(OnlineBridge(running.url, timeouts=FAST), (1280, 720))
            b = Window(OnlineBridge(running.url, timeouts=FAST), (844, 390))
            await a.activate()
            await sign_up_and_create_by_keys(a, fresh_name("win_a"))
            await b.activate()
            await until(lambda: b.focus() == "fieldNameInput", what="b's name field")
            await b.type(fresh_name("win_b"))
            await b.key(K.Key_Tab)
            await b.type(PASSWORD)
            await b.tab_to("btnSignUp")
            await b.key(K.Key_Return)
            await until(lambda: b.bridge.screen == "lobby", what="b's lobby")
            await b.tab_to("fieldCodeInput")
            await b.type(a.bridge.roomCode)
            await b.key(K.Key_Return)
            await until(lambda: a.bridge.canStart, what="two in the room")
            await a.tab_to("btnStart")
            await a.key(K.Key_Return)
            await until(lambda: a.bridge.screen == b.bridge.screen == "table", what="the start")
            while "table" in (a.bridge.screen, b.bridge.screen):
                for ui in (a, b):
                    br = ui.bridge
                    if br.screen != "table" or not (br.legal["confirm"] or br.legal["roll"]):
                        continue
                    await ui.activate()
                    await until(lambda ui=ui: ui.focus() == "tableArea", what="table focus")
                    if br.phase == "point":
                        await ui.key(K.Key_Space)
                    else:
                        await ui.key(K.Key_Space)
                        await ui.key(K.Key_Down)
                        await ui.key(K.Key_Space)
                        await ui.key(K.Key_Up)
                        await ui.key(K.Key_Return)
                await asyncio.sleep(0.01)
            await until(
                lambda: all(
                    ui.bridge.transcriptPath and ui.bridge.verifyText and not ui.bridge.verifying
                    for ui in (a, b)
                ),
                what="both verdicts",
            )
            assert a.bridge.outcome == b.bridge.outcome == "complete"

            def ranks(ui: Window) -> list[tuple[str, int, int]]:
                return [(r["name"], r["final"], r["rank"]) for r in ui.bridge.standings]

            assert ranks(a) == ranks(b)
            assert a.bridge.verifyOk and b.bridge.verifyOk
            for ui in (a, b):
                await ui.bridge.shutdown()
                ui.close()

    run_qt(qapp, scenario(), timeout=50)


def test_pointer_and_touch_reach_the_same_choices(qapp: Any, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            bridge = OnlineBridge(running.url, timeouts=FAST.__class__(confirm=30.0))
            sent: list[str] = []  # my choices that reached the client
            bridge.submitted.connect(sent.append)
            ui = Window(bridge, (844, 390))
            await sign_up_and_create_by_keys(ui, fresh_name("mouse"))
            other = await headless(running.url, fresh_name("peer"))
            await other.join_room(bridge.roomCode)
            await until(lambda: bridge.canStart, what="two in the room")
            await ui.click("btnStart")
            await until(lambda: bridge.screen == "table", what="the table")
            await ui.click("onlineLineDontPass")  # a tap on a line places the chip there
            assert bridge.selectedLine == "dont_pass"
            await ui.click("btnAllocate")
            await ui.click("btnAllocate")
            assert (bridge.draftPass, bridge.draftDontPass) == (0, 30)
            await ui.click("btnReset")
            assert bridge.draftDontPass == 0
            await ui.click("onlineLinePass")
            await ui.click("btnAllocate")
            await ui.click("btnConfirm")
            assert bridge.committed and len(sent) == 1
            assert not ui.item("btnConfirm").isEnabled()
            await bridge.shutdown()
            await other.close()
            ui.close()

    run_qt(qapp, scenario())
