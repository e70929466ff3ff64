"""Full solo sessions through the real QML table: by keys only, then by mouse only."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from pointline.gui import session as solo
from pointline.kernel import (
    Allocate,
    BadReveal,
    Confirm,
    InputCode,
    Line,
    Phase,
    Refunded,
    Settled,
    derive_dice,
    replay_balance,
    verify_commitment,
)
from pointline.kernel.ledger import Contracted, ThrowSeen
from pointline.net.errors import BadReveal as NetBadReveal
from pointline.net.errors import NetCode
from tests.gui.support import WAIT_MS

K = Qt.Key


def _check_session(ui) -> None:
    table = ui.bridge.table
    assert table.phase is Phase.COMPLETE
    ledger = table.seat(0).ledger
    assert replay_balance(ledger) == table.balance(0) == table.result.final[0]
    assert sum(isinstance(e, Contracted) for e in ledger) == 5
    throws = [e for e in ledger if isinstance(e, ThrowSeen)]
    assert len(throws) == table.throws == len(ui.bridge.session.reveals)
    for reveal, seen in zip(ui.bridge.session.reveals, throws, strict=True):
        assert verify_commitment(
            reveal.digest, "solo", reveal.throw_index, 0, reveal.nonce, reveal.choices
        )
        assert derive_dice("solo", reveal.throw_index, [reveal.nonce]) == (seen.die1, seen.die2)
    assert ui.item("resultView").isVisible()
    assert ui.bridge.resultText.startswith("Final points")
    assert "rank" not in ui.bridge.resultText  # solo: no "rank 1 of 1"
    assert "on the 1,000 you started with" in ui.bridge.resultText


def _play_session(ui, come_out, point) -> None:
    """Play until the session is over: ``come_out(ui)`` at each come-out, else ``point(ui)``."""
    for _ in range(400):
        if ui.bridge.isOver:
            return
        (come_out if ui.bridge.phase == "come_out" else point)(ui)
    raise AssertionError("the session did not end in 400 steps")


def test_full_session_by_keys_only(make_ui) -> None:
    ui = make_ui(label=b"keys")
    reduced = []

    def come_out(ui) -> None:
        ui.key(K.Key_Up)
        ui.key(K.Key_Space)
        ui.key(K.Key_Space)
        ui.key(K.Key_Down)
        ui.key(K.Key_Space)
        assert (ui.bridge.draftPass, ui.bridge.draftDontPass) == (20, 10)
        ui.key(K.Key_Enter if ui.bridge.hand % 2 else K.Key_Return)

    def point(ui) -> None:
        if not reduced and ui.bridge.contractDontPass:
            # Tab to the Don't Pass −10 button and take it with Space.
            for _ in range(10):
                ui.key(K.Key_Tab)
                if ui.focus_name() == "btnReduce":
                    break
            assert ui.focus_name() == "btnReduce"
            ui.key(K.Key_Space)
            assert ui.bridge.draftDontPass == ui.bridge.contractDontPass - 10
            ui.key(K.Key_Up)  # back to the table
            reduced.append(True)
        assert ui.focus_name() == "tableArea"
        ui.key(K.Key_Space if ui.bridge.throws % 2 else K.Key_Return)

    _play_session(ui, come_out, point)
    _check_session(ui)
    assert reduced
    assert any(isinstance(e, Refunded) for e in ui.bridge.table.seat(0).ledger)


def test_full_session_by_mouse_only(make_ui) -> None:
    ui = make_ui(label=b"mouse")
    removed = []

    def come_out(ui) -> None:
        ui.click("linePass")
        ui.click("btnAllocate")
        ui.click("lineDontPass")
        assert ui.bridge.selectedLine == "dont_pass"
        ui.click("btnAllocate")
        ui.click("btnAllocate")
        ui.click("btnReset")
        assert (ui.bridge.draftPass, ui.bridge.draftDontPass) == (0, 0)
        ui.click("linePass")
        ui.click("btnAllocate")
        ui.click("lineDontPass")
        ui.click("btnAllocate")
        ui.click("btnConfirm")

    def point(ui) -> None:
        if not removed and ui.bridge.contractDontPass:
            # the last throw's result is shown before anything can be prepared again
            ui.qtbot.waitUntil(lambda: ui.item("btnRemove").isEnabled(), timeout=WAIT_MS)
            ui.click("btnRemove")
            assert ui.bridge.draftDontPass == 0
            removed.append(True)
        ui.click("btnRoll")

    _play_session(ui, come_out, point)
    _check_session(ui)
    ledger = ui.bridge.table.seat(0).ledger
    assert removed and any(isinstance(e, Refunded) for e in ledger)
    assert any(isinstance(e, Settled) for e in ledger)
    ui.click("btnNew")
    assert ui.bridge.balance == 1000 and ui.bridge.phase == "come_out"


def test_touch_reaches_the_same_buttons(make_ui) -> None:
    from PySide6.QtTest import QTest

    ui = make_ui(label=b"touch")
    device = QTest.createTouchDevice()

    def tap(name: str) -> None:
        point = ui.center(name)
        QTest.touchEvent(ui.window, device).press(0, point, ui.window)
        QTest.touchEvent(ui.window, device).release(0, point, ui.window)
        ui.settle()

    tap("lineDontPass")  # selects the line and places the selected chip (10) there
    assert ui.bridge.selectedLine == "dont_pass" and ui.bridge.draftDontPass == 10
    tap("btnAllocate")
    assert ui.bridge.draftDontPass == 20
    tap("btnConfirm")
    assert ui.bridge.throws == 1


def test_full_session_by_keys_with_every_result_moment(make_ui, monkeypatch) -> None:
    """Played as a person plays with animations on: keys pressed while the dice roll do
    nothing, and each throw's result shows before the next key acts. (The beats are shortened
    to keep the run short; their order and the lock are what is tested.)"""
    import pointline.gui.moment as moment_module

    for name, ms in (("ROLL_MS", 120), ("OUTCOME_MS", 150), ("COUNT_MS", 80)):
        monkeypatch.setattr(moment_module, name, ms)
    ui = make_ui(label=b"moments", motion=True)
    b = ui.bridge
    ignored = 0
    for _ in range(400):
        if b.isOver:
            break
        if b.phase == "come_out":
            ui.key(K.Key_Up)
            ui.key(K.Key_Space)
            ui.key(K.Key_Return)
        else:
            ui.key(K.Key_Space)
        assert b.revealStage == "rolling"
        before = b.submissions
        ui.key(K.Key_Return)  # an impatient second press while the dice tumble
        ui.key(K.Key_Space)
        ignored += 1
        assert b.submissions == before
        ui.qtbot.waitUntil(lambda: b.revealStage == "", timeout=5000)
    assert b.isOver and ignored == b.throws
    _check_session(ui)


def test_a_reveal_that_misses_its_commitment_is_the_kernels_bad_reveal(monkeypatch) -> None:
    """Solo runs online's commit-then-reveal path with one seat (the kernel's commitments and
    dice), and a reveal that does not match raises the kernel's ``BadReveal``, its code a
    StrEnum; online's ``BadReveal`` is the same error with the net layer's code."""
    game = solo.SoloSession(lambda: bytes(32))
    game.submit(Allocate(0, Line.PASS))
    monkeypatch.setattr(solo, "verify_commitment", lambda *args: False)
    with pytest.raises(BadReveal) as caught:
        game.submit(Confirm(0))
    assert caught.value.code is InputCode.BAD_REVEAL
    assert game.table.throws == 0 and game.reveals == []
    online = NetBadReveal("A reveal did not match its commitment.")
    assert isinstance(online, BadReveal) and online.code is NetCode.BAD_REVEAL
