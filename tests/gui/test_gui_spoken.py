"""Issue 40: what a screen reader is told, in the status line's words, once per change.

The words the bridge sends to the announcer (``TableBridge.announced``; Announcer.qml says each
once): the balance after each resolved hand, a withdrawal refund with the roll that seals it, and
each guide step the focus does not move to. The real screen reader hears them in
tests/realinput/test_orca.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings

from pointline.gui.bridge import TableBridge
from pointline.gui.extras import GUIDE_STEPS, extras_of
from pointline.gui.tools.moves import counter_nonces, draft
from pointline.kernel import Phase


def _bridge(tmp_path: Path, label: bytes) -> tuple[TableBridge, list[str]]:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("reduceMotion", True)  # each throw's result at once
    bridge = TableBridge(counter_nonces(label), settings=settings)
    said: list[str] = []
    bridge.announced.connect(said.append)
    return bridge, said


def test_a_resolved_hand_says_the_balance(qapp: Any, tmp_path: Path) -> None:
    bridge, said = _bridge(tmp_path, b"spoken")
    draft(bridge, 30, 0)
    bridge.act("confirm")
    while bridge.table.hands_resolved == 0:
        bridge.act("roll")
    balance = bridge.table.balance(0)
    assert balance != 1000  # the hand moved it: the sentence says the new one
    resolved = [s for s in said if "resolved" in s]
    assert resolved == [said[-1]]
    assert f"Hand 1 resolved; balance {balance:,}; come-out for hand 2." in said[-1]


def test_a_refund_is_said_with_the_roll_that_seals_it(qapp: Any, tmp_path: Path) -> None:
    bridge, said = _bridge(tmp_path, b"refund")
    for label in range(50):  # a come-out that sets a point (the labels are reproducible)
        bridge, said = _bridge(tmp_path / str(label), f"refund{label}".encode())
        draft(bridge, 0, 30)
        bridge.act("confirm")
        if bridge.table.phase is Phase.POINT:
            break
    assert bridge.table.phase is Phase.POINT
    bridge.act("reduce")
    said.clear()
    bridge.act("roll")
    # the dice first (what a listener waits for), then the refund this roll sealed
    assert re.match(
        r"Rolled \d and \d, total \d+\. Don't Pass 10 refunded \(no profit\)\.", said[0]
    )


def test_each_guide_step_is_said_once(qapp: Any, tmp_path: Path) -> None:
    bridge, said = _bridge(tmp_path, b"guide")
    extras = extras_of(bridge)
    extras.openGuide()
    for step in range(2, len(GUIDE_STEPS) + 1):
        extras.nextGuide()
        title, text = GUIDE_STEPS[step - 1]["title"], GUIDE_STEPS[step - 1]["text"]
        assert said[-1] == f"Guide, step {step} of {len(GUIDE_STEPS)}: {title}. {text}"
    extras.backGuide()
    assert said[-1].startswith(f"Guide, step {len(GUIDE_STEPS) - 1} of")
    assert len(said) == len(GUIDE_STEPS)  # steps 2..N, then back once: one line each
