"""Where a replay opens from: "Watch again" in Stats (a solo session), and an older session
that says plainly it was saved before replays were kept."""

from __future__ import annotations

import json
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
    # named by its date (the header's start) and result, never by its file name (issue 39;
    # the old row read "t0-seat1-20261206T045600Z")
    assert saved["label"] == "1 Jan 1970, 00:16 UTC · 2nd of 3, 990\u00a0points", saved
    extras.watchFile(saved["path"])
    (opened,) = extras.replays
    assert opened.value("verdictWord") == "OK"
    opened.leave()
    ui.qtbot.waitUntil(lambda: extras.replays == [], timeout=WAIT_MS)


def test_a_saved_rows_name_says_its_result_or_why_it_has_none(tmp_path: Path) -> None:
    from pointline.gui.extras import saved_row

    def row(*records: dict[str, Any]) -> str:
        path = tmp_path / "t.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        return saved_row(path)["label"]

    header = {"kind": "header", "body": {"seat": 1, "started_at": 1796550420.0}}
    won = {"kind": "outcome", "body": {"status": "complete", "final": [900, 1200], "ranks": [2, 1]}}
    ended = {"kind": "outcome", "body": {"status": "ended", "final": [1000, 1000]}}
    assert row(header, won) == "6 Dec 2026, 09:47 UTC · 1st of 2, 1,200\u00a0points"
    assert row(header, ended) == "6 Dec 2026, 09:47 UTC · ended without a result"
    assert row(header) == "6 Dec 2026, 09:47 UTC · not finished"
    forged = {"kind": "outcome", "body": {"status": "complete", "final": [9], "ranks": ["1"]}}
    assert row(header, forged).endswith(" · not finished")  # nothing odd is shown as a result
    assert saved_row(tmp_path / "gone.jsonl")["label"] == "cannot be read"
