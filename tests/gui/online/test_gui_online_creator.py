"""Who may start a room is the relay's decision: the creator is seat 0 of the relay's roster.

The relay folds the case of account names; the bridge once compared the name typed at sign-in
with the creator's account name, so an account ``Alice`` signed in as ``alice`` could not start
her own room. These tests run against a real relay on loopback.
"""

from __future__ import annotations

from pathlib import Path

from pointline.gui.online.bridge import OnlineBridge
from tests.gui.online_support import (
    FAST,
    PASSWORD,
    answered,
    fresh_name,
    headless,
    on_qt_loop,
    relay,
    until,
)


@on_qt_loop()
async def test_an_account_signed_in_in_another_case_starts_its_own_room(tmp_path: Path) -> None:
    async with relay(tmp_path) as running:
        account = fresh_name("Alice")
        first = OnlineBridge(running.url, timeouts=FAST)
        await answered(first, lambda: first.account.signUp(running.url, account, PASSWORD))
        assert first.screen == "lobby", first.error
        await first.shutdown()

        bridge = OnlineBridge(running.url, timeouts=FAST)
        await answered(
            bridge, lambda: bridge.account.signIn(running.url, account.lower(), PASSWORD)
        )
        assert bridge.screen == "lobby", bridge.error
        await answered(bridge, bridge.lobby.createRoom)
        assert bridge.lobby.roomCode and bridge.lobby.isCreator, bridge.error
        peer = await headless(running.url, fresh_name("bob"))
        await peer.join_room(bridge.lobby.roomCode)
        await until(lambda: len(bridge.lobby.roster) == 2, what="the roster")
        assert bridge.lobby.startReason == "" and bridge.lobby.canStart
        assert [r["creator"] for r in bridge.lobby.roster] == [True, False]
        bridge.lobby.startRoom()
        await until(lambda: bridge.screen == "table", what="the start")
        await peer.wait_started(5.0)
        await bridge.shutdown()
        await peer.close()


@on_qt_loop()
async def test_a_joiner_whose_name_matches_the_creator_in_another_case_is_not_the_creator(
    tmp_path: Path,
) -> None:
    """The joiner's flag comes from its seat in the relay's roster, never from a name."""

    async with relay(tmp_path) as running:
        creator = await headless(running.url, fresh_name("Carol"))
        room = await creator.create_room()
        joiner = OnlineBridge(running.url, timeouts=FAST)
        await answered(
            joiner, lambda: joiner.account.signUp(running.url, fresh_name("dave"), PASSWORD)
        )
        await answered(joiner, lambda: joiner.lobby.joinRoom(room.code))
        assert joiner.lobby.roomCode == room.code, joiner.error
        assert not joiner.lobby.isCreator and not joiner.lobby.canStart
        assert joiner.lobby.startReason == (
            f"Waiting for {room.creator}, who created the room, to start it."
        )
        assert [r["creator"] for r in joiner.lobby.roster] == [True, False]
        await joiner.shutdown()
        await creator.close()
