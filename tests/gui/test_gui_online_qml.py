"""The online QML keeps one button type, and no QML swallows an error (#16 item 6)."""

from __future__ import annotations

import re
from pathlib import Path

ONLINE_QML = Path(__file__).resolve().parents[2] / "gui" / "qml" / "Pointline" / "Online"


def test_no_qml_swallows_an_error() -> None:
    for path in sorted(ONLINE_QML.parent.rglob("*.qml")):  # the solo window's and online
        source = path.read_text()
        assert not re.search(r"catch\s*\(\s*\w*\s*\)\s*\{\s*\}", source), path.name


def test_the_online_screens_use_the_one_button_type() -> None:
    """Every online button is the shared GameButton (or a shared button of every screen, which is
    a GameButton with its words): no second button component."""
    names = {p.stem for p in ONLINE_QML.glob("*.qml")}
    assert not [n for n in names if n.endswith("Button")]
    used = set()
    for path in ONLINE_QML.glob("*.qml"):
        used |= set(re.findall(r"\b(\w*Button)\s*\{", path.read_text()))
    assert "GameButton" in used
    for name in used - {"GameButton"}:
        shared = (ONLINE_QML.parent / f"{name}.qml").read_text()
        assert re.search(r"^GameButton \{", shared, re.MULTILINE), name


def test_no_context_property_reaches_qml() -> None:
    """The bridges reach QML as registered types handed over as required properties (#16 item 5),
    never as context properties."""
    gui = ONLINE_QML.parents[2]
    for path in sorted(gui.rglob("*.py")):
        assert "setContextProperty" not in path.read_text(encoding="utf-8"), path.name
