"""Start the Qt app: the bridge, the QML module and the asyncio loop inside Qt (qasync)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pointline.gui.windows import Loaded, gui_application, load_frame, prepare_environment

__all__ = ["attach_online", "load", "run"]


def load(bridge: Any, size: tuple[int, int] | None = None) -> Loaded:
    """Load the one window (Frame.qml) on the solo table of ``bridge``; a QGuiApplication must
    exist."""
    import pointline.gui.bridge  # noqa: F401  (registers the QML types of Pointline.Seat)

    engine, window = load_frame(size, shell=bridge.shell, bridge=bridge)
    # The engine owns the bridge: it outlives every binding that reads it (no "of null" errors
    # when Python drops its reference first), and goes when the engine goes.
    bridge.setParent(engine)
    return Loaded(engine, window, bridge)


def attach_online(
    app: Any, loaded: Loaded, relay: str | None, ca: str | None, discover: bool = False
) -> list[Any]:
    """Wire the solo table's Play online: the online screens open in the same window (the one
    frame), over the solo table (its session paused), and Back to solo table shows the solo
    table again as it was. Returns the list holding the open online screens, if any.
    ``discover``: list tables nearby by mDNS on this device's networks (the app; tests
    never send multicast onto a real network)."""
    from PySide6.QtCore import QTimer

    online: list[Any] = []

    def back_to_solo() -> None:
        QTimer.singleShot(0, online.clear)

    def open_online() -> None:
        if online:
            return
        from pointline.gui.online.app import open_online as start
        from pointline.gui.online.texts import DEFAULT_RELAY

        opened = start(
            app,
            relay or DEFAULT_RELAY,
            ca,
            back_to_solo,
            sounds=loaded.bridge.sounds,
            frame=loaded.window,
            discover=discover,
        )
        online.append(opened)

    loaded.bridge.onlineRequested.connect(open_online)
    return online


def run(
    nonce_source: Callable[[], bytes] | None = None,
    exit_after_first_frame: bool = False,
    relay: str | None = None,
    ca: str | None = None,
    size: tuple[int, int] | None = None,
) -> int:
    """Run the solo table until the window closes (at ``size`` if given: ``--size``, e.g. a
    phone's portrait on a desktop); returns the exit status."""
    prepare_environment()
    from PySide6.QtCore import QEventLoop, QTimer

    from pointline.gui.bridge import TableBridge
    from pointline.gui.session import fresh_nonce

    app = gui_application()
    app.setOrganizationName("Pointline")
    app.setApplicationName("Pointline Table")
    from pointline.gui.stop_signals import quit_on_stop_signals

    stops = quit_on_stop_signals(app)  # SIGTERM, SIGHUP: as closing the window
    bridge = TableBridge(nonce_source or fresh_nonce)
    from pointline.gui.extras import extras_of  # gui-extras: Stats in the data folder,

    extras_of(bridge).start()  # the guide on first launch, and quitting records the session
    app.aboutToQuit.connect(extras_of(bridge).record_if_in_play)
    loaded = load(bridge, size)
    app.applicationStateChanged.connect(lambda s: bridge.applicationStateChanged(s.value))
    # Show the first frame before importing the asyncio bridge: the table appears sooner.
    first = QEventLoop()
    loaded.window.frameSwapped.connect(first.quit)
    QTimer.singleShot(3000, first.quit)
    first.exec()
    loaded.window.frameSwapped.disconnect(first.quit)
    if exit_after_first_frame or stops.received:  # stopped before the first frame: no play
        stops.close()
        del loaded
        return 0
    # Load the synthesized sounds once the table is on screen, not before the first frame.
    QTimer.singleShot(300, bridge.sounds.preload)
    import asyncio

    from pointline.gui._qasync_core import event_loop, watch_socket_notifiers

    watch_socket_notifiers()  # a notifier touched off its thread: one line, every stack
    loop = event_loop(app)  # qasync's loop, its notifiers and timers kept to this thread
    asyncio.set_event_loop(loop)
    closing = asyncio.Event()
    tasks: list[asyncio.Task[Any]] = []
    """Pending tasks of the online layer; cancelled when the app quits."""

    def stop() -> None:
        for task in tasks:
            task.cancel()
        closing.set()

    app.aboutToQuit.connect(stop)
    # the window closing ends the loop once the online screens have left their table (main
    # below), not at once: Qt quitting stopped the loop mid-shutdown, and the process failed
    # with "Event loop stopped before Future completed"
    app.setQuitOnLastWindowClosed(False)
    app.lastWindowClosed.connect(stop)
    # a stop signal from now on: the online window leaves its table first (main below), then
    # the loop ends, and aboutToQuit records the solo session as closing the window does
    stops.on_stop = closing.set
    online = attach_online(app, loaded, relay, ca, discover=True)

    async def main() -> None:
        # The online window (Play online) runs its relay connection and peer on this loop.
        await closing.wait()
        if online:
            await online[0].bridge.shutdown()

    with loop:
        # Tasks are created only once the loop runs; the online layer adds its own to `tasks`.
        loop.run_until_complete(main())
    extras_of(bridge).record_if_in_play()  # as on aboutToQuit: the window closed, no quit
    stops.close()
    del loaded
    return 0
