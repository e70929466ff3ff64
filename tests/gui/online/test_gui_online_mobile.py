"""Phone basics on the online screens: 48 px targets, Android Back, no desktop-only controls."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRectF, Qt

from pointline.gui.online.bridge import OnlineBridge
from pointline.kernel import EndReason
from pointline.net.protocol._peer import SessionEnded, Timeouts
from tests.gui.online_support import (
    PASSWORD,
    Window,
    answered,
    at_sign_in,
    ended_event,
    fresh_name,
    game,
    on_qt_loop,
    scene,
    shown_items,
    until,
    visible_texts,
)

PHONES = ((390, 844), (844, 390), (360, 640))
INTERACTIVE = ("QQuickAbstractButton", "QQuickTextInput", "QQuickMouseArea")


def small_targets(ui: Window) -> list[str]:
    """Every shown, enabled interactive item smaller than 48 x 48 px (name, class, size)."""
    found = []
    for item in shown_items(ui):
        if not item.isEnabled() or not any(item.inherits(c) for c in INTERACTIVE):
            continue
        if item.width() < 48 or item.height() < 48:
            name = item.objectName() or item.metaObject().className()
            found.append(f"{name} {item.width():.0f}x{item.height():.0f}")
    return found


def rect(item: Any) -> QRectF:
    return item.mapRectToScene(QRectF(0, 0, item.width(), item.height()))


def inside(ui: Window, item: Any) -> bool:
    """In the window and clear of the footer (a clipped, scrolled-away button is not)."""
    r = rect(item)
    clear = not r.intersects(rect(ui.item("onlineFooter")))
    return QRectF(0, 0, ui.window.width(), ui.window.height()).contains(r) and clear


@pytest.mark.parametrize("mobile", ["1", "0"])
@pytest.mark.parametrize("name", ["online-signin", "online-lobby", "online-table", "online-ended"])
@on_qt_loop(timeout=60)
async def test_every_target_is_at_least_48_px_on_a_phone(
    tmp_path: Path, name: str, mobile: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a phone, and on a desktop window that small (its footer lists the keys too)."""
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", mobile)

    async with scene(tmp_path, name, PHONES[0]) as played:
        ui = played.window
        problems = []
        for size in PHONES:
            await ui.resize(*size)
            problems += [f"{size}: {p}" for p in small_targets(ui)]
            buttons = [
                i for i in shown_items(ui) if i.inherits("QQuickAbstractButton") and i.objectName()
            ]
            assert buttons, "no buttons shown"
            problems += [
                f"{size}: {b.objectName()} off screen" for b in buttons if not inside(ui, b)
            ]
            if name == "online-table":
                ui.bridge.openHelp()
                await until(lambda: ui.item("onlineHelp").property("visible"), what="Help")
                problems += [f"{size} Help: {p}" for p in small_targets(ui)]
                ui.bridge.closeHelp()
                ui.bridge.askLeave()
                await until(lambda: ui.item("leaveDialog").property("visible"), what="the question")
                problems += [f"{size} leave: {p}" for p in small_targets(ui)]
                ui.bridge.cancelLeave()
        assert problems == []


@on_qt_loop(timeout=60)
async def test_desktop_only_controls_are_hidden_on_a_phone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "1")

    async with scene(tmp_path, "online-table", (844, 390)) as played:
        ui = played.window
        assert ui.bridge.mobile and ui.bridge.keyHints == ""
        assert not ui.item("btnWindow").isVisible()
        shown = " ".join(visible_texts(ui))
        for desktop in ("F1", "(M)", "Esc", "Backspace", "Window:"):
            assert desktop not in shown, desktop
        ui.bridge.openHelp()
        await until(lambda: ui.item("onlineHelp").property("visible"), what="Help")
        shown = " ".join(visible_texts(ui))
        assert "Touch:" in shown and "F1" not in shown and "Esc" not in shown


def test_desktop_shows_its_controls(qapp: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "0")
    bridge = OnlineBridge()
    assert not bridge.mobile and "F1" in bridge.keyHints and "F1" in bridge.helpKeys


@on_qt_loop()
async def test_android_back_closes_help_then_asks_before_leaving_the_table(tmp_path: Path) -> None:
    async with game(tmp_path, (390, 844), timeouts=Timeouts(confirm=30.0)) as played:
        bridge, ui = played.bridge, played.window
        await ui.table_focus()
        bridge.table.allocate()
        bridge.openHelp()
        await ui.key(Qt.Key.Key_Back)
        assert not bridge.helpOpen and bridge.screen == "table"
        await ui.key(Qt.Key.Key_Back)  # at the table: a question, nothing sent
        assert bridge.askingLeave and bridge.screen == "table" and played.sent == 0
        assert ui.item("leaveDialog").property("visible")
        await until(lambda: ui.focus() == "btnStay", what="focus on Stay")
        assert not bridge.peer.is_finished and bridge.seatTable.draftPass == 10
        await ui.key(Qt.Key.Key_Back)  # Back again: stays
        assert not bridge.askingLeave and bridge.screen == "table"
        assert not bridge.peer.is_finished
        await ui.key(Qt.Key.Key_Back)
        await until(lambda: ui.focus() == "btnStay", what="the question again")
        await ui.tab_to("btnLeaveConfirm")
        await ui.key(Qt.Key.Key_Return)  # leaving ends the session as a departure
        assert await ended_event(played.other) == SessionEnded(EndReason.DEPARTURE, 0)
        await until(lambda: bridge.screen == "results", what="the ending")
        assert "a departure from Seat 1" in bridge.results.endText
        assert bridge.results.endText.endswith("You are Seat 1.")


@on_qt_loop()
async def test_android_back_in_the_lobby_leaves_the_room_and_at_sign_in_harms_nothing(
    tmp_path: Path,
) -> None:
    async with at_sign_in(tmp_path, (390, 844)) as played:
        bridge, ui = played.bridge, played.window
        await ui.type("someone")
        await ui.key(Qt.Key.Key_Back)  # sign-in: nothing is sent, the form is kept
        assert bridge.screen == "signin" and bridge.client is None and not bridge.busy
        assert ui.item("fieldNameInput").property("text") == "someone"
        await answered(
            bridge, lambda: bridge.account.signUp(played.url, fresh_name("back"), PASSWORD)
        )
        await answered(bridge, bridge.lobby.createRoom)
        assert bridge.lobby.roomCode
        await ui.key(Qt.Key.Key_Back)  # lobby, in a room: leaves the room
        await until(lambda: bridge.lobby.roomCode == "", what="leaving the room")
        assert bridge.screen == "lobby" and bridge.account.name != ""
        await ui.key(Qt.Key.Key_Back)  # lobby, no room, no solo table behind: nothing
        assert bridge.screen == "lobby" and bridge.client is not None
        await answered(bridge, bridge.lobby.createRoom)  # a request after it: still signed in
        assert bridge.lobby.roomCode and bridge.error == "", bridge.error


@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
@on_qt_loop(timeout=60)
async def test_the_online_table_stays_inside_faked_safe_area_insets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "1")
    monkeypatch.setenv("POINTLINE_FAKE_INSETS", "47,0,34,0")

    async with scene(tmp_path, "online-table", size) as played:
        ui = played.window
        height = ui.window.height()
        page = rect(ui.item("onlinePage"))
        assert page.top() >= 47 and page.bottom() <= height - 34
        r = rect(ui.item("btnRoll"))
        assert r.top() >= 47 and r.bottom() <= height - 34, "btnRoll"
        # on a phone, leaving waits in the menu, away from the main action (issue 39)
        assert not ui.item("btnLeaveTable").isVisible()
        menu = ui.item("onlineMenu")
        menu.setProperty("visible", True)
        await until(lambda: menu.property("opened"), what="the menu")
        r = rect(ui.item("btnLeaveTable"))
        assert r.top() >= 47 and r.bottom() <= height - 34, "btnLeaveTable"


@on_qt_loop(timeout=60)
async def test_the_portrait_table_shows_four_seats_and_scrolls_to_all_eight(
    tmp_path: Path,
) -> None:
    """At 390x844 an eight-seat room keeps at least four whole seats in sight (the panel is
    clear of the footer and the history); the other four are a scroll away."""
    async with scene(tmp_path, "online-table", (390, 844), people=8) as played:
        ui = played.window
        grid = ui.item("seatList")
        await until(lambda: grid.property("count") == 8, what="eight seats in the list")
        await ui.frame()
        view = rect(grid)
        seats = [
            i
            for i in grid.property("contentItem").childItems()
            if i.isVisible() and i.metaObject().className().startswith("OnlineSeat")
        ]
        whole = [s for s in seats if view.contains(rect(s)) and inside(ui, s)]
        assert len(whole) >= 4, (view, [rect(s) for s in seats])
        assert not rect(ui.item("seats")).intersects(rect(ui.item("onlineHistory")))
        rows = grid.property("contentHeight") / grid.property("cellHeight")
        assert grid.property("interactive") and rows * grid.property("columns") >= 8
