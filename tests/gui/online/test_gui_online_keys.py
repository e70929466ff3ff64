"""The online QML app driven like a person: key events only, against a real loopback relay."""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import QObject, QRectF, Qt

from pointline.gui.online.bridge import OnlineBridge
from pointline.net.client._relay_client import RelayClient
from pointline.net.client._verify_command import verify_transcript
from pointline.net.protocol._peer import Timeouts
from tests.gui.online_support import (
    FAST,
    Game,
    HandClock,
    K,
    Window,
    at_sign_in,
    commit_steady,
    fresh_name,
    headless,
    my_turns,
    on_qt_loop,
    other_seat_status,
    relay,
    sign_up_and_create_by_keys,
    sign_up_by_keys,
    steady_peer,
    turns_of,
    until,
    verified,
)
from tests.gui.support import BUTTON_ORDER

SOLO_ONLY = ("btnOnline", "btnNew")
BUTTONS = (*(b for b in BUTTON_ORDER if b not in SOLO_ONLY), "btnLeaveTable")
"""The shared table's buttons (as on the solo table, without its Play online and New session),
then the online screen's own Leave table."""


async def room_with_a_peer(played: Game, prefix: str) -> RelayClient:
    """Sign up and create a room by keys; a headless peer joins; Start is now legal."""
    ui = played.window
    await sign_up_and_create_by_keys(ui, fresh_name(prefix))
    other = await headless(played.url, fresh_name("peer"))
    played.peers.append(other)
    await other.join_room(ui.bridge.lobby.roomCode)
    await until(lambda: ui.bridge.lobby.canStart, what="two in the room")
    return other


@on_qt_loop(timeout=50)
async def test_a_full_two_seat_session_played_by_keys(tmp_path: Path) -> None:
    async with at_sign_in(tmp_path) as played:
        bridge, ui = played.bridge, played.window
        other = await room_with_a_peer(played, "keys")
        await ui.tab_to("btnStart")
        await ui.key(K.Key_Return)
        await until(lambda: bridge.screen == "table", what="the table")
        task = steady_peer(other)
        await ui.table_focus()
        async for _ in my_turns(bridge):
            before = played.sent
            if bridge.seatTable.phase == "point":
                await ui.key(K.Key_Return)
            else:
                await ui.keys(K.Key_Up, K.Key_Space, K.Key_Space, K.Key_Down, K.Key_Space)
                assert (bridge.seatTable.draftPass, bridge.seatTable.draftDontPass) == (20, 10)
                await ui.key(K.Key_Return)
            assert played.sent == before + 1
        peer = await asyncio.wait_for(task, 20)
        await verified(bridge)
        assert bridge.screen == "results" and bridge.results.outcome == "complete"
        assert peer.result is not None
        mine = next(r for r in bridge.results.standings if r["you"])
        assert (mine["final"], mine["rank"]) == (
            peer.result.final[bridge.lobby.mySeat],
            peer.result.ranks[bridge.lobby.mySeat],
        )
        assert ui.item("rankList").property("count") == 2
        assert ui.item("receiptsText").property("text").startswith("2 of 2")
        assert bridge.casualNotice in ui.item("casualNotice").findChildren(QObject)[0].property(
            "text"
        )
        assert "accepts" in ui.item("transcriptText").property("text")
        assert verify_transcript(Path(bridge.results.transcriptPath)).ok
        await until(lambda: ui.focus() == "btnBackToLobby", what="focus on results")


def _check_no_overlap(ui: Window, w: int, h: int) -> None:
    """Every shown button and panel inside the window, none over another (the table swaps
    buttons by phase in one place: Allocate at the come-out, Reduce in the point phase)."""
    names = [n for n in (*BUTTONS, "onlineFelt", "countdown", "seats") if ui.item(n).isVisible()]
    assert {"btnAllocate", "btnConfirm", "onlineFelt", "countdown", "seats"} <= set(names)
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


@on_qt_loop(timeout=40)
async def test_the_table_keys_tab_order_help_and_layout(tmp_path: Path) -> None:
    clock = HandClock()
    async with at_sign_in(tmp_path, timeouts=Timeouts(confirm=30.0), clock=clock) as played:
        bridge, ui = played.bridge, played.window
        other = await room_with_a_peer(played, "tab")
        bridge.lobby.startRoom()
        await ui.table_focus()
        await ui.key(K.Key_Space)
        # Tab visits only the legal buttons (Roll and Reduce are not legal at come-out)
        seen: list[str] = []
        for _ in range(len(BUTTONS) + 2):
            before = ui.focus()
            await ui.key(K.Key_Tab)
            await until(lambda b=before: ui.focus() != b, what=f"Tab to move on from {before}")
            if ui.focus() in seen:
                break
            seen.append(ui.focus())
        legal = [n for n in BUTTONS if ui.item(n).isEnabled()]
        assert sorted(seen) == sorted(legal)
        assert "btnRoll" not in seen and "btnConfirm" in seen
        # F1 opens Help; nothing can be submitted; the countdown keeps running; Escape closes
        first = bridge.countdown.secondsLeft
        await ui.key(K.Key_F1)
        assert bridge.helpOpen
        await until(lambda: ui.focus() == "btnHelpClose", what="focus on Help")
        await ui.key(K.Key_Backspace)
        assert bridge.seatTable.draftPass == 10
        clock.ahead = 5.0  # five seconds pass with Help open
        await until(lambda: bridge.countdown.secondsLeft <= first - 5, what="the countdown")
        await ui.key(K.Key_M)  # the sound key works over Help too
        assert bridge.muted
        await ui.key(K.Key_M)
        assert not bridge.muted
        await ui.key(K.Key_Escape)
        assert not bridge.helpOpen
        await until(lambda: ui.focus() != "btnHelpClose", what="focus back")
        await ui.key(K.Key_Delete)
        assert bridge.seatTable.draftPass == 0 and played.sent == 0
        # M mutes; blur and resizing submit nothing; layout holds in both orientations
        await ui.key(K.Key_M)
        assert bridge.muted
        for w, h in ((844, 390), (1280, 720), (390, 844), (360, 640), (1920, 1080)):
            await ui.resize(w, h)
            _check_no_overlap(ui, w, h)
        bridge.applicationStateChanged(Qt.ApplicationState.ApplicationInactive.value)
        assert played.sent == 0 and bridge.screen == "table"
        commit_steady(other)  # a round trip later, still nothing of mine was sent
        await until(lambda: other_seat_status(bridge) == "committed", what="their commit")
        assert played.sent == 0 and bridge.screen == "table" and not bridge.table.committed


@on_qt_loop()
async def test_a_peer_leaving_mid_hand_shows_no_result_and_why_on_screen(tmp_path: Path) -> None:
    async with at_sign_in(tmp_path, (390, 844)) as played:
        bridge, ui = played.bridge, played.window
        other = await room_with_a_peer(played, "left")
        await ui.tab_to("btnStart")
        await ui.key(K.Key_Space)
        await ui.table_focus()
        await ui.keys(K.Key_Space, K.Key_Return)  # Pass 10 committed for throw 1
        assert bridge.table.committed
        await other.leave()
        await until(lambda: bridge.screen == "results", what="the end")
        assert ui.item("resultTitle").property("text") == "No result"
        shown = ui.item("endText").property("text")
        assert "a departure from Seat 2" in shown
        assert not ui.item("rankList").isVisible()
        await until(lambda: "accepts" in ui.item("transcriptText").property("text"))


@on_qt_loop(timeout=50)
async def test_two_app_windows_play_a_full_session_by_keys_and_show_the_same_ranks(
    tmp_path: Path,
) -> None:
    """The issue's "done when": two windows, two accounts, one local relay, the same ranks."""

    async with relay(tmp_path) as running:
        a = Window(OnlineBridge(running.url, timeouts=FAST), (1280, 720))
        b = Window(OnlineBridge(running.url, timeouts=FAST), (844, 390))
        await a.activate()
        await sign_up_and_create_by_keys(a, fresh_name("win_a"))
        await b.activate()
        await sign_up_by_keys(b, fresh_name("win_b"))
        await b.tab_to("fieldCodeInput")
        await b.type(a.bridge.lobby.roomCode)
        await b.key(K.Key_Return)
        await until(lambda: a.bridge.lobby.canStart, what="two in the room")
        await a.tab_to("btnStart")
        await a.key(K.Key_Return)
        await until(lambda: a.bridge.screen == b.bridge.screen == "table", what="the start")
        windows = {id(ui.bridge): ui for ui in (a, b)}
        async for br in turns_of([a.bridge, b.bridge]):
            ui = windows[id(br)]
            await ui.activate()
            await ui.table_focus()
            if br.seatTable.phase == "point":
                await ui.key(K.Key_Space)
            else:
                await ui.keys(K.Key_Space, K.Key_Down, K.Key_Space, K.Key_Up, K.Key_Return)
        await verified(a.bridge)
        await verified(b.bridge)
        assert a.bridge.results.outcome == b.bridge.results.outcome == "complete"

        def ranks(ui: Window) -> list[tuple[str, int, int]]:
            return [(r["name"], r["final"], r["rank"]) for r in ui.bridge.results.standings]

        assert ranks(a) == ranks(b)
        assert a.bridge.results.verifyOk and b.bridge.results.verifyOk
        for ui in (a, b):
            await ui.bridge.shutdown()
            ui.close()


@on_qt_loop()
async def test_pointer_and_touch_reach_the_same_choices(tmp_path: Path) -> None:
    async with at_sign_in(tmp_path, (844, 390), timeouts=Timeouts(confirm=30.0)) as played:
        bridge, ui = played.bridge, played.window
        await room_with_a_peer(played, "mouse")
        await ui.click("btnStart")
        await until(lambda: bridge.screen == "table", what="the table")
        await ui.click("onlineLineDontPass")  # a tap on a line places the chip there
        assert bridge.seatTable.selectedLine == "dont_pass"
        await ui.click("btnAllocate")
        await ui.click("btnAllocate")
        assert (bridge.seatTable.draftPass, bridge.seatTable.draftDontPass) == (0, 30)
        await ui.click("btnReset")
        assert bridge.seatTable.draftDontPass == 0
        await ui.click("onlineLinePass")
        await ui.click("btnAllocate")
        await ui.click("btnConfirm")
        assert bridge.table.committed and played.sent == 1
        assert not ui.item("btnConfirm").isEnabled()
