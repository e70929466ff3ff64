"""Issue 40: the lists a screen reader walks on the online screens: the tables nearby is a List
named with how many it holds, each table a ListItem named with its words (the real online window
offscreen, its sign-in screen; the tables are put in its model as the browser would)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtGui import QAccessible

from tests.gui.online_support import at_sign_in, next_qt_turn, on_qt_loop


def _iface(item: QObject) -> QAccessible:
    QAccessible.setActive(True)
    iface = QAccessible.queryAccessibleInterface(item)
    assert iface is not None
    return iface


@on_qt_loop()
async def test_the_tables_nearby_are_a_list_that_says_its_length(tmp_path: Path) -> None:
    async with at_sign_in(tmp_path) as played:
        bridge, ui = played.bridge, played.window
        column = ui.item("tablesColumn")
        listed = _iface(column)
        assert listed.role() == QAccessible.Role.List
        assert listed.text(QAccessible.Text.Name) == "Tables nearby, 0 found"
        row = {
            "key": "k1",
            "name": "ana's table",
            "host": "ana",
            "seats": 2,
            "open": True,
            "label": "ana's table · 2 seats",
            "kind": "table",
            "kept": False,
        }
        bridge.nearby.tables.set_rows([row])
        await next_qt_turn()
        assert _iface(column).text(QAccessible.Text.Name) == "Tables nearby, 1 found"
        button = ui.item("nearbyTable0")
        item = _iface(button.parentItem())
        assert item.role() == QAccessible.Role.ListItem
        assert item.text(QAccessible.Text.Name) == "ana's table · 2 seats"
