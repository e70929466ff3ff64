"""Issue 40: Announcer.qml, the one channel the app speaks to screen readers through.

On Linux each change becomes its own item of role Notification, named with the words, that
shows (what Orca 43 speaks; tests/realinput/test_orca.py hears it): one item per change, in
order, the earlier ones hidden, at most ``keep`` kept; a change said while others are pending
waits for them (the words go out together once the app has settled). A draft still waiting gives
way to a newer draft (quick Space presses); nothing else is replaced.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtGui import QAccessible


def _notices(announcer: QObject) -> list[tuple[str, bool]]:
    """(name, visible) of each Notification item under the announcer, oldest first."""
    QAccessible.setActive(True)
    out = []
    for child in announcer.childItems():  # type: ignore[attr-defined]
        iface = QAccessible.queryAccessibleInterface(child)
        if iface is not None and iface.role() == QAccessible.Role.Notification:
            out.append((iface.text(QAccessible.Text.Name), child.isVisible()))
    return out


def test_each_change_is_one_notification_that_shows(make_ui: Any) -> None:
    ui = make_ui()
    announcer = ui.item("announcer")
    ui.qtbot.waitUntil(lambda: not announcer.property("settling"))  # the window's first words
    said = announcer.property("said")
    ui.bridge.toggleMute()
    ui.bridge.toggleMute()
    ui.bridge.act("reset")  # refused: nothing to reset
    ui.qtbot.waitUntil(lambda: announcer.property("said") == said + 3)
    assert _notices(announcer)[-3:] == [
        ("Sound off.", False),
        ("Sound on.", False),
        ("There is nothing to reset.", True),
    ]
    assert [visible for _, visible in _notices(announcer)].count(True) == 1


def test_old_notifications_go(make_ui: Any) -> None:
    ui = make_ui()
    announcer = ui.item("announcer")
    keep = announcer.property("keep")
    ui.qtbot.waitUntil(lambda: not announcer.property("settling"))
    said = announcer.property("said")
    for _ in range(keep + 4):  # said together, in order, once the app has settled
        ui.bridge.toggleMute()
    ui.qtbot.waitUntil(lambda: announcer.property("said") == said + keep + 4)
    ui.qtbot.waitUntil(lambda: len(_notices(announcer)) <= keep + 1)
    notices = _notices(announcer)
    assert notices[-1] == ("Sound on.", True)  # an even number of toggles: sound on again
    assert [name for name, _ in notices[-4:]] == ["Sound off.", "Sound on."] * 2


def test_quick_drafts_give_way_to_the_newest_and_nothing_else_does(make_ui: Any) -> None:
    ui = make_ui()
    announcer = ui.item("announcer")
    ui.qtbot.waitUntil(lambda: not announcer.property("settling"))
    said, replaced = announcer.property("said"), announcer.property("replaced")
    # Three quick Spaces, a refused key between them, M twice: all said in one flush, and of the
    # drafts only the last one (where it came), every other change in its order.
    ui.bridge.tableKey("space")
    ui.bridge.keyReleased()
    ui.bridge.act("roll")  # refused at the come-out: its reason is said, never replaced
    ui.bridge.tableKey("space")
    ui.bridge.keyReleased()
    ui.bridge.toggleMute()
    ui.bridge.tableKey("space")
    ui.bridge.keyReleased()
    ui.bridge.toggleMute()
    assert announcer.property("settling")  # all of them still wait
    ui.qtbot.waitUntil(lambda: not announcer.property("settling"))
    assert announcer.property("replaced") == replaced + 2
    assert announcer.property("said") == said + 4
    names = [name for name, _ in _notices(announcer)[-4:]]
    assert names[1:] == ["Sound off.", "Draft: Pass 30, Don't Pass 0", "Sound on."], names
    assert names[0] == ui.bridge.reason("roll"), names
    # A draft already said is never taken back: the next one is said after it.
    ui.bridge.tableKey("space")
    ui.qtbot.waitUntil(lambda: announcer.property("said") == said + 5)
    assert announcer.property("last") == "Draft: Pass 40, Don't Pass 0"
    assert announcer.property("replaced") == replaced + 2


def test_stale_waiting_words_are_dropped_and_later_ones_said(make_ui: Any) -> None:
    ui = make_ui()
    announcer = ui.item("announcer")
    ui.qtbot.waitUntil(lambda: not announcer.property("settling"))
    said, dropped = announcer.property("said"), announcer.property("dropped")
    ui.bridge.toggleMute()
    ui.bridge.act("reset")  # refused: nothing to reset
    ui.bridge.shell.drop_waiting_words()  # a screen left at once: both are stale
    ui.bridge.toggleMute()
    ui.qtbot.waitUntil(lambda: not announcer.property("settling"))
    assert announcer.property("dropped") == dropped + 2
    assert announcer.property("said") == said + 1
    assert announcer.property("last") == "Sound on."


def test_the_replay_says_each_throw_on_left_and_right(qapp: Any, qtbot: Any, tmp_path: Any) -> None:
    """Issue 40: a replay stepped by Left and Right says each throw it lands on, once, in the
    words of its throw title, through the one announcer."""
    import json
    from pathlib import Path

    from PySide6.QtCore import QEvent, Qt
    from PySide6.QtTest import QTest

    from pointline.gui.replay.app import load_replay
    from pointline.gui.replay.bridge import bridge_for
    from tests.gui.support import WAIT_MS

    vectors = Path(__file__).parents[2] / "conformance" / "online" / "vectors" / "transcripts.json"
    cases = json.loads(vectors.read_text(encoding="utf-8"))["cases"]
    case = next(c for c in cases if c["name"] == "genuine.complete.seats_3")
    path = tmp_path / "genuine.jsonl"
    path.write_text(case["input"]["transcript"], encoding="utf-8", newline="")
    bridge = bridge_for(path)
    loaded = load_replay(bridge, (1280, 720))
    window = loaded.window
    try:
        window.show()
        window.requestActivate()
        qtbot.waitUntil(lambda: window.isExposed(), timeout=WAIT_MS)
        announcer = window.findChild(QObject, "announcer")
        qtbot.waitUntil(lambda: not announcer.property("settling"), timeout=WAIT_MS)
        title = window.findChild(QObject, "replayThrowTitle")
        for key, step in ((Qt.Key.Key_Right, 1), (Qt.Key.Key_Right, 2), (Qt.Key.Key_Left, 1)):
            said = announcer.property("said")
            QTest.keyClick(window, key)
            assert bridge.value("step") == step
            qtbot.waitUntil(lambda s=said: announcer.property("said") > s, timeout=WAIT_MS)
            assert announcer.property("said") == said + 1
            assert announcer.property("last") == title.property("text")
            assert str(announcer.property("last")).startswith(f"Throw {step} of ")
    finally:
        window.close()
        loaded.engine.deleteLater()
        qapp.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        qapp.processEvents()
