"""One table presenter (issue 38): a Qt-free object is the only source of the table screen's
properties, solo, online and replay alike; ``SeatTable`` declares them once, from its table."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMetaMethod

import pointline.gui
from pointline.gui import presenter as presenter_module
from pointline.gui.presenter import PROPERTIES, TablePresenter, key_action
from pointline.gui.seat_table import SeatTable
from pointline.gui.session import SEAT, SoloSession
from pointline.gui.stats import record_of
from pointline.kernel import Allocate, Confirm, Line, Phase, Roll, Table, Throw
from tests.gui.online_support import game, on_qt_loop, until

GUI = Path(pointline.gui.__file__).parent
TABLE_CODE = ("bridge.py", "online/table.py", "replay/bridge.py")
"""The solo, online and replay table code: none of it may assemble a table property itself."""


def test_the_presenter_loads_no_qt() -> None:
    code = (
        "import sys, pointline.gui.presenter; "
        "qt = sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken'))); "
        "print(qt); raise SystemExit(1 if qt else 0)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_seat_table_declares_each_property_of_the_table_once_with_its_own_signal(
    qapp: Any,
) -> None:
    meta = SeatTable.staticMetaObject
    declared = {
        meta.property(i).name(): meta.property(i)
        for i in range(meta.propertyOffset(), meta.propertyCount())
    }
    assert set(declared) == {*PROPERTIES, "history"}
    signals = {
        bytes(meta.method(i).name().data()).decode()
        for i in range(meta.methodOffset(), meta.methodCount())
        if meta.method(i).methodType() == QMetaMethod.MethodType.Signal
    }
    for name in PROPERTIES:
        assert declared[name].hasNotifySignal(), name
        assert bytes(declared[name].notifySignal().name().data()).decode() == f"{name}Changed"
    assert signals >= {f"{name}Changed" for name in PROPERTIES}
    assert {name: default for name, (_, default) in PROPERTIES.items()} == SeatTable.DEFAULTS


def _table_keywords(path: Path) -> list[str]:
    """Each ``publish(<table property>=...)`` call in ``path`` (line: name)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        if node.func.attr != "publish":
            continue
        found += [f"{node.lineno}: {k.arg}" for k in node.keywords if k.arg in PROPERTIES]
    return found


def test_no_table_code_publishes_a_table_property_itself() -> None:
    """Solo, online and replay publish only what the presenter made (``SeatTable.present``)
    and its constants: no call names a table property. The old bridges published a dozen."""
    found = {name: _table_keywords(GUI / name) for name in TABLE_CODE}
    found["online/seat.py"] = _table_keywords(GUI / "online" / "seat.py")
    assert {name: hits for name, hits in found.items() if hits} == {}


@pytest.fixture
def presented(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, dict[str, Any]]]:
    """The last values each presenter made, by the presenter's id."""
    made: dict[int, dict[str, Any]] = {}
    real = TablePresenter.values

    def spy(self: TablePresenter, *args: Any, **kwargs: Any) -> dict[str, Any]:
        made[id(self)] = out = real(self, *args, **kwargs)
        return out

    monkeypatch.setattr(TablePresenter, "values", spy)
    yield made


def _from_presenter(seat: SeatTable, made: dict[str, Any], texts: dict[str, str]) -> None:
    """Every property of ``seat`` is the presenter's value (its constants included)."""
    expected = {**TablePresenter.constants(texts, seat.value("mobile")), **made}
    assert set(expected) == set(PROPERTIES)
    for name in PROPERTIES:
        assert seat.value(name) == expected[name], name


def test_the_solo_table_shows_only_what_the_presenter_made(
    qapp: Any, presented: dict[int, dict[str, Any]]
) -> None:
    from pointline.gui.bridge import TableBridge
    from pointline.gui.texts import TEXTS

    counter = iter(range(1, 10_000))
    bridge = TableBridge(lambda: next(counter).to_bytes(32, "big"))
    bridge.selectChip(50)
    bridge.placeChip("dont_pass")
    bridge.act("confirm")
    bridge.skipMoment()
    bridge.explain("roll" if bridge.table.phase is Phase.COME_OUT else "confirm")
    _from_presenter(bridge, presented[id(bridge.presenter)], TEXTS)
    assert bridge.value("chip") == 50 and bridge.value("rollSerial") == 1


def test_the_replay_shows_only_what_the_presenter_made(
    qapp: Any, presented: dict[int, dict[str, Any]]
) -> None:
    from pointline.gui.replay.bridge import ReplayBridge
    from pointline.gui.replay.solo import open_solo
    from pointline.gui.texts import TEXTS

    counter = iter(range(1, 10_000))
    session = SoloSession(lambda: next(counter).to_bytes(32, "big"))
    while session.table.throws < 6:
        if session.table.point is None:
            session.submit(Allocate(SEAT, Line.PASS))
            session.submit(Confirm(SEAT))
        else:
            session.submit(Roll(SEAT))
    bridge = ReplayBridge(open_solo(record_of(session.table, "abc", reveals=session.reveals)))
    bridge.forward()
    bridge.forward()
    bridge.table.act("confirm")  # refused: a replay's actions go nowhere
    seat = bridge.table
    _from_presenter(seat, presented[id(bridge.presenter)], TEXTS)
    assert seat.value("rollSerial") == 2 and not any(seat.value("legal").values())


@on_qt_loop()
async def test_the_online_table_shows_only_what_the_presenter_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pointline.gui.online.table import ONLINE_TEXTS

    made: dict[int, dict[str, Any]] = {}
    real = TablePresenter.values

    def spy(self: TablePresenter, *args: Any, **kwargs: Any) -> dict[str, Any]:
        made[id(self)] = out = real(self, *args, **kwargs)
        return out

    monkeypatch.setattr(TablePresenter, "values", spy)
    async with game(tmp_path, size=None) as played:
        bridge = played.bridge
        await until(lambda: bridge.seatTable.legal["allocate"], what="the come-out")
        bridge.seatTable.act("allocate")
        presenter = bridge.table.presenter
        _from_presenter(bridge.seatTable, made[id(presenter)], ONLINE_TEXTS)
        assert bridge.seatTable.draftPass == 10


# ------------------------------------------------------------------ the presenter alone
def test_space_and_enter_are_decided_once() -> None:
    assert key_action(Phase.POINT, "space") == key_action(Phase.POINT, "enter") == "roll"
    assert key_action(Phase.COME_OUT, "space") == "allocate"
    assert key_action(Phase.COME_OUT, "enter") == "confirm"


def _hint(phase: Phase, mobile: bool, chip: int) -> str:
    return f"{phase.value} {chip}"


def test_a_throws_beats_show_the_outcome_then_pay_and_say_it_once() -> None:
    table = Table(seats=1)
    table.push(Allocate(0, Line.PASS))
    table.push(Confirm(0))
    before = table.copy()
    mark = table.ledger_length(0)
    table.push(Throw(3, 4))  # a natural: Pass wins
    entries = table.ledger_since(0, mark)
    p = TablePresenter(_hint)
    assert p.start_throw(before, (3, 4), entries, say="Seven.", status="7.")
    shown = p.values(table, 0, acting=table, stage="rolling", blocked="Wait.")
    assert shown["contractPass"] == 10 and shown["lineOutcomes"] == {}
    assert shown["rollSerial"] == 1 and (shown["die1"], shown["die2"]) == (3, 4)
    assert p.beat("outcome").sound == "win"
    assert p.values(table, 0, acting=table, stage="outcome")["lineOutcomes"] == {"pass": "+10"}
    paid = p.beat("count")
    assert (paid.sound, paid.say, paid.status) == ("", "Seven.", "7.")  # the sound played once
    after = p.values(table, 0, acting=table)
    assert after["balance"] == 1010 and after["lineFlights"] == {"pass": 20}
    assert p.beat("").ended and p.before is None


def test_an_empty_confirm_reads_sit_out_only_when_confirm_would_do_it() -> None:
    table = Table(seats=1)
    p = TablePresenter(_hint)
    assert p.values(table, 0, acting=table)["confirmLabel"] == "Sit out"
    assert p.values(table, 0, acting=table, blocked="Paused.")["confirmLabel"] == "Confirm"
    assert p.arm_sit_out(table, 0) and not p.arm_sit_out(table, 0)
    table.push(Allocate(0, Line.PASS))
    assert p.values(table, 0, acting=table)["confirmLabel"] == "Confirm"


def test_without_a_table_to_act_on_everything_is_refused_and_nothing_is_hinted_on_a_line() -> None:
    p = TablePresenter(_hint, shows_end=False)
    values = p.values(None, -1, acting=None, blocked="A replay.")
    assert set(values) | set(TablePresenter.constants({}, False)) == set(PROPERTIES)
    assert set(values["reasons"].values()) == {"A replay."}
    assert values["lineReasons"] == {"pass": "", "dont_pass": ""} and values["repeatText"] == ""
    assert tuple(values["legal"]) == presenter_module.TABLE_ACTIONS
