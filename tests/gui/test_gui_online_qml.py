"""The online QML keeps one button type and swallows no error (#16 item 6)."""

from __future__ import annotations

import re
from pathlib import Path

ONLINE_QML = Path(__file__).resolve().parents[2] / "gui" / "qml" / "Pointline" / "Online"


def test_no_online_qml_swallows_an_error() -> None:
    for path in sorted(ONLINE_QML.glob("*.qml")):
        source = path.read_text()
        assert not re.search(r"catch\s*\(\s*\w*\s*\)\s*\{\s*\}", source), path.name


def test_the_online_screens_use_the_one_button_type() -> None:
    """Every online button is the shared GameButton: no second button component."""
    names = {p.stem for p in ONLINE_QML.glob("*.qml")}
    assert not [n for n in names if n.endswith("Button")]
    used = set()
    for path in ONLINE_QML.glob("*.qml"):
        used |= set(re.findall(r"\b(\w*Button)\s*\{", path.read_text()))
    assert used == {"GameButton"}
