"""A held key acts once, and refusals read as plain words (issue: safe input, machine words)."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QKeyEvent

K = Qt.Key


def _held(ui, key: Qt.Key, repeats: int = 5) -> None:
    """A key held down: one real press, auto-repeated press/release pairs, one release."""

    def send(kind: QEvent.Type, auto: bool) -> None:
        event = QKeyEvent(kind, key, Qt.KeyboardModifier.NoModifier, "", auto)
        QCoreApplication.sendEvent(ui.window, event)

    send(QEvent.Type.KeyPress, False)
    for _ in range(repeats):
        send(QEvent.Type.KeyRelease, True)
        send(QEvent.Type.KeyPress, True)
    send(QEvent.Type.KeyRelease, False)
    QCoreApplication.processEvents()


def test_held_space_allocates_once(make_ui) -> None:
    ui = make_ui()
    ui.key(K.Key_Up)
    _held(ui, K.Key_Space)
    assert ui.bridge.draftPass == 10


def test_held_enter_after_a_result_submits_nothing_more(make_ui) -> None:
    ui = make_ui()
    b = ui.bridge
    ui.key(K.Key_Up)
    ui.key(K.Key_Space)
    _held(ui, K.Key_Return, repeats=8)  # confirms once: the come-out throw
    assert b.submissions == 2 and b.throws == 1  # Allocate, then Confirm
    # Whatever the dice did, the auto-repeated Enters did not confirm (sit out) or roll again.
    assert b.hand in (1, 2)


def test_held_backspace_resets_once_and_focused_buttons_ignore_repeats(make_ui) -> None:
    ui = make_ui()
    b = ui.bridge
    ui.key(K.Key_Up)
    ui.key(K.Key_Space)
    ui.key(K.Key_Space)
    _held(ui, K.Key_Backspace)
    assert b.draftPass == 0
    ui.item("btnAllocate").forceActiveFocus()
    _held(ui, K.Key_Space)
    assert b.draftPass == 10


def test_a_refusal_shows_plain_words_not_a_code(make_ui) -> None:
    ui = make_ui()
    b = ui.bridge
    ui.key(K.Key_Up)
    for _ in range(10):
        ui.key(K.Key_Space)
    assert b.draftPass == 100
    ui.key(K.Key_Space)  # the 11th: over the hand limit
    assert b.draftPass == 100
    assert b.notice == "At most 100 points a hand on the two lines together."
    assert not re.search(r"\b[a-z]+_[a-z_]+:", b.notice)


def test_an_empty_confirm_reads_sit_out_and_needs_a_second_press(make_ui) -> None:
    ui = make_ui()
    b = ui.bridge
    confirm = ui.item("btnConfirm")
    assert confirm.property("text") == "Sit out"
    ui.key(K.Key_Return)  # the first press only asks
    assert b.throws == 0 and b.submissions == 0
    assert "Sit out this hand? Enter again" in ui.item("liveText").property("text")
    ui.key(K.Key_Up)  # anything else disarms it
    assert "Sit out this hand" not in ui.item("liveText").property("text")
    ui.key(K.Key_Space)
    assert confirm.property("text") == "Confirm"
    assert b.draftPass == 10
    ui.key(K.Key_Backspace)
    ui.key(K.Key_Return)
    ui.key(K.Key_Return)  # the second, deliberate press sits out; the dice still roll
    assert b.throws == 1 and b.table.seat(0).ledger[0].pass_amount == 0


def test_status_keeps_its_place_and_the_footer_is_one_short_line(make_ui) -> None:
    ui = make_ui(size=(844, 390))
    status = ui.item("liveText")
    b = ui.bridge
    grid = ui.item("buttons")
    top = grid.mapToScene(grid.boundingRect().topLeft()).y()
    b.publish(status="Hand 2 resolved; come-out for hand 3. " * 4)  # longer than any real one
    ui.qtbot.waitUntil(lambda: status.property("lineCount") >= 2, timeout=2000)
    ui.frames()  # laid out with the longer status
    assert grid.mapToScene(grid.boundingRect().topLeft()).y() == top  # the buttons stay put
    footer = ui.item("footer").property("text")
    assert "online2" not in footer and footer.count("Free fictional points") == 1
    assert ui.item("footer").property("lineCount") == 1
