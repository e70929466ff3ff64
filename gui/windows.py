"""What the solo and the online app share to open a window: Qt's environment, the application
object, the QML folder and loading a QML module's root window (no scene, no table: leaf of gui)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "QML_DIR",
    "Loaded",
    "gui_application",
    "load_window",
    "prepare_environment",
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
