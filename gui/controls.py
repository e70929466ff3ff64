"""The seat controls the solo and the online bridge share: the line, the action slots, Help.

``SeatControls`` is a mixin, listed before ``QObject`` (``class TableBridge(SeatControls,
QObject)``): PySide6 merges a mixin's Signals, Slots and Properties into the subclass's own
meta-object, so a subclass Property may notify through ``SeatControls.changed``. A QObject base
class would not do: PySide6 resolves a Property's notify signal among the signals of the class
that declares the Property only, so a subclass Property could not notify through a base-class
``changed``.

A subclass provides the seat it acts for, the phase, why an action is refused, how an action is
submitted, the table Allocate is tried on and the seat's ledger.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from pointline.gui.betting import kernel_action
from pointline.gui.history import chart_samples, history_rows
from pointline.kernel import (
    HANDS_PER_SESSION,
    THROW_CAP,
    Action,
    Allocate,
    Line,
    Phase,
    Table,
)

ACTIONS = ("allocate", "confirm", "reset", "reduce", "remove", "roll")

# Qt's own type names for map and list properties. PySide6's stubs accept only a Python type
# here, and ``dict`` would do the same, but PySide6 6.12 then converts a dict of bools with a
# reference-count error that aborts the interpreter at exit. Typed Any on purpose.
QVARIANT_MAP: Any = "QVariantMap"
QVARIANT_LIST: Any = "QVariantList"

if TYPE_CHECKING:
    # For the type checker the mixin is what it always ends up in, a QObject, so
    # ``self.changed`` is a bound SignalInstance; at run time the mixin must stay a plain class
    # (see the module docstring).
    _Mixin = QObject
else:
    _Mixin = object


class SeatControls(_Mixin):
    """The QML-facing controls of one seat; every state property notifies through ``changed``."""

    changed = Signal()
    announced = Signal(str)
    rolled = Signal()

    def __init__(self) -> None:
        super().__init__()
        self._line = Line.PASS
        self._help = False
        self._announcement = ""
        self._notice = ""
        self._dice = (0, 0)
        self._serial = 0

    # ------------------------------------------------------------------ for the subclass
    def _seat_index(self) -> int:
        """The seat this bridge acts for."""
        raise NotImplementedError

    def _phase(self) -> str:
        """The table's phase as QML names it (``Phase.value``)."""
        raise NotImplementedError

    def reason(self, name: str) -> str:
        """Why the action called ``name`` is refused now ("" when it is legal)."""
        raise NotImplementedError

    def _submit(self, name: str) -> bool:
        """Submit the action called ``name``; whether it was taken."""
        raise NotImplementedError

    def _choice_table(self) -> Table | None:
        """The table Allocate is tried on for the per-line reasons (None: none yet)."""
        raise NotImplementedError

    def _ledger(self) -> Any:
        """This seat's ledger entries (None: no seat or table yet)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ helpers
    def _action(self, name: str) -> Action:
        seat = self._seat_index()
        if name == "allocate":
            return Allocate(seat, self._line)
        return kernel_action(seat, name)

    # ------------------------------------------------------------------ properties
    def _line_reasons(self) -> dict[str, str]:
        """Why Allocate is refused on each line now (the table shows it on the felt)."""
        table = self._choice_table()
        if table is None or table.is_over:
            return {"pass": "", "dont_pass": ""}
        seat = self._seat_index()
        out = {}
        for line in Line:
            code = table.rejection(Allocate(seat, line))
            out[line.value] = "" if code is None else code.text
        return out

    def _history(self) -> list[dict[str, str]]:
        """The ledger in words, a heading row before each hand (the list keeps it in sight)."""
        ledger = self._ledger()
        return [] if ledger is None else history_rows(ledger)

    def _chart(self) -> list[int]:
        ledger = self._ledger()
        return [] if ledger is None else chart_samples(ledger)

    phase = Property(str, lambda self: self._phase(), notify=changed)
    hands = Property(int, lambda self: HANDS_PER_SESSION, constant=True)
    throwCap = Property(int, lambda self: THROW_CAP, constant=True)
    selectedLine = Property(str, lambda self: str(self._line.value), notify=changed)
    legal = Property(
        QVARIANT_MAP, lambda self: {n: not self.reason(n) for n in ACTIONS}, notify=changed
    )
    reasons = Property(
        QVARIANT_MAP, lambda self: {n: self.reason(n) for n in ACTIONS}, notify=changed
    )
    lineReasons = Property(QVARIANT_MAP, _line_reasons, notify=changed)
    history = Property(QVARIANT_LIST, _history, notify=changed)
    chart = Property(QVARIANT_LIST, _chart, notify=changed)
    die1 = Property(int, lambda self: self._dice[0], notify=changed)
    die2 = Property(int, lambda self: self._dice[1], notify=changed)
    rollSerial = Property(int, lambda self: self._serial, notify=changed)
    helpOpen = Property(bool, lambda self: self._help, notify=changed)
    announcement = Property(str, lambda self: self._announcement, notify=changed)
    notice = Property(str, lambda self: self._notice, notify=changed)

    # ------------------------------------------------------------------ slots
    @Slot(str)
    def selectLine(self, name: str) -> None:
        """Select a line for Allocate (selection is not a submission)."""
        self._line = Line(name)
        self.changed.emit()

    @Slot()
    def toggleLine(self) -> None:
        self._line = Line.DONT_PASS if self._line is Line.PASS else Line.PASS
        self.changed.emit()

    @Slot(result=bool)
    def allocate(self) -> bool:
        return self._submit("allocate")

    @Slot(result=bool)
    def confirm(self) -> bool:
        return self._submit("confirm")

    @Slot(result=bool)
    def reset(self) -> bool:
        return self._submit("reset")

    @Slot(result=bool)
    def reduceDontPass(self) -> bool:
        return self._submit("reduce")

    @Slot(result=bool)
    def removeDontPass(self) -> bool:
        return self._submit("remove")

    @Slot(result=bool)
    def roll(self) -> bool:
        return self._submit("roll")

    @Slot(str, result=bool)
    def tableKey(self, key: str) -> bool:
        """Space or Enter on the table: allocate/confirm at come-out, roll at the point."""
        if self._phase() == Phase.POINT.value:
            return self.roll()
        return self.allocate() if key == "space" else self.confirm()

    @Slot()
    def openHelp(self) -> None:
        self._help = True
        self.changed.emit()

    @Slot()
    def closeHelp(self) -> None:
        self._help = False
        self.changed.emit()
