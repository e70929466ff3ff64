"""The seat view: what the table view shows of one seat at a kernel ``Table``, solo and online.

``seat_view(table, seat)`` is the one function that turns the kernel's state into the
``SeatTable`` properties the felt reads (phase, point, balance, hand, throws, the drafts and
contracts on each line, the balance chart) and into what QML would otherwise work out from the
phase itself (whether chips go on the lines now, the felt's title, a Don't Pass reduction's
refund, the words over the result). The solo ``TableBridge`` and the online table publish
it the same way (``SeatTable.publish(**view.values())``); the rules stay in the kernel and the
words in ``gui.texts``, and no phase is compared in QML.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from pointline.gui.history import chart_samples, end_reason, result_text
from pointline.gui.texts import TEXTS, table_summary
from pointline.kernel import STARTING_POINTS, Phase, Table

__all__ = ["SeatView", "seat_view"]

_FELT_TITLES = {
    Phase.COME_OUT: "Come-out",
    Phase.COMPLETE: "Session complete",
    Phase.ENDED: "Session ended",
}
"""The felt's title for each phase (the point phase names its point)."""


@dataclass(frozen=True)
class SeatView:
    """One seat's table as the view shows it; ``values()`` are ``SeatTable`` properties."""

    phase: str
    point: int
    balance: int
    hand: int
    throws: int
    draftPass: int
    draftDontPass: int
    contractPass: int
    contractDontPass: int
    chart: list[int]
    comeOut: bool
    """Chips go on the lines now: the chip row, Repeat, a tap that places a chip."""
    pointPhase: bool
    """The point is set: the lines show their contracts, Roll replaces Confirm."""
    feltTitle: str
    lineRefunds: dict[str, int]
    """What a prepared reduction gives back on each line when the dice are rolled (0: none)."""
    endTitle: str
    """The result's headline once the session is over ("" before)."""
    endNote: str
    """The line under it, over the balance chart ("" before)."""
    summary: str
    """The table in one sentence for a screen reader (``texts.table_summary``): the table's
    accessible name when the focus comes back to it, what Where Am I reads."""

    def values(self) -> dict[str, Any]:
        """The view as ``SeatTable.publish`` keyword arguments."""
        return asdict(self)


def _felt_title(table: Table) -> str:
    if table.phase is Phase.POINT:
        return f"Point {table.point}"
    return _FELT_TITLES[table.phase]


def _end_words(table: Table, seat: int) -> tuple[str, str]:
    if table.phase is Phase.COMPLETE:
        return result_text(table, seat), f"{TEXTS['handsResolved']} {TEXTS['chartComplete']}"
    if table.phase is Phase.ENDED:
        return f"No result: {end_reason(table)}", TEXTS["chartEnded"]
    return "", ""


def seat_view(table: Table | None, seat: int, drafts: Table | None = None) -> SeatView:
    """What the view shows of ``seat`` at ``table``.

    ``drafts`` is the table the seat's drafts are read from when it is not ``table`` (online
    my draft is a local copy of the shared table until it is committed). Before a session
    (``table`` None) and for no seat (``seat`` < 0) the view is a fresh come-out with the
    starting points and nothing on the lines.
    """
    shown = table
    drafted = drafts if drafts is not None else table
    phase = Phase.COME_OUT if shown is None else shown.phase
    mine = shown is not None and drafted is not None and seat >= 0
    draft = drafted.draft(seat) if mine and drafted is not None else None
    contracts = shown.contracts(seat) if mine and shown is not None else None
    draft_pass = draft.pass_amount if draft else 0
    draft_dont = draft.dont_pass_amount if draft else 0
    contract_pass = contracts.pass_amount if contracts else 0
    contract_dont = contracts.dont_pass_amount if contracts else 0
    reducing = phase is Phase.POINT and draft_dont < contract_dont
    end_title, end_note = _end_words(shown, seat) if mine and shown is not None else ("", "")
    balance = shown.balance(seat) if mine and shown is not None else STARTING_POINTS
    hand = shown.hand if shown is not None else 1
    point = (shown.point or 0) if shown is not None else 0
    on_lines = " and ".join(
        f"{name} {amount}"
        for name, amount in (("Pass", contract_pass), ("Don't Pass", contract_dont))
        if amount
    )
    return SeatView(
        phase=str(phase.value),
        point=point,
        balance=balance,
        hand=hand,
        throws=shown.throws if shown is not None else 0,
        draftPass=draft_pass,
        draftDontPass=draft_dont,
        contractPass=contract_pass,
        contractDontPass=contract_dont,
        chart=chart_samples(shown.seat(seat).ledger) if mine and shown is not None else [],
        comeOut=phase is Phase.COME_OUT,
        pointPhase=phase is Phase.POINT,
        feltTitle=_FELT_TITLES[Phase.COME_OUT] if shown is None else _felt_title(shown),
        lineRefunds={"pass": 0, "dont_pass": contract_dont - draft_dont if reducing else 0},
        endTitle=end_title,
        endNote=end_note,
        summary=table_summary(phase, hand, point, balance, on_lines),
    )
