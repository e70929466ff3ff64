"""The replay scenes (verdict, mid-hand, the dice derivation, a FAIL) pass the layout check at
every size ``pointline --check-layout`` uses: the phones in phone mode (touch, each size's own
safe-area insets, the design goals: the felt at least half the safe area sideways, Next under the
thumb, no text under 11 pt, contrast 4.5:1), the desktops as desktop windows.

On the old screen (phone mode was not checked) the phones had 398 problems: 392 texts under
11 pt and the felt at 20-22% of the safe area sideways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QObject

from pointline.gui.texts import TEXTS
from pointline.gui.tools.layoutcheck import SIZES, run_check
from pointline.gui.tools.phone import insets_of, is_phone
from pointline.gui.tools.replay_scenes import REPLAY_SCENES, load_scene
from tests.gui.support import WAIT_MS


def test_every_replay_scene_is_clean_at_every_size(qapp: Any) -> None:
    lines: list[str] = []
    problems = run_check(
        SIZES,
        solo_scenes=(),
        online_scenes=(),
        replay_scenes=REPLAY_SCENES,
        out=lines.append,
        modes=("standard",),  # a replay window has no window modes of its own
    )
    assert problems == 0, "\n".join(lines)
    phones = [s for s in SIZES if is_phone(s)]
    assert lines[-1] == (
        f"layout: {len(REPLAY_SCENES)} scenes × ({len(phones)} phone sizes in phone mode + "
        f"{len(SIZES) - len(phones)} desktop sizes × 1 window mode), 0 problems"
    )
    # every phone size measured its design: the main control (Next) under the thumb and, on
    # its side, the felt at least half the safe area
    for scene in ("replay-mid-hand", "replay-fail"):
        for w, h in phones:
            (design,) = [x for x in lines if x.startswith(f"{scene} {w}x{h} phone: design:")]
            assert "main action replayForward" in design and "in the thumb zone" in design
            if w > h:
                felt = int(design.split("felt ")[1].split("%")[0])
                assert felt >= 50, design


@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
def test_a_phone_shows_both_lines_rules_and_opens_the_history_in_a_sheet(
    qapp: Any, qtbot: Any, tmp_path: Path, size: tuple[int, int]
) -> None:
    """Issue 38, finding 8: the replay's felt left out the Pass line's rule text, and its
    'PAYS / 1 : 1' wrapped at phone sizes. On a phone both lines say their rule now, from
    gui/texts.py as the solo felt does, on one or two lines; the history is a sheet."""
    loaded = load_scene("replay-mid-hand", size, tmp_path, mobile=True)
    try:
        loaded.bridge.set_insets(insets_of(size))
        loaded.window.resize(*size)
        point = loaded.bridge.table.property("point")
        for line, key in (("pass", "rulePassPoint"), ("dont_pass", "ruleDontPassPoint")):
            rule = loaded.window.findChild(QObject, f"rule_{line}")
            qtbot.waitUntil(lambda rule=rule: rule.isVisible(), timeout=WAIT_MS)
            assert rule.property("text") == TEXTS[key].replace("{point}", str(point))
            assert not rule.property("truncated")
        sheet = loaded.window.findChild(QObject, "replayHistorySheet")
        loaded.window.findChild(QObject, "replayHistoryButton").activated.emit()
        qtbot.waitUntil(lambda: bool(sheet.property("opened")), timeout=WAIT_MS)
    finally:
        loaded.window.close()
        loaded.engine.deleteLater()
