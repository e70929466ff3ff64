"""Close a window as a window manager asks it to: the ``WM_DELETE_WINDOW`` message of the
``WM_PROTOCOLS`` client message (the close button of a title bar). With no window manager under
the test's Xvfb, and ``xdotool windowclose`` destroying the window instead of asking, this is
how the app's close question is reached with a real X server. Xlib through ctypes: no package.

A display inside a network namespace (tests/netns.py) is reached from inside it only (its
socket is an abstract one, which each namespace has of its own): ``prefix`` runs the search, and
the request (``python -m tests.realinput.close_window DISPLAY WINDOW``), there.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import subprocess
import sys
from pathlib import Path

CLIENT_MESSAGE = 33  # X.h: ClientMessage


class _ClientMessage(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("serial", ctypes.c_ulong),
        ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("window", ctypes.c_ulong),
        ("message_type", ctypes.c_ulong),
        ("format", ctypes.c_int),
        ("data", ctypes.c_long * 5),
    ]


class _Event(ctypes.Union):
    _fields_ = [("xclient", _ClientMessage), ("pad", ctypes.c_long * 24)]


def visible_windows(env: dict[str, str], name: str, prefix: tuple[str, ...] = ()) -> list[int]:
    """The visible X windows whose name contains ``name`` (``xdotool search``; ``prefix``: the
    command that runs it where the display is, e.g. ``ip netns exec NAME``)."""
    found = subprocess.run(
        [*prefix, "xdotool", "search", "--onlyvisible", "--name", name],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return [int(line) for line in found.stdout.split()]


def ask_to_close(display: str, window: int) -> None:
    """Send ``window`` on ``display`` the window manager's request to close (it may refuse:
    the app asks its close question first)."""
    x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XInternAtom.restype = ctypes.c_ulong
    x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x11.XSendEvent.argtypes = [
        ctypes.c_void_p,
        ctypes.c_ulong,
        ctypes.c_int,
        ctypes.c_long,
        ctypes.POINTER(_Event),
    ]
    x11.XFlush.argtypes = [ctypes.c_void_p]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    handle = x11.XOpenDisplay(display.encode())
    if not handle:
        raise RuntimeError(f"cannot open the X display {display}")
    try:
        event = _Event()
        message = event.xclient
        message.type = CLIENT_MESSAGE
        message.window = window
        message.message_type = x11.XInternAtom(handle, b"WM_PROTOCOLS", 0)
        message.format = 32
        message.data[0] = x11.XInternAtom(handle, b"WM_DELETE_WINDOW", 0)
        message.data[1] = 0  # CurrentTime
        x11.XSendEvent(handle, window, 0, 0, ctypes.byref(event))
        x11.XFlush(handle)
    finally:
        x11.XCloseDisplay(handle)


def ask_to_close_from(prefix: tuple[str, ...], display: str, window: int) -> None:
    """``ask_to_close`` run through ``prefix`` (where the display is), or here without one."""
    if not prefix:
        ask_to_close(display, window)
        return
    root = Path(__file__).resolve().parents[2]
    command = [*prefix, sys.executable, "-m", "tests.realinput.close_window", display, str(window)]
    subprocess.run(command, cwd=root, check=True, timeout=30)


if __name__ == "__main__":
    ask_to_close(sys.argv[1], int(sys.argv[2]))
