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

The app's loop comes from :func:`event_loop`: qasync's ``QEventLoop`` kept to the thread that
made it. qasync watches each socket with a ``QSocketNotifier``, a QObject that only its own
thread may enable or disable. Called from another thread (say a worker's ``remove_reader``, or
a ``close`` there), Qt prints "QSocketNotifier: Socket notifiers cannot be enabled or disabled
from another thread", marks the notifier off but leaves it registered with the GUI thread's
dispatcher; the socket is then closed, and that dispatcher finds the closed socket on every
pass ("QSocketNotifier: Invalid socket N"), for ever: the loop spins, nothing else runs, and a
screen reader takes the app for dead (as in one Orca run, where QtMultimedia's audio thread did
it: ``gui/sound.py`` plays one sound at a time since). So every call that touches a notifier or
a Qt timer (adding and removing readers and writers, scheduling, closing) is handed to the
loop's own thread when it comes from another, and logged once with its stack.
:func:`watch_socket_notifiers` turns Qt's first such warning into one log line with every
thread's Python stack, and the flood after it into counted lines.
"""

from __future__ import annotations

import faulthandler
import importlib.util
import logging
import sys
import tempfile
import threading
import traceback
import types
from collections.abc import Callable
from typing import Any

__all__ = ["STAND_IN_DOC", "event_loop", "install", "watch_socket_notifiers"]

log = logging.getLogger("pointline.loop")

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


_LOOP_CLASS: list[type[Any]] = []


def _loop_class() -> type[Any]:
    """qasync's ``QEventLoop`` with every notifier and timer call kept to its own thread (made
    on first use: qasync is imported only once the first frame is on screen)."""
    if _LOOP_CLASS:
        return _LOOP_CLASS[0]
    import qasync

    base: type[Any] = qasync.QEventLoop
    told: set[str] = set()

    def elsewhere(loop: Any, what: str) -> bool:
        if threading.get_ident() == loop._owner_thread:
            return False
        if what not in told:  # once per kind: the stack names the caller
            told.add(what)
            stack = "".join(traceback.format_stack(limit=12)[:-2])
            log.warning(
                "%s called from thread %r, not the loop's: handed to the loop's thread\n%s",
                what,
                threading.current_thread().name,
                stack,
            )
        return True

    class OwnThreadLoop(base):  # type: ignore[misc]
        """qasync's loop; a call from another thread is run on the loop's own thread."""

        def __init__(self, app: Any = None) -> None:
            self._owner_thread = threading.get_ident()
            super().__init__(app)

        def _add_reader(self, fd: Any, callback: Callable[..., Any], *args: Any) -> None:
            if elsewhere(self, "add_reader"):
                self.call_soon_threadsafe(self._add_reader, fd, callback, *args)
                return
            super()._add_reader(fd, callback, *args)

        def _add_writer(self, fd: Any, callback: Callable[..., Any], *args: Any) -> None:
            if elsewhere(self, "add_writer"):
                self.call_soon_threadsafe(self._add_writer, fd, callback, *args)
                return
            super()._add_writer(fd, callback, *args)

        def _remove_reader(self, fd: Any) -> bool:
            if elsewhere(self, "remove_reader"):
                watched = not self.is_closed() and fd in self._read_notifiers
                self.call_soon_threadsafe(self._remove_reader, fd)
                return watched
            return bool(super()._remove_reader(fd))

        def _remove_writer(self, fd: Any) -> bool:
            if elsewhere(self, "remove_writer"):
                watched = not self.is_closed() and fd in self._write_notifiers
                self.call_soon_threadsafe(self._remove_writer, fd)
                return watched
            return bool(super()._remove_writer(fd))

        def _add_callback(self, handle: Any, delay: float = 0) -> Any:
            # call_soon / call_later / call_at start a Qt timer: its thread's only
            if elsewhere(self, "call_soon"):
                self.call_soon_threadsafe(self._add_callback, handle, delay)
                return handle
            return super()._add_callback(handle, delay)

        def close(self) -> None:
            # from another thread (BaseEventLoop.__del__ too): the hand-off keeps the loop
            # alive until its own thread has closed it
            if not self.is_closed() and elsewhere(self, "close"):
                self.call_soon_threadsafe(self.close)
                return
            super().close()

    _LOOP_CLASS.append(OwnThreadLoop)
    return OwnThreadLoop


def event_loop(app: Any) -> Any:
    """The app's asyncio loop inside Qt (qasync), over ``app``, kept to this thread."""
    return _loop_class()(app)


_SOCKET_WORDS = "QSocketNotifier"
_REPEATS_SHOWN = 3
"""How many times one QSocketNotifier line is printed before only counts follow."""


def watch_socket_notifiers(write: Callable[[str], Any] | None = None) -> Callable[..., None]:
    """Install a Qt message handler (chained to the one before it) that prints Qt's first
    QSocketNotifier warning with the Python stack of every thread (faulthandler's dump: the
    culprit is on one of them), and a repeated QSocketNotifier line only a few times, then
    once per power of ten with its count; other messages pass on unchanged. Returns the
    handler (``write``: where lines go, default stderr)."""
    from PySide6.QtCore import qInstallMessageHandler

    out = write or (lambda text: print(text, file=sys.stderr, flush=True))
    counts: dict[str, int] = {}
    previous: list[Any] = [None]

    def handler(mode: Any, context: Any, message: str) -> None:
        if _SOCKET_WORDS not in message:
            if previous[0] is not None:
                previous[0](mode, context, message)
            else:
                out(message)
            return
        key = message.split(" and type", 1)[0]
        n = counts[key] = counts.get(key, 0) + 1
        if not counts.get("", 0):
            counts[""] = 1
            out(f"{message} (thread {threading.current_thread().name!r}); every thread:\n")
            out(_all_stacks())
            return
        if n <= _REPEATS_SHOWN:
            out(message)
        elif _power_of_ten(n):
            out(f"{message} ({n} times)")

    previous[0] = qInstallMessageHandler(handler)
    return handler


def _power_of_ten(n: int) -> bool:
    while n % 10 == 0 and n > 1:
        n //= 10
    return n == 1


def _all_stacks() -> str:
    """Every thread's Python stack, as faulthandler dumps it (it needs a real file)."""
    with tempfile.TemporaryFile("w+") as f:
        faulthandler.dump_traceback(f, all_threads=True)
        f.seek(0)
        return f.read()
