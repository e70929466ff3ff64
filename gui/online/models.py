"""List models for the online screens: the seats at the table and the final standings.

``RowsModel`` holds rows of plain values (dicts with the same keys), one role per key. Setting
new rows emits the least that changed: ``dataChanged`` for the rows that differ when the count
and the keys stay the same (a seat commits, a balance moves), else one model reset. Python reads
the rows back by iterating the model.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from PySide6.QtCore import (
    Property,
    QAbstractListModel,
    QByteArray,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtQml import QmlElement, QmlUncreatable

__all__ = ["RowsModel"]

QML_IMPORT_NAME = "Pointline.Online"
QML_IMPORT_MAJOR_VERSION = 1

Row = dict[str, Any]
_Index = QModelIndex | QPersistentModelIndex
_FIRST_ROLE = int(Qt.ItemDataRole.UserRole) + 1


@QmlElement
@QmlUncreatable("the online bridge fills these models")
class RowsModel(QAbstractListModel):  # type: ignore[operator]  # PySide6 stubs: QmlUncreatable
    """Rows with named roles (``keys``); ``count`` notifies when the number of rows changes."""

    countChanged = Signal()

    def __init__(self, keys: Sequence[str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._keys = tuple(keys)
        self._rows: list[Row] = []

    # ------------------------------------------------------------------ Python side
    def __iter__(self) -> Iterator[Row]:
        return iter(list(self._rows))

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, index: int) -> Row:
        return self._rows[index]

    @property
    def rows(self) -> list[Row]:
        return list(self._rows)

    def set_rows(self, rows: Sequence[Row]) -> None:
        new = [dict(r) for r in rows]
        for r in new:
            if set(r) != set(self._keys):
                raise ValueError(f"a row has keys {sorted(r)}, expected {sorted(self._keys)}")
        if new == self._rows:
            return
        if len(new) == len(self._rows):
            changed = [i for i, (a, b) in enumerate(zip(self._rows, new, strict=True)) if a != b]
            self._rows = new
            for i in changed:
                self.dataChanged.emit(self.index(i), self.index(i))
            return
        self.beginResetModel()
        self._rows = new
        self.endResetModel()
        self.countChanged.emit()

    # ------------------------------------------------------------------ Qt side
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: _Index, role: int = int(Qt.ItemDataRole.DisplayRole)) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        key = role - _FIRST_ROLE
        if not 0 <= key < len(self._keys):
            return None
        return self._rows[index.row()][self._keys[key]]

    def roleNames(self) -> dict[int, QByteArray]:
        return {_FIRST_ROLE + i: QByteArray(k.encode()) for i, k in enumerate(self._keys)}

    count = Property(int, lambda self: len(self._rows), notify=countChanged)
