"""Issue 40: what a sighted player sees change online is said once to a screen reader.

Each test listens to what the online window says (the seat table's ``announced``: what goes to
``Frame.announce``) with a loopback relay and headless seats: who joined and left the room before
the start, whose commitment alone holds a throw up, my deadline drawing near (once, never a
tick a second), another seat's departure mid-session, and the host closing a hosted table.
"""

from __future__ import annotations

import re
from pathlib import Path

from pointline.gui.online.bridge import OnlineBridge
from pointline.gui.online.texts import DEADLINE_WARNING
from pointline.net.protocol._peer import Timeouts
from tests.gui.online_support import (
    HandClock,
    Window,
    commit_steady,
    fresh_name,
    game,
    headless,
    my_turn,
    on_qt_loop,
    open_room,
    relay,
    until,
)

SLOW = Timeouts(confirm=60.0, response=5.0, session=120.0, receipts=5.0)
"""Deadlines far enough off that a warning can come before them (the clock is moved by hand)."""
WARNING = re.compile(r"^\d+ seconds? to choose$")


def said_by(bridge: OnlineBridge) -> list[str]:
    """Everything the window says from now on, in order."""
    said: list[str] = []
    bridge.seatTable.announced.connect(said.append)
    return said


@on_qt_loop()
async def test_who_joined_and_left_the_room_is_said_once_each(tmp_path: Path) -> None:
    async with relay(tmp_path) as running:
        bridge = OnlineBridge(running.url)
        said = said_by(bridge)
        peers = []
        try:
            (mira,) = peers = await open_room(running.url, bridge, others=1)
            code = bridge.lobby.roomCode
            name = next(e.name for e in bridge.lobby.entries if e.seat == 1)
            assert f"{name} joined (2 in the room)." in said, said
            chen = await headless(running.url, fresh_name("chen"))
            peers.append(chen)
            await chen.join_room(code)
            await until(lambda: len(bridge.lobby.entries) == 3, what="three in the room")
            chen_name = next(e.name for e in bridge.lobby.entries if e.seat == 2)
            await mira.leave()
            await until(lambda: len(bridge.lobby.entries) == 2, what="mira gone")
            await until(lambda: any("left" in s for s in said), what="the leaving said")
            joins = [s for s in said if "joined" in s or " left " in s]
            assert joins == [
                f"{name} joined (2 in the room).",
                f"{chen_name} joined (3 in the room).",
                f"{name} left (2 in the room).",
            ], said
            # no count said apart once I am in the room: the names carry it
            assert not [s for s in said if " in room " in s], said
        finally:
            await bridge.shutdown()
            for p in peers:
                await p.close()


@on_qt_loop()
async def test_whose_commitment_holds_the_throw_up_is_said_once(tmp_path: Path) -> None:
    async with game(tmp_path, None, others=2) as played:
        bridge = played.bridge
        await until(lambda: my_turn(bridge), what="my first turn")
        said = said_by(bridge)
        first, second = played.peers
        names = {e.seat: e.name for e in bridge.lobby.entries}
        assert first.peer is not None and second.peer is not None
        second_name = names[second.peer.seat]
        bridge.table.allocate()
        assert bridge.table.confirm()
        # two others to go: my commitment says so; nobody's name yet
        assert said[-1] == "Committed Pass 10, Don't Pass 0 for this throw; waiting for the others."
        commit_steady(first)
        awaited = f"Waiting for {second_name} to choose"
        await until(lambda: awaited in said, what="the one seat awaited")
        assert bridge.table.awaitedText == awaited  # the status line's own words
        commit_steady(second)
        await until(lambda: any(s.startswith("Throw 1:") for s in said), what="the throw")
        assert said.count(awaited) == 1, said
        assert not [s for s in said if s.startswith("Waiting for you")], said


@on_qt_loop()
async def test_committing_last_but_one_names_the_seat_awaited_in_one_piece(
    tmp_path: Path,
) -> None:
    async with game(tmp_path, None, others=1) as played:
        bridge, other = played.bridge, played.other
        await until(lambda: my_turn(bridge), what="my first turn")
        said = said_by(bridge)
        name = next(e.name for e in bridge.lobby.entries if e.seat != bridge.lobby.seat)
        bridge.table.allocate()
        assert bridge.table.confirm()
        assert said == [
            "Draft: Pass 10, Don't Pass 0",
            f"Committed Pass 10, Don't Pass 0 for this throw. Waiting for {name} to choose.",
        ], said
        commit_steady(other)
        await until(lambda: any(s.startswith("Throw 1:") for s in said), what="the throw")
        assert not [s for s in said if s.startswith("Waiting for")], said


@on_qt_loop()
async def test_my_deadline_drawing_near_is_said_once(tmp_path: Path) -> None:
    clock = HandClock()
    async with game(tmp_path, None, timeouts=SLOW, peer_timeouts=SLOW, clock=clock) as played:
        bridge, countdown = played.bridge, played.bridge.countdown
        await until(lambda: my_turn(bridge) and countdown.secondsLeft > 0, what="the countdown")
        said = said_by(bridge)
        assert countdown.secondsLeft > DEADLINE_WARNING + 1
        peer = bridge.peer
        deadline = peer.next_deadline()
        now = clock()
        clock.ahead += deadline - now - (DEADLINE_WARNING + 1.5)  # 7 seconds left: no word
        await until(lambda: countdown.secondsLeft <= DEADLINE_WARNING + 2, what="7 seconds")
        early = countdown.secondsLeft > DEADLINE_WARNING  # (a stalled loop may have let it pass)
        assert not early or not [s for s in said if WARNING.match(s)], said
        clock.ahead += 2.0  # 5 seconds left (or fewer, as real time passes too): the warning
        await until(lambda: countdown.secondsLeft <= DEADLINE_WARNING, what="5 seconds")
        await until(lambda: any(WARNING.match(s) for s in said), what="the warning")
        warnings = [s for s in said if WARNING.match(s)]
        assert warnings in (
            [f"{DEADLINE_WARNING} seconds to choose"],
            [f"{DEADLINE_WARNING - 1} seconds to choose"],
        ), said
        while countdown.secondsLeft > 2:  # each second after: nothing more is said
            shown = countdown.secondsLeft
            clock.ahead += 1.0
            await until(lambda n=shown: countdown.secondsLeft < n, what="a second less")
        assert [s for s in said if WARNING.match(s)] == warnings, said
        bridge.table.allocate()
        assert bridge.table.confirm()
        commit_steady(played.other)
        await until(lambda: any(s.startswith("Throw 1:") for s in said), what="the throw")
        assert len([s for s in said if WARNING.match(s)]) == 1, said


@on_qt_loop()
async def test_the_deadline_is_not_warned_of_once_my_choice_is_in(tmp_path: Path) -> None:
    clock = HandClock()
    async with game(tmp_path, None, timeouts=SLOW, peer_timeouts=SLOW, clock=clock) as played:
        bridge, countdown = played.bridge, played.bridge.countdown
        await until(lambda: my_turn(bridge) and countdown.secondsLeft > 0, what="the countdown")
        said = said_by(bridge)
        bridge.table.allocate()
        assert bridge.table.confirm()
        clock.ahead += bridge.peer.next_deadline() - clock() - (DEADLINE_WARNING - 0.5)
        await until(lambda: countdown.secondsLeft == DEADLINE_WARNING, what="5 seconds")
        assert not [s for s in said if WARNING.match(s)], said


@on_qt_loop()
async def test_another_seats_departure_is_said_once(tmp_path: Path) -> None:
    async with game(tmp_path, None, others=1) as played:
        bridge, other = played.bridge, played.other
        await until(lambda: my_turn(bridge), what="my first turn")
        said = said_by(bridge)
        name = next(e.name for e in bridge.lobby.entries if e.seat != bridge.lobby.seat)
        await other.leave()
        await until(lambda: bridge.screen == "results", what="the ending")
        await until(lambda: any(s.startswith("No result") for s in said), what="the ending said")
        departed = f"{name} (Seat 2) left."
        assert said.count(departed) == 1, said
        assert len([s for s in said if s.startswith("No result")]) == 1, said
        assert len(said) == len(set(said)), said


@on_qt_loop(timeout=90)
async def test_the_host_closing_the_table_is_said_once(tmp_path: Path) -> None:
    """A guest in a hosted table's lobby hears "hostana closed the table." once, not again when
    the connection then ends."""
    from tests.gui.online.test_gui_online_hosted import (
        guest_bridge,
        host_a_table,
        host_bridge,
        join_nearby,
    )

    host = Window(host_bridge(tmp_path / "host"), (844, 390))
    guest = Window(guest_bridge("stayer"), (390, 844))
    guest.bridge.nearby.folder = tmp_path / "guest"
    try:
        await host_a_table(host, "hostana")
        await join_nearby(guest, host.bridge.host.table, "stayer")
        bridge = guest.bridge
        said = said_by(bridge)
        await host.bridge.shutdown()  # the host closes up: its relay stops
        await until(lambda: bridge.screen == "signin", what="the guest back at sign-in")
        await until(lambda: "hostana closed the table." in said, what="the closing said")
        assert said.count("hostana closed the table.") == 1, said
    finally:
        await guest.bridge.shutdown()
        await host.bridge.shutdown()
