"""Endings, receipts, the saved transcript's verdict and the standings: a part of
``OnlineBridge`` (see gui/online/state.py).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from pointline.gui.history import chart_samples
from pointline.gui.online.state import OnlineState, verdict_words
from pointline.gui.online.texts import (
    RELAY_LOST,
    seat_label,
)
from pointline.kernel import (
    EndReason,
    Standing,
    Voided,
)
from pointline.net.protocol.peer import SessionEnded

__all__ = ["ResultsPart"]


class ResultsPart(OnlineState):
    """Endings, receipts, the saved transcript's verdict and the standings."""

    def _ending_words(self, ended: SessionEnded) -> str:
        """The ending in the protocol's own words (``SessionEnded.text``: who reported it,
        whether it is proven, seats counted from 1), then which seat is mine."""
        if self._lost_relay(ended.reason, ended.seat):
            text = f"No result: {RELAY_LOST}."
        else:
            text = f"No result: {ended.text}. You are {seat_label(self._seat)}."
        if self._voided():
            text += " Your contracts in the unresolved hand were returned with no profit."
        return text

    def _voided(self) -> bool:
        ledger = self._ledger()
        return ledger is not None and any(isinstance(e, Voided) for e in ledger)

    def _lost_relay(self, reason: EndReason, seat: int | None) -> bool:
        """The session ended as my own departure because the relay connection dropped."""
        client = self.client
        return (
            reason is EndReason.DEPARTURE
            and seat == self._seat
            and client is not None
            and client.connection_lost
        )

    def _on_saved(self, path: Path) -> None:
        self._set(
            transcript=str(path),
            verifying=True,
            verify_ok=False,
            verify_text="Checking the transcript with pointline verify…",
        )
        self._spawn(self._verify_saved(path), request=False)

    async def _verify_saved(self, path: Path) -> None:
        """Replay the transcript off the GUI thread; the verdict shows when it is done."""
        try:
            report = await asyncio.to_thread(self._verify, path)
        except Exception:  # a verifier that breaks is a verdict too, never a traceback
            ok, text = False, "pointline verify could not read the saved transcript."
        else:
            ok, text = verdict_words(report)
        if self._transcript != str(path):
            return  # back in the lobby meanwhile: this verdict is for a closed session
        self._set(verifying=False, verify_ok=ok, verify_text=text)

    def _standing_rows(self) -> list[dict[str, Any]]:
        """Each seat's final points and rank in the kernel's standings order (highest first,
        ties in seat order), with its balance over the throws; after an ending without a
        result: seat order and no rank, and no chart when no throw was made."""
        if self._screen != "results":
            return []
        t = self.table
        if t is None:
            return []
        result = t.result
        ranking = (
            result.ranking
            if result is not None
            else tuple(Standing(s, t.balance(s), 0) for s in range(len(self._roster)))
        )
        return [
            {
                "seat": row.seat,
                "label": seat_label(row.seat),
                "name": self._seat_name(row.seat),
                "final": row.points,
                "rank": row.rank,
                "you": row.seat == self._seat,
                "chart": chart_samples(t.seat(row.seat).ledger) if t.throws else [],
            }
            for row in ranking
        ]
