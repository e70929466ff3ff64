"""Where a replay opens from: "Watch again" in Stats (a solo session), and an older session
that says plainly it was saved before replays were kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QUrl

from pointline.gui.extras import extras_of
from pointline.gui.stats import SessionRecord
from tests.gui.replay.test_replay_screen import GENUINE, _solo_record
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
    replay = opened
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
    problem = ui.window.findChild(QObject, "replayProblem")
    assert problem is not None
    assert problem.property("text").startswith("This session was saved before replays were kept")
    opened.leave()
    ui.qtbot.waitUntil(lambda: extras.replays == [], timeout=WAIT_MS)


def test_the_desktop_picker_watches_the_chosen_transcript(make_ui: Any, tmp_path: Path) -> None:
    ui = make_ui()
    extras = _stats_with(ui, _solo_record())
    assert ui.window.findChild(QObject, "replayPicker") is None  # loaded when asked for
    ui.click("btnOpenReplay")
    picker = ui.window.findChild(QObject, "replayPicker")
    assert picker is not None  # Qt's own FileDialog (QtQuick.Dialogs)
    assert picker.property("title") == "Open a saved session…"
    picker.close()
    path = tmp_path / "t.jsonl"
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write(GENUINE["input"]["transcript"])
    extras.watchFile(QUrl.fromLocalFile(str(path)).toString())  # what the dialog's accept calls
    (opened,) = extras.replays
    assert opened.value("verdictWord") == "OK" and opened.value("steps") == 7
    opened.leave()
    ui.qtbot.waitUntil(lambda: extras.replays == [], timeout=WAIT_MS)


def test_stats_lists_the_transcripts_folder_for_a_phone(
    make_ui: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setenv("POINTLINE_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "data" / "transcripts"
    folder.mkdir(parents=True)
    (folder / "t0-seat1-20261206T045600Z.jsonl").write_text(
        GENUINE["input"]["transcript"], encoding="utf-8"
    )
    (folder / "odd<b>.jsonl").write_text("x", encoding="utf-8")
    (folder / "notes.txt").write_text("x", encoding="utf-8")
    ui = make_ui()
    extras = _stats_with(ui, _solo_record())
    (saved,) = extras.savedTranscripts()
    assert saved["label"] == "t0-seat1-20261206T045600Z"
    extras.watchFile(saved["path"])
    (opened,) = extras.replays
    assert opened.value("verdictWord") == "OK"
    opened.leave()
    ui.qtbot.waitUntil(lambda: extras.replays == [], timeout=WAIT_MS)
