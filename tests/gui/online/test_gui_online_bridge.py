"""The online bridge against a real relay on loopback, with headless peers (no QML here)."""

from __future__ import annotations

import asyncio
import socket
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt

from pointline.gui.online.bridge import OnlineBridge
from pointline.gui.online.texts import CASUAL_NOTICE, REFUSALS
from pointline.kernel import EndReason
from pointline.net.client._verify_command import verify_transcript
from pointline.net.protocol._keys import verification_words
from pointline.net.protocol._peer import SessionEnded, Thrown
from tests.gui.online_support import (
    FAST,
    PASSWORD,
    answered,
    commit_steady,
    ended_event,
    fresh_name,
    game,
    headless,
    on_qt_loop,
    other_seat_status,
    play_by_bridge,
    play_session,
    relay,
    turns_of,
    until,
    verified,
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def signed_up(url: str, prefix: str) -> OnlineBridge:
    """A new bridge signed up at ``url`` as a fresh account, in the lobby under that name."""
    bridge, name = OnlineBridge(url, timeouts=FAST), fresh_name(prefix)
    await answered(bridge, lambda: bridge.account.signUp(url, name, PASSWORD))
    assert bridge.screen == "lobby" and bridge.account.name == name, bridge.error
    return bridge


@on_qt_loop()
async def test_sign_in_errors_are_clear(tmp_path: Path) -> None:
    dead = f"ws://127.0.0.1:{_free_port()}"
    lost = OnlineBridge(dead, timeouts=FAST)
    await answered(lost, lambda: lost.account.signIn(dead, "nobody", PASSWORD))
    assert lost.screen == "signin"
    assert dead in lost.error and "Cannot reach the relay" in lost.error
    async with relay(tmp_path) as running:
        first = await signed_up(running.url, "owner")
        name = first.account.name
        assert first.error == ""
        second = OnlineBridge(running.url, timeouts=FAST)
        await answered(second, lambda: second.account.signUp(running.url, name, "another-password"))
        assert second.screen == "signin" and second.error == REFUSALS["name_taken"]
        await answered(second, lambda: second.account.signIn(running.url, name, "not-the-password"))
        assert second.screen == "signin" and second.error == REFUSALS["bad_credentials"]
        await answered(second, lambda: second.account.signIn(running.url, name, PASSWORD))
        assert second.screen == "lobby" and second.error == ""
        await first.shutdown()
        await second.shutdown()


@on_qt_loop()
async def test_lobby_codes_roster_words_and_who_may_start(tmp_path: Path) -> None:
    async with relay(tmp_path) as running:
        creator = await signed_up(running.url, "c")
        await answered(creator, creator.lobby.createRoom)
        code = creator.lobby.roomCode
        assert code and creator.lobby.isCreator and len(creator.lobby.roster) == 1, creator.error
        assert not creator.lobby.canStart and "2 to 8" in creator.lobby.startReason
        creator.lobby.startRoom()
        assert "2 to 8" in creator.error  # refused locally, nothing sent

        joiner = await signed_up(running.url, "j")
        await answered(joiner, lambda: joiner.lobby.joinRoom("NOPE99"))
        assert joiner.error == REFUSALS["no_room"] and joiner.lobby.roomCode == ""
        await answered(joiner, lambda: joiner.lobby.joinRoom(code.lower()))
        assert (
            joiner.lobby.roomCode == code
            and joiner.lobby.mySeat == 1
            and not joiner.lobby.isCreator
        )
        assert not joiner.lobby.canStart and creator.account.name in joiner.lobby.startReason
        await until(lambda: len(creator.lobby.roster) == 2, what="the roster update")
        assert creator.lobby.canStart and creator.lobby.startReason == ""
        # the words are the ones net.protocol._keys derives from each member's session key
        client = joiner.client
        assert client is not None and client.signing_key is not None
        mine = " ".join(verification_words(client.signing_key.public_key))
        assert [r["words"] for r in creator.lobby.roster if r["seat"] == 1] == [mine]
        assert [r["words"] for r in joiner.lobby.roster if r["you"]] == [mine]
        creator.lobby.startRoom()
        await until(lambda: creator.screen == joiner.screen == "table", what="the start")
        late = await signed_up(running.url, "late")
        await answered(late, lambda: late.lobby.joinRoom(code))
        assert late.error == REFUSALS["room_started"]
        for b in (creator, joiner, late):
            await b.shutdown()


@on_qt_loop(timeout=50)
async def test_a_full_two_seat_session_by_the_bridge(tmp_path: Path) -> None:
    async with game(tmp_path, None) as played:
        bridge = played.bridge
        seen_countdown = []

        def step(turn: OnlineBridge) -> None:
            seen_countdown.append(turn.countdown.secondsLeft)
            play_by_bridge(turn)

        peer = await play_session(bridge, played.other, step)
        assert bridge.results.outcome == "complete"
        assert peer.result is not None
        rows = bridge.results.standings
        assert {r["seat"]: (r["final"], r["rank"]) for r in rows} == {
            s: (peer.result.final[s], peer.result.ranks[s]) for s in range(2)
        }
        assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
        await verified(bridge)
        assert bridge.results.receiptsText.startswith("2 of 2 signed receipts matched")
        assert bridge.results.verifyOk and "accepts" in bridge.results.verifyText
        assert verify_transcript(Path(bridge.results.transcriptPath)).ok
        assert bridge.casualNotice == CASUAL_NOTICE
        assert seen_countdown and all(0 < s <= FAST.confirm for s in seen_countdown)
        # the other seat's contracts and balance came from the peer's own kernel
        assert {r["seat"]: r["balance"] for r in bridge.table.seats} == {
            s: peer.table.balance(s) for s in range(2)
        }


@on_qt_loop()
async def test_a_peer_leaving_mid_hand_shows_no_result_and_why(tmp_path: Path) -> None:
    async with game(tmp_path, None) as played:
        bridge, other = played.bridge, played.other
        play_by_bridge(bridge)
        # the other seat commits the first throw, then leaves before the next
        async with asyncio.timeout(10):
            async for event in other.events():
                if other.peer is not None and not other.peer.has_committed:
                    commit_steady(other)
                if isinstance(event, Thrown):
                    break
        await other.leave()
        await until(lambda: bridge.screen == "results", what="the end")
        assert bridge.results.outcome == "ended"
        assert [r["rank"] for r in bridge.results.standings] == [0, 0]  # no ranks
        assert "a departure from Seat 2" in bridge.results.endText
        await verified(bridge)
        assert bridge.results.verifyOk


@on_qt_loop()
async def test_leave_and_end_it_reads_as_my_departure_in_my_own_transcript(
    tmp_path: Path,
) -> None:
    """Issue 30 finding 5: the leaver's file holds its signed notice and the ending, so
    ``pointline verify`` on it says a departure of that seat, not a lost relay."""
    async with game(tmp_path, None) as played:
        bridge, other = played.bridge, played.other
        bridge.askLeave()
        bridge.confirmLeave()
        assert await ended_event(other) == SessionEnded(EndReason.DEPARTURE, 0)
        client = bridge.client
        assert client is not None and client.transcript_path is not None
        await until(lambda: client.finished.is_set(), what="the transcript closed")
        report = verify_transcript(client.transcript_path)
        assert report.ok and report.complete, report.text()
        assert report.summary.endswith("a departure from Seat 1, reported by that seat itself"), (
            report.summary
        )
        assert "relay was lost" not in report.text()


@on_qt_loop()
async def test_an_expiring_deadline_ends_the_session_even_with_help_open(tmp_path: Path) -> None:
    quick = replace(FAST, confirm=2.0)  # the deadline passes sooner: less to wait
    async with game(tmp_path, None, timeouts=quick, peer_timeouts=quick) as played:
        bridge, other = played.bridge, played.other
        commit_steady(other)
        await until(lambda: other_seat_status(bridge) == "committed", what="their commit")
        assert bridge.table.awaitedText == "Waiting for you to choose"
        bridge.openHelp()
        assert (
            not bridge.seatTable.legal["confirm"]
            and "countdown keeps running" in bridge.seatTable.reasons["confirm"]
        )
        assert not bridge.table.confirm() and played.sent == 0
        first = bridge.countdown.secondsLeft
        assert 0 < first <= quick.confirm
        await until(lambda: bridge.screen == "results", timeout=quick.confirm + 3)
        assert bridge.results.outcome == "ended" and not bridge.helpOpen
        assert "Seat 1's move did not arrive in time" in bridge.results.endText
        assert bridge.results.endText.endswith("You are Seat 1.")
        assert await ended_event(other) == SessionEnded(EndReason.DEADLINE, 0)
        assert played.sent == 0


@on_qt_loop()
async def test_background_ends_the_session_but_losing_focus_does_not(tmp_path: Path) -> None:
    async with game(tmp_path, None) as played:
        bridge = played.bridge
        bridge.table.selectLine("pass")
        bridge.table.allocate()
        bridge.applicationStateChanged(Qt.ApplicationState.ApplicationInactive.value)
        assert bridge.screen == "table" and bridge.seatTable.draftPass == 10
        assert played.sent == 0
        bridge.applicationStateChanged(Qt.ApplicationState.ApplicationSuspended.value)
        await until(lambda: bridge.screen == "results", what="the end")
        # the first ending anyone sees is the background: losing focus ended nothing
        assert "the app going to the background from Seat 1" in bridge.results.endText
        assert played.sent == 0
        assert await ended_event(played.other) == SessionEnded(EndReason.BACKGROUND, 0)
        await verified(bridge)
        assert bridge.results.verifyOk


@on_qt_loop(timeout=50)
async def test_two_bridges_play_a_session_and_show_the_same_ranks(tmp_path: Path) -> None:
    """The issue's "done when", without windows: two signed-in apps, one relay."""

    async with relay(tmp_path) as running:
        a = await signed_up(running.url, "app")
        b = await signed_up(running.url, "app")
        await answered(a, a.lobby.createRoom)
        await answered(b, lambda: b.lobby.joinRoom(a.lobby.roomCode))
        await until(lambda: a.lobby.canStart, what="two in the room")
        a.lobby.startRoom()
        await until(lambda: a.screen == b.screen == "table", what="the start")
        async for turn in turns_of([a, b]):
            play_by_bridge(turn)
        await verified(a)
        await verified(b)
        assert a.results.outcome == b.results.outcome == "complete"
        assert list(a.results.standings) == [dict(r, you=not r["you"]) for r in b.results.standings]
        assert a.results.verifyOk and b.results.verifyOk
        await a.shutdown()
        await b.shutdown()


@on_qt_loop()
async def test_refused_actions_say_why_in_the_kernels_words(tmp_path: Path) -> None:
    async with game(tmp_path, None) as played:
        bridge = played.bridge
        assert not bridge.seatTable.legal["roll"] and bridge.seatTable.reasons["roll"]
        assert not bridge.seatTable.legal["reset"]
        for _ in range(10):
            assert bridge.table.allocate()
        assert not bridge.seatTable.legal["allocate"] and bridge.seatTable.lineReasons["pass"]
        assert (
            not bridge.table.allocate()
            and bridge.seatTable.notice == bridge.seatTable.reasons["allocate"]
        )
        assert bridge.table.reset() and bridge.seatTable.draftPass == 0


@on_qt_loop(timeout=50)
async def test_back_to_the_lobby_starts_a_fresh_session_on_the_same_account(tmp_path: Path) -> None:
    async with game(tmp_path, None) as played:
        bridge = played.bridge
        await played.other.leave()
        await until(lambda: bridge.results.transcriptPath, what="the first transcript")
        old_path = bridge.results.transcriptPath
        await answered(bridge, bridge.backToLobby)
        assert bridge.screen == "lobby" and bridge.lobby.roomCode == "" and bridge.error == ""
        await answered(bridge, bridge.lobby.createRoom)
        assert bridge.lobby.roomCode, bridge.error
        second = await headless(played.url, fresh_name("again"))
        played.peers.append(second)
        await second.join_room(bridge.lobby.roomCode)
        await until(lambda: bridge.lobby.canStart, what="two in the new room")
        bridge.lobby.startRoom()
        await until(lambda: bridge.screen == "table", what="the second start")
        assert (
            bridge.seatTable.balance == 1000
            and bridge.seatTable.throws == 0
            and bridge.results.transcriptPath == ""
        )
        await play_session(bridge, second)
        await until(lambda: bridge.results.transcriptPath, what="the second transcript")
        assert bridge.results.outcome == "complete" and bridge.results.transcriptPath != old_path


@on_qt_loop()
async def test_a_relay_that_goes_away_reads_as_a_lost_connection(tmp_path: Path) -> None:
    async with game(tmp_path, None) as played:
        bridge = played.bridge
        played.running.server.close()  # the relay stops: every connection drops
        await until(lambda: bridge.screen == "results", what="the ending")
        assert bridge.results.endText == "No result: the relay connection was lost."
        assert (
            "seat" not in bridge.results.endText
            and "departure" not in bridge.results.endText.lower()
        )


@on_qt_loop()
async def test_a_relay_lost_in_the_lobby_ends_the_wait_at_once(tmp_path: Path) -> None:
    """Issue 33 R4 in the app: the room's relay dies before the start (its sockets drop
    with no close frame): the lobby says so at once and goes back to sign-in."""
    async with relay(tmp_path) as running:
        bridge = await signed_up(running.url, "lobby")
        await answered(bridge, bridge.lobby.createRoom)
        assert bridge.lobby.roomCode and bridge.screen == "lobby", bridge.error
        running.server.server.close()  # a killed relay process: nothing listens any more
        for connection in list(running.server.connections):  # (else the app takes its seat
            connection.transport.abort()  # back: issue 43), and its sockets drop unclosed
        await until(lambda: bridge.screen == "signin", timeout=3.0, what="the lost relay")
        assert bridge.error == "The relay connection was lost: sign in again when it is back."
        await bridge.shutdown()
