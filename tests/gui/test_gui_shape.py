"""The GUI's shape (issue 31): the seat view is built once for solo and online, QML decides no
rule (it compares no phase and writes no rule's number), and no QObject is split over modules
(no mixins, no ``NotImplementedError`` stubs)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from typing import Any

import pytest

import pointline.gui
import pointline.gui.bridge as solo_bridge
import pointline.gui.online.table as online_table
from pointline.gui import presenter
from pointline.gui.betting import CHIP_VALUES
from pointline.gui.seat_view import seat_view
from pointline.gui.session import SEAT
from pointline.kernel import HAND_LIMIT, HANDS_PER_SESSION, STARTING_POINTS, THROW_CAP, UNIT

GUI = Path(pointline.gui.__file__).parent
QML_FILES = sorted((GUI / "qml").rglob("*.qml"))
RULE_NUMBERS = {THROW_CAP, HANDS_PER_SESSION, HAND_LIMIT, UNIT, STARTING_POINTS, *CHIP_VALUES}
LAYOUT = re.compile(
    r"^\s*[\w.]*(width|height|Width|Height|margins?|Margin|spacing|Spacing|radius|pixelSize|"
    r"PixelSize|duration|opacity|interval|padding|Padding|size|Size|lineWidth|z|columns|rows|maximumLineCount)\s*:"
)
"""A line that sets a size, a spacing or a duration: its numbers are layout, not rules."""
NOT_RULES = {
    ("Die.qml", "[0, 2, 3, 5, 6, 8]"): "the pips of a six in a 3x3 grid",
    ("OnlineTable.qml", "secondsLeft <= 10"): "the countdown turns red in its last seconds",
    ("LineArea.qml", "< area.fs * 10"): "a line's title wants about ten ems beside its outcome",
    ("TableView.qml", "view.tight ? 5"): "the status takes five lines in a small phone's column",
}
"""Numbers that equal a rule's but are drawing choices (each says why)."""


def _code(path: Path) -> list[tuple[int, str]]:
    """The file's lines without ``//`` comments (a ``//`` inside a string stays)."""
    lines = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code = re.sub(r'("(?:[^"\\]|\\.)*")|//.*', lambda m: m.group(1) or "", line)
        lines.append((number, code))
    return lines


def test_qml_compares_no_phase() -> None:
    compares = re.compile(
        r"\bphase\b\s*[!=]==?|[!=]==?\s*[\w.]*\bphase\b|[!=]==?\s*\"(come_out|point)\""
    )
    found = [
        f"{path.name}:{number}: {code.strip()}"
        for path in QML_FILES
        for number, code in _code(path)
        if compares.search(code)
    ]
    assert found == []


def test_qml_writes_no_rule_number() -> None:
    found = []
    for path in QML_FILES:
        for number, code in _code(path):
            if LAYOUT.search(code) or any(
                path.name == name and snippet in code for name, snippet in NOT_RULES
            ):
                continue
            for literal in re.finditer(r"(?<![\w.#])\d+(?![\w.])", code):
                if int(literal.group()) in RULE_NUMBERS:
                    found.append(f"{path.name}:{number}: {code.strip()}")
    assert found == []


def test_the_rule_number_check_finds_a_planted_literal(tmp_path: Path) -> None:
    planted = tmp_path / "Planted.qml"
    planted.write_text('Text { text: "Hand " + hand + "/5"; width: 100 }\n', encoding="utf-8")
    hits = [
        literal.group()
        for _, code in _code(planted)
        for literal in re.finditer(r"(?<![\w.#])\d+(?![\w.])", code)
        if not LAYOUT.search(code) and int(literal.group()) in RULE_NUMBERS
    ]
    assert hits == ["5", "100"]  # the rule number in a string, and this line is not layout


def _gui_modules() -> list[Any]:
    modules = []
    for info in pkgutil.walk_packages(pointline.gui.__path__, "pointline.gui."):
        modules.append(importlib.import_module(info.name))
    return modules


def test_no_not_implemented_stub_in_the_gui() -> None:
    stubs = []
    for path in sorted(GUI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and "NotImplementedError" in ast.unparse(node):
                stubs.append(f"{path.relative_to(GUI)}:{node.lineno}")
    assert stubs == []


def test_no_qobject_is_split_over_modules() -> None:
    """A QObject's methods are its own class's or a complete QObject base's: no plain mixin."""
    from PySide6.QtCore import QObject

    split = []
    for module in _gui_modules():
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__ or not issubclass(cls, QObject):
                continue
            for base in cls.__mro__[1:]:
                ours = base.__module__.startswith("pointline.")
                if ours and not issubclass(base, QObject):
                    split.append(f"{cls.__qualname__} mixes in {base.__module__}.{base.__name__}")
    assert split == []


def test_solo_and_online_build_the_seat_view_with_the_same_function(
    qapp: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both build it through the one table presenter (gui/presenter.py, issue 38)."""
    from pointline.gui.bridge import TableBridge
    from pointline.gui.online.bridge import OnlineBridge

    assert solo_bridge.TablePresenter is online_table.TablePresenter is presenter.TablePresenter
    calls: list[str] = []

    def spy(table: Any, seat: int, drafts: Any = None) -> Any:
        calls.append("online" if seat < 0 else "solo")
        return seat_view(table, seat, drafts)

    monkeypatch.setattr(presenter, "seat_view", spy)
    solo = TableBridge()
    online = OnlineBridge()  # before a session: no seat
    assert "solo" in calls and "online" in calls
    # what each publishes is that view, property by property
    for name, value in seat_view(solo.shown, SEAT).values().items():
        assert solo.value(name) == value, name
    for name, value in seat_view(None, -1).values().items():
        assert online.seatTable.value(name) == value, name
