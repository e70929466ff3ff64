"""How a protocol ``Peer``'s session ends: completion and the receipt exchange, a fault, a
rejected frame, another seat's notice. ``net.protocol.peer.Peer`` inherits these from
``PeerEndings``; the round itself (commit, reveal, throw) is in ``net.protocol.peer``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pointline.kernel import Abort, EndReason, Result, Table
from pointline.net.errors import MessageError
from pointline.net.protocol.events import (
    DeadlineKind,
    Event,
    ReceiptsIncomplete,
    ReceiptsMatched,
    ReceiptsMismatch,
    ReceiptStatus,
    SessionComplete,
    SessionEnded,
    Step,
    Timeouts,
)
from pointline.net.protocol.messages import (
    MAX_FRAME_BYTES,
    AbortNotice,
    Commit,
    Message,
    Receipt,
    Reveal,
    canonical_json,
    session_digest_encoded,
)
from pointline.net.protocol.transcript import RecordKind, Transcript

__all__ = ["Fault", "PeerEndings", "encode_any"]

# Steps bound once: looking a member up on its enum class costs several times a plain global,
# and the peer checks its step many times for every frame.
_COMMIT, _REVEAL, _RECEIPTS, _COMPLETE, _ENDED = (
    Step.COMMIT,
    Step.REVEAL,
    Step.RECEIPTS,
    Step.COMPLETE,
    Step.ENDED,
)


class Fault(Exception):
    """Raised inside a step: the session ends with ``reason`` naming ``seat``."""

    def __init__(self, reason: EndReason, seat: int | None) -> None:
        super().__init__(reason.value)
        self.reason = reason
        self.seat = seat


def encode_any(frame: Mapping[str, Any]) -> str:
    """A received dict frame as canonical JSON text (for the transcript's rejected records)."""
    return canonical_json(frame).decode("utf-8")


class PeerEndings:
    """The ending half of a ``Peer``: what it holds about the end, and how it gets there."""

    seat: int
    table_id: str
    timeouts: Timeouts
    transcript: Transcript
    _table: Table
    _n: int
    _others: tuple[int, ...]
    _step: Step
    _my_seq: int
    _deadline: float | None
    _deadline_kind: DeadlineKind | None
    _events: list[Event]
    _history: list[tuple[Commit | Reveal, str]]
    _receipts: dict[int, Receipt]
    _my_receipt: Receipt | None
    _ending: SessionEnded | None
    _receipt_status: ReceiptStatus | None

    def _send(self, message: Message, now: float) -> Message:
        raise NotImplementedError  # net.protocol.peer.Peer signs, queues and records it

    # ------------------------------------------------------------------ reading
    @property
    def is_finished(self) -> bool:
        """Nothing more will happen: ended, or complete with the receipts exchange over."""
        step = self._step
        return step is _COMPLETE or step is _ENDED

    @property
    def result(self) -> Result | None:
        return self._table.result

    @property
    def ending(self) -> SessionEnded | None:
        return self._ending

    @property
    def receipt_status(self) -> ReceiptStatus | None:
        return self._receipt_status

    # ------------------------------------------------------------------ faults
    def _reported(self, notice: AbortNotice, now: float, awaiting: tuple[int, ...]) -> None:
        """End on another seat's signed abort notice, believing only what this peer can check.

        A notice naming its own sender (its departure, its app in the background) or nobody
        ends as it says. So does a missed deadline by a seat this step still awaits here
        (``awaiting``): this peer sees the same silence. Any other accusation of another seat
        (a bad signature, a malformed or replayed message, a bad reveal, a departure or
        deadline this peer did not see) comes with no signed evidence this peer holds: had the
        accused's message been bad here, this peer would have ended on it first. So the ending
        names the reporter, and the accusation is kept as reported, not proven.
        """
        reporter, accused = notice.seat, notice.blame
        agrees = notice.reason is EndReason.DEADLINE and accused in awaiting
        if accused is None or accused == reporter or agrees:
            self._fault(notice.reason, accused, now, notify=False, reporter=reporter)
        else:
            self._fault(
                notice.reason, reporter, now, notify=False, reporter=reporter, accused=accused
            )

    def _reject(
        self, frame: object, from_seat: int | None, error: MessageError, now: float
    ) -> None:
        try:
            text = frame if isinstance(frame, str) else None
            if isinstance(frame, (bytes, bytearray)):
                text = bytes(frame[:MAX_FRAME_BYTES]).decode("utf-8", "replace")
            elif isinstance(frame, dict):
                text = encode_any(frame)
        except (TypeError, ValueError, UnicodeError, RecursionError):
            text = None
        self.transcript.append(
            RecordKind.REJECTED,
            {
                "from": from_seat,
                "at": now,
                "error": error.code,
                "detail": error.message,
                "frame": (text or repr(type(frame)))[:4096]
                .encode("utf-8", "backslashreplace")
                .decode("utf-8"),
            },
        )
        reason = error.reason or EndReason.MALFORMED
        self._fault(reason, from_seat, now, proven=from_seat is not None)

    def _fault(
        self,
        reason: EndReason,
        seat: int | None,
        now: float,
        notify: bool = True,
        reporter: int | None = None,
        proven: bool = False,
        accused: int | None = None,
    ) -> None:
        if self.is_finished:
            return
        if notify:
            self._send(AbortNotice(self.table_id, self.seat, self._my_seq, reason, seat), now)
        if self._step is _RECEIPTS:
            self._events.append(ReceiptsIncomplete(reason, seat))
            self._finish_receipts(ReceiptStatus.INCOMPLETE, {"reason": reason.value, "seat": seat})
            return
        self._table.push(Abort(reason, seat))
        self._finish_ended(
            reason, seat, self.seat if reporter is None else reporter, proven, accused
        )

    def _finish_ended(
        self,
        reason: EndReason,
        seat: int | None,
        reporter: int,
        proven: bool,
        accused: int | None = None,
    ) -> None:
        self._stop(_ENDED)
        self._ending = SessionEnded(reason, seat, reporter, proven, accused)
        self._events.append(self._ending)
        self.transcript.append(
            RecordKind.OUTCOME,
            {
                "status": "ended",
                "throws": self._table.throws,
                "reason": reason.value,
                "seat": seat,
                "reporter": reporter,
                "proven": proven,
                **({} if accused is None else {"accused": accused}),
            },
        )

    def _stop(self, step: Step) -> None:
        self._step = step
        self._deadline = None
        self._deadline_kind = None

    # ------------------------------------------------------------------ completion
    def _complete(self, now: float) -> None:
        result = self._table.result
        assert result is not None
        self._events.append(SessionComplete(result))
        self.transcript.append(
            RecordKind.OUTCOME,
            {
                "status": "complete",
                "throws": self._table.throws,
                "final": list(result.final),
                "ranks": list(result.ranks),
            },
        )
        digest = session_digest_encoded(self._history)
        message = Receipt(
            self.table_id, self.seat, self._my_seq, self._table.throws, result.final, digest
        )
        signed = self._send(message, now)
        assert isinstance(signed, Receipt)
        self._my_receipt = signed
        self._step = _RECEIPTS
        self._deadline = now + self.timeouts.receipts
        self._deadline_kind = DeadlineKind.RECEIPTS
        if not self._others:
            self._compare_receipts()

    def _compare_receipts(self) -> None:
        mine = self._my_receipt
        assert mine is not None
        differ = tuple(
            s
            for s in self._others
            if self._receipts[s].final != mine.final or self._receipts[s].digest != mine.digest
        )
        if differ:
            self._events.append(ReceiptsMismatch(differ))
            self._finish_receipts(ReceiptStatus.MISMATCH, {"seats": list(differ)})
        else:
            self._events.append(ReceiptsMatched(self._n))
            self._finish_receipts(ReceiptStatus.MATCHED, {"count": self._n})

    def _finish_receipts(self, status: ReceiptStatus, detail: dict[str, Any]) -> None:
        mine = self._my_receipt
        assert mine is not None
        self._receipt_status = status
        self._stop(_COMPLETE)
        self.transcript.append(
            RecordKind.RECEIPTS,
            {"status": status.value, "digest": mine.digest.hex(), **detail},
        )
