"""How the session ended: the outcome, the ending's words, the receipts, the saved transcript and
its verdict, and the standings.

``Results`` is ``OnlineBridge.results``: the bridge hands it the protocol's endings, receipts and
transcript events; the saved transcript is replayed by ``pointline verify`` off the GUI thread
and the verdict shows when it is done.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from pointline.gui.history import chart_samples
from pointline.gui.online.from_net import (
    ReceiptsIncomplete,
    ReceiptsMatched,
    ReceiptsMismatch,
    SessionComplete,
    SessionEnded,
    TranscriptSaved,
)
from pointline.gui.online.lobby import Lobby
from pointline.gui.online.models import RowsModel
from pointline.gui.online.state import STANDING_KEYS, Link, Part, Verify, verdict_words
from pointline.gui.online.table import OnlineTable
from pointline.gui.online.texts import RELAY_LOST, people, seat_label, seconds
from pointline.gui.seat_table import state_property
from pointline.kernel import EndReason, Standing, Voided

__all__ = ["Results"]

LOST_ENDING = f"No result: {RELAY_LOST}."
"""The ending of a seat whose relay connection dropped (a host closing the table replaces it)."""


class Results(Part):
    """The results page: ``outcome`` is "complete", "ended" or "" (none yet)."""

    outcomeChanged = Signal()
    endTextChanged = Signal()
    receiptsTextChanged = Signal()
    transcriptPathChanged = Signal()
    verifyingChanged = Signal()
    verifyOkChanged = Signal()
    verifyTextChanged = Signal()

    def __init__(
        self,
        shell: Link,
        lobby: Lobby,
        table: OnlineTable,
        verify: Verify,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(shell, parent)
        self._lobby = lobby
        self._table = table
        self._verify = verify
        self._standings = RowsModel(STANDING_KEYS, self)
        self.replays: list[Any] = []
        """The replays opened by Watch again, screens of the one window (kept while open)."""
        self.clear()
        events = shell.events  # the events the results own; the standings read the screen
        events.subscribe(SessionComplete, self.on_complete)
        for receipts in (ReceiptsMatched, ReceiptsMismatch, ReceiptsIncomplete):
            events.subscribe(receipts, self.on_receipts)
        events.subscribe(TranscriptSaved, self.on_saved)
        events.shared.connect(self.publish)

    outcome = state_property(str, "outcome", outcomeChanged)
    endText = state_property(str, "endText", endTextChanged)
    receiptsText = state_property(str, "receiptsText", receiptsTextChanged)
    transcriptPath = state_property(str, "transcriptPath", transcriptPathChanged)
    verifying = state_property(bool, "verifying", verifyingChanged)
    verifyOk = state_property(bool, "verifyOk", verifyOkChanged)
    verifyText = state_property(str, "verifyText", verifyTextChanged)
    standings = Property(QObject, lambda self: self._standings, constant=True)
    """The results page's rows (``STANDING_KEYS``), each with its balance chart."""
    watchLabel = Property(str, lambda self: "Watch again", constant=True)

    def _relay_key(self) -> bytes | None:
        """The relay's pinned public key, so the replay's verdict can say who played."""
        text = getattr(self.shell.client, "relay_key", None)
        try:
            key = bytes.fromhex(text) if isinstance(text, str) else b""
        except ValueError:
            return None
        return key if len(key) == 32 else None

    @Slot()
    def watchAgain(self) -> None:
        """Open the saved transcript as a replay screen over the results (gui/replay): verify's
        verdict first, then throw by throw. It reads the file only: nothing is sent."""
        path = self._values["transcriptPath"]
        if not path:
            return
        from pointline.gui.replay.app import open_replay
        from pointline.gui.windows import frame_of, keep_while_open

        frame = frame_of(self)  # the replay covers the results; leaving it shows them again
        key = self._relay_key()
        keep_while_open(
            self.replays,
            lambda closed: open_replay(path, frame=frame, relay_key=key, on_leave=closed),
        )

    def clear(self) -> None:
        """No session has ended (a fresh lobby)."""
        self.put(
            outcome="",
            endText="",
            receiptsText="",
            transcriptPath="",
            verifying=False,
            verifyOk=False,
            verifyText="",
        )

    # ------------------------------------------------------------------ endings
    def on_complete(self, _event: SessionComplete) -> None:
        self.complete()

    def on_receipts(self, event: ReceiptsMatched | ReceiptsMismatch | ReceiptsIncomplete) -> None:
        """What the signed receipts showed, in words."""
        match event:
            case ReceiptsMatched(count):
                self.receipts(
                    f"{count} of {count} signed receipts matched within "
                    f"{seconds(self.shell.timeouts.receipts)}."
                )
            case ReceiptsMismatch(seats):
                names = people([self._lobby.who(s) for s in seats])
                self.receipts(f"Receipts differ from yours: {names}.")
            case ReceiptsIncomplete():
                # reporter and accused each in their place (issue 43: they were swapped)
                self.receipts(f"Receipts incomplete: {event.text}.")

    def on_saved(self, event: TranscriptSaved) -> None:
        self.saved(event.path)

    def complete(self) -> None:
        self.put(outcome="complete")

    def ended(self, text: str) -> None:
        self.put(outcome="ended", endText=text)

    def table_closed(self, text: str) -> None:
        """The relay went away as its host closed the table (``TableClosed``, after the
        session's ending): an ending that blamed a lost connection names the host instead."""
        if self._values.get("endText") == LOST_ENDING:
            self.put(endText=f"No result: {text}")

    def receipts(self, text: str) -> None:
        self.put(receiptsText=text)

    def ending_words(self, ended: SessionEnded) -> str:
        """The ending in the protocol's own words (``SessionEnded.text``: who reported it,
        whether it is proven, seats counted from 1), then which seat is mine."""
        if self._lost_relay(ended.reason, ended.seat):
            text = LOST_ENDING
        else:
            text = f"No result: {ended.text}. You are {seat_label(self._lobby.seat)}."
        ledger = self._table.ledger()
        if ledger is not None and any(isinstance(e, Voided) for e in ledger):
            text += " Your contracts in the unresolved hand were returned with no profit."
        return text

    def _lost_relay(self, reason: EndReason, seat: int | None) -> bool:
        """The session ended as my own departure because the relay connection dropped."""
        client = self.shell.client
        return (
            reason is EndReason.DEPARTURE
            and seat == self._lobby.seat
            and client is not None
            and client.connection_lost
        )

    # ------------------------------------------------------------------ the transcript
    def saved(self, path: Path) -> None:
        self.put(
            transcriptPath=str(path),
            verifying=True,
            verifyOk=False,
            verifyText="Checking the transcript with pointline verify…",
        )
        self.shell.spawn(self._verify_saved(path), request=False)

    async def _verify_saved(self, path: Path) -> None:
        """Replay the transcript off the GUI thread; the verdict shows when it is done."""
        try:
            report = await asyncio.to_thread(self._verify, path)
        except Exception:  # a verifier that breaks is a verdict too, never a traceback
            ok, text = False, "pointline verify could not read the saved transcript."
        else:
            ok, text = verdict_words(report)
        if self._values["transcriptPath"] != str(path):
            return  # back in the lobby meanwhile: this verdict is for a closed session
        self.put(verifying=False, verifyOk=ok, verifyText=text)

    # ------------------------------------------------------------------ standings
    def publish(self) -> None:
        """The standings, on the results page only (each row notifies when it changed)."""
        self._standings.set_rows(self._standing_rows())

    def _standing_rows(self) -> list[dict[str, Any]]:
        """Each seat's final points and rank in the kernel's standings order (highest first,
        ties in seat order), with its balance over the throws; after an ending without a
        result: seat order and no rank, and no chart when no throw was made."""
        if self.shell.screen_name != "results":
            return []
        t = self._table.view
        if t is None:
            return []
        result = t.result
        ranking = (
            result.ranking
            if result is not None
            else tuple(Standing(s, t.balance(s), 0) for s in range(len(self._lobby.entries)))
        )
        return [
            {
                "seat": row.seat,
                "label": seat_label(row.seat),
                "name": self._lobby.seat_name(row.seat),
                "final": row.points,
                "rank": row.rank,
                "you": row.seat == self._lobby.seat,
                "chart": chart_samples(t.seat(row.seat).ledger) if t.throws else [],
            }
            for row in ranking
        ]
