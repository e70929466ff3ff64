"""Online scenes for screenshots, reached by really playing: the online bridge and headless
peers (``net.client._relay_client.RelayClient``) on one qasync loop, against a private relay on
loopback.

The relay runs as its own process (``python -m pointline.net.relay``), as players run it: the
app's import path never holds the relay, its rooms or its password hashing. Nonces come from
fixed counters; the dice still change from run to run, since the relay draws each table's id
(which every throw's dice derive from).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from pointline.gui.online.bridge import OnlineBridge
from pointline.gui.online.texts import ONLINE_SCENES
from pointline.gui.tools.moves import counter_nonces
from pointline.gui.tools.phone import black_bars, insets_of, profile_env
from pointline.kernel import Phase
from pointline.net.client import Disconnected, RelayClient, steady_choice
from pointline.net.protocol import RoundOpened, Timeouts

__all__ = [
    "PASSWORD",
    "PEOPLE",
    "HeldBeats",
    "held_still",
    "in_motion",
    "layout_signature",
    "prepare_online",
    "relay_process",
    "screenshot_online",
]

PASSWORD = "scene-password"
PEOPLE = ("alice", "bruno", "chen", "dara", "emeka", "fumiko", "goran", "hana")
"""Who plays in the scenes: the first four, unless a scene asks for more (``people``)."""


async def _until(predicate: Any, timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.01)


def layout_signature(window: Any) -> object:
    """Where every shown text is, what it says and whether Qt cut it: equal twice running, the
    window's layout holds still."""
    from PySide6.QtCore import QRectF

    texts = []
    todo = [window.contentItem()]
    while todo:
        item = todo.pop()
        if not item.isVisible():
            continue
        todo.extend(item.childItems())
        if item.inherits("QQuickText"):
            r = item.mapRectToScene(QRectF(0, 0, item.width(), item.height()))
            place = (r.x(), r.y(), r.width(), r.height())
            texts.append((place, item.property("truncated"), item.property("text")))
    return (window.width(), window.height(), texts)


async def held_still(window: Any) -> None:
    """Until the window's layout holds still: a window just shown or resized draws its old
    layout first, and a loaded machine lays out late (a title was once read as elided
    mid-relayout). Its ``layout_signature`` is read every 30 ms until two agree (3 s at most);
    the loop runs Qt's events meanwhile (qasync)."""
    seen: object = None
    for _ in range(100):
        await asyncio.sleep(0.03)
        now = layout_signature(window)
        if now == seen:
            return
        seen = now


def in_motion(root: Any) -> bool:
    """Whether dice fly or a chip slides anywhere under ``root`` (a screenshot waits them out)."""
    todo = [root]
    while todo:
        item = todo.pop()
        if item.isVisible() and (
            item.objectName().startswith("flyer_") or item.property("flying") is True
        ):
            return True
        todo.extend(item.childItems())
    return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def relay_process(folder: Path, timeout: float = 20.0) -> AsyncIterator[str]:
    """A private relay on loopback in its own process; yields its ``ws://`` address."""
    port = _free_port()
    command = [sys.executable, "-m", "pointline.net.relay", "--port", str(port)]
    command += ["--db", str(folder / "relay.sqlite3")]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        async with asyncio.timeout(timeout):
            while True:
                if process.poll() is not None:
                    raise RuntimeError("the relay did not start")
                try:
                    _, writer = await asyncio.open_connection("127.0.0.1", port)
                except OSError:
                    await asyncio.sleep(0.05)
                    continue
                writer.close()
                break
        yield f"ws://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(5.0)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5.0)
        if process.stderr is not None:
            process.stderr.close()


class HeldBeats:
    """A ``gui.clock.Clock`` whose beat waits until ``fire`` (a scene holds a moment's beat)."""

    def __init__(self) -> None:
        self._callback: Callable[[], None] | None = None

    def start(self, ms: int, callback: Callable[[], None]) -> None:
        del ms
        self._callback = callback

    def stop(self) -> None:
        self._callback = None

    def pause(self) -> None:
        pass

    def resume(self) -> None:
        pass

    @property
    def pending(self) -> bool:
        return self._callback is not None

    def fire(self) -> None:
        callback, self._callback = self._callback, None
        if callback is not None:
            callback()


_PLAYERS: set[asyncio.Task[None]] = set()
"""The scenes' headless players, held until each ends (asyncio keeps only weak references)."""


def _play(client: RelayClient) -> None:
    task = asyncio.ensure_future(_autoplay(client))
    _PLAYERS.add(task)
    task.add_done_callback(_PLAYERS.discard)


async def _autoplay(client: RelayClient) -> None:
    """A headless peer: commit the steady choice at every round, until its connection closes."""
    while True:
        event = await client.next_event()
        if isinstance(event, Disconnected):
            return
        peer = client.peer
        if isinstance(event, RoundOpened) and peer is not None and not peer.is_finished:
            client.commit(steady_choice(peer.table, peer.seat))


def _my_step(ui: OnlineBridge) -> None:
    # Qt properties read from Python are plain values at run time; PySide6's stubs type the
    # class attributes as Property, so the bridge is read through Any here and below.
    bridge: Any = ui
    if bridge.seatTable.legal["roll"]:
        bridge.table.roll()
    elif bridge.seatTable.legal["confirm"]:
        bridge.table.selectLine("pass")
        for _ in range(3):
            bridge.table.allocate()
        bridge.table.selectLine("dont_pass")
        for _ in range(2):
            bridge.table.allocate()
        bridge.table.confirm()


async def prepare_online(
    ui: OnlineBridge, url: str, scene: str, people: int = 4
) -> list[RelayClient]:
    """Bring the bridge to ``scene`` on the relay at ``url`` with ``people`` seats (2 to 8);
    returns the headless peers (at the table they play on until the caller closes them)."""
    bridge: Any = ui
    if scene not in ONLINE_SCENES:
        raise ValueError(f"unknown scene {scene!r}; scenes: {', '.join(ONLINE_SCENES)}")
    if scene == "online-signin":
        return []
    if scene in ("online-host", "online-nearby"):
        return await _hosted_scene(bridge, scene)
    bridge.account.signUp(url, PEOPLE[0], PASSWORD)
    await _until(lambda: bridge.screen == "lobby" and not bridge.busy)
    bridge.lobby.createRoom()
    await _until(lambda: bridge.lobby.roomCode != "" and not bridge.busy)
    peers: list[RelayClient] = []
    for i, name in enumerate(PEOPLE[1:people]):
        c = await RelayClient.connect(
            url, timeouts=bridge.timeouts, nonce_source=counter_nonces(name.encode())
        )
        await c.signup(name, PASSWORD)
        await c.join_room(bridge.lobby.roomCode)
        peers.append(c)
        if scene == "online-lobby" and i == 1:
            break
    await _until(lambda: len(bridge.lobby.roster) == len(peers) + 1)
    if scene == "online-lobby":
        return peers
    bridge.lobby.startRoom()
    await _until(lambda: bridge.screen == "table")
    for c in peers:
        _play(c)  # each plays until the caller closes it
    motion = not bridge.moment.reduceMotion
    bridge.moment.set_reduce_motion(True)  # the way there shows each result at once
    if scene == "online-moment":
        return await _moment(bridge, peers)
    if scene == "online-table":
        while True:
            await _until(
                lambda: bridge.seatTable.legal["confirm"] or bridge.seatTable.legal["roll"]
            )
            if bridge.seatTable.phase == Phase.POINT.value and bridge.seatTable.legal["reduce"]:
                break
            _my_step(bridge)
        bridge.table.reduceDontPass()
        bridge.table.selectLine("dont_pass")
        await _until(
            lambda: all(r["status"] != "choosing" for r in bridge.table.seats if not r["you"])
        )
        return peers
    if scene == "online-ended":
        await _until(lambda: bridge.seatTable.legal["confirm"])
        _my_step(bridge)
        await _until(
            lambda: (
                bridge.seatTable.throws >= 1
                and (bridge.seatTable.legal["confirm"] or bridge.seatTable.legal["roll"])
            )
        )
        await peers[-1].leave()
        await _until(lambda: bridge.results.transcriptPath != "")
        return peers
    bridge.moment.set_reduce_motion(not motion)
    while bridge.screen == "table":
        await _until(
            lambda: (
                bridge.screen != "table"
                or bridge.seatTable.legal["confirm"]
                or bridge.seatTable.legal["roll"]
            )
        )
        _my_step(bridge)
    await _until(lambda: bridge.results.transcriptPath != "" and bridge.results.receiptsText != "")
    return peers


async def _hosted_scene(bridge: Any, scene: str) -> list[RelayClient]:
    """``online-host``: I host a table on loopback (not announced: scenes send no multicast)
    and two friends join it; ``online-nearby``: two friends host tables (real ``HostedTable``s
    on loopback, listed as the browser lists them) and I chose one, a first visit."""
    from pointline.net.client import pinned_tls_context
    from pointline.net.discovery import NearbyTable
    from pointline.net.hosting import HostedTable
    from pointline.net.relay import FAST_HASH, RelayConfig

    fast = RelayConfig(hash_params=FAST_HASH)  # a scene's accounts need no real hashing cost

    folder = Path(tempfile.mkdtemp(prefix="pointline-hosted-scene-"))
    if scene == "online-host":
        bridge.host.folder, bridge.host.address, bridge.host.announce = folder, "127.0.0.1", False
        bridge.host_config = fast
        bridge.host.hostTable(PEOPLE[0])
        await _until(lambda: bridge.host.hosting and bridge.screen == "lobby" and not bridge.busy)
        table = bridge.host.table
        peers = []
        for name in PEOPLE[1:3]:
            c = await RelayClient.connect(
                table.url,
                timeouts=bridge.timeouts,
                ssl_context=pinned_tls_context(table.certificate.pem),
                nonce_source=counter_nonces(name.encode()),
            )
            await c.signup(name, PASSWORD)
            await c.join_room(table.code)
            peers.append(c)
        await _until(lambda: len(bridge.lobby.roster) == 3 and len(bridge.host.players) == 3)
        return peers
    found = {}
    for name in PEOPLE[1:3]:
        hosted = HostedTable(
            f"{name}'s table", name, "127.0.0.1", folder=folder / name, announce=False, config=fast
        )
        await hosted.open()
        _HELD.append((asyncio.get_running_loop(), hosted))
        service = f"{name}._pointline._tcp.local."
        assert hosted.running is not None
        found[service] = NearbyTable(service, "127.0.0.1", hosted.running.port, hosted.announcement)
    bridge.nearby.folder = folder / "guest"
    bridge.nearby.show_tables(found)
    bridge.nearby.choose(next(iter(found)))
    await _until(lambda: bridge.nearby.asking == "first")
    return []


_HELD: list[tuple[asyncio.AbstractEventLoop, Any]] = []
"""The scene's hosted tables, each with the loop it runs in (closed by ``close_held``)."""


async def close_held() -> None:
    """Close the hosted tables the scenes opened in this loop; a table left behind by a loop
    that is gone (a caller that never closed it) is dropped: nothing of it can run again."""
    loop = asyncio.get_running_loop()
    while _HELD:
        opened_in, hosted = _HELD.pop()
        if opened_in is loop:
            await hosted.close()


async def _moment(bridge: Any, peers: list[RelayClient]) -> list[RelayClient]:
    """Play until a throw settles one of my lines, then hold its moment at the outcome beat."""
    held = HeldBeats()
    bridge.moment.set_reduce_motion(False)  # this scene is the moment itself
    bridge.moment.set_clock(held)
    while True:
        await _until(lambda: bridge.seatTable.legal["confirm"] or bridge.seatTable.legal["roll"])
        before = bridge.seatTable.throws
        _my_step(bridge)
        await _until(
            lambda b=before: bridge.seatTable.revealStage != "" or bridge.seatTable.throws > b
        )
        held.fire()  # the dice settle: the outcome beat, when a line of mine settled
        if bridge.seatTable.revealStage == "outcome":
            return peers
        while bridge.seatTable.revealStage:
            held.fire()


def screenshot_online(path: str, size: tuple[int, int], scene: str) -> int:
    """Render an online scene offscreen at ``size`` to a PNG (a private relay runs meanwhile)."""
    import os

    from pointline.gui.windows import prepare_environment

    prepare_environment(offscreen=True)
    import qasync

    from pointline.gui.online.app import load_online
    from pointline.gui.windows import gui_application

    app = gui_application()
    app.setQuitOnLastWindowClosed(False)
    folder = tempfile.TemporaryDirectory(prefix="pointline-online-shot-")
    os.environ["POINTLINE_DATA_DIR"] = str(Path(folder.name) / "data")
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    ok = False

    async def main() -> bool:
        async with relay_process(Path(folder.name)) as url:
            with profile_env(size):  # a phone size is pictured as a phone shows it
                bridge = OnlineBridge(
                    url, timeouts=Timeouts(), nonce_source=counter_nonces(b"alice")
                )
            loaded = load_online(bridge, size)
            loaded.window.show()
            peers = await prepare_online(bridge, url, scene)
            await _until(lambda: not in_motion(loaded.window.contentItem()), 10.0)
            await held_still(loaded.window)
            image = black_bars(loaded.window.grabWindow(), insets_of(size))
            saved = bool(image.save(path))
            for c in peers:
                await c.close()
            await bridge.shutdown()
            await close_held()
            loaded.window.close()
            return saved

    with loop:
        try:
            ok = loop.run_until_complete(asyncio.wait_for(main(), 60))
        finally:
            pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
            for task in pending:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    folder.cleanup()
    if not ok:
        print(f"could not write {path}", file=sys.stderr)
        return 1
    print(f"wrote {path} ({size[0]}x{size[1]}, scene {scene})")
    return 0
