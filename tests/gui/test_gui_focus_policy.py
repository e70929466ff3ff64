"""One focus policy (issue 38): a button takes the focus by Tab, never by a click, so Enter keeps
its meaning; a click, Escape or a table key gives the keys back to the table; the footer says
what Enter and Space do in every state; the window takes the keyboard back after a dialog.

How each failed on 7617d3d (``git checkout 7617d3d -- gui`` and run this file): the click left
the focus on Allocate and Enter added 10 more (finding 2); Resume left "Paused." on the status
line (finding 3); the footer said "Esc pauses · F1 help" in the guide and "Esc pauses" while
paused (finding 6); the file dialog opened in the working folder and a C locale wrote its dates
as "6 12 2026 09:27" (finding 7).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QLocale, QObject, Qt

from pointline.gui.extras import extras_of
from pointline.gui.texts import SOLO_WORDS, TEXTS
from pointline.gui.windows import readable_locale
from tests.gui.support import WAIT_MS

K = Qt.Key


def footer(ui: Any) -> str:
    return str(ui.item("footer").property("text"))


def test_click_allocate_then_enter_confirms(make_ui: Any) -> None:
    ui = make_ui()
    b = ui.bridge
    ui.click("btnAllocate")
    assert b.draftPass == 10
    assert ui.focus_name() == "tableArea"  # the click never took the focus
    ui.key(K.Key_Return)  # confirms: not a second Allocate
    ui.qtbot.waitUntil(lambda: b.throws == 1, timeout=WAIT_MS)
    assert b.table.throws == 1


def test_a_click_takes_the_keys_back_from_a_tab_focused_button(make_ui: Any) -> None:
    ui = make_ui()
    b = ui.bridge
    for _ in range(12):
        ui.key(K.Key_Tab)
        if ui.focus_name() == "btnWindow":
            break
    assert ui.focus_name() == "btnWindow"
    ui.click("btnAllocate")
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "tableArea", timeout=WAIT_MS)
    ui.key(K.Key_Return)
    ui.qtbot.waitUntil(lambda: b.throws == 1, timeout=WAIT_MS)
    assert b.windowMode == "standard"  # Enter never pressed the button Tab had chosen


def test_escape_pause_and_resume_return_the_keys_to_the_table(make_ui: Any) -> None:
    ui = make_ui()
    b = ui.bridge
    for _ in range(12):
        ui.key(K.Key_Tab)
        if ui.focus_name() == "btnNew":
            break
    ui.key(K.Key_Escape)  # pauses
    assert b.paused
    ui.key(K.Key_Escape)  # resumes: the table has the keys, not New session
    assert not b.paused
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "tableArea", timeout=WAIT_MS)
    ui.key(K.Key_Space)
    ui.key(K.Key_Return)
    ui.qtbot.waitUntil(lambda: b.throws == 1, timeout=WAIT_MS)
    assert not b.askingNewSession


def test_resume_by_button_or_enter_says_resumed(make_ui: Any) -> None:
    ui = make_ui()
    b = ui.bridge
    ui.key(K.Key_Escape)
    assert b.status == SOLO_WORDS["pausedShort"]
    ui.click("btnResume")
    assert not b.paused and b.status == SOLO_WORDS["resumed"]
    ui.key(K.Key_Escape)
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "btnResume", timeout=WAIT_MS)
    ui.key(K.Key_Return)  # Enter on Resume
    assert not b.paused and b.status == SOLO_WORDS["resumed"]


def test_the_footer_says_what_the_keys_do_in_each_state(make_ui: Any) -> None:
    ui = make_ui()
    assert "Esc pauses" in footer(ui) and "Enter confirms" in footer(ui)
    ui.key(K.Key_Escape)  # paused
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "btnResume", timeout=WAIT_MS)
    ui.frames()
    assert "Esc resumes" in footer(ui) and "Esc pauses" not in footer(ui)
    assert "presses Resume" in footer(ui) and "F1" not in footer(ui)
    ui.key(K.Key_Escape)
    extras_of(ui.bridge).openGuide()
    ui.qtbot.waitUntil(lambda: ui.item("guideOverlay").property("opened"), timeout=WAIT_MS)
    ui.frames()
    assert "Esc skips the guide" in footer(ui)
    assert "Esc pauses" not in footer(ui) and "F1" not in footer(ui)
    ui.key(K.Key_Escape)  # skips it, as the footer said
    ui.qtbot.waitUntil(lambda: not ui.item("guideOverlay").property("visible"), timeout=WAIT_MS)
    assert not ui.bridge.paused


def test_the_file_dialog_opens_in_the_saved_sessions_folder(
    make_ui: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POINTLINE_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "data" / "transcripts"
    folder.mkdir(parents=True)
    ui = make_ui()
    extras_of(ui.bridge).openStats()
    ui.settle()
    ui.click("btnOpenReplay")
    picker = ui.window.findChild(QObject, "replayPicker")
    assert picker is not None
    assert Path(picker.property("currentFolder").toLocalFile()) == folder
    picker.close()  # the frame asks for the keyboard back (finding 5; real X: tests/realinput)
    ui.qtbot.waitUntil(lambda: ui.window.isActive(), timeout=WAIT_MS)


def test_a_c_locale_gives_readable_dates_and_a_real_one_is_kept() -> None:
    kept = QLocale()
    try:
        QLocale.setDefault(QLocale.c())
        assert readable_locale() == "en_US"
        assert QLocale().toString(12345) == "12,345"
        QLocale.setDefault(QLocale("de_DE"))
        assert readable_locale() == "de_DE"  # the person's own locale is never replaced
    finally:
        QLocale.setDefault(kept)


def test_every_words_key_the_footer_uses_is_a_text() -> None:
    for key in ("keysGuide", "keysPaused", "keysHelp", "keysAsk", "keysStats", "keysClose"):
        assert "{button}" in TEXTS[key] and "F1" not in TEXTS[key]
