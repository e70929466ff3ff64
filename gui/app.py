"""Start the Qt app: the bridge, the QML module and the asyncio loop inside Qt (qasync)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "QML_DIR",
    "Loaded",
    "attach_online",
    "gui_application",
    "load",
    "load_window",
    "prepare_environment",
    "run",
    "screenshot",
    "take_keyboard_focus",
]

QML_DIR = Path(__file__).parent / "qml"


def prepare_environment(offscreen: bool = False) -> None:
    """Environment Qt reads at start-up; call before creating the application."""
    os.environ.setdefault("QT_API", "pyside6")
    os.environ.setdefault("QT_QUICK_CONTROLS_STYLE", "Basic")
    rules = os.environ.get("QT_LOGGING_RULES", "")
    if "qt.multimedia" not in rules:
        extra = "qt.multimedia*=false;qt.qpa.*=false"
        os.environ["QT_LOGGING_RULES"] = f"{rules};{extra}" if rules else extra
    if offscreen:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"


def gui_application() -> Any:
    """The running QGuiApplication, created if needed (``instance()`` is typed as the core one)."""
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance()
    if app is None:
        return QGuiApplication(sys.argv)
    if not isinstance(app, QGuiApplication):
        raise RuntimeError("a QCoreApplication without a GUI is already running")
    return app


@dataclass
class Loaded:
    """The pieces of a running table: the engine, its window and the bridge."""

    engine: Any
    window: Any
    bridge: Any


def load(bridge: Any, size: tuple[int, int] | None = None) -> Loaded:
    """Load the Pointline QML module for ``bridge``; a QGuiApplication must exist."""
    import PySide6.QtQuick  # noqa: F401  (the root window reaches Python as QQuickWindow)
    from PySide6.QtQml import QQmlApplicationEngine

    import pointline.gui.bridge  # noqa: F401  (registers the QML types of Pointline.Seat)

    engine = QQmlApplicationEngine()
    engine.addImportPath(str(QML_DIR))
    engine.setInitialProperties({"bridge": bridge})
    # The engine owns the bridge: it outlives every binding that reads it (no "of null" errors
    # when Python drops its reference first), and goes when the engine goes.
    bridge.setParent(engine)
    return Loaded(engine, load_window(engine, "Pointline", "Main", size), bridge)


def load_window(engine: Any, module: str, component: str, size: tuple[int, int] | None) -> Any:
    """Load ``component`` of the QML ``module`` into ``engine`` and return its root window (at
    ``size`` if given), its keys guarded against auto-repeat (the solo and the online app)."""
    engine.loadFromModule(module, component)
    roots = engine.rootObjects()
    if not roots:
        raise RuntimeError(f"the QML module {module} failed to load")
    from PySide6.QtQuick import QQuickWindow

    window = roots[0]
    if not isinstance(window, QQuickWindow):
        raise RuntimeError(f"the {module} module's root is not a window")
    from pointline.gui.keys import guard_auto_repeat

    guard_auto_repeat(window)
    if size is not None:
        window.resize(*size)
    take_keyboard_focus(window)
    return window


def take_keyboard_focus(window: Any) -> None:
    """Ask for keyboard focus whenever ``window`` is shown, and now if it is on screen.

    A window manager activates a new window; with none (a bare X server, a kiosk) nothing does,
    and no key reaches the window's shortcuts until a click. Qt defers the request until the
    window is mapped, so asking at once is safe."""

    def shown(visible: bool) -> None:
        if visible:
            window.requestActivate()

    window.visibleChanged.connect(shown)
    shown(window.isVisible())


def attach_online(app: Any, loaded: Loaded, relay: str | None, ca: str | None) -> list[Any]:
    """Wire the solo table's Play online: the online window opens in the same app and loop,
    the solo window hides (its session paused), and Back to solo table (or closing the online
    window) shows it again. Returns the list holding the open online window, if any."""
    from PySide6.QtCore import QTimer

    online: list[Any] = []

    def back_to_solo() -> None:
        loaded.window.show()
        loaded.window.requestActivate()
        QTimer.singleShot(0, online.clear)

    def open_online() -> None:
        if online:
            online[0].window.raise_()
            return
        from pointline.gui.online.app import open_online as start
        from pointline.gui.online.texts import DEFAULT_RELAY

        size = (loaded.window.width(), loaded.window.height())
        sounds = loaded.bridge.sounds
        opened = start(app, relay or DEFAULT_RELAY, ca, back_to_solo, sounds=sounds, size=size)
        opened.window.visibleChanged.connect(lambda shown: None if shown else back_to_solo())
        online.append(opened)
        loaded.window.hide()

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
    if exit_after_first_frame:
        del loaded
        return 0
    # Load the synthesized sounds once the table is on screen, not before the first frame.
    QTimer.singleShot(300, bridge.sounds.preload)
    import asyncio

    import qasync

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    closing = asyncio.Event()
    tasks: list[asyncio.Task[Any]] = []
    """Pending tasks of the online layer; cancelled when the app quits."""

    def stop() -> None:
        for task in tasks:
            task.cancel()
        closing.set()

    app.aboutToQuit.connect(stop)
    online = attach_online(app, loaded, relay, ca)

    async def main() -> None:
        # The online window (Play online) runs its relay connection and peer on this loop.
        await closing.wait()
        if online:
            await online[0].bridge.shutdown()

    with loop:
        # Tasks are created only once the loop runs; the online layer adds its own to `tasks`.
        loop.run_until_complete(main())
    del loaded
    return 0


def screenshot(path: str, size: tuple[int, int], scene: str) -> int:
    """Render a scene offscreen at ``size`` to a PNG file."""
    prepare_environment(offscreen=True)
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtGui import QGuiApplication

    from pointline.gui.bridge import TableBridge
    from pointline.gui.scenes import MOTION_SCENES, counter_nonces, pose, prepare
    from pointline.gui.sound import Sounds

    app = QGuiApplication.instance() or QGuiApplication(sys.argv)
    import tempfile

    shot_dir = tempfile.TemporaryDirectory(prefix="pointline-shot-")
    settings = QSettings(str(Path(shot_dir.name) / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("reduceMotion", scene not in MOTION_SCENES)
    sounds = Sounds()
    sounds.muted = True
    bridge = TableBridge(counter_nonces(scene.encode()), settings=settings, sounds=sounds)
    bridge.sounds.muted = True
    prepare(bridge, scene)
    loaded = load(bridge, size)
    loaded.window.show()
    wait = QEventLoop()
    QTimer.singleShot(100, wait.quit)
    wait.exec()
    pose(loaded.window, bridge, scene)
    QTimer.singleShot(300, wait.quit)
    wait.exec()
    app.processEvents()
    image = loaded.window.grabWindow()
    ok = image.save(path)
    del loaded
    if not ok:
        print(f"could not write {path}", file=sys.stderr)
        return 1
    print(f"wrote {path} ({size[0]}x{size[1]}, scene {scene})")
    return 0
