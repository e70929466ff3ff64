"""qasync on a QGuiApplication where PySide6.QtWidgets is absent: the desktop build (issue 42).

The app is QML on a ``QGuiApplication``. qasync (0.28) imports ``PySide6.QtWidgets`` when it is
imported, only to name ``QApplication``, and calls nothing of it but ``.instance()`` (and
``QApplication(sys.argv)`` in ``qasync.new_event_loop``, which the app never calls: it hands
its own application to ``qasync.QEventLoop``). Shipping QtWidgets for that costs the desktop
build libQt6Widgets and its binding, 14.6 MB. Upstream took a QtCore-only import in 0.20.0 and
reverted it in 0.21.0, since it broke widget apps (CabbageDevelopment/qasync#54 and #57), and no
release since makes QtWidgets optional.

So the build leaves QtWidgets out (pysidedeploy.spec: not followed, its library not copied) and
``main.py``, the deploy tools' entry file, calls :func:`install` first: where
``PySide6.QtWidgets`` cannot be found, it registers a stand-in module of that name whose one
attribute, ``QApplication``, is ``QGuiApplication``, so that ``import qasync`` (after the first
frame, as before) works and ``qasync.QApplication.instance()`` is the app. Where QtWidgets is
installed (a source checkout, the tests, pip installs) it does nothing: qasync is as it was.
"""

from __future__ import annotations

import importlib.util
import sys
import types

__all__ = ["STAND_IN_DOC", "install"]

_WIDGETS = "PySide6.QtWidgets"
STAND_IN_DOC = "stand-in for qasync: QApplication is QGuiApplication (pointline.gui._qasync_core)"


def _absent() -> bool:
    try:
        return importlib.util.find_spec(_WIDGETS) is None
    except (ImportError, ValueError):
        return True


def install() -> bool:
    """Register the stand-in if PySide6.QtWidgets is absent; returns whether it did."""
    if not _absent():
        return False
    current = sys.modules.get(_WIDGETS)
    if current is not None and current.__doc__ == STAND_IN_DOC:
        return True
    from PySide6.QtGui import QGuiApplication

    stand_in = types.ModuleType(_WIDGETS, STAND_IN_DOC)
    stand_in.QApplication = QGuiApplication  # type: ignore[attr-defined]
    sys.modules[_WIDGETS] = stand_in
    return True
