"""Turning the phone mid-hand keeps the draft and the focus (issue 39).

A phone turning is its window resized from 844x390 to 390x844 and back, with the safe-area
insets of each way (gui/device.py PHONE_INSETS: the notch moves from the side to the top). The
app lays out from its window's size (``width > height``), never from the Screen's orientation,
so a desktop window of a phone's shape and a turned phone are one case. After each turn the
draft, the selected line and chip, the focused item and an open drawer or menu are as they
were, nothing was submitted, and the layout check (gui/tools/layoutcheck.py) finds nothing cut.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible

from pointline.gui.device import phone_insets
from pointline.gui.tools.layoutcheck import check_window
from pointline.net.protocol._peer import Timeouts
from tests.gui.online_support import game, on_qt_loop, until
from tests.gui.online_window import delete_windows
from tests.gui.support import WAIT_MS

TURNS = ((844, 390), (390, 844), (844, 390))
GUI = Path(__file__).resolve().parents[2] / "gui"


@pytest.fixture
def phone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "1")
    monkeypatch.setenv("POINTLINE_FAKE_INSETS", "0,0,0,0")  # each turn sets its own below


def turn(ui: Any, size: tuple[int, int]) -> dict[str, int]:
    """The phone held ``size``-wise: the window's new size and that way's insets."""
    insets = phone_insets(size)
    ui.bridge.set_insets(insets)
    ui.resize(*size)
    ui.frames(2)
    return insets


def cut(ui: Any, insets: dict[str, int]) -> list[str]:
    return [
        p.line("turning", (ui.window.width(), ui.window.height()))
        for p in check_window(ui.window, insets=insets, goals=False)
    ]


def seen(ui: Any) -> dict[str, Any]:
    """What a turn must keep of the solo table."""
    b = ui.bridge
    return {
        "draft": (b.value("draftPass"), b.value("draftDontPass")),
        "line": b.value("selectedLine"),
        "chip": b.value("chip"),
        "focus": ui.focus_name(),
        "submitted": b.submissions,
    }


@pytest.mark.usefixtures("phone")
@pytest.mark.parametrize("focus", ["tableArea", "chip50"])
def test_a_solo_draft_and_its_focus_survive_turning_the_phone(make_ui: Any, focus: str) -> None:
    ui = make_ui(size=TURNS[0])
    turn(ui, TURNS[0])
    ui.bridge.selectChip(50)
    ui.bridge.selectLine("dont_pass")
    assert ui.bridge.act("allocate")  # a draft: 50 on Don't Pass, not confirmed
    ui.bridge.selectLine("pass")
    if focus == "chip50":
        ui.item("chip50").forceActiveFocus()
    ui.settle()
    before = seen(ui)
    assert before["draft"] == (0, 50) and before["focus"] == focus
    for size in TURNS[1:]:
        insets = turn(ui, size)
        assert seen(ui) == before, size
        assert cut(ui, insets) == [], size


@pytest.mark.usefixtures("phone")
@pytest.mark.parametrize("card", ["historyDrawer", "menu"])
def test_an_open_drawer_or_menu_keeps_the_keys_and_stays_open_across_a_turn(
    make_ui: Any, card: str
) -> None:
    """On 037ff8a the open drawer or menu left the keys on the table under it: Space placed a
    chip behind the modal sheet, and Escape or Back did not close it."""
    ui = make_ui(size=TURNS[0])
    turn(ui, TURNS[0])
    ui.bridge.selectLine("pass")
    assert ui.bridge.act("allocate")
    ui.click("btnHistory" if card == "historyDrawer" else "btnMenu")
    ui.qtbot.waitUntil(lambda: ui.item(card).property("opened"), timeout=WAIT_MS)
    before = seen(ui)
    assert before["draft"] == (10, 0) and before["focus"] not in ("tableArea", "")
    QAccessible.setActive(True)
    sheet = QAccessible.queryAccessibleInterface(ui.window.activeFocusItem())
    assert sheet.role() == QAccessible.Role.Dialog  # what a reader meets: a named dialog
    assert sheet.text(QAccessible.Text.Name) == ("History" if card == "historyDrawer" else "Menu")
    ui.key(Qt.Key.Key_Space)  # the sheet has the keys: nothing placed behind it
    assert seen(ui) == before
    for size in TURNS[1:]:
        insets = turn(ui, size)
        assert ui.item(card).property("opened") and ui.item(card).property("visible"), size
        assert seen(ui) == before, size
        assert cut(ui, insets) == [], size
    ui.key(Qt.Key.Key_Escape)  # closes the sheet (solo stays unpaused), the table has the keys
    ui.qtbot.waitUntil(lambda: not ui.item(card).property("visible"), timeout=WAIT_MS)
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "tableArea", timeout=WAIT_MS)
    assert not ui.bridge.shell.is_paused and seen(ui)["draft"] == (10, 0)


@pytest.mark.usefixtures("phone")
@pytest.mark.parametrize(
    ("card", "opener"), [("helpOverlay", "openHelp"), ("askOverlay", "askNewSession")]
)
def test_an_open_card_keeps_its_focus_across_a_turn(make_ui: Any, card: str, opener: str) -> None:
    """Help (solo paused under it) and the new-session question over a draft: still open,
    the focus still on the card's control, the draft kept, nothing cut."""
    ui = make_ui(size=TURNS[0])
    turn(ui, TURNS[0])
    ui.bridge.selectLine("pass")
    assert ui.bridge.act("allocate")
    getattr(ui.bridge, opener)()
    ui.qtbot.waitUntil(lambda: ui.item(card).property("opened"), timeout=WAIT_MS)
    ui.qtbot.waitUntil(lambda: ui.focus_name().startswith("btn"), timeout=WAIT_MS)
    before = seen(ui)
    for size in TURNS[1:]:
        insets = turn(ui, size)
        assert ui.item(card).property("opened"), size
        assert seen(ui) == before, size
        assert cut(ui, insets) == [], size


def test_the_layout_follows_the_window_never_the_screen() -> None:
    """A phone's rotation resizes the window (the tests above turn it so); no QML reads the
    Screen attached type (its orientation or size) and no Python asks a QScreen for its
    orientation, so the window's own size is the only thing the layout follows."""
    screen_qml = re.compile(r"(?<![\w.])Screen\.\w+")
    screen_py = re.compile(r"primaryScreen|[oO]rientation(Changed)?\(|QScreen")
    offenders = [
        f"{path.relative_to(GUI)}: {found.group(0)}"
        for path in sorted(GUI.rglob("*.qml"))
        for found in screen_qml.finditer(path.read_text(encoding="utf-8"))
    ]
    offenders += [
        f"{path.relative_to(GUI)}: {found.group(0)}"
        for path in sorted(GUI.rglob("*.py"))
        if "tools" not in path.parts
        for found in screen_py.finditer(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


# ---------------------------------------------------------------------- online, mid-hand
@pytest.fixture
def online_phone(qapp: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Phone mode for the online window (tests/gui/online's set-up: results at once, every
    window's engine deleted after the test's loop is gone)."""
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "1")
    monkeypatch.setenv("POINTLINE_FAKE_INSETS", "0,0,0,0")
    monkeypatch.setenv("POINTLINE_REDUCE_MOTION", "1")
    yield
    delete_windows(qapp)


async def online_turn(ui: Any, size: tuple[int, int]) -> dict[str, int]:
    insets = phone_insets(size)
    ui.bridge.set_insets(insets)
    await ui.resize(*size)
    await ui.frame()
    return insets


def online_seen(played: Any) -> dict[str, Any]:
    seat, ui = played.bridge.seatTable, played.window
    return {
        "draft": (seat.draftPass, seat.draftDontPass),
        "line": seat.selectedLine,
        "chip": seat.chip,
        "focus": ui.focus(),
        "sent": played.sent,
        "screen": played.bridge.screen,
    }


@pytest.mark.usefixtures("online_phone")
@on_qt_loop(timeout=60)
async def test_an_online_draft_not_yet_committed_survives_turning_the_phone(
    tmp_path: Path,
) -> None:
    async with game(tmp_path, TURNS[0], timeouts=Timeouts(confirm=30.0)) as played:
        bridge, ui = played.bridge, played.window
        await online_turn(ui, TURNS[0])
        await ui.table_focus()
        bridge.seatTable.selectChip(50)
        bridge.table.selectLine("dont_pass")
        assert bridge.table.allocate()  # a draft, not confirmed: nothing sent yet
        bridge.table.selectLine("pass")
        await ui.frame()
        before = online_seen(played)
        assert before["draft"] == (0, 50) and before["focus"] == "tableArea"
        assert before["sent"] == 0
        for size in TURNS[1:]:
            insets = await online_turn(ui, size)
            assert online_seen(played) == before, size
            problems = check_window(ui.window, insets=insets, goals=False)
            assert [p.line("online-turning", size) for p in problems] == [], size
        # the seats and the history in their drawer: open across a turn, the keys theirs
        await ui.click("btnHistory")
        await until(lambda: ui.item("onlineHistoryDrawer").property("opened"), what="drawer")
        await ui.frame()
        before = online_seen(played)
        assert before["focus"] != "tableArea" and before["draft"] == (0, 50)
        await ui.key(Qt.Key.Key_Space)  # nothing placed behind the drawer
        for size in (TURNS[1], TURNS[0]):
            await online_turn(ui, size)
            assert ui.item("onlineHistoryDrawer").property("opened"), size
            assert online_seen(played) == before, size
        await ui.key(Qt.Key.Key_Escape)
        await until(lambda: ui.focus() == "tableArea", what="the keys back on the table")
        assert online_seen(played)["draft"] == (0, 50) and played.sent == 0
        # the leave question (Back at the table): asked across a turn, the focus on Stay
        bridge.askLeave()
        await until(lambda: ui.focus() == "btnStay", what="focus on Stay")
        for size in (TURNS[1], TURNS[0]):
            await online_turn(ui, size)
            assert bridge.askingLeave and ui.focus() == "btnStay", size
        bridge.cancelLeave()
        assert online_seen(played)["draft"] == (0, 50) and played.sent == 0
        assert not bridge.peer.is_finished  # the turns ended nothing
