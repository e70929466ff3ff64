"""Start the online app: the OnlineBridge, the Pointline.Online QML module and qasync.

pointline --online [--relay ws://HOST:8765]   (or python -m pointline.gui.online.app); its
screenshots are ``pointline --screenshot FILE --scene online-…`` (gui.tools.online_scenes).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Sequence
from typing import Any

from pointline.gui.online.texts import DEFAULT_RELAY
from pointline.gui.windows import Loaded, gui_application, load_frame, prepare_environment

__all__ = ["MODULE", "LoadedOnline", "load_online", "main", "open_online", "run_online"]

MODULE = "Pointline.Online"


LoadedOnline = Loaded
"""The one window's engine and window, and the ``OnlineBridge`` of its online screens."""


def load_online(bridge: Any, size: tuple[int, int] | None = None) -> LoadedOnline:
    """The one window (Frame.qml) opened on the online screens of ``bridge``, with no solo
    table below them; a QGuiApplication must exist."""
    import pointline.gui.online.bridge  # noqa: F401  (registers OnlineBridge in Pointline.Online)

    engine, window = load_frame(size, shell=bridge.shell, online=bridge)
    bridge.shown_in = window  # its replays open in this window (gui.windows.frame_of)
    return LoadedOnline(engine, window, bridge)


def _sounds() -> Any:
    from PySide6.QtCore import QSettings

    from pointline.gui.sound import Sounds

    settings = QSettings("Pointline", "Pointline Table")
    sounds = Sounds()
    sounds.muted = bool(settings.value("muted", False, type=bool))
    return sounds


def open_online(
    app: Any,
    url: str = DEFAULT_RELAY,
    ca: str | None = None,
    on_leave: Callable[[], None] | None = None,
    *,
    sounds: Any = None,
    size: tuple[int, int] | None = None,
    frame: Any = None,
    **bridge_options: Any,
) -> LoadedOnline:
    """Open the online screens inside a running QGuiApplication and qasync loop: in ``frame``
    (the one window, over the solo table: Play online), or in a frame of their own (tests).

    ``on_leave`` is called when the person chooses "Back to solo table" (offered on the sign-in
    and lobby screens and after the results, never while a session runs): by then the bridge
    has signed out and closed its connection. In ``frame`` the online screens then leave it
    and the solo table shows again; in a frame of their own, that window and its engine are
    deleted (the bridge lives on in the returned ``LoadedOnline``: keep it until then).
    """
    from pointline.gui.online.bridge import OnlineBridge
    from pointline.gui.windows import close_screen, open_screen, shell_of

    loaded: LoadedOnline | None = None

    def leave() -> None:
        if on_leave is not None:
            on_leave()
        if frame is not None:  # the solo table shows again, as it was
            close_screen(frame, "online")
        elif loaded is not None:
            loaded.window.close()
            loaded.engine.deleteLater()  # the bridge outlives it: `loaded` keeps it

    if frame is not None:  # the window's shell: its mode, sound and insets stay as they were
        bridge_options.setdefault("shell", shell_of(frame))
    bridge = OnlineBridge(url, sounds=sounds, ca=ca, on_leave=leave, **bridge_options)
    if frame is not None:
        open_screen(frame, "online", bridge)
        loaded = LoadedOnline(None, frame, bridge)
    else:
        loaded = load_online(bridge, size)
    app.applicationStateChanged.connect(bridge.applicationStateChanged_)
    loaded.window.show()
    return loaded


def run_online(
    url: str = DEFAULT_RELAY, ca: str | None = None, size: tuple[int, int] | None = None
) -> int:
    """Run the online app until its window closes (at ``size`` if given); the session (if
    any) ends as a departure."""
    prepare_environment()

    from pointline.gui.online.bridge import OnlineBridge

    app = gui_application()
    app.setOrganizationName("Pointline")
    app.setApplicationName("Pointline Table")
    from pointline.gui.stop_signals import quit_on_stop_signals

    stops = quit_on_stop_signals(app)  # SIGTERM, SIGHUP: as closing the window (a leave)
    from pointline.gui._qasync_core import event_loop, watch_socket_notifiers

    watch_socket_notifiers()  # a notifier touched off its thread: one line, every stack
    loop = event_loop(app)  # qasync's loop, its notifiers and timers kept to this thread
    asyncio.set_event_loop(loop)
    bridge = OnlineBridge(url, sounds=_sounds(), ca=ca, discover=True)
    loaded = load_online(bridge, size)
    app.applicationStateChanged.connect(bridge.applicationStateChanged_)
    closing = asyncio.Event()
    # the window closing ends the loop once the table is left (main below), not at once: Qt
    # quitting stopped the loop mid-shutdown ("Event loop stopped before Future completed")
    app.setQuitOnLastWindowClosed(False)
    app.aboutToQuit.connect(closing.set)
    app.lastWindowClosed.connect(closing.set)
    stops.on_stop = closing.set  # leave the table (main below), then the loop ends

    async def main() -> None:
        await closing.wait()
        await bridge.shutdown()

    with loop:
        loop.run_until_complete(main())
    stops.close()
    del loaded
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pointline.gui.online.app",
        description="Pointline Table online: sign in to a relay, a room, shared dice. "
        "Free fictional points only.",
    )
    parser.add_argument("--relay", default=DEFAULT_RELAY, metavar="URL", help="the relay address")
    parser.add_argument("--ca", metavar="FILE", help="trust this certificate for a wss:// relay")
    args = parser.parse_args(list(argv) if argv is not None else None)
    return run_online(args.relay, args.ca)


if __name__ == "__main__":
    sys.exit(main())
