"""``SeatTable``: the one interface ``TableView.qml`` (felt, point boxes, dice, lines, buttons,
history) is fed through, solo and online alike.

Every property has its own notify signal, emitted by ``publish`` only when the value really
changed: nothing polls, and a change to the balance does not make QML re-read 30 other
properties. The history is a ``HistoryModel`` (a ``QAbstractListModel``) updated in place.

What an implementation (the solo ``TableBridge``, an online seat bridge) must provide:

- call ``publish(name=value, ...)`` with every property below whenever its state changes
  (``publish`` compares and emits per property; a key that is not a property is a bug and
  raises ``KeyError``): the kernel's part comes from ``gui.seat_view.seat_view`` (one function,
  solo and online), and ``set_history(rows)`` for the ledger in words;
- define the slots ``act(name)`` for the named actions ``allocate``, ``confirm``, ``reset``,
  ``reduce``, ``remove`` and ``roll`` (return whether the action was taken; refuse while the
  dice are being revealed or input is locked);
- define ``tableKey(key)`` (``"space"`` or ``"enter"`` pressed on the table itself),
  ``keyReleased()``, ``placeChip(line)`` (put the selected chip on a line: all of it or
  nothing), ``repeatLastBet()`` and ``explain(action)`` (say why a dimmed control is off);
- leave ``selectLine`` and ``selectChip`` as they are, or extend them (call ``super()``).

Properties the view reads (all read-only from QML):

``phase`` ("come_out", "point", "complete", "ended"), ``point``, ``balance``, ``hand``,
``hands``, ``throws``, ``throwCap``, ``draftPass``, ``draftDontPass``, ``contractPass``,
``contractDontPass``, ``selectedLine`` ("pass"/"dont_pass"), ``legal`` and ``reasons`` (maps
keyed by the action names above plus ``chip`` and ``repeat``), ``lineReasons`` (why the selected
chip cannot go on each line, "" when it can), ``lineOutcomes`` (each line's outcome after a
throw, "+20", "−10", "push", "refund 10"), ``lineFlights`` (the chips each line's outcome slides:
back to the balance when positive, swept off when negative; ``history.line_flights``),
``die1``, ``die2``, ``rollSerial`` (one more per throw), ``revealStage`` ("" idle, "rolling",
"outcome", "count"), ``feltMessage``,
``announcement`` (what screen readers hear), ``notice`` (a reason shown on demand), ``status``
(the status line, at most two short lines), ``confirmLabel`` ("Confirm", "Sit out"),
``reduceMotion``, ``isOver``, ``resultText``, ``endReason``, ``chart`` (balance samples),
``chip`` (the selected chip value), ``chipValues``, ``repeatText``, ``keysHint``, ``mobile``,
``texts`` (labels built from the kernel's constants), ``pointNumbers``, ``startingPoints``,
``comeOut`` and ``pointPhase`` (the phase as QML uses it: it compares no phase), ``feltTitle``,
``lineRefunds`` (what a prepared reduction gives back on each line), ``endTitle`` and
``endNote`` (the words over a finished session's chart) and
``history`` (a ``HistoryModel`` with the roles ``kind``, ``text`` and ``hand``).
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

__all__ = ["QVARIANT_LIST", "QVARIANT_MAP", "HistoryModel", "SeatTable", "state_property"]

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


_DEFAULTS: dict[str, Any] = {
    "phase": "come_out",
    "point": 0,
    "balance": 0,
    "hand": 1,
    "hands": 0,
    "throws": 0,
    "throwCap": 0,
    "draftPass": 0,
    "draftDontPass": 0,
    "contractPass": 0,
    "contractDontPass": 0,
    "selectedLine": "pass",
    "legal": {},
    "reasons": {},
    "lineReasons": {},
    "lineOutcomes": {},
    "lineFlights": {},
    "die1": 0,
    "die2": 0,
    "rollSerial": 0,
    "revealStage": "",
    "feltMessage": "",
    "announcement": "",
    "notice": "",
    "status": "",
    "confirmLabel": "Confirm",
    "reduceMotion": False,
    "isOver": False,
    "resultText": "",
    "endReason": "",
    "chart": [],
    "chip": 10,
    "chipValues": [],
    "repeatText": "",
    "keysHint": "",
    "mobile": False,
    "texts": {},
    "pointNumbers": [],
    "startingPoints": 0,
    "comeOut": True,
    "pointPhase": False,
    "feltTitle": "Come-out",
    "lineRefunds": {},
    "endTitle": "",
    "endNote": "",
}


@QmlElement
@QmlUncreatable("From Python.")
class SeatTable(QObject):  # type: ignore[operator]  # PySide6 stubs: decorator
    """One seat's table as the view shows it. See the module docstring for the contract."""

    DEFAULTS: ClassVar[dict[str, Any]] = _DEFAULTS

    phaseChanged = Signal()
    pointChanged = Signal()
    balanceChanged = Signal()
    handChanged = Signal()
    handsChanged = Signal()
    throwsChanged = Signal()
    throwCapChanged = Signal()
    draftPassChanged = Signal()
    draftDontPassChanged = Signal()
    contractPassChanged = Signal()
    contractDontPassChanged = Signal()
    selectedLineChanged = Signal()
    legalChanged = Signal()
    reasonsChanged = Signal()
    lineReasonsChanged = Signal()
    lineOutcomesChanged = Signal()
    lineFlightsChanged = Signal()
    die1Changed = Signal()
    die2Changed = Signal()
    rollSerialChanged = Signal()
    revealStageChanged = Signal()
    feltMessageChanged = Signal()
    announcementChanged = Signal()
    noticeChanged = Signal()
    statusChanged = Signal()
    confirmLabelChanged = Signal()
    reduceMotionChanged = Signal()
    isOverChanged = Signal()
    resultTextChanged = Signal()
    endReasonChanged = Signal()
    chartChanged = Signal()
    chipChanged = Signal()
    chipValuesChanged = Signal()
    repeatTextChanged = Signal()
    keysHintChanged = Signal()
    mobileChanged = Signal()
    textsChanged = Signal()
    pointNumbersChanged = Signal()
    startingPointsChanged = Signal()
    comeOutChanged = Signal()
    pointPhaseChanged = Signal()
    feltTitleChanged = Signal()
    lineRefundsChanged = Signal()
    endTitleChanged = Signal()
    endNoteChanged = Signal()

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

    def set_history(self, rows: list[dict[str, str]]) -> None:
        """The ledger in words (``HistoryModel.set_rows``), for an owner that is not a subclass."""
        self._history.set_rows(rows)

    def value(self, name: str) -> Any:
        """The published value of a property (Python callers; QML reads the property)."""
        return self._values[name]

    # ------------------------------------------------------------------ properties
    phase = state_property(str, "phase", phaseChanged)
    point = state_property(int, "point", pointChanged)
    balance = state_property(int, "balance", balanceChanged)
    hand = state_property(int, "hand", handChanged)
    hands = state_property(int, "hands", handsChanged)
    throws = state_property(int, "throws", throwsChanged)
    throwCap = state_property(int, "throwCap", throwCapChanged)
    draftPass = state_property(int, "draftPass", draftPassChanged)
    draftDontPass = state_property(int, "draftDontPass", draftDontPassChanged)
    contractPass = state_property(int, "contractPass", contractPassChanged)
    contractDontPass = state_property(int, "contractDontPass", contractDontPassChanged)
    selectedLine = state_property(str, "selectedLine", selectedLineChanged)
    legal = state_property(QVARIANT_MAP, "legal", legalChanged)
    reasons = state_property(QVARIANT_MAP, "reasons", reasonsChanged)
    lineReasons = state_property(QVARIANT_MAP, "lineReasons", lineReasonsChanged)
    lineOutcomes = state_property(QVARIANT_MAP, "lineOutcomes", lineOutcomesChanged)
    lineFlights = state_property(QVARIANT_MAP, "lineFlights", lineFlightsChanged)
    die1 = state_property(int, "die1", die1Changed)
    die2 = state_property(int, "die2", die2Changed)
    rollSerial = state_property(int, "rollSerial", rollSerialChanged)
    revealStage = state_property(str, "revealStage", revealStageChanged)
    feltMessage = state_property(str, "feltMessage", feltMessageChanged)
    announcement = state_property(str, "announcement", announcementChanged)
    notice = state_property(str, "notice", noticeChanged)
    status = state_property(str, "status", statusChanged)
    confirmLabel = state_property(str, "confirmLabel", confirmLabelChanged)
    reduceMotion = state_property(bool, "reduceMotion", reduceMotionChanged)
    isOver = state_property(bool, "isOver", isOverChanged)
    resultText = state_property(str, "resultText", resultTextChanged)
    endReason = state_property(str, "endReason", endReasonChanged)
    chart = state_property(QVARIANT_LIST, "chart", chartChanged)
    chip = state_property(int, "chip", chipChanged)
    chipValues = state_property(QVARIANT_LIST, "chipValues", chipValuesChanged)
    repeatText = state_property(str, "repeatText", repeatTextChanged)
    keysHint = state_property(str, "keysHint", keysHintChanged)
    mobile = state_property(bool, "mobile", mobileChanged)
    texts = state_property(QVARIANT_MAP, "texts", textsChanged)
    pointNumbers = state_property(QVARIANT_LIST, "pointNumbers", pointNumbersChanged)
    startingPoints = state_property(int, "startingPoints", startingPointsChanged)
    comeOut = state_property(bool, "comeOut", comeOutChanged)
    pointPhase = state_property(bool, "pointPhase", pointPhaseChanged)
    feltTitle = state_property(str, "feltTitle", feltTitleChanged)
    lineRefunds = state_property(QVARIANT_MAP, "lineRefunds", lineRefundsChanged)
    endTitle = state_property(str, "endTitle", endTitleChanged)
    endNote = state_property(str, "endNote", endNoteChanged)
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
