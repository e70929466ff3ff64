"""One window (issue 38): solo, online, hosting and the replay are screens of one frame.

Each test counts the top-level windows the app made (``QGuiApplication.topLevelWindows``, hidden
ones too): exactly one, the frame, whatever screen is shown. On 7617d3d Stats' Watch opened a
second window (the replay's), Play online a second one (the solo window hidden behind it), and
the replay's window was fixed at 1280x720 whatever ``--size`` said.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QPointF, Qt
from PySide6.QtGui import QGuiApplication

from pointline.gui.extras import extras_of
from pointline.gui.online.app import open_online
from pointline.gui.tools.scenes import counter_nonces
from tests.gui.online.test_gui_online_hosted import host_a_table
from tests.gui.online_support import FAST, Window, on_qt_loop, until
from tests.gui.replay.test_replay_screen import _solo_record
from tests.gui.support import WAIT_MS

REPLAY_CONTROLS = (
    "replayFirst",
    "replayBack",
    "replayPlay",
    "replayForward",
    "replayLast",
    "replayHand",
    "replayHowMade",
    "replayLeave",
)


def windows_made(before: set[Any]) -> list[Any]:
    """The app's top-level windows that were not there ``before`` (other tests' are gone or
    hidden, but never counted)."""
    return [w for w in QGuiApplication.topLevelWindows() if w not in before]


def inside(window: Any, item: Any) -> bool:
    """Whether ``item`` is shown wholly inside ``window`` (reachable by a pointer)."""
    top_left = item.mapToScene(QPointF(0, 0))
    return (
        item.isVisible()
        and top_left.x() >= 0
        and top_left.y() >= 0
        and top_left.x() + item.width() <= window.width() + 0.5
        and top_left.y() + item.height() <= window.height() + 0.5
    )


def test_stats_watch_opens_the_replay_in_the_same_window_and_back_to_solo_as_it_was(
    make_ui: Any,
) -> None:
    before = set(QGuiApplication.topLevelWindows())
    ui = make_ui((390, 844))
    assert windows_made(before) == [ui.window]
    ui.bridge.selectLine("pass")
    assert ui.bridge.act("allocate")  # a draft: kept while the replay is watched
    extras = extras_of(ui.bridge)
    extras._memory.append(_solo_record())
    extras._reload()
    extras.openStats()
    ui.settle()
    ui.click("btnWatch")
    (replay,) = extras.replays
    assert windows_made(before) == [ui.window]  # the replay is a screen, not a window
    assert ui.window.property("screen") == "replay"
    ui.frames()
    for name in REPLAY_CONTROLS:  # every control on screen at a phone's portrait size
        assert inside(ui.window, ui.item(name)), name
    ui.qtbot.waitUntil(lambda: ui.focus_name() == "replayPlay", timeout=WAIT_MS)
    ui.key(Qt.Key.Key_Right)  # the replay's keys, not the table's
    assert replay.value("step") == 1 and ui.bridge.value("selectedLine") == "pass"
    ui.resize(844, 390)  # a phone on its side: still every control
    for name in REPLAY_CONTROLS:
        assert inside(ui.window, ui.item(name)), name
    ui.key(Qt.Key.Key_Escape)  # pauses the replay (not the solo table below it)
    ui.qtbot.waitUntil(lambda: replay.value("paused"), timeout=WAIT_MS)
    ui.frames()
    ui.click("replayPauseLeave")  # leaves the replay
    ui.qtbot.waitUntil(lambda: extras.replays == [], timeout=WAIT_MS)
    assert ui.window.property("screen") == "solo" and not ui.bridge.paused
    ui.qtbot.waitUntil(lambda: ui.item("statsOverlay").property("opened"), timeout=WAIT_MS)
    assert extras.statsOpen  # back to Stats, as it was, the draft kept
    assert ui.bridge.table.draft(0).total == 10
    assert windows_made(before) == [ui.window]


@on_qt_loop(timeout=60)
async def test_play_online_and_hosting_stay_in_the_one_window(qapp: Any, tmp_path: Path) -> None:
    from pointline.gui.app import load
    from pointline.gui.bridge import TableBridge

    before = set(QGuiApplication.topLevelWindows())
    solo = load(TableBridge(counter_nonces(b"solo")), (844, 390))
    solo.window.show()
    left: list[bool] = []
    opened = open_online(
        qapp,
        "ws://127.0.0.1:1",
        None,
        lambda: left.append(True),
        frame=solo.window,
        timeouts=FAST,
        nonce_source=counter_nonces(b"host"),
    )
    try:
        bridge = opened.bridge
        bridge.host.folder, bridge.host.address = tmp_path / "host", "127.0.0.1"
        bridge.host.announce = False
        assert opened.window is solo.window
        assert windows_made(before) == [solo.window]
        await until(lambda: solo.window.property("screen") == "online", what="online on top")
        ui = Window.around(opened)
        await host_a_table(ui, "hoster")  # hosting: a table on this device, same window
        assert windows_made(before) == [solo.window]
        found = solo.window.findChild(QObject, "onlineRoot")
        assert found is not None and found.property("visible")
    finally:
        await opened.bridge.shutdown()
        solo.window.close()
        solo.engine.deleteLater()


def test_closing_the_window_from_a_replay_asks_the_solo_question_first(make_ui: Any) -> None:
    ui = make_ui()
    ui.key(Qt.Key.Key_Space)
    ui.key(Qt.Key.Key_Return)  # a session in play: closing asks first
    ui.qtbot.waitUntil(lambda: ui.bridge.throws == 1, timeout=WAIT_MS)
    extras = extras_of(ui.bridge)
    extras.ask_before_closing = True  # as the app's start turns it on
    extras._memory.append(_solo_record())
    extras._reload()
    extras.watch(0)
    assert ui.window.property("screen") == "replay"
    ui.window.close()  # refused: the replay leaves and the solo table asks
    ui.qtbot.waitUntil(lambda: ui.window.property("screen") == "solo", timeout=WAIT_MS)
    assert ui.window.isVisible() and extras.closeQuestion.asked
    ui.qtbot.waitUntil(lambda: ui.item("closeOverlay").property("opened"), timeout=WAIT_MS)


def test_m_in_a_replay_mutes_the_whole_window_through_its_shell(make_ui: Any) -> None:
    """Issue 38: one shell carries the sound. M in a replay opened from Stats turns the sound
    off for the window (the solo table below shows it muted when it is back) and M again turns
    it on; before, the replay flipped the sound behind the shell's back, so the table's
    ``muted`` never changed."""
    ui = make_ui()
    extras = extras_of(ui.bridge)
    extras._memory.append(_solo_record())
    extras._reload()
    was = bool(ui.bridge.property("muted"))
    extras.watch(0)
    (replay,) = extras.replays
    ui.settle()
    replay.toggleMute()
    assert replay.value("muted") is (not was)
    assert ui.bridge.shell.muted_now is (not was) and bool(ui.bridge.property("muted")) is (not was)
    replay.toggleMute()
    assert replay.value("muted") is was and bool(ui.bridge.property("muted")) is was
