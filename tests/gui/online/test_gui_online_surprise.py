"""No key does what was not asked online, and no screen speaks command-line words (#20).

Each test drives the real online window by keys against a private relay on loopback.
"""

from __future__ import annotations

from pathlib import Path

from pointline.gui.online.bridge import OnlineBridge
from pointline.net.protocol._peer import Timeouts
from tests.gui.online_support import (
    COMMAND_WORDS,
    FAST,
    K,
    answered,
    at_sign_in,
    fresh_name,
    game,
    headless,
    on_qt_loop,
    sign_up_and_create_by_keys,
    until,
    visible_texts,
)
from tests.net.support import self_signed, tls_relay


@on_qt_loop()
async def test_after_create_a_room_focus_is_not_on_leave_room(tmp_path: Path) -> None:
    async with at_sign_in(tmp_path) as played:
        bridge, ui = played.bridge, played.window
        await sign_up_and_create_by_keys(ui, fresh_name("focus"))
        await until(lambda: ui.focus() == "roomCodeBox", what="focus on the join code")
        code = bridge.lobby.roomCode
        await ui.key(K.Key_Return)  # a second Enter presses nothing: still in the room
        await ui.key(K.Key_Space)
        assert bridge.lobby.roomCode == code and ui.focus() == "roomCodeBox"
        await ui.key(K.Key_Tab)  # Start is off: Tab visits only legal buttons
        assert ui.focus() not in ("btnStart", "")
        # a round trip later the room is still mine: a peer joins it by its code
        other = await headless(played.url, fresh_name("peer"))
        played.peers.append(other)
        await other.join_room(code)
        await until(lambda: len(bridge.lobby.roster) == 2, what="the peer in my room")
        assert bridge.lobby.roomCode == code


@on_qt_loop()
async def test_an_empty_confirm_says_sit_out_and_needs_a_second_press(tmp_path: Path) -> None:
    async with game(tmp_path, timeouts=Timeouts(confirm=30.0)) as played:
        bridge, ui = played.bridge, played.window
        await until(lambda: bridge.seatTable.legal["confirm"], what="the come-out")
        await ui.table_focus()
        button = ui.item("btnConfirm")
        assert button.property("text") == bridge.seatTable.confirmLabel == "Sit out"
        await ui.key(K.Key_Return)
        assert played.sent == 0 and not bridge.table.committed
        assert "Sit out this hand?" in ui.item("onlineLiveText").property("text")
        await ui.key(K.Key_Space)  # allocating disarms the question
        assert bridge.seatTable.draftPass == 10 and button.property("text") == "Confirm"
        await ui.key(K.Key_Backspace)
        await until(lambda: button.property("text") == "Sit out", what="Sit out again")
        await ui.key(K.Key_Return)  # asks again: the earlier question was cleared
        assert played.sent == 0
        await ui.key(K.Key_Return)  # the second, deliberate press sits the hand out
        await until(lambda: bridge.table.committed, what="the sit-out commit")
        assert (
            played.sent == 1 and bridge.seatTable.draftPass == bridge.seatTable.draftDontPass == 0
        )


@on_qt_loop()
async def test_no_command_line_words_on_the_sign_in_screen_or_a_refused_certificate(
    tmp_path: Path,
) -> None:
    async with at_sign_in(tmp_path, (390, 844)) as played:
        shown = visible_texts(played.window)
        assert any("No relay yet?" in t for t in shown)
        assert not [t for t in shown if COMMAND_WORDS.search(t)]
    cert, key = self_signed(tmp_path)
    async with tls_relay(tmp_path, cert, key) as running:
        url = f"wss://localhost:{running.port}"
        bridge = OnlineBridge(url, timeouts=FAST)
        await answered(
            bridge, lambda: bridge.account.signIn(url, fresh_name("tls"), "some-password-1")
        )
        assert bridge.screen == "signin" and bridge.trust.asking == "certificate"
        assert bridge.trust.fingerprint and not COMMAND_WORDS.search(bridge.trust.text)
        assert not COMMAND_WORDS.search(bridge.error)
        await bridge.shutdown()
