"""The screen stays awake while a player sits at an online table (issue 39).

An online session runs on deadlines (45 s to confirm each throw): a phone that dims and locks
while the other seats choose would make a player miss their turn, and locking sends the app to
the background, which ends the session for everyone. ``KeepAwake`` holds the screen on while
asked (the online bridge asks from sit-down until the results or leaving) and lets it go after.
Its platform backend is chosen once, when it is made (``backend_kind``):

- Android: ``FLAG_KEEP_SCREEN_ON`` on the activity's window, set and cleared on Android's main
  thread through Qt's JNI (``QNativeInterface.QAndroidApplication``). What Android's guides
  advise for a game: no wake-lock permission, and the system drops it by itself once the
  activity leaves the screen. It cannot run here (no APK is built in CI): its selection is
  tested, not the call.
- iOS: ``UIApplication.idleTimerDisabled`` would be the way; there is no iOS build yet, so
  nothing is done there (``none``).
- Linux and the BSDs (a desktop session): ``org.freedesktop.ScreenSaver`` ``Inhibit`` and
  ``UnInhibit`` on the session bus, the cookie kept, as Firefox, VLC and fyne do (served by
  KDE, GNOME's gsd-screensaver-proxy, Xfce, MATE, LXQt). The inhibition lives on a bus
  connection of its own, opened for it and closed after ``UnInhibit``: a desktop drops an
  inhibition whose connection goes away, so even a killed app leaves no screen stuck on. The
  calls run as asyncio tasks with a timeout: a slow service never stalls the table. Written with
  jeepney (pure-Python D-Bus): PySide6's QtDBus sends every Python int as ``i`` or ``x``, and
  ``UnInhibit`` takes a ``u`` (GDBus and QtDBus services refuse anything else). A sandboxed app
  (Flatpak) would use the portal's ``org.freedesktop.portal.Inhibit`` instead: not built.
- Anywhere else, or without a session bus: nothing.

Where no service answers, nothing happens and nothing is shown to the player: the reason is
logged at debug level only (``logging.getLogger("pointline.gui.awake")``).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.util
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QObject

__all__ = [
    "FLAG_KEEP_SCREEN_ON",
    "SCREENSAVER",
    "Backend",
    "KeepAwake",
    "backend_kind",
    "make_backend",
    "session_bus_address",
]

log = logging.getLogger(__name__)

FLAG_KEEP_SCREEN_ON = 0x80
"""``android.view.WindowManager.LayoutParams.FLAG_KEEP_SCREEN_ON``."""
SCREENSAVER = ("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver")
"""The freedesktop idle-inhibition service: its bus name (also its interface) and object."""
APP_NAME = "Pointline Table"
"""The application name a desktop lists beside the reason ("… is blocking screen locking")."""
CALL_TIMEOUT = 5.0
"""Seconds to wait for the bus or the service before giving up (quietly)."""


class Backend(Protocol):
    """One platform's way to hold the screen on: ``hold`` then ``release``, never nested."""

    kind: str

    async def hold(self) -> None: ...

    async def release(self) -> None: ...


def session_bus_address(environ: Mapping[str, str] | None = None) -> str:
    """The session bus's address: ``DBUS_SESSION_BUS_ADDRESS``, else the systemd user bus
    (``$XDG_RUNTIME_DIR/bus``) when it exists, else "" (no session bus: nothing is held; no bus
    is ever started for it)."""
    env = os.environ if environ is None else environ
    address = env.get("DBUS_SESSION_BUS_ADDRESS", "")
    if address:
        return address
    runtime = env.get("XDG_RUNTIME_DIR", "")
    if runtime and Path(runtime, "bus").is_socket():
        return f"unix:path={Path(runtime, 'bus')}"
    return ""


def backend_kind(platform: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """Which backend a ``KeepAwake`` made on ``platform`` (``sys.platform``) uses: "android",
    "freedesktop" (Linux and the BSDs with a session bus) or "none" (iOS, Windows, macOS, or no
    session bus). ``POINTLINE_FORCE_MOBILE`` does not change it: it is about the real device."""
    platform = sys.platform if platform is None else platform
    if platform == "android":
        return "android"
    desktop = platform.startswith(("linux", "freebsd", "openbsd", "netbsd"))
    if desktop and session_bus_address(environ):
        return "freedesktop"
    return "none"


class _Nothing:
    kind = "none"

    async def hold(self) -> None:
        return None

    async def release(self) -> None:
        return None


class _AndroidWindowFlag:
    """``FLAG_KEEP_SCREEN_ON`` on the activity's window (Android's main thread does it)."""

    kind = "android"

    async def hold(self) -> None:
        self._set(True)

    async def release(self) -> None:
        self._set(False)

    def _set(self, on: bool) -> None:
        core: Any = importlib.import_module("PySide6.QtCore")
        native = getattr(getattr(core, "QNativeInterface", None), "QAndroidApplication", None)
        if native is None:
            log.debug("keep awake: this PySide6 has no QAndroidApplication; nothing done")
            return
        method = "addFlags" if on else "clearFlags"

        def on_main_thread() -> None:
            window = native.context().callObjectMethod("getWindow", "()Landroid/view/Window;")
            window.callMethod(method, "(I)V", FLAG_KEEP_SCREEN_ON)

        native.runOnAndroidMainThread(on_main_thread)


class _ScreenSaverInhibit:
    """``org.freedesktop.ScreenSaver`` on the session bus at ``address``: ``Inhibit`` on a
    connection of its own, the cookie kept, ``UnInhibit`` and the connection closed after."""

    kind = "freedesktop"

    def __init__(self, address: str, reason: str) -> None:
        self.address = address
        self.reason = reason
        self._conn: Any = None
        self._router: Any = None
        self._cookie: int | None = None

    def _call(self, method: str, signature: str, body: tuple[Any, ...]) -> Any:
        from jeepney import DBusAddress, new_method_call

        name, path = SCREENSAVER
        return new_method_call(DBusAddress(path, name, name), method, signature, body)

    async def hold(self) -> None:
        from jeepney import MessageType
        from jeepney.io.asyncio import DBusRouter, open_dbus_connection

        try:
            self._conn = await asyncio.wait_for(open_dbus_connection(self.address), CALL_TIMEOUT)
            self._router = DBusRouter(self._conn)
            call = self._call("Inhibit", "ss", (APP_NAME, self.reason))
            reply = await asyncio.wait_for(self._router.send_and_get_reply(call), CALL_TIMEOUT)
        except Exception as error:  # no bus, refused, timed out: the screen may dim, that is all
            log.debug("keep awake: the session bus did not answer (%r)", error)
            await self._close()
            return
        if reply.header.message_type == MessageType.error:
            log.debug("keep awake: no screen saver service answered (%r)", reply.body)
            await self._close()
            return
        self._cookie = int(reply.body[0])
        log.debug("keep awake: screen saver inhibited (cookie %d)", self._cookie)

    async def release(self) -> None:
        cookie, self._cookie = self._cookie, None
        if cookie is not None and self._router is not None:
            call = self._call("UnInhibit", "u", (cookie,))
            try:
                await asyncio.wait_for(self._router.send_and_get_reply(call), CALL_TIMEOUT)
            except Exception as error:  # closing the connection below lets it go as well
                log.debug("keep awake: UnInhibit went unanswered (%r)", error)
        await self._close()

    async def _close(self) -> None:
        router, conn, self._router, self._conn = self._router, self._conn, None, None
        if router is not None:  # its receiver stops (it raises what ended it, if anything)
            with contextlib.suppress(Exception):
                await router.__aexit__(None, None, None)
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()


def make_backend(reason: str, platform: str | None = None) -> Backend:
    """The backend ``backend_kind`` names for this device; ``reason`` is what a desktop shows
    beside the app's name while the screen is held."""
    kind = backend_kind(platform)
    if kind == "android":
        return _AndroidWindowFlag()
    if kind == "freedesktop":
        if importlib.util.find_spec("jeepney") is None:
            log.debug("keep awake: jeepney is not installed; nothing done")
            return _Nothing()
        return _ScreenSaverInhibit(session_bus_address(), reason)
    return _Nothing()


class KeepAwake(QObject):
    """Holds the screen on while ``hold(True)`` stands; ``hold(False)`` or ``close`` lets it
    go. Changes are applied in order on the running asyncio loop, so a hold and a release in
    quick succession end released; without a running loop nothing is done."""

    def __init__(
        self, reason: str, backend: Backend | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.backend: Backend = backend if backend is not None else make_backend(reason)
        self.wanted = False
        """What was last asked (``hold``)."""
        self._held = False
        self._lock: asyncio.Lock | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def hold(self, on: bool) -> None:
        if on == self.wanted:
            return
        self.wanted = on
        if self.backend.kind == "none":
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            log.debug("keep awake: no running event loop; nothing done")
            return
        task = loop.create_task(self._apply())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Let the screen go and wait until the platform has heard it (the app quitting)."""
        self.wanted = False
        await self._apply()

    async def _apply(self) -> None:
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if self.wanted and not self._held:
                await self.backend.hold()
                self._held = True
            elif not self.wanted and self._held:
                self._held = False
                await self.backend.release()
