"""The online window driven like a person, and what it shows (for tests/gui/online_support.py,
which the online GUI tests import; this module is its lower half, kept apart for size).

Keys and clicks are delivered from loop callbacks, as Qt delivers real input; every wait has a
timeout and waits on a condition or an event (a rendered frame), never for a duration.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from pointline.gui.keys import PAIR_MS
from pointline.gui.online.app import LoadedOnline, load_online
from pointline.gui.online.bridge import OnlineBridge
from tests.net.support import PASSWORD, until

K = Qt.Key


def named(window: Any, name: str) -> Any:
    """The item ``name`` in ``window`` (an assertion names it when there is none)."""
    found = window.findChild(QObject, name)
    assert found is not None, f"no item named {name}"
    return found


class Window:
    """The online window over ``bridge``, driven by keys and clicks from loop callbacks."""

    _released = 0.0
    """When this window's last key was released (time.monotonic; set by ``key``)."""

    def __init__(self, bridge: OnlineBridge, size: tuple[int, int]) -> None:
        self.loaded = load_online(bridge, size)
        self.window = self.loaded.window
        self.bridge = bridge
        self.window.show()
        self.window.requestActivate()
        _made.append(self)  # delete_windows deletes the engine while the bridge is alive

    @classmethod
    def around(cls, loaded: LoadedOnline) -> Window:
        """A window the app opened (``open_online``): the app deletes it, not ``delete_windows``."""
        ui = cls.__new__(cls)
        ui.loaded, ui.window, ui.bridge = loaded, loaded.window, loaded.bridge
        return ui

    def item(self, name: str) -> Any:
        """The item ``name``: a child of the window, or a shown delegate (no QObject parent)."""
        if self.window.findChild(QObject, name) is None:
            return by_name(self, name)
        return named(self.window, name)

    def focus(self) -> str:
        focused = self.window.activeFocusItem()
        return "" if focused is None else str(focused.objectName())

    async def activate(self) -> None:
        # the focus window, not only an active one: a QML Shortcut acts in the focus window, so
        # a window an earlier test left open would take this test's Backspace
        if QGuiApplication.focusWindow() is not self.window or not self.window.isActive():
            self.window.requestActivate()
            await until(
                lambda: QGuiApplication.focusWindow() is self.window and self.window.isActive(),
                timeout=5.0,
                what="the window to be the focus window",
            )

    async def _from_loop(self, action: Callable[[], None]) -> None:
        """Run ``action`` from a loop callback, as Qt delivers real input: outside any asyncio
        task, so a slot may start tasks while the input is handled."""
        done = asyncio.get_running_loop().create_future()

        def deliver() -> None:
            action()
            done.set_result(None)

        asyncio.get_running_loop().call_soon(deliver)
        await asyncio.wait_for(done, 5.0)

    async def key(self, key: Qt.Key, modifier: Any = Qt.KeyboardModifier.NoModifier) -> None:
        """Press and release ``key`` as a person does: never again within ``PAIR_MS`` of the
        last release (QTest stamps events when sent: a press a loaded machine took over
        ``HELD_MS`` to handle, then the next at once, had a held key's stamps, and gui/keys.py
        dropped the second Back of test_android_back_closes_help_then_asks_before_leaving)."""
        await self.activate()
        gap = (PAIR_MS + 2) / 1000 - (time.monotonic() - self._released)
        if gap > 0:
            await asyncio.sleep(gap)
        await self._from_loop(lambda: QTest.keyClick(self.window, key, modifier))
        self._released = time.monotonic()

    async def keys(self, *keys: Qt.Key) -> None:
        """Press and release each key in turn."""
        for key in keys:
            await self.key(key)

    async def type(self, text: str) -> None:
        # letters, digits, '_' and '-': their key codes are their upper case
        await self.keys(*(Qt.Key(ord(ch.upper())) for ch in text))

    async def tab_to(self, name: str, limit: int = 12) -> None:
        for _ in range(limit):
            if self.focus() == name:
                return
            await self.key(K.Key_Tab)
        assert self.focus() == name, f"Tab never reached {name} (at {self.focus()})"

    async def frame(self, timeout: float = 5.0) -> None:
        """Wait for the next rendered frame: layouts are polished before it, so item positions
        are current (a click right after a screen change would otherwise aim at stale ones).
        The window is asked to render again until it does (a request can fall between frames)."""
        await until(self.window.isExposed, timeout, what="the window on screen")
        done = asyncio.get_running_loop().create_future()

        def swapped() -> None:
            if not done.done():
                done.set_result(None)

        self.window.frameSwapped.connect(swapped)
        try:
            async with asyncio.timeout(timeout):
                while not done.done():
                    self.window.update()
                    await asyncio.wait([done], timeout=0.25)
        except TimeoutError:
            raise TimeoutError("the window rendered no frame") from None
        finally:
            self.window.frameSwapped.disconnect(swapped)

    async def resize(self, w: int, h: int) -> None:
        """Resize the window and wait until a frame at the new size has been laid out."""
        self.window.resize(w, h)
        await until(lambda: (self.window.width(), self.window.height()) == (w, h), what="resize")
        await self.frame()

    async def click(self, name: str) -> None:
        await self.activate()
        await self.frame()
        item = self.item(name)
        assert item.isVisible() and item.isEnabled(), f"{name} cannot be clicked now"
        p = item.mapToScene(QPointF(item.width() / 2, item.height() / 2))
        at = QPoint(round(p.x()), round(p.y()))
        left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
        await self._from_loop(lambda: QTest.mouseClick(self.window, left, none, at))

    async def table_focus(self) -> None:
        """Wait until the table is the screen shown and the focus is on it (the table's items
        exist while the lobby shows, so the focus name alone does not say the table is up)."""
        await until(
            lambda: self.bridge.screen == "table" and self.focus() == "tableArea",
            what="focus on the table shown",
        )

    def rect(self, name: str) -> QRectF:
        item = self.item(name)
        return QRectF(item.mapToScene(QPointF(0, 0)), item.size())

    def close(self) -> None:
        self.window.hide()


_made: list[Window] = []


def delete_windows(qapp: Any) -> None:
    """After the test's loop is gone: delete each window's engine while its bridge is alive."""
    for ui in _made:
        ui.window.hide()
        ui.loaded.engine.deleteLater()
    qapp.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    qapp.processEvents()
    _made.clear()


def shown_items(ui: Window) -> list[Any]:
    """Every item the window shows: visible, with every ancestor visible (walks childItems)."""
    out = []
    todo = [ui.window.contentItem()]
    while todo:
        item = todo.pop()
        if not item.isVisible() or item.opacity() == 0:
            continue
        out.append(item)
        todo.extend(item.childItems())
    return out


def visible_texts(ui: Window) -> list[str]:
    """The text of every shown Text item in the window (markup stripped)."""
    out = []
    for item in shown_items(ui):
        if not item.inherits("QQuickText"):  # Text and its QML subtypes (Heading, ...)
            continue
        text = re.sub(r"<[^>]*>", " ", str(item.property("text") or ""))
        if text.strip():
            out.append(" ".join(text.split()))
    return out


def by_name(ui: Window, name: str) -> Any:
    """An item by objectName among the shown items (delegates have no QObject parent)."""
    found = [i for i in shown_items(ui) if i.objectName() == name]
    assert found, f"no shown item named {name}"
    return found[0]


async def sign_up_by_keys(ui: Window, name: str) -> None:
    """Type ``name`` and the password, Tab to Sign up and press Enter; wait for the lobby."""
    await until(lambda: ui.focus() == "fieldNameInput", what="focus on the name field")
    await ui.type(name)
    await ui.key(K.Key_Tab)
    assert ui.focus() == "fieldPasswordInput"
    await ui.type(PASSWORD)
    await ui.tab_to("btnSignUp")
    await ui.key(K.Key_Return)
    await until(lambda: ui.bridge.screen == "lobby", what="the lobby")


async def sign_up_and_create_by_keys(ui: Window, name: str) -> None:
    """Sign up by keys, then press Space on Create (focused in the lobby): a room is shown."""
    await sign_up_by_keys(ui, name)
    await until(lambda: ui.focus() == "btnCreateRoom", what="focus on Create")
    await ui.key(K.Key_Space)
    await until(lambda: ui.bridge.lobby.roomCode != "", what="a room")
    assert ui.item("roomCode").property("text") == ui.bridge.lobby.roomCode
