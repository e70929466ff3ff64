"""The footer says what the keys then do (issue 38, finding 6), in the replay and at the online
table: each key the footer names is pressed, and does what it says. Offscreen: a real X server
adds nothing here (the guide's, the pause's and the solo table's footers are checked with a real
keyboard in tests/realinput/test_dimmed_and_footer.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtTest import QTest

from pointline.gui.replay.app import load_replay
from pointline.gui.replay.bridge import bridge_for
from tests.gui.online_support import K, game, my_turns, on_qt_loop, until
from tests.gui.replay.test_replay_screen import GENUINE, _write
from tests.gui.support import WAIT_MS


def _text(window: Any, name: str) -> str:
    found = window.findChild(QObject, name)
    assert found is not None, name
    return str(found.property("text"))


def test_the_replays_footer_names_what_its_keys_do(qapp: Any, qtbot: Any, tmp_path: Path) -> None:
    bridge = bridge_for(_write(tmp_path, GENUINE))
    loaded = load_replay(bridge, (1280, 720))
    window = loaded.window
    window.show()
    window.requestActivate()
    # the keys go to the focus window (a QML Shortcut acts there): waited for, loaded or not
    qtbot.waitUntil(lambda: window.isExposed() and window.isActive(), timeout=4 * WAIT_MS)
    try:
        said = _text(window, "replayKeys")
        assert "Left/Right step" in said and "Space plays" in said and "Esc pauses" in said
        step = bridge.value("step")
        QTest.keyClick(window, Qt.Key.Key_Right)
        qtbot.waitUntil(lambda: bridge.value("step") == step + 1, timeout=WAIT_MS)
        QTest.keyClick(window, Qt.Key.Key_Left)
        qtbot.waitUntil(lambda: bridge.value("step") == step, timeout=WAIT_MS)
        QTest.keyClick(window, Qt.Key.Key_Space)  # plays, whichever control has the focus
        qtbot.waitUntil(lambda: bridge.value("playing"), timeout=WAIT_MS)
        QTest.keyClick(window, Qt.Key.Key_Space)
        qtbot.waitUntil(lambda: not bridge.value("playing"), timeout=WAIT_MS)
        QTest.keyClick(window, Qt.Key.Key_Escape)  # pauses, as the footer said
        qtbot.waitUntil(lambda: bridge.value("paused"), timeout=WAIT_MS)
        QTest.keyClick(window, Qt.Key.Key_Escape)  # resumes
        qtbot.waitUntil(lambda: not bridge.value("paused"), timeout=WAIT_MS)
    finally:
        window.close()
        loaded.engine.deleteLater()
        qapp.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)


@on_qt_loop(timeout=40)
async def test_the_online_tables_footer_names_what_its_keys_do(tmp_path: Path) -> None:
    async with game(tmp_path) as played:
        bridge, ui = played.bridge, played.window
        await until(lambda: bridge.screen == "table", what="the table")
        await ui.table_focus()
        said = _text(ui.window, "onlineFooter")
        assert "Space allocates the chip" in said and "Enter confirms" in said
        async for _ in my_turns(bridge):
            break  # my first choice is open
        seat = bridge.seatTable
        assert seat.phase != "point" and seat.draftPass + seat.draftDontPass == 0
        await ui.key(K.Key_Space)  # allocates the chip, as the footer said
        await until(lambda: seat.draftPass + seat.draftDontPass == seat.chip, what="the chip")
        before = played.sent
        await ui.key(K.Key_Return)  # confirms: my commitment goes out
        await until(lambda: played.sent == before + 1, what="the commitment sent")
