"""The online screens size their small texts by one rule, written once (issue 38's seams): a
share of the type size, never under a phone's smallest text. OnlineMain defines ``px`` and
hands it to the sign-in, the lobby, the table and the results; before, each of the four wrote
its own copy. (That the rule holds on phones, 11 pt at least, the layout check's online test
measures: tests/gui/test_gui_layoutcheck.py.)"""

from __future__ import annotations

import re
from pathlib import Path

ONLINE_QML = Path(__file__).resolve().parents[3] / "gui" / "qml" / "Pointline" / "Online"
SCREENS = ("OnlineSignIn", "OnlineLobby", "OnlineTable", "OnlineResults")


def test_px_is_defined_once_and_every_screen_is_handed_it() -> None:
    defined = {
        path.stem: len(re.findall(r"\bfunction px\(", path.read_text(encoding="utf-8")))
        for path in ONLINE_QML.glob("*.qml")
    }
    assert {name: n for name, n in defined.items() if n} == {"OnlineMain": 1}
    main = (ONLINE_QML / "OnlineMain.qml").read_text(encoding="utf-8")
    for screen in SCREENS:
        (line,) = [x for x in main.splitlines() if x.strip().startswith(screen + " {")]
        assert "px: root.px" in line, line
        own = (ONLINE_QML / f"{screen}.qml").read_text(encoding="utf-8")
        assert "required property var px" in own and "screen.px(" in own, screen
