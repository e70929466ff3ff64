"""Open the replay window: ``pointline replay FILE``, "Watch again" on the online results, a
"Watch" in Stats and the desktop's file picker all come here.

The replay's QML module is ``Pointline.Replay``; its bridge is ``gui.replay.bridge``. An online
transcript's code (``pointline.net``) is imported only when one is opened; a solo session's
replay imports none of it. Nothing here opens a connection.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pointline.gui import windows
from pointline.gui.windows import Loaded, gui_application, load_window, prepare_environment

__all__ = ["MODULE", "load_replay", "open_replay", "run_replay"]

MODULE = "Pointline.Replay"


def load_replay(bridge: Any, size: tuple[int, int] | None = None) -> Loaded:
    """Load the replay QML module for ``bridge`` (a ``ReplayBridge``); a QGuiApplication must
    exist."""
    import PySide6.QtQuick  # noqa: F401  (the root window reaches Python as QQuickWindow)
    from PySide6.QtQml import QQmlApplicationEngine

    import pointline.gui.replay.bridge  # noqa: F401  (registers ReplayBridge in Pointline.Replay)

    engine = QQmlApplicationEngine()
    engine.addImportPath(str(windows.QML_DIR))
    engine.setInitialProperties({"replay": bridge})
    window = load_window(engine, MODULE, "ReplayMain", size)
    # the engine owns the bridge, adopted after the window: deleting the engine deletes the
    # window (and every binding reading the bridge) first
    bridge.setParent(engine)
    return Loaded(engine, window, bridge)


def _reduce_motion() -> bool:
    from pointline.gui.moment import reduce_motion_setting

    return reduce_motion_setting()


def open_replay(
    path: str | Path | None = None,
    *,
    session: Any = None,
    problem: str = "",
    relay_key: bytes | None = None,
    on_leave: Callable[[], None] | None = None,
    sounds: Any = None,
    size: tuple[int, int] | None = None,
    mobile: bool = False,
) -> Loaded:
    """Open a replay window on ``path`` (or an opened ``session``) in the running app; Escape
    or Leave replay closes it, and ``on_leave`` is called once its engine is deleted (keep the
    returned ``Loaded`` until then). A file that cannot be watched opens the window on its
    plain words."""
    from pointline.gui.replay.bridge import ReplayBridge, bridge_for

    options: dict[str, Any] = {
        "reduce_motion": _reduce_motion(),
        "mobile": mobile,
        "sounds": sounds,
    }
    if session is not None or problem:
        bridge = ReplayBridge(session, problem=problem, **options)
    else:
        bridge = bridge_for(path or "", relay_key, **options)
    loaded = load_replay(bridge, size)

    def gone() -> None:
        if on_leave is not None:
            on_leave()

    def leave() -> None:
        # the engine (and the window's bindings) goes first, then the caller drops its
        # reference: no binding ever reads a replay that is gone
        loaded.window.close()
        loaded.engine.destroyed.connect(gone)
        loaded.engine.deleteLater()

    bridge.leaveRequested.connect(leave)
    loaded.window.show()
    return loaded


def run_replay(path: str) -> int:
    """``pointline replay FILE``: the app opened straight on the file; returns when it closes."""
    prepare_environment()
    app = gui_application()
    app.setOrganizationName("Pointline")
    app.setApplicationName("Pointline Table")
    from PySide6.QtCore import QSettings

    from pointline.gui.sound import Sounds

    sounds = Sounds()
    sounds.muted = bool(QSettings().value("muted", False, type=bool))
    loaded = open_replay(path, on_leave=app.quit, sounds=sounds)
    code = app.exec()
    del loaded
    return int(code)


if __name__ == "__main__":
    sys.exit(run_replay(sys.argv[1]))
