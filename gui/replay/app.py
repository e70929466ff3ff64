"""Open a replay, a screen of the one window: ``pointline replay FILE``, "Watch again" on the
online results, a "Watch" in Stats and the desktop's file picker all come here.

The replay's QML module is ``Pointline.Replay``; its bridge is ``gui.replay.bridge``. An online
transcript's code (``pointline.net``) is imported only when one is opened; a solo session's
replay imports none of it. Nothing here opens a connection.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pointline.gui.windows import (
    Loaded,
    close_screen,
    gui_application,
    load_frame,
    open_screen,
    prepare_environment,
)

__all__ = ["load_replay", "open_replay", "run_replay"]


def load_replay(bridge: Any, size: tuple[int, int] | None = None) -> Loaded:
    """The one window (Frame.qml) opened on the replay of ``bridge`` (a ``ReplayBridge``), with
    no screen below it; a QGuiApplication must exist."""
    import pointline.gui.replay.bridge  # noqa: F401  (registers ReplayBridge in Pointline.Replay)

    engine, window = load_frame(size, replay=bridge)
    # the window keeps the bridge; the engine (and every binding reading it) goes first
    bridge.setParent(window)
    return Loaded(engine, window, bridge)


def _reduce_motion() -> bool:
    from pointline.gui.moment import reduce_motion_setting

    return reduce_motion_setting()


def open_replay(
    path: str | Path | None = None,
    *,
    frame: Any,
    session: Any = None,
    problem: str = "",
    relay_key: bytes | None = None,
    on_leave: Callable[[], None] | None = None,
    sounds: Any = None,
    mobile: bool | None = None,
) -> Any:
    """Show the replay of ``path`` (or of an opened ``session``) in ``frame``, the one window,
    over the screen that opened it; Escape or Leave replay takes it out, that screen shows
    again as it was, and ``on_leave`` is called once the replay has gone. A file that cannot
    be watched opens the replay on its plain words (why); ``mobile`` (by default the device's,
    ``gui.device.is_mobile``) lays it out for a phone. Returns the ``ReplayBridge``."""
    from pointline.gui.device import is_mobile
    from pointline.gui.replay.bridge import ReplayBridge, bridge_for

    options: dict[str, Any] = {
        "reduce_motion": _reduce_motion(),
        "mobile": is_mobile() if mobile is None else mobile,
        "sounds": sounds,
        "shell": frame.property("shell"),  # one sound for the whole window (issue 38)
    }
    if session is not None or problem:
        bridge = ReplayBridge(session, problem=problem, **options)
    else:
        bridge = bridge_for(path or "", relay_key, **options)
    bridge.leaveRequested.connect(lambda: close_screen(frame, "replay", on_leave))
    open_screen(frame, "replay", bridge)
    return bridge


def run_replay(path: str, size: tuple[int, int] | None = None, mobile: bool | None = None) -> int:
    """``pointline replay FILE``: the one window opened straight on the file (at ``size`` if
    given: ``--size``; laid out for a phone on one, ``mobile``); returns when it closes."""
    prepare_environment()
    app = gui_application()
    app.setOrganizationName("Pointline")
    app.setApplicationName("Pointline Table")
    from PySide6.QtCore import QSettings

    from pointline.gui.sound import Sounds

    sounds = Sounds()
    sounds.muted = bool(QSettings().value("muted", False, type=bool))
    from pointline.gui.device import is_mobile
    from pointline.gui.replay.bridge import bridge_for

    phone = is_mobile() if mobile is None else mobile
    loaded = load_replay(
        bridge_for(path, reduce_motion=_reduce_motion(), sounds=sounds, mobile=phone), size
    )
    # opened from the command line: leaving the replay leaves the app
    loaded.bridge.leaveRequested.connect(app.quit)
    code = app.exec()
    del loaded
    return int(code)


if __name__ == "__main__":
    sys.exit(run_replay(sys.argv[1]))
