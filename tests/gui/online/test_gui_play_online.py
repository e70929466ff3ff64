"""Play online from the solo table, and back (issue: a "Play online" entry and a way back)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings

from pointline.gui.app import attach_online, load
from pointline.gui.bridge import TableBridge
from pointline.gui.tools.scenes import counter_nonces
from tests.gui.online_support import (
    on_qt_loop,
    relay,
    until,
)


@on_qt_loop()
async def test_play_online_opens_the_online_window_and_back_keeps_the_solo_session(
    qapp: Any, tmp_path: Path
) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    settings.setValue("reduceMotion", True)
    bridge = TableBridge(counter_nonces(b"solo"), settings=settings)
    loaded = load(bridge, (1280, 720))
    loaded.window.show()
    try:
        async with relay(tmp_path) as running:
            online = attach_online(qapp, loaded, running.url, None)
            bridge.selectLine("pass")
            assert bridge.act("allocate")
            assert bridge.act("confirm")  # a session in progress
            throws = bridge.throws
            bridge.playOnline()
            await until(lambda: bool(online), 5, "online screens")
            # one window: the online screens cover the solo table inside it (issue 38)
            assert online[0].window is loaded.window and loaded.window.isVisible()
            assert loaded.window.property("screen") == "online"
            assert bridge.paused  # the solo session waits, paused
            assert online[0].bridge.screen == "signin"
            online[0].bridge.leave()
            await until(lambda: loaded.window.property("screen") == "solo", 5, "solo back")
            await until(lambda: not online, 5, "online screens released")
            assert bridge.throws == throws and bridge.paused  # nothing lost, nothing submitted
    finally:
        loaded.window.close()
