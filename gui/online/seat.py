"""My seat at the online table as the shared table view shows it: a ``SeatTable``.

``TableView.qml`` is fed through this object exactly as the solo table is fed through the solo
``TableBridge``: the online table (``OnlineTable``, gui/online/table.py) publishes the peer's
shared table (dice, point, phase) and my local draft into it (``SeatTable.publish``, one notify
signal per property), and the view's slots come back here and go to it, which applies them to
my draft and commits through ``RelayClient``. Nothing here decides a rule: the kernel does, on
the draft.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject, Slot
from PySide6.QtQml import QmlElement, QmlUncreatable

from pointline.gui.seat_table import SeatTable

__all__ = ["OnlineSeat", "SeatOwner"]

QML_IMPORT_NAME = "Pointline.Seat"
QML_IMPORT_MAJOR_VERSION = 1


class SeatOwner(Protocol):
    """What the seat's slots go to (``OnlineTable``, the bridge's ``table``)."""

    def seat_act(self, name: str) -> bool: ...

    def seat_key(self, key: str) -> bool: ...

    def seat_place(self, line: str) -> bool: ...

    def seat_select_line(self, line: str) -> None: ...

    def seat_select_chip(self, amount: int) -> None: ...

    def seat_explain(self, action: str) -> None: ...

    def seat_skip(self) -> None: ...


@QmlElement
@QmlUncreatable("The online bridge owns it.")
class OnlineSeat(SeatTable):  # type: ignore[operator]  # PySide6 stubs: decorator
    """My seat at the online table (see ``SeatTable`` for what the view reads)."""

    def __init__(self, owner: SeatOwner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._owner = owner

    @Slot(str, result=bool)
    def act(self, name: str) -> bool:
        return self._owner.seat_act(name)

    @Slot(str, result=bool)
    def tableKey(self, key: str) -> bool:
        return self._owner.seat_key(key)

    @Slot()
    def keyReleased(self) -> None:
        """Online a press acts once (auto-repeat never reaches the table): nothing to do."""

    @Slot(str, result=bool)
    def placeChip(self, line: str) -> bool:
        return self._owner.seat_place(line)

    @Slot(result=bool)
    def repeatLastBet(self) -> bool:
        return self._owner.seat_act("repeat")

    @Slot(str)
    def explain(self, action: str) -> None:
        self._owner.seat_explain(action)

    @Slot()
    def skipMoment(self) -> None:
        """A tap on the felt during a throw's result: it shows at once (never a submission)."""
        self._owner.seat_skip()

    @Slot(str)
    def selectLine(self, name: str) -> None:
        if name not in ("pass", "dont_pass"):
            raise ValueError(f"a line is 'pass' or 'dont_pass', not {name!r}")
        self._owner.seat_select_line(name)

    @Slot(int)
    def selectChip(self, amount: int) -> None:
        if amount not in self.value("chipValues"):
            raise ValueError(f"a chip is one of {self.value('chipValues')}, not {amount!r}")
        self._owner.seat_select_chip(amount)
