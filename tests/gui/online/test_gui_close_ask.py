"""The close question inside the one window (issue 41: "The close question fits the state and
'Close the app' closes it"): the host of a table, its online screens over the solo table, closes
the window with a guest seated; the footer says what Escape does there, in solo's words, and
each answer does what it says. The window has one close question, the solo table's and the
online screens' alike (the shell's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QPoint, QPointF, QSettings, Qt
from PySide6.QtTest import QTest

from pointline.gui.app import attach_online, load
from pointline.gui.bridge import TableBridge
from pointline.gui.texts import TEXTS
from pointline.gui.tools.scenes import counter_nonces
from tests.gui.online.test_gui_online_hosted import guest_bridge, host_a_table, join_nearby
from tests.gui.online_support import FAST, Window, on_qt_loop, until


def in_screen(frame: Any, screen: str, name: str) -> Any:
    """The item ``name`` of one screen of the frame (the solo table and the online screens
    each have a close question of their own)."""
    holder = frame.findChild(QObject, screen)
    assert holder is not None, screen
    found = holder.findChild(QObject, name)
    assert found is not None, f"no {name} in {screen}"
    return found


async def click(ui: Window, item: Any) -> None:
    await ui.frame()
    assert item.isVisible() and item.isEnabled()
    p = item.mapToScene(QPointF(item.width() / 2, item.height() / 2))
    at = QPoint(round(p.x()), round(p.y()))
    left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    await ui._from_loop(lambda: QTest.mouseClick(ui.window, left, none, at))


@on_qt_loop(timeout=90)
async def test_the_hosts_close_question_in_the_one_window(qapp: Any, tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    settings.setValue("reduceMotion", True)
    solo = TableBridge(counter_nonces(b"solo"), settings=settings)
    loaded = load(solo, (1280, 720))
    loaded.window.show()
    quits = qapp.quitOnLastWindowClosed()
    qapp.setQuitOnLastWindowClosed(False)  # the test's application outlives the window
    guest = Window(guest_bridge("guest"), (390, 844))
    online: list[Any] = []
    try:
        online = attach_online(qapp, loaded, "ws://127.0.0.1:9", None)
        solo.playOnline()
        await until(lambda: bool(online), 5, "online screens")
        host = Window.around(online[0])
        bridge = host.bridge
        bridge.timeouts = FAST
        bridge.host.folder, bridge.host.address = tmp_path / "host", "127.0.0.1"
        bridge.host.announce = False
        await host_a_table(host, "hoster")
        await join_nearby(guest, bridge.host.table, "guesty")
        await until(lambda: len(bridge.host.players) == 2, what="the guest seated")
        frame = loaded.window
        question = bridge.host.closeQuestion
        assert question is solo.extras.closeQuestion  # one question for the window
        footer = in_screen(frame, "onlineScreen", "onlineFooter")
        assert "Esc" not in footer.property("text")  # online, Escape names nothing until asked
        await host.activate()  # the keyboard's window (the footer follows its focus)
        frame.close()  # asked: the online screen's question, not the solo table's
        assert frame.isVisible() and question.asked
        card = in_screen(frame, "onlineScreen", "closeOverlay")
        await until(lambda: card.property("opened"), what="the question shown")
        assert not in_screen(frame, "soloScreen", "closeOverlay").property("visible")
        asked = in_screen(frame, "onlineScreen", "closeText").property("text")
        assert "1 guest is in your room" in asked
        # the footer says what the keys do on the question, in the solo table's words
        keep = in_screen(frame, "onlineScreen", "btnCloseCancel")
        await until(lambda: keep.property("activeFocus"), what="the focus on Keep playing")
        said = TEXTS["keysClose"].replace("{button}", keep.property("text"))
        await until(lambda: said in footer.property("text"), what=f"the footer to say {said}")
        assert "Esc keeps playing" in said
        await host.key(Qt.Key.Key_Escape)  # keeps playing, as the footer said
        await until(lambda: not question.asked, what="the question answered")
        assert frame.isVisible() and frame.property("screen") == "online"
        assert bridge.host.table is not None and len(bridge.host.players) == 2
        await until(lambda: said not in footer.property("text"), what="the footer as before")
        frame.close()
        await until(lambda: card.property("opened"), what="asked again")
        await click(host, keep)  # Keep playing
        await until(lambda: not question.asked, what="the question answered by a click")
        assert bridge.host.table is not None and len(bridge.host.players) == 2
        frame.close()
        await until(lambda: card.property("opened"), what="asked again")
        await click(host, in_screen(frame, "onlineScreen", "btnCloseConfirm"))  # Close the app
        # it closes: the window, not a way back to the solo table (issue 41, finding 6)
        await until(lambda: not frame.isVisible(), what="the window closed")
        await until(lambda: bridge.host.table is None, what="the table closed")
        await until(lambda: guest.bridge.screen == "signin" or guest.bridge.error != "")
        # the hosted relay's data survive the closing: its accounts, keys and certificate
        kept = {p.name for p in (tmp_path / "host").iterdir()}
        assert "relay.sqlite3" in kept, kept
    finally:
        qapp.setQuitOnLastWindowClosed(quits)
        if online:
            await online[0].bridge.shutdown()
        await guest.bridge.shutdown()
        loaded.window.close()
