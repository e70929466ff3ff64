"""The throw is the star (issue 39): large dice land in the middle of the felt, a large callout
says the total and what it did, the status line keeps in step, Reduce motion shows it at once,
a tap skips it, and input is never locked longer than ``MOMENT_MS``."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRectF, Qt
from PySide6.QtTest import QTest

from pointline.gui.history import callout_words
from pointline.gui.moment import CALLOUT_MS, MOMENT_MS, ResultMoment
from pointline.gui.texts import SOLO_WORDS
from pointline.gui.tools.layoutcheck import contrast_ratio
from pointline.kernel import Phase, ThrowSeen
from tests.gui.support import WAIT_MS, ManualClock

K = Qt.Key
ROLLING = SOLO_WORDS["rolling"]


def _rect(item) -> QRectF:
    return item.mapRectToScene(QRectF(0, 0, item.width(), item.height()))


def _at_home(ui) -> bool:
    """The dice are in their place in the felt's header."""
    d, h = _rect(ui.item("dice")), _rect(ui.item("diceHome"))
    return abs(d.x() - h.x()) < 0.5 and abs(d.y() - h.y()) < 0.5


def _throw(ui) -> None:
    """The next throw by keys: Pass 10 and Confirm at come-out, Roll at the point."""
    if ui.bridge.phase == "point":
        ui.key(K.Key_Return)
    else:
        ui.key(K.Key_Up)
        ui.key(K.Key_Space)
        ui.key(K.Key_Return)


def _last_seen(ui) -> ThrowSeen:
    return next(e for e in reversed(ui.bridge.table.seat(0).ledger) if isinstance(e, ThrowSeen))


def _kind(seen: ThrowSeen) -> str:
    if seen.phase is Phase.COME_OUT:
        if seen.total in (7, 11):
            return "natural"
        if seen.total in (2, 3, 12):
            return "craps"
        return "point set"
    if seen.total == seen.point:
        return "point made"
    return "seven out" if seen.total == 7 else "no decision"


EXPECTED = {
    "natural": "{t} — Pass\u00a0wins",
    "craps": "{t} — craps, ",  # Don't Pass wins (2, 3) or pushes with Pass losing (12)
    "point set": "Point is {t}",
    "point made": "{t} — point made, Pass\u00a0wins",
    "seven out": "7 — seven out, Don't\u00a0Pass\u00a0wins",
    "no decision": "{t} — no decision, point {p} stays",
}


def test_callout_words_for_every_kind_of_throw() -> None:
    def said(phase: Phase, point: int | None, total: int) -> str:
        return callout_words(ThrowSeen(1, 1, 1, total - 1, total, phase, point))

    come_out, point = Phase.COME_OUT, Phase.POINT
    assert said(come_out, None, 7) == "7 — Pass\u00a0wins"
    assert said(come_out, None, 11) == "11 — Pass\u00a0wins"
    assert said(come_out, None, 3) == "3 — craps, Don't\u00a0Pass\u00a0wins"
    assert said(come_out, None, 12) == "12 — craps, Pass\u00a0loses, Don't\u00a0Pass\u00a0pushes"
    assert said(come_out, None, 4) == "Point is 4"
    assert said(point, 6, 6) == "6 — point made, Pass\u00a0wins"
    assert said(point, 6, 7) == "7 — seven out, Don't\u00a0Pass\u00a0wins"
    assert said(point, 6, 8) == "8 — no decision, point 6 stays"


@pytest.mark.parametrize("size", [(1280, 720), (844, 390), (390, 844)])
def test_the_dice_land_large_in_the_middle_of_the_felt_and_go_home_after(make_ui, size) -> None:
    clock = ManualClock()
    ui = make_ui(size=size, motion=True, clock=clock)
    dice, felt, home = ui.item("dice"), ui.item("felt"), ui.item("diceHome")
    assert dice.parentItem().width() == felt.width()  # placed in the felt's own coordinates
    _throw(ui)
    assert ui.bridge.revealStage == "rolling"
    assert dice.property("size") >= 64
    clock.advance()  # the dice land
    ui.frames()
    # where they land (their place on the felt, without the flight's offset still running)
    d = QRectF(dice.x(), dice.y(), dice.width(), dice.height())
    w, h = felt.width(), felt.height()
    assert d.width() >= 2 * 64 and d.height() >= 64
    assert QRectF(w / 3, h / 3, w / 3, h / 3).contains(d.center()), (d, w, h)
    while clock.advance():
        pass
    ui.qtbot.waitUntil(lambda: ui.bridge.revealStage == "", timeout=WAIT_MS)
    ui.frames()
    # back in their place in the header: over no line, no control
    assert _at_home(ui) and home.isVisible()
    for line in ("linePass", "lineDontPass"):
        assert not _rect(dice).intersects(_rect(ui.item(line)))


def test_the_callout_says_each_kind_of_throw_and_the_status_line_keeps_in_step(make_ui) -> None:
    clock = ManualClock()
    ui = make_ui(motion=True, clock=clock, label=b"callout")
    b = ui.bridge
    plaque, words, live = ui.item("callout"), ui.item("calloutText"), ui.item("liveText")
    seen_kinds: set[str] = set()
    for _ in range(300):
        if seen_kinds >= set(EXPECTED):
            break
        if b.isOver:
            b.newSession()
        _throw(ui)
        assert b.revealStage == "rolling" and b.status == ROLLING and b.callout == ""
        assert not plaque.isVisible()
        clock.advance()  # the dice land: the callout shows, the status says the same
        seen = _last_seen(ui)
        kind = _kind(seen)
        seen_kinds.add(kind)
        assert b.revealStage in ("outcome", "count")
        assert b.callout == callout_words(seen)
        assert b.callout.startswith(EXPECTED[kind].format(t=seen.total, p=seen.point))
        assert plaque.isVisible() and words.property("text") == b.callout
        assert ROLLING not in b.status and ROLLING not in live.property("text")
        if b.revealStage == "outcome":
            assert b.status == b.callout
        ui.key(K.Key_Space)  # refused while it shows: never "rolling" over landed dice
        assert "rolling" not in b.status
        while clock.advance():
            assert "rolling" not in b.status
        assert b.revealStage == "" and b.callout == "" and not plaque.isVisible()
    assert seen_kinds >= {"natural", "craps", "point set", "point made", "seven out"}


def test_the_callout_is_large_and_readable(make_ui) -> None:
    clock = ManualClock()
    ui = make_ui(motion=True, clock=clock)
    _throw(ui)
    clock.advance()
    words, plaque = ui.item("calloutText"), ui.item("callout")
    assert words.isVisible()
    assert words.property("font").pixelSize() >= 24
    fg, bg = words.property("color"), plaque.property("color")
    ratio = contrast_ratio((fg.red(), fg.green(), fg.blue()), (bg.red(), bg.green(), bg.blue()))
    assert ratio >= 4.5
    assert not words.property("truncated")


def test_reduce_motion_shows_the_landed_dice_and_the_callout_at_once(make_ui) -> None:
    clock = ManualClock()
    ui = make_ui(motion=False, clock=clock)
    b = ui.bridge
    dice, felt = ui.item("dice"), ui.item("felt")
    _throw(ui)
    # the result at once: nothing locked, the callout and the status say it, no travel
    assert b.revealStage == "" and any(b.legal.values())
    assert b.callout == callout_words(_last_seen(ui))
    assert ui.item("callout").isVisible() and not dice.property("flying")
    assert ROLLING not in b.status
    ui.frames()
    f, d = _rect(felt), _rect(dice)
    assert abs(d.center().y() - (f.y() + f.height() / 2)) < f.height() / 6
    # the next action takes it away (the dice go home), or replaces it with the next throw's
    if b.phase == "come_out":
        assert b.placeChip("pass")
        assert b.callout == "" and not ui.item("callout").isVisible()
        ui.frames()
        assert _at_home(ui)
    else:
        assert b.act("roll")
        assert b.callout == callout_words(_last_seen(ui))
    # else it goes by itself after CALLOUT_MS, which locks nothing
    moment = ResultMoment(reduce_motion=True, clock=(solo := ManualClock()))
    moment.start(True)
    assert not moment.running and moment.landed and solo.started == [CALLOUT_MS]
    solo.advance()
    assert not moment.landed


def test_a_tap_on_the_felt_ends_the_moment_and_changes_nothing(make_ui) -> None:
    clock = ManualClock()
    ui = make_ui(motion=True, clock=clock)
    b = ui.bridge
    for target in ("felt", "linePass", "lineDontPass", "callout"):
        _throw(ui)
        if target == "callout":
            clock.advance()  # landed: the tap lands on the callout itself
        assert b.revealStage
        state = (b.submissions, b.table.throws, repr(b.table.draft(0)), b.table.balance(0))
        ledger = len(b.table.seat(0).ledger)
        ui.frames()
        c = _rect(ui.item(target)).center()
        QTest.mouseClick(
            ui.window,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
            QPoint(round(c.x()), round(c.y())),
        )
        ui.settle()
        assert b.revealStage == "" and b.callout == "", target
        after = (b.submissions, b.table.throws, repr(b.table.draft(0)), b.table.balance(0))
        assert after == state and len(b.table.seat(0).ledger) == ledger, target
        assert not clock.pending  # no beat left to run
    # after the moment a tap on a line is a tap on a line again
    if b.phase == "come_out":
        c = _rect(ui.item("linePass")).center()
        QTest.mouseClick(
            ui.window,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
            QPoint(round(c.x()), round(c.y())),
        )
        ui.settle()
        assert b.draftPass == 10


@pytest.mark.parametrize("settles", [True, False])
def test_input_is_never_locked_longer_than_moment_ms(qapp, settles: bool) -> None:
    clock = ManualClock()
    moment = ResultMoment(clock=clock)
    moment.start(settles)
    locked = 0
    while moment.running:
        locked += clock.started[-1]
        assert clock.advance()
    assert 0 < locked <= MOMENT_MS
    assert moment.beat == "" and not moment.landed and not clock.pending
    # Reduce motion locks nothing at all
    moment.set_reduce_motion(True)
    moment.start(settles)
    assert not moment.running


def test_a_played_session_never_locks_input_longer_than_moment_ms(make_ui) -> None:
    clock = ManualClock()
    ui = make_ui(motion=True, clock=clock, label=b"lock")
    b = ui.bridge
    for _ in range(40):
        if b.isOver:
            break
        _throw(ui)
        start = len(clock.started) - 1
        while b.revealStage:
            assert not any(b.legal.values())
            assert clock.advance()
        assert sum(clock.started[start:]) <= MOMENT_MS
        assert any(b.legal.values()) or b.isOver


CARD_OVER_TEXT = """
import QtQuick
Window {
    width: 600; height: 400; visible: true; color: "#203020"
    Text { objectName: "under"; x: 10; y: 10; text: "DON'T PASS BAR"; color: "white" }
    Rectangle {
        objectName: "card"; x: 0; y: 0; width: 300; height: 60; color: "#0b2e20"
        property string designRole: "%s"
        Text { objectName: "callout"; x: 20; y: 8; text: "7 — seven out"; color: "#fff0b8" }
    }
}
"""


@pytest.mark.parametrize("role", ["cover", ""])
def test_the_layout_check_reads_no_text_under_a_card_as_drawn_over(qapp, qtbot, role) -> None:
    """A card drawn over the felt for a moment (the callout, the landed dice) covers what lies
    under it; the same texts without it are text over text."""
    import PySide6.QtQuick  # noqa: F401
    from PySide6.QtCore import QByteArray, QUrl
    from PySide6.QtQml import QQmlApplicationEngine

    from pointline.gui.tools.layoutcheck import check_window

    engine = QQmlApplicationEngine()
    engine.loadData(QByteArray((CARD_OVER_TEXT % role).encode()), QUrl("card.qml"))
    window = engine.rootObjects()[0]
    qtbot.waitExposed(window, timeout=WAIT_MS)
    over = [p for p in check_window(window) if p.kind == "text over text"]
    assert (over == []) is (role == "cover")
    window.close()
    del engine


def test_the_spec_states_the_longest_lock_as_moment_ms() -> None:
    """spec/ONLINE.md names the longest input lock by its constant, with its value now."""
    from pathlib import Path

    spec = (Path(__file__).parents[2] / "spec" / "ONLINE.md").read_text(encoding="utf-8")
    assert f"at most `MOMENT_MS` ({MOMENT_MS / 1000:g} s)" in spec
