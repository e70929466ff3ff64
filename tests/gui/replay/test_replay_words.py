"""The replay's words (issue 38, finding 8): why a file cannot be opened, thousands separators,
sums that never wrap inside themselves, no Left/Right offered with nothing to step through, and
"Leave replay" centred under the reason at its own width.

On 7617d3d: a missing file said only "This file cannot be opened.", the seat lines said "1000",
the sums held plain spaces ("4 + 4 / = 8" at a phone's width), the footer offered Left/Right
with no throw, and Leave replay was squashed to 48 px at the window's left.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QPointF

from pointline.gui.history import history_rows
from pointline.gui.replay.app import load_replay
from pointline.gui.replay.bridge import bridge_for
from pointline.gui.replay.words import REPLAY_TEXTS, sum_words
from pointline.gui.texts import TEXTS
from tests.gui.replay.test_replay_screen import CASES, GENUINE, _write
from tests.gui.support import WAIT_MS

NBSP = "\u00a0"


def test_a_file_that_cannot_be_opened_says_why(tmp_path: Path) -> None:
    missing = bridge_for(tmp_path / "gone.jsonl").value("problem")
    assert missing.startswith("This file cannot be opened: ") and "no file there" in missing
    folder = bridge_for(tmp_path).value("problem")
    assert "a folder" in folder
    for words in (missing, folder):  # never the system's own error text
        assert "Errno" not in words and str(tmp_path) not in words


def test_numbers_have_their_thousands_separator_and_sums_hold_together(tmp_path: Path) -> None:
    bridge = bridge_for(_write(tmp_path, GENUINE))
    rows = [row["text"] for row in bridge.value("players")]
    assert all("1,000" in text for text in rows), rows  # before the first throw: 1,000 each
    assert not any("1000" in text for text in rows)
    bridge.forward()
    title = bridge.value("throwTitle")
    sum_part = title.rsplit(" · ", 1)[1]
    assert " " not in sum_part and sum_part.count(NBSP) == 4, title
    assert sum_words(4, 4) == f"4{NBSP}+{NBSP}4{NBSP}={NBSP}8"
    session = bridge.session
    assert session is not None and session.throws
    ledger = session.table_at(len(session.throws)).seat(session.me).ledger
    texts = [row["text"] for row in history_rows(ledger) if row["kind"] in ("throw", "change")]
    assert any("+" in text for text in texts)
    for text in texts:
        assert " + " not in text and " = " not in text and " → " not in text, text
    assert TEXTS["rulePassComeOut"].endswith(f"pays{NBSP}1:1")  # the felt's rule never wraps
    # the seat lines hold each line's name to its amount; the dice panel holds its sums
    assert all(f"Don't{NBSP}Pass{NBSP}" in text for text in rows), rows
    panel = [row["text"] for row in bridge.value("derivation") if row["kind"] == "byte"]
    assert panel and all(" mod " not in t and f"mod{NBSP}6{NBSP}+{NBSP}1" in t for t in panel)


def test_no_left_right_offered_with_no_throw_to_step_through(tmp_path: Path) -> None:
    # a session that ended before its first throw, and one whose chain breaks at once
    names = ("genuine.ended.deadline_confirm.victim", "tampered.unchained.header_edited")
    for case in (c for c in CASES if c["name"] in names):
        bridge = bridge_for(_write(tmp_path, case, f"{case['name']}.jsonl"))
        assert not bridge.value("problem") and bridge.value("steps") == 0, case["name"]
        assert bridge.value("keysHint") == REPLAY_TEXTS["keysNoThrows"], case["name"]
        assert "Left/Right" not in bridge.value("keysHint")


def test_a_failing_throw_shows_the_recorded_dice_beside_the_derived(tmp_path: Path) -> None:
    """On 7617d3d a transcript failing at throw 1 showed "No throw to show." although its
    verdict spoke of recorded and derived dice."""
    (case,) = [c for c in CASES if c["name"] == "tampered.throw.dice_changed"]
    bridge = bridge_for(_write(tmp_path, case))
    assert bridge.value("verdictWord") == "FAIL" and bridge.value("steps") == 1
    assert "Left/Right" in bridge.value("keysHint")
    bridge.forward()
    title = bridge.value("throwTitle")
    assert f"1{NBSP}+{NBSP}5{NBSP}={NBSP}6 derived · the file says 2 and 5" in title, title
    assert "dice 2 and 5" in bridge.value("verdictSentence")  # the verdict's own words agree


def test_leave_replay_is_centred_at_its_own_width(qapp: Any, qtbot: Any, tmp_path: Path) -> None:
    loaded = load_replay(bridge_for(tmp_path / "gone.jsonl"), (390, 844))
    loaded.window.show()
    try:
        button = loaded.window.findChild(QObject, "replayProblemLeave")
        assert button is not None

        def centred() -> bool:
            middle = button.mapToScene(QPointF(button.width() / 2, 0)).x()
            return abs(middle - loaded.window.width() / 2) < 2

        qtbot.waitUntil(lambda: loaded.window.isExposed(), timeout=WAIT_MS)
        qtbot.waitUntil(centred, timeout=WAIT_MS)  # laid out at the window's own size
        assert button.width() >= button.property("implicitContentWidth") > 48
    finally:
        loaded.window.close()
        loaded.engine.deleteLater()
