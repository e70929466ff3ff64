"""What the online GUI tests share: a real relay on loopback, the qasync loop, headless peers,
the online window driven like a person, and the set-ups many tests repeat.

A plain module (not a conftest): test files import from it by name, the window's helpers too
(they live in tests/gui/online_window.py). Each test runs one coroutine on a fresh
``qasync.QEventLoop`` over the test's QApplication (``run_qt``, ``on_qt_loop``), so the relay,
the bridge's tasks, Qt timers and QML share one loop, as in the app. Every wait has a timeout
and waits on a condition or an event, never for a duration.

The helpers watch the bridge only from outside, through its properties and notify signals and
the client it holds: no test reads a hook that exists in the app only for tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import inspect
import itertools
import re
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import qasync
from PySide6.QtCore import QTimer

from pointline.gui.online.bridge import OnlineBridge
from pointline.gui.tools.online_scenes import close_held, prepare_online
from pointline.gui.tools.scenes import counter_nonces
from pointline.net.client._relay_client import RelayClient, play, steady_choice
from pointline.net.protocol._peer import Peer, SessionEnded, Timeouts
from pointline.net.relay._server import RunningRelay
from tests.gui.online_window import (
    K,
    Window,
    by_name,
    shown_items,
    sign_up_and_create_by_keys,
    sign_up_by_keys,
    until,
    visible_texts,
)
from tests.net.support import PASSWORD, relay

__all__ = [
    "COMMAND_WORDS",
    "FAST",
    "PASSWORD",
    "Commits",
    "Game",
    "HandClock",
    "K",
    "Window",
    "answered",
    "at_sign_in",
    "by_name",
    "commit_steady",
    "ended_event",
    "fresh_name",
    "game",
    "headless",
    "my_turns",
    "next_qt_turn",
    "on_qt_loop",
    "open_room",
    "other_seat_status",
    "play_by_bridge",
    "play_session",
    "relay",
    "run_qt",
    "scene",
    "shown_items",
    "sign_up_and_create_by_keys",
    "sign_up_by_keys",
    "steady_peer",
    "turns_of",
    "until",
    "verified",
    "visible_texts",
]

T = TypeVar("T")

FAST = Timeouts(confirm=3.0, response=2.0, session=60.0, receipts=2.0)
"""Fast deadlines: the GUI side is driven by the test, so it gets a little more room than the
headless fault tests' ``tests.net.support.TIMEOUTS``."""
COMMAND_WORDS = re.compile(r"(^|\s)--[a-z]|pointline-relay|pointline verify --")
"""Command-line words, which no online screen may show to a player."""
_names = itertools.count()


def fresh_name(prefix: str) -> str:
    """An account name no other test in this process uses."""
    return f"{prefix}_{next(_names):03d}"


# ---------------------------------------------------------------------- the loop and waiting
def run_qt(qapp: Any, coro: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
    """Run ``coro`` on a qasync loop over ``qapp``, failing after ``timeout`` seconds.

    Garbage is collected on this (the GUI) thread before and after: a qasync loop or a bridge
    left in a reference cycle would otherwise be freed by whichever thread next triggers a
    collection (the relay hashes passwords in worker threads), and a QObject deleted off its
    thread leaves its timers registered: the next timer event then crashes the process.
    """
    gc.collect()
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    try:
        return loop.run_until_complete(asyncio.wait_for(coro, timeout))
    finally:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            with contextlib.suppress(TimeoutError):
                loop.run_until_complete(
                    asyncio.wait_for(asyncio.gather(*pending, return_exceptions=True), 5.0)
                )
        loop.close()
        asyncio.set_event_loop(None)
        del loop
        gc.collect()


def on_qt_loop(
    timeout: float = 30.0,
) -> Callable[[Callable[..., Coroutine[Any, Any, None]]], Callable[..., None]]:
    """Make an ``async def`` test a plain one that ``run_qt`` runs on the test's QApplication:
    pytest still passes the test its fixtures (``qapp`` too, when the test asks for it)."""

    def wrap(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
        signature = inspect.signature(test)
        asks_qapp = "qapp" in signature.parameters

        @functools.wraps(test)
        def run(**fixtures: Any) -> None:
            qapp = fixtures["qapp"] if asks_qapp else fixtures.pop("qapp")
            run_qt(qapp, test(**fixtures), timeout)

        if not asks_qapp:
            qapp = inspect.Parameter("qapp", inspect.Parameter.KEYWORD_ONLY)
            signature = signature.replace(parameters=[*signature.parameters.values(), qapp])
        run.__signature__ = signature  # type: ignore[attr-defined]  # what pytest reads
        return run

    return wrap


async def next_qt_turn(timeout: float = 5.0) -> None:
    """Wait until Qt has dispatched a zero-time timer: proof that Qt's event loop is running."""
    done = asyncio.get_running_loop().create_future()

    def fired() -> None:
        if not done.done():
            done.set_result(None)

    QTimer.singleShot(0, fired)
    await asyncio.wait_for(done, timeout)


class HandClock:
    """The countdown's clock (``OnlineBridge(clock=...)``): the loop's time, moved ahead by
    hand, so that no test waits a second for the shown number to change."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return asyncio.get_event_loop().time() + self.ahead


async def answered(bridge: OnlineBridge, start: Callable[[], Any], timeout: float = 15.0) -> None:
    """Start a relay request through a bridge slot and wait for its answer: the bridge's busy
    flag rises, then falls again (a ``TimeoutError`` if it never does, e.g. refused locally)."""
    done = asyncio.Event()
    rose = [False]

    def changed() -> None:
        if bridge.busy:
            rose[0] = True
        elif rose[0]:
            done.set()

    bridge.busyChanged.connect(changed)
    try:
        start()
        async with asyncio.timeout(timeout):
            await done.wait()
    except TimeoutError:
        raise TimeoutError("the bridge's request was never answered") from None
    finally:
        bridge.busyChanged.disconnect(changed)


# ---------------------------------------------------------------------- peers and playing
class Commits:
    """How many of my choices reached the client, counted from the bridge's public
    ``submitted`` signal, so that a test can check that blur, Help or a resize sends nothing."""

    def __init__(self, bridge: OnlineBridge) -> None:
        self.sent: list[str] = []
        bridge.table.submitted.connect(self.sent.append)

    @property
    def count(self) -> int:
        return len(self.sent)


async def headless(url: str, name: str, timeouts: Timeouts = FAST) -> RelayClient:
    """A headless player connected to the relay at ``url`` and signed up as ``name``."""
    client = await RelayClient.connect(url, timeouts=timeouts)
    await client.signup(name, PASSWORD)
    return client


async def open_room(
    url: str, bridge: OnlineBridge, others: int = 1, timeouts: Timeouts = FAST
) -> list[RelayClient]:
    """Sign the bridge up, create a room and let ``others`` headless peers join it."""
    await answered(bridge, lambda: bridge.account.signUp(url, fresh_name("gui"), PASSWORD))
    assert bridge.screen == "lobby", bridge.error
    await answered(bridge, bridge.lobby.createRoom)
    assert bridge.lobby.roomCode, bridge.error
    peers = [await headless(url, fresh_name("peer"), timeouts) for _ in range(others)]
    for p in peers:
        await p.join_room(bridge.lobby.roomCode)
    await until(lambda: len(bridge.lobby.roster) == others + 1, what="the roster")
    return peers


async def gui_room(
    url: str, bridge: OnlineBridge, others: int = 1, timeouts: Timeouts = FAST
) -> list[RelayClient]:
    """``open_room``, then start it: every seat at the table."""
    peers = await open_room(url, bridge, others, timeouts)
    bridge.lobby.startRoom()
    await until(lambda: bridge.screen == "table", what="the start")
    for p in peers:
        await p.wait_started(5.0)
    return peers


def my_turn(bridge: OnlineBridge) -> bool:
    """At the table with Confirm or Roll legal for my seat."""
    return bridge.screen == "table" and bool(
        bridge.seatTable.legal["confirm"] or bridge.seatTable.legal["roll"]
    )


async def turns_of(bridges: Iterable[OnlineBridge]) -> AsyncIterator[OnlineBridge]:
    """Each bridge at each of its turns (it must commit before the next), until every table
    has closed."""
    bridges = list(bridges)
    while any(b.screen == "table" for b in bridges):
        await until(
            lambda: all(b.screen != "table" for b in bridges) or any(map(my_turn, bridges)),
            what="a turn",
        )
        for bridge in bridges:
            if my_turn(bridge):
                yield bridge


async def my_turns(bridge: OnlineBridge) -> AsyncIterator[OnlineBridge]:
    """The bridge at each of its turns until its table closes."""
    async for turn in turns_of([bridge]):
        yield turn


def play_by_bridge(bridge: OnlineBridge) -> None:
    """One step of a simple player through the bridge's own slots (as the buttons do)."""
    if bridge.seatTable.legal["roll"]:
        assert bridge.table.roll()
    elif bridge.seatTable.legal["confirm"]:
        bridge.table.selectLine("pass")
        assert bridge.table.allocate() and bridge.table.allocate()
        bridge.table.selectLine("dont_pass")
        assert bridge.table.allocate()
        assert bridge.seatTable.draftPass == 20 and bridge.seatTable.draftDontPass == 10
        assert bridge.table.confirm()
        assert bridge.table.committed and not bridge.seatTable.legal["confirm"]


def commit_steady(client: RelayClient) -> None:
    """The headless ``client`` commits the steady choice for the throw now open."""
    peer = client.peer
    assert peer is not None and not peer.is_finished, "no session running for this client"
    client.commit(steady_choice(peer.table, peer.seat))


def steady_peer(client: RelayClient) -> asyncio.Future[Peer]:
    """The headless ``client`` playing the steady choice to the session's end, in a task."""
    return asyncio.ensure_future(play(client, steady_choice, timeout=40))


async def play_session(
    bridge: OnlineBridge,
    other: RelayClient,
    step: Callable[[OnlineBridge], None] = play_by_bridge,
) -> Peer:
    """A whole session: my seat by ``step`` at each of my turns, ``other`` steady; its peer."""
    task = steady_peer(other)
    async for turn in my_turns(bridge):
        step(turn)
    return await asyncio.wait_for(task, 20)


async def verified(bridge: OnlineBridge) -> None:
    """Wait for the saved transcript and its verdict (verify runs off the GUI thread)."""
    await until(
        lambda: (
            bridge.results.transcriptPath
            and bridge.results.verifyText
            and not bridge.results.verifying
        ),
        what="the transcript's verdict",
    )


async def ended_event(client: RelayClient, timeout: float = 5.0) -> SessionEnded:
    """The next ``SessionEnded`` the headless ``client`` sees."""
    async with asyncio.timeout(timeout):
        while True:
            event = await client.next_event()
            if isinstance(event, SessionEnded):
                return event


def other_seat_status(bridge: OnlineBridge) -> str:
    """The status column of the first seat that is not mine."""
    return str(next(r["status"] for r in bridge.table.seats if not r["you"]))


# ---------------------------------------------------------------------- set-ups
@dataclass
class Game:
    """A bridge (and maybe its window) at a relay with headless peers; ``sent`` counts my
    choices that reached the client since the bridge was made."""

    running: RunningRelay
    bridge: OnlineBridge
    peers: list[RelayClient]
    ui: Window | None = None
    commits: Commits | None = field(default=None)

    @property
    def url(self) -> str:
        return str(self.running.url)

    @property
    def other(self) -> RelayClient:
        """The one headless peer."""
        (other,) = self.peers
        return other

    @property
    def window(self) -> Window:
        assert self.ui is not None, "this game has no window"
        return self.ui

    @property
    def sent(self) -> int:
        """How many of my choices have reached the client."""
        assert self.commits is not None, "this game counts no commits"
        return self.commits.count

    async def close(self) -> None:
        """Shut the bridge down, close every peer and hide the window."""
        await self.bridge.shutdown()
        for p in self.peers:
            await p.close()
        if self.ui is not None:
            self.ui.close()


@asynccontextmanager
async def game(
    tmp_path: Path,
    size: tuple[int, int] | None = (1280, 720),
    *,
    others: int = 1,
    timeouts: Timeouts = FAST,
    peer_timeouts: Timeouts = FAST,
    **options: Any,
) -> AsyncIterator[Game]:
    """A started session: a relay, my bridge (``options`` go to ``OnlineBridge``) with a window
    of ``size`` (None: no window), ``others`` headless peers seated; all closed afterwards."""
    async with relay(tmp_path) as running:
        bridge = OnlineBridge(running.url, timeouts=timeouts, **options)
        commits, ui = Commits(bridge), None if size is None else Window(bridge, size)
        peers = await gui_room(running.url, bridge, others, peer_timeouts)
        played = Game(running, bridge, peers, ui, commits)
        try:
            yield played
        finally:
            await played.close()
            await close_held()  # the hosted tables of online-nearby


@asynccontextmanager
async def at_sign_in(
    tmp_path: Path,
    size: tuple[int, int] = (1280, 720),
    *,
    timeouts: Timeouts = FAST,
    **options: Any,
) -> AsyncIterator[Game]:
    """The window on its sign-in screen, focus on the name field, a private relay running
    (``options`` go to ``OnlineBridge``); the bridge, the window and any peer the test adds to
    ``peers`` are closed afterwards."""
    async with relay(tmp_path) as running:
        bridge = OnlineBridge(running.url, timeouts=timeouts, **options)
        played = Game(running, bridge, [], Window(bridge, size), Commits(bridge))
        try:
            await until(lambda: played.window.focus() == "fieldNameInput", what="the sign-in form")
            yield played
        finally:
            await played.close()


@asynccontextmanager
async def scene(
    tmp_path: Path,
    name: str,
    size: tuple[int, int] = (1280, 720),
    timeouts: Timeouts | None = None,
    people: int = 4,
) -> AsyncIterator[Game]:
    """The window brought to a screenshot scene (``gui.online.scenes``) at a private relay, by
    the same steps as the screenshots, with ``people`` seats; its peers play on their own; all
    closed afterwards."""
    async with relay(tmp_path) as running:
        bridge = OnlineBridge(
            running.url, timeouts=timeouts or Timeouts(), nonce_source=counter_nonces(b"a")
        )
        ui = Window(bridge, size)
        peers = await prepare_online(bridge, running.url, name, people)
        played = Game(running, bridge, peers, ui)
        try:
            await ui.frame()  # the bindings of the scene's last step are drawn
            yield played
        finally:
            await played.close()
            # online-nearby's hosted tables, closed in this loop: left to be dropped, their
            # relays' servers were freed after the loop had closed ("Event loop is closed",
            # "coroutine 'Server._close' was never awaited")
            await close_held()
