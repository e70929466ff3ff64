"""Stats: every finished solo session recorded once, kept atomically, shown by keys, pointer,
touch and to screen readers; a closed session is never resumed, and closing mid-session asks."""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QAccessible
from PySide6.QtTest import QTest

from pointline.gui.bridge import TableBridge
from pointline.gui.extras import extras_of
from pointline.gui.stats import (
    LEFT_CLOSED,
    LEFT_NEW_SESSION,
    SessionRecord,
    StatsCode,
    StatsError,
    StatsStore,
    record_of,
)
from pointline.gui.tools.scenes import counter_nonces, prepare
from pointline.kernel import HANDS_PER_SESSION, EndReason, Line, Outcome, Phase
from pointline.kernel.ledger import Settled, ThrowSeen
from tests.gui.script_run import run_json

WAIT_MS = 3000

# The real app (gui/app.py's run): the guide on first launch, a throw, then the window closes
# mid-session. Every wait polls a condition (the window is up, the main loop runs).
APP = """
import json, sys
from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtQml import QQmlEngine
from pointline.gui.app import run
from pointline.gui.bridge import TableBridge
from pointline.gui.extras import extras_of

seen = {}
def poll():
    app = QGuiApplication.instance()
    shown = [w for w in app.topLevelWindows() if w.isVisible()] if app else []
    # the engine owns the bridge (gui/app.py): find it there
    engine = QQmlEngine.contextForObject(shown[0]).engine() if shown else None
    bridge = engine.findChild(TableBridge) if engine is not None else None
    if bridge is None or bridge.sounds.available is None:  # the main loop is not running yet
        QTimer.singleShot(20, poll)
        return
    extras = extras_of(bridge)
    seen["guide"] = extras.property("guideOpen")
    extras.skipGuide()
    bridge.selectLine("pass"); bridge.act("allocate"); bridge.act("confirm")
    seen["throws"] = bridge.table.throws
    shown[0].close()
    seen["kept_open"] = shown[0].isVisible()
    question = extras.property("closeQuestion")
    seen["asked"] = question.property("asked")
    question.confirm()
QTimer.singleShot(0, poll)
code = run()
print(json.dumps({"code": code, **seen}))
"""


def _bridge(tmp_path: Path, label: bytes = b"stats") -> TableBridge:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("reduceMotion", True)
    settings.setValue("muted", True)
    bridge = TableBridge(counter_nonces(label), settings=settings)
    extras_of(bridge).use_folder(tmp_path / "data")
    return bridge


def _files(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "data" / "stats").glob("*"))


def _saved(tmp_path: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in _files(tmp_path)]


def _throws(bridge: TableBridge, n: int) -> None:
    for _ in range(n):
        if bridge.table.phase is Phase.POINT:
            bridge.act("roll")
        else:
            bridge.selectLine("pass")
            bridge.act("allocate")
            bridge.selectLine("dont_pass")
            bridge.act("allocate")
            bridge.act("allocate")
            bridge.act("confirm")


def test_a_complete_session_is_recorded_once_with_its_figures(qapp: Any, tmp_path: Path) -> None:
    bridge = _bridge(tmp_path)
    prepare(bridge, "result")
    table = bridge.table
    assert table.phase is Phase.COMPLETE and table.result is not None
    for _ in range(3):  # later changes (selection, Help, pause) record nothing more
        bridge.selectLine("dont_pass")
        bridge.openHelp()
        bridge.closeHelp()
        bridge.escape()
    saved = _saved(tmp_path)
    assert len(saved) == 1
    record = saved[0]
    ledger = table.seat(0).ledger
    wins = {line: 0 for line in Line}
    point_throws: dict[int, int] = {}
    for e in ledger:
        if isinstance(e, Settled) and e.outcome is Outcome.WIN:
            wins[e.line] += 1
        if isinstance(e, ThrowSeen) and e.phase is Phase.POINT:
            point_throws[e.hand] = point_throws.get(e.hand, 0) + 1
    assert record["complete"] is True and record["reason"] == ""
    assert record["hands"] == HANDS_PER_SESSION and record["throws"] == table.throws
    assert record["final_points"] == table.result.final[0] == bridge.balance
    assert record["wins_pass"] == wins[Line.PASS]
    assert record["wins_dont_pass"] == wins[Line.DONT_PASS]
    assert record["longest_point_run"] == max(point_throws.values(), default=0)
    assert record["chart"] == list(bridge.chart)
    rows = extras_of(bridge).property("sessions")
    assert len(rows) == 1 and rows[0]["outcome"] == "Complete"


def test_a_session_ended_without_a_result_says_why(qapp: Any, tmp_path: Path) -> None:
    bridge = _bridge(tmp_path, b"ended")
    _throws(bridge, 3)
    bridge.end_without_result(EndReason.BACKGROUND)
    [record] = _saved(tmp_path)
    assert record["complete"] is False
    assert record["reason"] == "the app went to the background"
    assert record["final_points"] == bridge.table.balance(0)
    row = extras_of(bridge).property("sessions")[0]
    assert row["outcome"] == "Ended without a result"


def test_leaving_mid_session_records_it_as_left_and_untouched_sessions_not(
    qapp: Any, tmp_path: Path
) -> None:
    bridge = _bridge(tmp_path, b"left")
    bridge.newSession()  # nothing played: nothing to record
    assert _saved(tmp_path) == []
    for label in range(20):  # a throw that leaves contracts on the table: a point is on
        _throws(bridge, 1)
        if bridge.table.phase is Phase.POINT:
            break
        bridge.newSession()
        assert len(_saved(tmp_path)) == label + 1
    assert bridge.table.phase is Phase.POINT
    on_table = bridge.table.contracts(0).total
    expected = bridge.table.balance(0) + on_table  # the hand in flight is voided: returned
    before = len(_saved(tmp_path))
    bridge.newSession()
    saved = _saved(tmp_path)
    assert len(saved) == before + 1
    assert on_table > 0
    left = [r for r in saved if r["final_points"] == expected and r["reason"] == LEFT_NEW_SESSION]
    assert left
    assert all(r["complete"] is False and r["reason"] == LEFT_NEW_SESSION for r in saved)


def test_quitting_records_a_session_in_play_once(qapp: Any, tmp_path: Path) -> None:
    bridge = _bridge(tmp_path, b"quit")
    _throws(bridge, 2)
    extras_of(bridge).record_if_in_play()
    extras_of(bridge).record_if_in_play()
    [record] = _saved(tmp_path)
    assert record["reason"] == LEFT_CLOSED and record["throws"] == 2


def test_corrupt_files_give_a_plain_message_and_every_other_session_stays(
    qapp: Any, tmp_path: Path
) -> None:
    bridge = _bridge(tmp_path, b"corrupt")
    prepare(bridge, "result")
    bridge.newSession()
    _throws(bridge, 2)
    bridge.end_without_result(EndReason.BACKGROUND)
    folder = tmp_path / "data" / "stats"
    bad = {
        "20260101T000000Z-binary.json": b"\xff\xfe\x00garbage",
        "20260101T000001Z-cut.json": b'{"version": 1, "session_id": "x", "fin',
        "20260101T000002Z-shape.json": json.dumps({"version": 1, "hands": "five"}).encode(),
    }
    for name, data in bad.items():
        (folder / name).write_bytes(data)
    loaded = StatsStore(folder).load()
    assert len(loaded.records) == 2
    assert loaded.problem.startswith("3 saved sessions could not be read")
    for name in bad:
        assert name in loaded.problem
    assert "Traceback" not in loaded.problem and "Error" not in loaded.problem
    # Reading left them exactly as they were; saving another session keeps them too.
    bridge.newSession()
    prepare(bridge, "result")
    for name, data in bad.items():
        assert (folder / name).read_bytes() == data
    extras = extras_of(bridge)
    extras.openStats()
    assert len(extras.property("sessions")) == 3
    assert "could not be read" in extras.property("statsProblem")


def test_a_failed_write_changes_nothing_and_says_so(
    qapp: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bridge = _bridge(tmp_path, b"atomic")
    prepare(bridge, "result")
    before = {p.name: p.read_bytes() for p in _files(tmp_path)}
    assert len(before) == 1

    def full(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    bridge.newSession()
    _throws(bridge, 2)
    bridge.end_without_result(EndReason.BACKGROUND)
    after = {p.name: p.read_bytes() for p in _files(tmp_path)}
    assert after == before  # no half-written file, no temporary left behind
    problem = extras_of(bridge).property("statsProblem")
    assert problem.startswith("This session could not be saved to Stats (No space left")
    assert len(extras_of(bridge).property("sessions")) == 1


def test_an_unusable_folder_is_a_plain_error(tmp_path: Path) -> None:
    (tmp_path / "stats").write_text("a file where the folder should be")
    from pointline.kernel import Table

    with pytest.raises(StatsError) as caught:
        StatsStore(tmp_path / "stats").add(record_of(Table(seats=1), "abc"))
    assert caught.value.text.startswith("This session could not be saved to Stats")
    assert caught.value.code is StatsCode.NOT_SAVED  # a StrEnum, as every layer's codes are
    assert StatsStore(tmp_path / "stats").load().problem.startswith("Stats could not be read")


records = st.builds(
    SessionRecord,
    session_id=st.text("abcdef0123456789", min_size=1, max_size=16),
    finished=st.datetimes(datetime(2000, 1, 1)).map(lambda d: f"{d:%Y-%m-%dT%H:%M:%SZ}"),
    complete=st.booleans(),
    reason=st.text(max_size=40),
    hands=st.integers(0, 5),
    throws=st.integers(0, 128),
    wins_pass=st.integers(0, 5),
    wins_dont_pass=st.integers(0, 5),
    final_points=st.integers(0, 2000),
    longest_point_run=st.integers(0, 128),
    chart=st.lists(st.integers(0, 2000), max_size=129).map(tuple),
)


@given(records)
def test_records_survive_the_file_format(record: SessionRecord) -> None:
    assert SessionRecord.from_json(json.loads(json.dumps(record.to_json()))) == record


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(), st.lists))
def test_anything_else_is_refused_with_value_error(data: object) -> None:
    with pytest.raises(ValueError):
        SessionRecord.from_json(data)


# ---------------------------------------------------------------------- on screen
def _find(ui: Any, name: str) -> Any:
    """An item by objectName in the visual tree (a Repeater's rows are not QObject children)."""
    stack = [ui.window.contentItem()]
    while stack:
        item = stack.pop()
        if item.objectName() == name:
            return item
        stack.extend(item.childItems())
    raise AssertionError(f"no item named {name}")


def _name(ui: Any, item: str) -> str:
    QAccessible.setActive(True)
    iface = QAccessible.queryAccessibleInterface(_find(ui, item))
    assert iface is not None, item
    return str(iface.text(QAccessible.Text.Name))


def _tab_to(ui: Any, name: str, limit: int = 30) -> None:
    for _ in range(limit):
        if ui.focus_name() == name:
            return
        ui.key(Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reached {name} (focus on {ui.focus_name()})")


def test_stats_from_the_result_screen_by_keys(make_ui: Any) -> None:
    ui = make_ui(scene="result", label=b"stats-keys")
    overlay = ui.item("statsOverlay")
    assert not overlay.property("visible")
    _tab_to(ui, "btnStats")
    ui.key(Qt.Key.Key_Return)
    ui.qtbot.waitUntil(lambda: overlay.property("visible"), timeout=WAIT_MS)
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "btnSession0", timeout=WAIT_MS)
    assert "Session 1" in _name(ui, "btnSession0") and "final points" in _name(ui, "btnSession0")
    assert ui.item("statsOutcome").property("text").startswith("Complete — final points")
    chart = ui.item("statsChart").property("samples")
    assert list(chart) == list(ui.bridge.chart)
    for _ in range(4):  # Tab stays inside Stats
        ui.key(Qt.Key.Key_Tab)
        assert ui.focus_name() in ("btnSession0", "btnWatch", "btnOpenReplay", "btnStatsClose")
    ui.key(Qt.Key.Key_Escape)
    ui.qtbot.waitUntil(lambda: not overlay.property("visible"), timeout=WAIT_MS)
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "btnStats", timeout=WAIT_MS)


def test_stats_by_pointer_and_touch(make_ui: Any) -> None:
    ui = make_ui(scene="result", label=b"stats-pointer")
    overlay = ui.item("statsOverlay")
    ui.click("btnStats")
    ui.qtbot.waitUntil(lambda: overlay.property("visible"), timeout=WAIT_MS)
    ui.click("btnStatsClose")
    ui.qtbot.waitUntil(lambda: not overlay.property("visible"), timeout=WAIT_MS)
    device = QTest.createTouchDevice()
    for name in ("btnStats", "btnStatsClose"):
        ui.qtbot.waitUntil(lambda n=name: ui.item(n).isVisible(), timeout=WAIT_MS)
        point = ui.center(name)
        QTest.touchEvent(ui.window, device).press(0, point, ui.window)
        QTest.touchEvent(ui.window, device).release(0, point, ui.window)
        ui.settle()
        if name == "btnStats":
            ui.qtbot.waitUntil(lambda: overlay.property("visible"), timeout=WAIT_MS)
    ui.qtbot.waitUntil(lambda: not overlay.property("visible"), timeout=WAIT_MS)


def test_stats_from_help_mid_session_submits_nothing(make_ui: Any) -> None:
    ui = make_ui(label=b"stats-help")
    ui.key(Qt.Key.Key_Space)
    ui.key(Qt.Key.Key_Return)
    assert ui.bridge.throws == 1
    submitted = ui.bridge.submissions
    ui.key(Qt.Key.Key_F1)
    ui.qtbot.waitUntil(lambda: ui.item("helpOverlay").property("visible"), timeout=WAIT_MS)
    _tab_to(ui, "btnHelpStats")
    ui.key(Qt.Key.Key_Space)
    overlay = ui.item("statsOverlay")
    ui.qtbot.waitUntil(lambda: overlay.property("visible"), timeout=WAIT_MS)
    assert ui.item("statsEmpty").isVisible()  # no session has finished yet
    for key in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Backspace, Qt.Key.Key_Down):
        ui.key(key)
    assert ui.bridge.submissions == submitted and ui.bridge.throws == 1
    ui.key(Qt.Key.Key_Escape)
    ui.qtbot.waitUntil(lambda: not overlay.property("visible"), timeout=WAIT_MS)
    assert ui.item("helpOverlay").property("visible")
    ui.key(Qt.Key.Key_Escape)
    ui.qtbot.waitUntil(lambda: not ui.item("helpOverlay").property("visible"), timeout=WAIT_MS)


def test_m_turns_the_sound_off_and_on_over_every_card(make_ui: Any) -> None:
    """A modal card blocks the window's own shortcuts; each card passes M on, so the sound
    key works over Help, Stats and the guide as it does at the table."""
    ui = make_ui(label=b"m-cards")
    extras = extras_of(ui.bridge)
    cards = (
        (ui.bridge.openHelp, "helpOverlay"),
        (extras.openStats, "statsOverlay"),
        (extras.openGuide, "guideOverlay"),
    )
    for open_card, name in cards:
        open_card()
        ui.qtbot.waitUntil(lambda n=name: ui.item(n).property("opened"), timeout=WAIT_MS)
        before = ui.bridge.muted
        ui.key(Qt.Key.Key_M)
        assert ui.bridge.muted is not before, name
        ui.key(Qt.Key.Key_Escape)
        ui.qtbot.waitUntil(lambda n=name: not ui.item(n).property("visible"), timeout=WAIT_MS)


def test_closing_mid_session_asks_and_a_closed_session_is_kept_not_resumed(
    make_ui: Any,
) -> None:
    ui = make_ui(label=b"close")
    extras = extras_of(ui.bridge)
    extras.ask_before_closing = True  # as the app's start turns it on
    ui.key(Qt.Key.Key_Space)
    ui.key(Qt.Key.Key_Return)
    throws = ui.bridge.throws
    assert throws == 1
    ui.window.close()
    overlay = ui.item("closeOverlay")
    ui.qtbot.waitUntil(lambda: overlay.property("visible"), timeout=WAIT_MS)
    assert ui.window.isVisible()
    words = ui.item("closeText").property("text")
    assert "never resumed" in words and "kept in Stats" in words
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "btnCloseCancel", timeout=WAIT_MS)
    ui.key(Qt.Key.Key_Escape)  # cancel: everything as it was
    ui.qtbot.waitUntil(lambda: not overlay.property("visible"), timeout=WAIT_MS)
    assert ui.window.isVisible() and ui.bridge.throws == throws
    assert extras.property("sessions") == []
    ui.window.close()
    ui.qtbot.waitUntil(lambda: overlay.property("visible"), timeout=WAIT_MS)
    ui.click("btnCloseConfirm")
    ui.qtbot.waitUntil(lambda: not ui.window.isVisible(), timeout=WAIT_MS)
    [row] = extras.property("sessions")
    assert row["outcome"] == "Ended without a result" and row["reason"] == LEFT_CLOSED


def test_an_untouched_or_finished_session_closes_at_once(make_ui: Any) -> None:
    for scene in (None, "result"):
        ui = make_ui(scene=scene, label=b"close-at-once")
        extras_of(ui.bridge).ask_before_closing = True
        ui.window.close()
        ui.qtbot.waitUntil(lambda u=ui: not u.window.isVisible(), timeout=WAIT_MS)
        assert not ui.item("closeOverlay").property("visible")


def test_the_app_asks_records_the_closed_session_and_shows_the_guide_once(
    tmp_path: Path,
) -> None:
    env = dict(os.environ, POINTLINE_DATA_DIR=str(tmp_path / "data"), HOME=str(tmp_path))
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), QT_QPA_PLATFORM="offscreen")
    reports = []
    for _ in range(2):
        reports.append(run_json(APP, [], env))
    first, second = reports
    assert first["guide"] is True and second["guide"] is False  # once, on first launch
    for report in reports:
        assert report["throws"] == 1 and report["code"] == 0
        assert report["kept_open"] is True and report["asked"] is True
    saved = _saved(tmp_path)
    assert len(saved) == 2
    assert all(r["reason"] == LEFT_CLOSED and r["throws"] == 1 for r in saved)


def test_choosing_a_session_shows_its_figures_and_chart(make_ui: Any) -> None:
    from pointline.gui.tools.extras_scenes import prepare_extra

    ui = make_ui(label=b"stats-choose")
    prepare_extra(ui.bridge, "stats")  # newest first: complete, left, ended, complete
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "btnSession0", timeout=WAIT_MS)
    submitted = ui.bridge.submissions
    rows = extras_of(ui.bridge).property("sessions")
    assert [r["outcome"] for r in rows] == [
        "Complete",
        "Ended without a result",
        "Ended without a result",
        "Complete",
    ]
    best = max(int(r["final"].replace(",", "")) for r in rows if r["outcome"] == "Complete")
    assert ui.item("statsSummary").property("text") == (
        f"4 sessions, 2 complete · best final points {best:,}"
    )
    ui.key(Qt.Key.Key_Down)
    assert ui.focus_name() == "btnSession1"
    outcome = ui.item("statsOutcome").property("text")
    assert outcome == f"Ended without a result — {LEFT_NEW_SESSION}"
    assert list(ui.item("statsChart").property("samples")) == rows[1]["chart"]
    device = QTest.createTouchDevice()
    row = _find(ui, "btnSession2")  # a row by touch: the third one
    centre = row.mapToScene(QPointF(row.width() / 2, row.height() / 2))
    point = QPoint(round(centre.x()), round(centre.y()))
    QTest.touchEvent(ui.window, device).press(0, point, ui.window)
    QTest.touchEvent(ui.window, device).release(0, point, ui.window)
    ui.qtbot.waitUntil(
        lambda: "the app went to the background" in ui.item("statsOutcome").property("text"),
        timeout=WAIT_MS,
    )
    figures = ui.item("statsFigures").property("text")
    assert f"{rows[2]['hands']} hands resolved" in figures
    assert f"Pass won {rows[2]['winsPass']}" in figures
    assert "ended without a result" in _name(ui, "btnSession2")
    assert ui.bridge.submissions == submitted  # choosing plays nothing


plays = st.lists(
    st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(1, 6), st.integers(1, 6)),
    max_size=60,
)


@given(plays, st.booleans())
def test_a_record_agrees_with_the_kernel_however_the_session_went(
    steps: list[tuple[int, int, int, int]], abort: bool
) -> None:
    from pointline.kernel import Abort, Allocate, Confirm, Roll, Table, Throw

    table = Table(seats=1)
    for pass_units, dont_units, d1, d2 in steps:
        if table.is_over:
            break
        if table.phase is Phase.COME_OUT:
            for line, units in ((Line.PASS, pass_units), (Line.DONT_PASS, dont_units)):
                for _ in range(units):
                    if table.rejection(Allocate(0, line)) is None:
                        table.push(Allocate(0, line))
            table.push(Confirm(0))
        else:
            table.push(Roll(0))
        table.push(Throw(d1, d2))
    if abort and not table.is_over:
        table.push(Abort(EndReason.BACKGROUND, None))
    before = (table.throws, table.phase, table.balance(0))
    record = record_of(table, "prop")
    assert (table.throws, table.phase, table.balance(0)) == before  # the table is untouched
    assert record.throws == table.throws and len(record.chart) == table.throws + 1
    assert record.chart[-1] == record.final_points  # the chart ends where the points do
    assert record.complete == (table.phase is Phase.COMPLETE)
    assert record.hands == table.hands_resolved
    assert record.wins_pass + record.wins_dont_pass <= 2 * record.hands
    assert 0 <= record.longest_point_run <= record.throws
    if table.is_over:
        assert record.final_points == table.balance(0)
    else:  # left mid-hand: what is on the table comes back with no profit
        assert record.final_points == table.balance(0) + table.contracts(0).total
        assert record.reason == LEFT_CLOSED
