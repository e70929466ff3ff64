"""``SeatTable``: the one interface ``TableView.qml`` (felt, point boxes, dice, lines, buttons,
history) is fed through, solo and online alike.

Every property has its own notify signal, emitted by ``publish`` only when the value really
changed: nothing polls, and a change to the balance does not make QML re-read 30 other
properties. The history is a ``HistoryModel`` (a ``QAbstractListModel``) updated in place.

The properties are declared once, from the table presenter's table (``gui.presenter.
PROPERTIES``: each property's type, default and meaning), one notify signal each; their values
come from the presenter only (``present(TablePresenter.values(...))``, plus its ``constants``
once), solo, online and replay alike. ``history`` (a ``HistoryModel`` with the roles ``kind``,
``text`` and ``hand``) is set with ``set_history``. A subclass decides where actions go: it
defines the slots ``act(name)``, ``tableKey(key)`` (``"space"`` or ``"enter"`` on the table),
``keyReleased()``, ``placeChip(line)``, ``repeatLastBet()`` and ``explain(action)``, and may
extend ``selectLine`` and ``selectChip``; ``publish`` is for a subclass's own extra properties.
"""

from __future__ import annotations

from typing import Any, ClassVar

from PySide6.QtCore import (
    Property,
    QAbstractListModel,
    QByteArray,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtQml import QmlElement, QmlUncreatable

from pointline.gui.presenter import PROPERTIES

__all__ = [
    "QVARIANT_LIST",
    "QVARIANT_MAP",
    "HistoryModel",
    "SeatTable",
    "declare",
    "state_property",
]

# Qt's own type names for map and list properties. PySide6's stubs accept only a Python type
# here, and ``dict`` would do the same, but PySide6 6.12 then converts a dict of bools with a
# reference-count error that aborts the interpreter at exit. Typed Any on purpose.
QVARIANT_MAP: Any = "QVariantMap"
QVARIANT_LIST: Any = "QVariantList"

QML_IMPORT_NAME = "Pointline.Seat"
QML_IMPORT_MAJOR_VERSION = 1

_ROLES = (b"kind", b"text", b"hand")
_Index = QModelIndex | QPersistentModelIndex


@QmlElement
@QmlUncreatable("From a SeatTable.")
class HistoryModel(QAbstractListModel):  # type: ignore[operator]  # PySide6 stubs: decorator
    """The seat's ledger in words, one row per line; a heading row (kind "hand") per hand."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[dict[str, str]] = []

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's own default)
        return 0 if parent.isValid() else len(self._rows)

    def roleNames(self) -> dict[int, QByteArray]:
        base = int(Qt.ItemDataRole.UserRole)
        return {base + i: QByteArray(name) for i, name in enumerate(_ROLES)}

    def data(self, index: _Index, role: int = int(Qt.ItemDataRole.DisplayRole)) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == int(Qt.ItemDataRole.DisplayRole):
            return row["text"]
        number = role - int(Qt.ItemDataRole.UserRole)
        return row[_ROLES[number].decode()] if 0 <= number < len(_ROLES) else None

    @property
    def rows(self) -> list[dict[str, str]]:
        """A copy of the rows (kind, text, hand)."""
        return [dict(r) for r in self._rows]

    @Slot(int, result=QVARIANT_MAP)
    def row(self, index: int) -> dict[str, str]:
        """One row for QML (an empty map outside the list)."""
        return dict(self._rows[index]) if 0 <= index < len(self._rows) else {}

    def set_rows(self, rows: list[dict[str, str]]) -> None:
        """Replace the rows; a ledger only grows, so appended rows are inserted, not reset."""
        keep = len(self._rows)
        if rows[:keep] == self._rows and len(rows) >= keep:
            if len(rows) > keep:
                self.beginInsertRows(QModelIndex(), keep, len(rows) - 1)
                self._rows = [dict(r) for r in rows]
                self.endInsertRows()
            return
        self.beginResetModel()
        self._rows = [dict(r) for r in rows]
        self.endResetModel()

    def __len__(self) -> int:
        return len(self._rows)


def state_property(kind: Any, name: str, signal: Any) -> Any:
    """A read-only property backed by ``self._values[name]``, notifying through ``signal``.

    A subclass adding properties declares the signal and the property in its own class body
    (PySide6 looks a property's notify signal up in the declaring class) and adds the name
    with its default to its ``DEFAULTS``.
    """
    return Property(kind, lambda self: self._values[name], notify=signal)


def _qt_kind(kind: type) -> Any:
    """The Qt type a property of ``kind`` is declared with (maps and lists as Qt's variants)."""
    if kind is dict:
        return QVARIANT_MAP
    return QVARIANT_LIST if kind is list else kind


def declare(namespace: dict[str, Any], table: dict[str, tuple[type, Any]]) -> dict[str, Any]:
    """Declare, in a class body (``DEFAULTS = declare(vars(), {...})``), one notify signal
    ``<name>Changed`` and one read-only property per row of ``table`` (name: its Python type
    and default; dict and list become Qt's maps and lists); returns the defaults."""
    for name, (kind, _) in table.items():
        signal = namespace[f"{name}Changed"] = Signal()
        namespace[name] = state_property(_qt_kind(kind), name, signal)
    return {name: default for name, (_, default) in table.items()}


@QmlElement
@QmlUncreatable("From Python.")
class SeatTable(QObject):  # type: ignore[operator]  # PySide6 stubs: decorator
    """One seat's table as the view shows it. See the module docstring for the contract."""

    DEFAULTS: ClassVar[dict[str, Any]] = declare(vars(), PROPERTIES)
    """One notify signal and one read-only property per row of the presenter's table."""

    announced = Signal(str)
    """Said to screen readers (the view calls Accessible.announce)."""
    rolled = Signal()
    """A throw happened (the view starts the dice's flight)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._values: dict[str, Any] = dict(type(self).DEFAULTS)
        self._history = HistoryModel(self)

    # ------------------------------------------------------------------ for implementations
    def publish(self, **values: Any) -> None:
        """Set properties; each one that changed emits its own notify signal."""
        for name, value in values.items():
            if name not in self._values:
                raise KeyError(f"SeatTable has no property {name!r}")
            if self._values[name] != value or type(self._values[name]) is not type(value):
                self._values[name] = value
                getattr(self, f"{name}Changed").emit()
                if name == "announcement" and value:
                    self.announced.emit(value)

    def present(self, values: dict[str, Any]) -> None:
        """Publish what the table presenter made (``TablePresenter.values``)."""
        self.publish(**values)

    def set_history(self, rows: list[dict[str, str]]) -> None:
        """The ledger in words (``HistoryModel.set_rows``), for an owner that is not a subclass."""
        self._history.set_rows(rows)

    def value(self, name: str) -> Any:
        """The published value of a property (Python callers; QML reads the property)."""
        return self._values[name]

    # ------------------------------------------------------------------ properties
    history = Property(QObject, lambda self: self._history, constant=True)

    # ------------------------------------------------------------------ slots
    @Slot(str)
    def selectLine(self, name: str) -> None:
        """Select a line (selection is not a submission)."""
        if name not in ("pass", "dont_pass"):
            raise ValueError(f"a line is 'pass' or 'dont_pass', not {name!r}")
        self.publish(selectedLine=name)

    @Slot()
    def toggleLine(self) -> None:
        self.selectLine("dont_pass" if self._values["selectedLine"] == "pass" else "pass")

    @Slot(int)
    def selectChip(self, amount: int) -> None:
        """Choose the chip Space and a tap on a line place (one of ``chipValues``)."""
        if amount not in self._values["chipValues"]:
            raise ValueError(f"a chip is one of {self._values['chipValues']}, not {amount!r}")
        self.publish(chip=amount)
