"""The one window (issue 38) and what opening it needs: Qt's environment, the application
object, the QML folder, loading the frame (``Pointline/Frame.qml``) and putting a screen in it or
taking one out (no scene, no table: leaf of gui).

The frame holds every screen: the solo table, the online screens and the replay. A screen is
shown by handing its bridge to the frame's property (``bridge``, ``online``, ``replay``); the
one on top takes the keys, and taking it out shows the screen that opened it, as it was."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "QML_DIR",
    "SCREENS",
    "Loaded",
    "close_screen",
    "frame_of",
    "gui_application",
    "keep_while_open",
    "load_frame",
    "load_window",
    "open_screen",
    "prepare_environment",
    "readable_locale",
    "shell_of",
    "take_keyboard_back",
    "take_keyboard_focus",
]

QML_DIR = Path(__file__).parent / "qml"
SCREENS = ("bridge", "online", "replay")
"""The frame's screen properties, bottom to top: the solo table, online, a replay."""


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
        app = QGuiApplication(sys.argv)
        readable_locale()
        return app
    if not isinstance(app, QGuiApplication):
        raise RuntimeError("a QCoreApplication without a GUI is already running")
    return app


@dataclass
class Loaded:
    """The pieces of a running table: the engine, its window and the bridge."""

    engine: Any
    window: Any
    bridge: Any


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


def load_frame(
    size: tuple[int, int] | None = None, shell: Any = None, **screens: Any
) -> tuple[Any, Any]:
    """Load the one window with its first screens (``bridge=``, ``online=``, ``replay=``: the
    bridges of SCREENS) and its ``shell`` (gui/shell.py: the first screen's; None: a new one,
    which the window owns); returns the engine and the window. A QGuiApplication must exist
    and each given bridge's QML types must be registered (importing its module does it)."""
    import PySide6.QtQuick  # noqa: F401  (the root window reaches Python as QQuickWindow)
    from PySide6.QtQml import QQmlApplicationEngine

    from pointline.gui.shell import Shell

    unknown = set(screens) - set(SCREENS)
    if unknown:
        raise ValueError(f"the frame's screens are {SCREENS}, not {sorted(unknown)}")
    engine = QQmlApplicationEngine()
    engine.addImportPath(str(QML_DIR))
    own = shell is None
    shell = Shell(parent=engine) if own else shell
    values = {k: v for k, v in screens.items() if v is not None}
    engine.setInitialProperties({**values, "shell": shell})
    window = load_window(engine, "Pointline", "Frame", size)
    if own:
        shell.setParent(window)  # the window's own shell goes with the window
    return engine, window


def shell_of(window: Any) -> Any:
    """The shell of the frame ``window`` (gui/shell.py): every screen in it shares it."""
    return window.property("shell")


def frame_of(obj: Any) -> Any:
    """The frame showing ``obj`` (a bridge the frame or its engine owns), or None."""
    from PySide6.QtQml import QQmlApplicationEngine
    from PySide6.QtQuick import QQuickWindow

    while obj is not None:
        if isinstance(obj, QQuickWindow):
            return obj
        shown_in = getattr(obj, "shown_in", None)  # a bridge its frame does not own (tests)
        if isinstance(shown_in, QQuickWindow):
            return shown_in
        if isinstance(obj, QQmlApplicationEngine):
            roots = obj.rootObjects()
            return roots[0] if roots else None
        obj = obj.parent()
    return None


def open_screen(window: Any, name: str, bridge: Any) -> None:
    """Show ``bridge``'s screen in the frame ``window`` (``name`` one of SCREENS), on top of the
    screens below it; the window keeps it (its parent) until ``close_screen``."""
    if name not in SCREENS:
        raise ValueError(f"the frame's screens are {SCREENS}, not {name!r}")
    bridge.setParent(window)
    window.setProperty(name, bridge)


def close_screen(window: Any, name: str, then: Any = None) -> None:
    """Take the ``name`` screen out of the frame: the screen below shows again as it was. Its
    bridge is deleted after its screen (no binding ever reads a bridge that is gone); ``then``
    (if given) is called once both have gone."""
    from PySide6.QtCore import QObject, QTimer

    bridge = window.property(name)
    window.setProperty(name, None)
    if isinstance(bridge, QObject):
        if then is not None:
            bridge.destroyed.connect(lambda *_: then())
        QTimer.singleShot(0, bridge.deleteLater)
    elif then is not None:
        then()


def keep_while_open(kept: list[Any], opening: Callable[[Callable[[], None]], Any]) -> None:
    """Keep in ``kept`` what ``opening(closed)`` opens (a replay's bridge, a screen of the one
    window) until that screen calls ``closed`` as it goes: solo's Stats and the online results
    open their replays so. The closure holds no reference to ``kept``'s owner, and none is
    left behind for the garbage collector."""
    opened: list[Any] = []

    def closed() -> None:
        for item in opened:
            if item in kept:
                kept.remove(item)
        opened.clear()

    opened.append(opening(closed))
    kept.extend(opened)


def take_keyboard_back(window: Any) -> None:
    """After a dialog (the platform's file dialog): the frame asks for the keyboard again and
    its screen on top takes the focus. Under X with no window manager nothing else gives the
    focus back to the window (it stays on the root window until a click)."""
    from PySide6.QtCore import QMetaObject

    QMetaObject.invokeMethod(window, "takeKeyboard")


READABLE_LOCALE = "en_US"
"""The locale used when the system names none ("C", "POSIX"): the dates in the file dialog and
the numbers read as the rest of the app writes them (1,000; 12/6/26 9:27 AM)."""


def readable_locale() -> str:
    """Keep the person's locale; with none (the C locale of a bare X server or a container,
    where Qt wrote dates as "6 12 2026 09:27") use READABLE_LOCALE. Returns the locale used."""
    from PySide6.QtCore import QLocale

    if QLocale().name() in ("C", "POSIX"):
        QLocale.setDefault(QLocale(READABLE_LOCALE))
    return str(QLocale().name())
