"""The online bridge against a real relay on loopback, with headless peers (no QML here)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from pointline.gui.online.bridge import OnlineBridge
from pointline.gui.online.texts import CASUAL_NOTICE, REFUSALS
from pointline.kernel import EndReason
from pointline.net.client import RelayClient, play, steady_choice
from pointline.net.keys import verification_words
from pointline.net.protocol import SessionEnded, Thrown
from pointline.net.verify import verify_transcript
from tests.gui.test_gui_online_harness import (
    FAST,
    PASSWORD,
    fresh_name,
    gui_room,
    headless,
    online_data,  # noqa: F401 - the fixture, used by pytestmark
    relay,
    run_qt,
    until,
)

pytestmark = pytest.mark.usefixtures("online_data")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def play_by_bridge(bridge: OnlineBridge) -> None:
    """One step of a simple player through the bridge's own slots (as the buttons do)."""
    if bridge.legal["roll"]:
        assert bridge.roll()
    elif bridge.legal["confirm"]:
        bridge.selectLine("pass")
        assert bridge.allocate() and bridge.allocate()
        bridge.selectLine("dont_pass")
        assert bridge.allocate()
        assert bridge.draftPass == 20 and bridge.draftDontPass == 10
        assert bridge.confirm()
        assert bridge.committed and not bridge.legal["confirm"]


async def verified(bridge: OnlineBridge) -> None:
    """Wait for the saved transcript and its verdict (verify runs off the GUI thread)."""
    await until(
        lambda: bridge.transcriptPath and bridge.verifyText and not bridge.verifying,
        what="the transcript's verdict",
    )


def test_sign_in_errors_are_clear(qapp: Any, tmp_path: Path) -> None:
    async def scenario() -> None:
        dead = f"ws://127.0.0.1:{_free_port()}"
        lost = OnlineBridge(dead, timeouts=FAST)
        lost.signIn(dead, "nobody", PASSWORD)
        await until(lambda: not lost.busy, 15.0)
        assert lost.screen == "signin"
        assert dead in lost.error and "Cannot reach the relay" in lost.error
        async with relay(tmp_path) as running:
            name = fresh_name("owner")
            first = OnlineBridge(running.url, timeouts=FAST)
            first.signUp(running.url, name, PASSWORD)
            await until(lambda: not first.busy)
            assert first.screen == "lobby" and first.error == "" and first.name == name
            second = OnlineBridge(running.url, timeouts=FAST)
            second.signUp(running.url, name, "another-password")
            await until(lambda: not second.busy)
            assert second.screen == "signin" and second.error == REFUSALS["name_taken"]
            second.signIn(running.url, name, "not-the-password")
            await until(lambda: not second.busy)
            assert second.screen == "signin" and second.error == REFUSALS["bad_credentials"]
            second.signIn(running.url, name, PASSWORD)
            await until(lambda: not second.busy)
            assert second.screen == "lobby" and second.error == ""
            await first.shutdown()
            await second.shutdown()

    run_qt(qapp, scenario())


def test_lobby_codes_roster_words_and_who_may_start(qapp: Any, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            creator = OnlineBridge(running.url, timeouts=FAST)
            creator.signUp(running.url, fresh_name("c"), PASSWORD)
            await until(lambda: not creator.busy)
            creator.createRoom()
            await until(lambda: not creator.busy)
            code = creator.roomCode
            assert code and creator.isCreator and len(creator.roster) == 1, creator.error
            assert not creator.canStart and "2 to 8" in creator.startReason
            creator.startRoom()
            assert "2 to 8" in creator.error  # refused locally, nothing sent

            joiner = OnlineBridge(running.url, timeouts=FAST)
            joiner.signUp(running.url, fresh_name("j"), PASSWORD)
            await until(lambda: not joiner.busy)
            joiner.joinRoom("NOPE99")
            await until(lambda: not joiner.busy)
            assert joiner.error == REFUSALS["no_room"] and joiner.roomCode == ""
            joiner.joinRoom(code.lower())
            await until(lambda: not joiner.busy)
            assert joiner.roomCode == code and joiner.mySeat == 1 and not joiner.isCreator
            assert not joiner.canStart and creator.name in joiner.startReason
            await until(lambda: len(creator.roster) == 2, what="the roster update")
            assert creator.canStart and creator.startReason == ""
            # the words are the ones net.keys derives from each member's session key
            client = joiner.client
            assert client is not None and client.signing_key is not None
            mine = " ".join(verification_words(client.signing_key.public_key))
            assert [r["words"] for r in creator.roster if r["seat"] == 1] == [mine]
            assert [r["words"] for r in joiner.roster if r["you"]] == [mine]
            creator.startRoom()
            await until(lambda: creator.screen == joiner.screen == "table", what="the start")
            late = OnlineBridge(running.url, timeouts=FAST)
            late.signUp(running.url, fresh_name("late"), PASSWORD)
            await until(lambda: not late.busy)
            late.joinRoom(code)
            await until(lambda: not late.busy)
            assert late.error == REFUSALS["room_started"]
            for b in (creator, joiner, late):
                await b.shutdown()

    run_qt(qapp, scenario())


def test_a_full_two_seat_session_by_the_bridge(qapp: Any, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            bridge = OnlineBridge(running.url, timeouts=FAST)
            (other,) = await gui_room(running.url, bridge)
            task = asyncio.ensure_future(play(other, steady_choice, timeout=40))
            seen_countdown = []
            while bridge.screen == "table":
                await until(
                    lambda: (
                        bridge.screen != "table" or bridge.legal["confirm"] or bridge.legal["roll"]
                    ),
                    what="my turn",
                )
                if bridge.screen == "table":
                    seen_countdown.append(bridge.countdown.secondsLeft)
                    play_by_bridge(bridge)
            peer = await asyncio.wait_for(task, 20)
            assert bridge.outcome == "complete"
            assert peer.result is not None
            rows = bridge.standings
            assert {r["seat"]: (r["final"], r["rank"]) for r in rows} == {
                s: (peer.result.final[s], peer.result.ranks[s]) for s in range(2)
            }
            assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
            await verified(bridge)
            assert bridge.receiptsText.startswith("2 of 2 signed receipts matched")
            assert bridge.verifyOk and "accepts" in bridge.verifyText
            assert verify_transcript(Path(bridge.transcriptPath)).ok
            assert bridge.casualNotice == CASUAL_NOTICE
            assert seen_countdown and all(0 < s <= FAST.confirm for s in seen_countdown)
            # the other seat's contracts and balance came from the peer's own kernel
            assert {r["seat"]: r["balance"] for r in bridge.seats} == {
                s: peer.table.balance(s) for s in range(2)
            }
            await bridge.shutdown()
            await other.close()

    run_qt(qapp, scenario(), timeout=50)


def test_a_peer_leaving_mid_hand_shows_no_result_and_why(qapp: Any, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            bridge = OnlineBridge(running.url, timeouts=FAST)
            (other,) = await gui_room(running.url, bridge)
            play_by_bridge(bridge)
            # the other seat commits the first throw, then leaves before the next
            async with asyncio.timeout(10):
                async for event in other.events():
                    if other.peer is not None and not other.peer.has_committed:
                        other.commit(steady_choice(other.peer.table, other.peer.seat))
                    if isinstance(event, Thrown):
                        break
            await other.leave()
            await until(lambda: bridge.screen == "results", what="the end")
            assert bridge.outcome == "ended"
            assert [r["rank"] for r in bridge.standings] == [0, 0]  # no ranks
            assert "a departure from Seat 2" in bridge.endText
            await verified(bridge)
            assert bridge.verifyOk
            await bridge.shutdown()
            await other.close()

    run_qt(qapp, scenario())


def test_an_expiring_deadline_ends_the_session_even_with_help_open(
    qapp: Any, tmp_path: Path
) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            bridge = OnlineBridge(running.url, timeouts=FAST)
            sent: list[str] = []  # my choices that reached the client
            bridge.submitted.connect(sent.append)
            (other,) = await gui_room(running.url, bridge)
            other.commit(steady_choice(other._live_peer().table, 1))
            await until(lambda: other_seat_status(bridge) == "committed", what="their commit")
            assert bridge.awaitedText == "Waiting for you to choose"
            bridge.openHelp()
            assert (
                not bridge.legal["confirm"]
                and "countdown keeps running" in bridge.reasons["confirm"]
            )
            assert not bridge.confirm() and len(sent) == 0
            first = bridge.countdown.secondsLeft
            assert 0 < first <= FAST.confirm
            await until(lambda: bridge.screen == "results", timeout=FAST.confirm + 3)
            assert bridge.outcome == "ended" and not bridge.helpOpen
            assert "a missed deadline from Seat 1" in bridge.endText
            assert bridge.endText.endswith("You are Seat 1.")
            assert await ended_event(other) == SessionEnded(EndReason.DEADLINE, 0)
            await bridge.shutdown()
            await other.close()

    run_qt(qapp, scenario())


async def ended_event(client: RelayClient, timeout: float = 5.0) -> SessionEnded:
    async with asyncio.timeout(timeout):
        while True:
            event = await client.next_event()
            if isinstance(event, SessionEnded):
                return event


def other_seat_status(bridge: OnlineBridge) -> str:
    return next(r["status"] for r in bridge.seats if not r["you"])


def test_background_ends_the_session_but_losing_focus_does_not(qapp: Any, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            bridge = OnlineBridge(running.url, timeouts=FAST)
            sent: list[str] = []  # my choices that reached the client
            bridge.submitted.connect(sent.append)
            (other,) = await gui_room(running.url, bridge)
            bridge.selectLine("pass")
            bridge.allocate()
            bridge.applicationStateChanged(Qt.ApplicationState.ApplicationInactive.value)
            await asyncio.sleep(0.2)
            assert bridge.screen == "table" and bridge.draftPass == 10
            assert len(sent) == 0
            bridge.applicationStateChanged(Qt.ApplicationState.ApplicationSuspended.value)
            await until(lambda: bridge.screen == "results", what="the end")
            assert "the app going to the background from Seat 1" in bridge.endText
            assert len(sent) == 0
            assert await ended_event(other) == SessionEnded(EndReason.BACKGROUND, 0)
            await verified(bridge)
            assert bridge.verifyOk
            await bridge.shutdown()
            await other.close()

    run_qt(qapp, scenario())


def test_two_bridges_play_a_session_and_show_the_same_ranks(qapp: Any, tmp_path: Path) -> None:
    """The issue's "done when", without windows: two signed-in apps, one relay."""

    async def scenario() -> None:
        async with relay(tmp_path) as running:
            a = OnlineBridge(running.url, timeouts=FAST)
            b = OnlineBridge(running.url, timeouts=FAST)
            for bridge in (a, b):
                bridge.signUp(running.url, fresh_name("app"), PASSWORD)
                await until(lambda b=bridge: not b.busy)
            a.createRoom()
            await until(lambda: not a.busy)
            b.joinRoom(a.roomCode)
            await until(lambda: not b.busy)
            await until(lambda: a.canStart, what="two in the room")
            a.startRoom()
            await until(lambda: a.screen == b.screen == "table", what="the start")
            while "table" in (a.screen, b.screen):
                for bridge in (a, b):
                    if bridge.screen == "table":
                        play_by_bridge(bridge)
                await asyncio.sleep(0.01)
            await verified(a)
            await verified(b)
            assert a.outcome == b.outcome == "complete"
            assert list(a.standings) == [dict(r, you=not r["you"]) for r in b.standings]
            assert a.verifyOk and b.verifyOk
            await a.shutdown()
            await b.shutdown()

    run_qt(qapp, scenario(), timeout=50)


def test_refused_actions_say_why_in_the_kernels_words(qapp: Any, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            bridge = OnlineBridge(running.url, timeouts=FAST)
            (other,) = await gui_room(running.url, bridge)
            assert not bridge.legal["roll"] and bridge.reasons["roll"]
            assert not bridge.legal["reset"]
            for _ in range(10):
                assert bridge.allocate()
            assert not bridge.legal["allocate"] and bridge.lineReasons["pass"]
            assert not bridge.allocate() and bridge.notice == bridge.reasons["allocate"]
            assert bridge.reset() and bridge.draftPass == 0
            await bridge.shutdown()
            await other.close()

    run_qt(qapp, scenario())


def test_headless_client_helper_signs_up(qapp: Any, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            c = await headless(running.url, fresh_name("h"))
            assert isinstance(c, RelayClient) and c.token
            await c.close()

    run_qt(qapp, scenario())


def test_back_to_the_lobby_starts_a_fresh_session_on_the_same_account(
    qapp: Any, tmp_path: Path
) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            bridge = OnlineBridge(running.url, timeouts=FAST)
            (first,) = await gui_room(running.url, bridge)
            await first.leave()
            await until(lambda: bridge.transcriptPath, what="the first transcript")
            old_path = bridge.transcriptPath
            bridge.backToLobby()
            await until(lambda: not bridge.busy)
            assert bridge.screen == "lobby" and bridge.roomCode == "" and bridge.error == ""
            bridge.createRoom()
            await until(lambda: not bridge.busy)
            assert bridge.roomCode, bridge.error
            second = await headless(running.url, fresh_name("again"))
            await second.join_room(bridge.roomCode)
            await until(lambda: bridge.canStart, what="two in the new room")
            bridge.startRoom()
            await until(lambda: bridge.screen == "table", what="the second start")
            assert bridge.balance == 1000 and bridge.throws == 0 and bridge.transcriptPath == ""
            task = asyncio.ensure_future(play(second, steady_choice, timeout=40))
            while bridge.screen == "table":
                await until(
                    lambda: (
                        bridge.screen != "table" or bridge.legal["confirm"] or bridge.legal["roll"]
                    ),
                    what="my turn",
                )
                if bridge.screen == "table":
                    play_by_bridge(bridge)
            await asyncio.wait_for(task, 20)
            await until(lambda: bridge.transcriptPath, what="the second transcript")
            assert bridge.outcome == "complete" and bridge.transcriptPath != old_path
            await bridge.shutdown()
            await first.close()
            await second.close()

    run_qt(qapp, scenario(), timeout=50)


def test_a_relay_that_goes_away_reads_as_a_lost_connection(qapp: Any, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            bridge = OnlineBridge(running.url, timeouts=FAST)
            peers = await gui_room(running.url, bridge)
            running.server.close()  # the relay stops: every connection drops
            await until(lambda: bridge.screen == "results", what="the ending")
            assert bridge.endText == "No result: the relay connection was lost."
            assert "seat" not in bridge.endText and "departure" not in bridge.endText.lower()
            for p in peers:
                await p.close()
            await bridge.shutdown()

    run_qt(qapp, scenario())
