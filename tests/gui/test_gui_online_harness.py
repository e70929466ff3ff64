"""Harness for the online GUI tests: a real relay on loopback, the qasync loop, headless peers.

Each test runs one coroutine on a fresh ``qasync.QEventLoop`` over the test's QApplication, so
the relay, the bridge's tasks, Qt timers and QML all share one loop, as in the app. Every wait
has a timeout. The tests at the bottom check the harness itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
import qasync

from pointline.gui.online.bridge import OnlineBridge
from pointline.net.client import RelayClient
from pointline.net.protocol import Timeouts
from tests.net.support import PASSWORD, relay

T = TypeVar("T")

# Fast deadlines: the GUI side is driven by the test, so give it a little more room.
FAST = Timeouts(confirm=3.0, response=2.0, session=60.0, receipts=2.0)
_names = itertools.count()

__all__ = [
    "FAST",
    "PASSWORD",
    "fresh_name",
    "online_data",
    "play_through",
    "relay",
    "run_qt",
    "until",
]


def fresh_name(prefix: str) -> str:
    return f"{prefix}_{next(_names):03d}"


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


async def until(predicate: Callable[[], Any], timeout: float = 10.0, what: str = "") -> None:
    """Poll ``predicate`` on the loop until it holds (``TimeoutError`` naming ``what``)."""
    try:
        async with asyncio.timeout(timeout):
            while not predicate():
                await asyncio.sleep(0.01)
    except TimeoutError:
        raise TimeoutError(f"timed out waiting for {what or predicate}") from None


@pytest.fixture
def online_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("POINTLINE_DATA_DIR", str(folder))
    # Results show at once unless a test is about the result moment (it passes reduce_motion).
    monkeypatch.setenv("POINTLINE_REDUCE_MOTION", "1")
    return folder


async def headless(url: str, name: str, timeouts: Timeouts = FAST) -> RelayClient:
    client = await RelayClient.connect(url, timeouts=timeouts)
    await client.signup(name, PASSWORD)
    return client


async def gui_room(
    url: str, bridge: OnlineBridge, others: int = 1, timeouts: Timeouts = FAST
) -> list[RelayClient]:
    """Sign the bridge up, create a room, seat ``others`` headless peers and start it."""
    bridge.signUp(url, fresh_name("gui"), PASSWORD)
    await until(lambda: not bridge.busy)
    assert bridge.screen == "lobby", bridge.error
    bridge.createRoom()
    await until(lambda: not bridge.busy)
    assert bridge.roomCode, bridge.error
    peers = [await headless(url, fresh_name("peer"), timeouts) for _ in range(others)]
    for p in peers:
        await p.join_room(bridge.roomCode)
    await until(lambda: len(bridge.roster) == others + 1, what="the roster")
    bridge.startRoom()
    await until(lambda: bridge.screen == "table", what="the start")
    for p in peers:
        await p.wait_started(5.0)
    return peers


async def play_through(bridge: OnlineBridge, step: Callable[[OnlineBridge], None]) -> None:
    """Play my seat with ``step`` at each of my turns until the table closes."""
    while bridge.screen == "table":
        await until(
            lambda: bridge.screen != "table" or bridge.legal["confirm"] or bridge.legal["roll"],
            what="my turn",
        )
        if bridge.screen == "table":
            step(bridge)


@pytest.mark.usefixtures("online_data")
def test_the_harness_runs_a_relay_and_the_bridge_on_one_qt_loop(qapp: Any, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            bridge = OnlineBridge(running.url, timeouts=FAST)
            peers = await gui_room(running.url, bridge)
            assert bridge.mySeat == 0 and len(bridge.seats) == 2
            await bridge.shutdown()
            for p in peers:
                await p.close()

    run_qt(qapp, scenario())
