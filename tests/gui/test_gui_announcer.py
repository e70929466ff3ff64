"""Issue 40: Announcer.qml, the one channel the app speaks to screen readers through.

On Linux each change becomes its own item of role Notification, named with the words, that
shows (what Orca 43 speaks; tests/realinput/test_orca.py hears it): one item per change, in
order, the earlier ones hidden, at most ``keep`` kept; a change said while others are pending
waits for them (the words go out together once the app has settled).
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
