"""Accessibility: roles, names and descriptions (reasons in the kernel's words), announcements."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAccessible

from tests.gui.support import BUTTON_ORDER

ACTION_OF = {
    "btnAllocate": "allocate",
    "btnConfirm": "confirm",
    "btnReset": "reset",
    "btnReduce": "reduce",
    "btnRemove": "remove",
    "btnRoll": "roll",
    "btnRepeat": "repeat",
}


def _iface(ui, name):
    QAccessible.setActive(True)
    iface = QAccessible.queryAccessibleInterface(ui.item(name))
    assert iface is not None, name
    return iface


def _name(ui, name) -> str:
    return _iface(ui, name).text(QAccessible.Text.Name)


def _description(ui, name) -> str:
    return _iface(ui, name).text(QAccessible.Text.Description)


@pytest.mark.parametrize("scene", [None, "point-reduction", "result"])
def test_every_control_has_role_name_and_description(make_ui, scene) -> None:
    ui = make_ui(scene=scene)
    for name in BUTTON_ORDER:
        iface = _iface(ui, name)
        assert iface.role() == QAccessible.Role.Button
        if name.startswith("chip"):  # a toggle button: pressed when it is the table's chip
            assert iface.state().checkable
            assert bool(iface.state().checked) == (ui.bridge.chip == int(name[4:]))
        assert _name(ui, name)
        assert _description(ui, name)
        action = ACTION_OF.get(name)
        if action is not None and not ui.item(name).isEnabled():
            assert _description(ui, name) == ui.bridge.reasons[action]
    if not ui.bridge.isOver:
        for line in ("linePass", "lineDontPass"):
            assert _iface(ui, line).role() == QAccessible.Role.RadioButton
            assert _name(ui, line) in ("Pass line", "Don't pass bar")
    assert _name(ui, "puck").startswith("Point is")


def test_rule_events_are_announced(make_ui) -> None:
    ui = make_ui(label=b"announce")
    seen: list[str] = []
    ui.bridge.announced.connect(seen.append)
    while not ui.bridge.isOver:
        ui.key(Qt.Key.Key_Space if ui.bridge.phase == "point" else Qt.Key.Key_Return)
        if ui.bridge.phase == "come_out" and ui.bridge.draftPass == 0:
            ui.key(Qt.Key.Key_Space)
    text = " ".join(seen)
    assert re.search(r"Point \d+ is on", text)
    assert "Pass wins " in text or "Pass loses " in text
    assert "Session complete" in text
    assert _name(ui, "liveText") == ui.bridge.status


def _luminance(color) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(color.redF())
        + 0.7152 * channel(color.greenF())
        + 0.0722 * channel(color.blueF())
    )


def _contrast(a, b) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("scene", [None, "point-reduction"])
def test_text_and_controls_meet_contrast(make_ui, scene) -> None:
    ui = make_ui(scene=scene)
    for name in BUTTON_ORDER:
        button = ui.item(name)
        label = button.property("contentItem").property("color")
        background = button.property("background").property("color")
        assert _contrast(label, background) >= (4.5 if button.isEnabled() else 3.0), name
    page = ui.window.property("color")
    assert _contrast(ui.item("footer").property("color"), page) >= 4.5
    assert _contrast(ui.item("liveText").property("color"), page) >= 4.5


def test_chips_are_toggle_buttons_pressed_when_chosen(make_ui) -> None:
    """Issue 40: a chip reports pressed or not on the Button itself; a chip pressed again (click
    or Space on it) stays pressed, and picking another releases the first."""
    ui = make_ui()

    def pressed() -> list[int]:
        return [v for v in (10, 50, 100) if _iface(ui, f"chip{v}").state().checked]

    assert pressed() == [ui.bridge.chip] == [10]
    ui.click("chip50")
    assert pressed() == [50]
    ui.click("chip50")  # the chosen chip again: still the one pressed
    assert pressed() == [50] and ui.bridge.chip == 50
    ui.click("chip10")
    assert pressed() == [10]


def _dialog(ui, name):
    """The accessible dialog of the card ``name``: the popup's own item (contentItem's parent)."""
    QAccessible.setActive(True)
    item = ui.window.findChild(QObject, name).property("contentItem").parentItem()
    iface = QAccessible.queryAccessibleInterface(item)
    assert iface is not None, name
    return iface


def test_dialog_titles_sit_on_the_dialog_and_qt_warns_of_nothing(make_ui, qtlog) -> None:
    """Issue 40: each card's title is the name of its dialog (what a reader says when it opens),
    its description the dialog's description, and loading the window prints no warning about
    an Accessible attached to something that is not an Item (a Popup is none)."""
    ui = make_ui()
    ui.bridge.openHelp()
    ui.qtbot.waitUntil(lambda: ui.item("helpOverlay").property("opened"), timeout=5000)
    help_dialog = _dialog(ui, "helpOverlay")
    assert help_dialog.role() == QAccessible.Role.Dialog
    assert help_dialog.text(QAccessible.Text.Name) == "Help"
    stats = ui.window.findChild(QObject, "statsOverlay")
    assert _dialog(ui, "statsOverlay").text(QAccessible.Text.Description) == stats.property(
        "description"
    )
    warned = [r.message for r in qtlog.records if "Accessible attached property" in r.message]
    assert warned == []


def test_the_table_says_where_you_are_when_the_focus_comes_back(make_ui) -> None:
    """Issue 40, Where am I: the table's name is its summary (hand, phase, point, balance) as it
    is when the focus comes (back) to it, and its description the keys then; neither follows a
    change while the focus stays (Orca speaks a change of the focused object's name or
    description: each change would be said twice)."""
    ui = make_ui()
    assert ui.focus_name() == "tableArea"
    assert _name(ui, "tableArea") == "Table, hand 1 of 5, come-out, balance 1,000"
    assert _description(ui, "tableArea") == ui.bridge.keysHint
    come_out_keys = ui.bridge.keysHint
    ui.key(Qt.Key.Key_Space)
    ui.key(Qt.Key.Key_Return)  # reduce motion: the come-out's result shows at once
    ui.qtbot.waitUntil(lambda: ui.bridge.throws == 1, timeout=5000)
    assert ui.bridge.keysHint != come_out_keys  # the phase moved on (the point, or hand 2) ...
    assert _name(ui, "tableArea") == "Table, hand 1 of 5, come-out, balance 1,000"  # ... not it
    assert _description(ui, "tableArea") == come_out_keys
    ui.bridge.openHelp()
    ui.qtbot.waitUntil(lambda: ui.focus_name() != "tableArea", timeout=5000)
    ui.key(Qt.Key.Key_Escape)
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "tableArea", timeout=5000)
    assert _name(ui, "tableArea") == "Table, " + ui.bridge.summary
    assert ui.bridge.summary != "hand 1 of 5, come-out, balance 1,000"
    assert _description(ui, "tableArea") == ui.bridge.keysHint


def test_the_history_is_a_list_that_says_its_length(make_ui) -> None:
    """Issue 40: the history is a list a reader can walk: role List, its name with how many
    lines it holds, each line a ListItem named with its words."""
    ui = make_ui()
    history = _iface(ui, "history")
    assert history.role() == QAccessible.Role.List
    assert history.text(QAccessible.Text.Name) == "History, 0 lines"
    ui.key(Qt.Key.Key_Space)
    ui.key(Qt.Key.Key_Return)
    ui.qtbot.waitUntil(lambda: ui.bridge.throws == 1, timeout=5000)
    rows = ui.item("historyList")
    ui.qtbot.waitUntil(lambda: rows.property("count") > 0, timeout=5000)
    count = rows.property("count")
    assert _name(ui, "history") == f"History, {count} lines"
    items = [
        QAccessible.queryAccessibleInterface(child)
        for child in rows.property("contentItem").childItems()
    ]
    named = [
        i.text(QAccessible.Text.Name)
        for i in items
        if i is not None and i.role() == QAccessible.Role.ListItem
    ]
    assert named and all(named), named
