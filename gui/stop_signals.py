"""The system asks the app to stop: SIGTERM (a shutdown, ``kill``) and SIGHUP (logging out,
the terminal closing) quit the app the way closing its window does, so a solo session in play
is recorded in Stats as ended without a result and an online session ends as this seat's
leave (its notice and ending written first). SIGKILL cannot be caught.

Qt's event loop runs in C++, where a Python signal handler never gets to run. So the handler
does nothing itself: ``signal.set_wakeup_fd`` writes the signal's number to one end of a socket
pair, a ``QSocketNotifier`` on the other end wakes the Qt loop, and the slot ends the app's
event loop (``exit``; ``aboutToQuit`` follows). It works before the asyncio loop (qasync)
starts as well as after, and on every platform that has the signal (Windows has no SIGHUP and
no SIGTERM from outside: nothing to do there).
"""

from __future__ import annotations

import contextlib
import signal
import socket
from collections.abc import Callable
from typing import Any

__all__ = ["STOP_SIGNALS", "StopSignals", "quit_on_stop_signals"]

STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that mean "stop": each quits the app as closing the window does."""


class StopSignals:
    """The socket pair, the notifier and the handlers; ``close()`` puts everything back."""

    def __init__(self, app: Any) -> None:
        from PySide6.QtCore import QSocketNotifier

        self.app = app
        self.on_stop: Callable[[], None] | None = None
        """What a stop does once the app's asyncio loop runs (it ends that loop's main task,
        after the online window has left its table); until then the Qt loop is exited."""
        self.received: list[int] = []
        """The stop signals received, in order (a second one while quitting changes nothing)."""
        self._read, self._write = socket.socketpair()
        for end in (self._read, self._write):
            end.setblocking(False)
        self._notifier = QSocketNotifier(self._read.fileno(), QSocketNotifier.Type.Read)
        self._notifier.activated.connect(self._woken)
        self._previous_fd = signal.set_wakeup_fd(self._write.fileno(), warn_on_full_buffer=False)
        self._previous = {s: signal.signal(s, _noted) for s in STOP_SIGNALS}

    def _woken(self, *_: Any) -> None:
        try:
            data = self._read.recv(64)
        except OSError:
            return
        stops = [n for n in data if n in STOP_SIGNALS]
        if not stops:
            return  # another signal's wake-up (its own handler runs as Python does)
        first = not self.received
        self.received.extend(stops)
        if not first:
            return
        if self.on_stop is not None:
            self.on_stop()
        else:
            # exit, not quit: Qt 6's quit() first asks each window to close, and the table's
            # window answers a close mid-session with its "close the app?" card. The system
            # does not wait for an answer; aboutToQuit still follows (Stats records the
            # session, the online window leaves its table).
            self.app.exit(0)

    def close(self) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)
        signal.set_wakeup_fd(self._previous_fd)
        self._notifier.setEnabled(False)
        for end in (self._read, self._write):
            with contextlib.suppress(OSError):
                end.close()


def _noted(number: int, frame: Any) -> None:
    """The Python-level handler: nothing to do here (the wake-up byte is the message)."""
    del number, frame


def quit_on_stop_signals(app: Any) -> StopSignals:
    """From now on SIGTERM and SIGHUP end ``app`` as closing its window does."""
    return StopSignals(app)
