"""Where a replay opens from: "Watch again" in Stats (a solo session), and an older session
that says plainly it was saved before replays were kept."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject

from pointline.gui.extras import extras_of
from pointline.gui.stats import SessionRecord
from tests.gui.replay.test_replay_screen import _solo_record
from tests.gui.support import WAIT_MS


def _stats_with(ui: Any, record: SessionRecord) -> Any:
    extras = extras_of(ui.bridge)
    extras._memory.append(record)
    extras._reload()
    extras.openStats()
    ui.settle()
    return extras


def test_watch_again_in_stats_opens_the_solo_replay(make_ui: Any) -> None:
    ui = make_ui()
    extras = _stats_with(ui, _solo_record())
    ui.click("btnWatch")
    (opened,) = extras.replays
    replay = opened.bridge
    assert replay.value("verdictWord") == "OK"
    assert "no signatures" in replay.value("vouchText")
    assert replay.value("steps") == 6
    replay.forward()
    assert replay.value("step") == 1
    assert ui.bridge.table.throws == 0  # watching is not playing: the solo table is untouched
    replay.leave()
    ui.qtbot.waitUntil(lambda: extras.replays == [], timeout=WAIT_MS)


def test_an_older_session_says_it_was_saved_before_replays_were_kept(make_ui: Any) -> None:
    ui = make_ui()
    doc = _solo_record().to_json()
    del doc["replay"]
    extras = _stats_with(ui, SessionRecord.from_json(doc))
    ui.click("btnWatch")
    (opened,) = extras.replays
    problem = opened.window.findChild(QObject, "replayProblem")
    assert problem is not None
    assert problem.property("text").startswith("This session was saved before replays were kept")
    opened.bridge.leave()
    ui.qtbot.waitUntil(lambda: extras.replays == [], timeout=WAIT_MS)
