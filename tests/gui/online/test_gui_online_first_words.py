"""Issue 40: the online session's first words are said with the table as it takes the focus.

They come with a whole new screen: Orca 43 skips every Notification it meets in that flood of
events and prunes the queued ones at the table's focus event, but it always presents the focus
event, reading the table's name and description then (tests/realinput/test_orca.py hears it
under load). So "The session started: ..." is the first part of the table's description when
the focus comes to it, is on the status line, and is never a Notification; the first round's
words are not said apart (the first words say them); the seat's first action drops them from
the description (which holds still while the table has the focus).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtGui import QAccessible

from tests.gui.online_support import (
    K,
    at_sign_in,
    fresh_name,
    headless,
    next_qt_turn,
    on_qt_loop,
    sign_up_and_create_by_keys,
    until,
)

FIRST = "The session started: 2 seats, you are Seat 1."


def _description(item: Any) -> str:
    QAccessible.setActive(True)
    iface = QAccessible.queryAccessibleInterface(item)
    return "" if iface is None else str(iface.text(QAccessible.Text.Description))


def _notices(window: Any) -> list[str]:
    announcer = window.findChild(QObject, "announcer")
    QAccessible.setActive(True)
    names = []
    for child in announcer.childItems():
        iface = QAccessible.queryAccessibleInterface(child)
        if iface is not None and iface.role() == QAccessible.Role.Notification:
            names.append(str(iface.text(QAccessible.Text.Name)))
    return names


@on_qt_loop()
async def test_the_first_words_come_with_the_tables_focus(tmp_path: Path) -> None:
    async with at_sign_in(tmp_path) as played:
        bridge, ui = played.bridge, played.window
        await sign_up_and_create_by_keys(ui, fresh_name("first"))
        other = await headless(played.url, fresh_name("peer"))
        played.peers.append(other)
        await other.join_room(bridge.lobby.roomCode)
        await until(lambda: bridge.lobby.canStart, what="two in the room: Start is on")
        await ui.tab_to("btnStart")
        await ui.key(K.Key_Return)
        await until(lambda: ui.focus() == "tableArea", what="the table's focus")
        table = ui.item("tableArea")
        seat = bridge.seatTable
        said = _description(table)
        assert said.startswith(FIRST) and said == seat.value("keysHint"), said
        assert said.endswith("Enter confirms; the countdown shows the seconds left."), said
        assert seat.value("status").startswith(FIRST)
        announcer = ui.window.findChild(QObject, "announcer")
        await until(lambda: not announcer.property("settling"), what="the words said")
        for _ in range(3):
            await next_qt_turn()
        notices = _notices(ui.window)
        assert not [n for n in notices if n.startswith(("The session started", "Come-out for"))]
        # The seat's first action: its words as a Notification; the table's description holds
        # still while it has the focus, and the first words leave the keys hint.
        await ui.key(K.Key_Space)
        await until(lambda: announcer.property("last").startswith("Draft: "), what="the draft")
        assert _description(table) == said
        assert not seat.value("keysHint").startswith("The session started")
