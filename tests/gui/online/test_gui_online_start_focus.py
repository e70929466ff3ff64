"""Issue 30, finding 4: Start never takes focus by itself in the lobby.

When the second player joins, Start turns on, but focus stays where it was (the join code), so
one stray Space or Enter starts nothing and skips no "compare the words out loud". The creator
reaches Start by Tab, pointer or touch. The QML level (the real online window offscreen, keys
through Qt, a private relay on loopback); tests/realinput/test_lobby_focus.py checks the same
on a real X server through XTEST and AT-SPI.
"""

from __future__ import annotations

from pathlib import Path

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


@on_qt_loop()
async def test_start_stays_unfocused_when_the_second_player_joins(tmp_path: Path) -> None:
    async with at_sign_in(tmp_path) as played:
        bridge, ui = played.bridge, played.window
        await sign_up_and_create_by_keys(ui, fresh_name("start"))
        await until(lambda: ui.focus() == "roomCodeBox", what="focus on the join code")
        other = await headless(played.url, fresh_name("peer"))
        played.peers.append(other)
        await other.join_room(bridge.lobby.roomCode)
        await until(lambda: bridge.lobby.canStart, what="two in the room: Start is on")
        for _ in range(3):  # the focus rules run on later turns (Qt.callLater)
            await next_qt_turn()
        assert ui.focus() == "roomCodeBox"
        await ui.keys(K.Key_Space, K.Key_Return)
        assert bridge.screen == "lobby" and ui.focus() == "roomCodeBox"
        await ui.tab_to("btnStart")  # the creator's own way to Start
        await ui.key(K.Key_Return)
        await until(lambda: bridge.screen == "table", what="the table")
