"""The protocol core: one seat's peer in a signed commit-reveal session, sans-IO.

No sockets and no clock reads: every call takes ``now`` (seconds, any monotonic origin), frames
come in through ``receive`` and go out through ``outgoing``, and timers fire in ``tick``.

A throw round, for throw index n = ``table.throws + 1``:

1. every seat commits (``Commit``: SHA-256 commitment over table id, n, seat, a fresh 32-byte
   nonce and its canonical choice bytes, see ``kernel.dice.commitment``), within
   ``Timeouts.confirm`` of the round opening;
2. once every commit is in, every peer reveals at once (``Reveal``: nonce and choice bytes),
   within ``Timeouts.response``;
3. every peer checks each reveal against its commit and the choice against the rules
   (``kernel.choice.plan``), applies every seat's plan in seat order, derives the dice from the
   nonces in seat order (``kernel.dice.derive_dice``) and pushes the ``Throw``.

After the fifth hand every peer sends a ``Receipt`` (final points of all seats and the
``net.protocol._messages.session_digest`` of every Commit and Reveal) and compares the others' with
its own within ``Timeouts.receipts``. Any fault before completion ends the session without a
result: the kernel gets ``Abort(reason, seat)`` (the hand in flight is voided), the peer sends
a signed ``AbortNotice``, and a peer that receives a valid notice ends with its reason and seat.

Faults, and the (reason, seat) they end with (``seat`` is the relay's ``from_seat`` for a frame):

- a frame that is not a well-formed message of a known kind ...... MALFORMED, sender
- a message for another table id ................................. NON_MEMBER, sender
- a message claiming a seat outside the roster ................... NON_MEMBER, sender
- a delivery from a seat number the roster does not have ......... NON_MEMBER, None
- a signature that fails for the claimed seat's key .............. BAD_SIGNATURE, sender
- another seat's message, a repeated or skipped sequence number, a commit or reveal for the
  wrong throw, a reveal before my own commit, a receipt before the end ... REPLAY, sender
- a reveal whose nonce/choice does not match its commit, or an illegal choice . BAD_REVEAL, sender
- no commit within ``confirm`` / no reveal within ``response`` ... DEADLINE, lowest awaited seat
- the whole session past ``session`` ............................. DEADLINE, None
- ``depart(seat)`` (relay announcement, or my own seat leaving) .. DEPARTURE, that seat
- ``lose_connection()`` (my own relay connection gone; no notice) ... DEPARTURE, my seat
- ``background()`` ............................................... BACKGROUND, my seat
- another seat's signed notice accusing a third seat, which this peer cannot check (see
  ``Peer._reported``) ...... its reason, the reporter (``accused`` kept, never proven)
- the 128th throw without completion (every peer sees it, no notice) ... THROW_CAP, None

During the receipt exchange the result stands: a fault there gives ``ReceiptsIncomplete``.
"""

from __future__ import annotations

import functools
import os
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from pointline.kernel import (
    ONLINE_TABLE_ID_MAX,
    PROTOCOL_VERSION,
    Abort,
    Choice,
    EndReason,
    Phase,
    PointlineError,
    Result,
    SeatAction,
    Table,
    Throw,
    commitment,
    derive_dice,
    plan,
    verify_commitment,
)
from pointline.net.errors import (
    BadReveal,
    MessageError,
    NonMemberSeat,
    NotNow,
    RosterError,
)
from pointline.net.protocol._events import (
    AllCommitted,
    DeadlineKind,
    Event,
    HandResolved,
    ReceiptsIncomplete,
    ReceiptsMatched,
    ReceiptsMismatch,
    ReceiptStatus,
    Revealed,
    RoundOpened,
    SessionComplete,
    SessionEnded,
    Step,
    ThrowCommitted,
    Thrown,
    Timeouts,
    ending_text,
    seat_label,
)
from pointline.net.protocol._keys import SIGNATURE_BYTES, SigningKey
from pointline.net.protocol._messages import (
    MAX_FRAME_BYTES,
    AbortNotice,
    Commit,
    Message,
    Receipt,
    RepeatedMembers,
    Reveal,
    canonical_json,
    parse_encoded,
    session_digest_encoded,
    sign_encoded,
    to_frame,
)
from pointline.net.protocol._ordering import OrderChecker
from pointline.net.protocol._roster import (
    ROSTER_DOMAIN,
    Member,
    Roster,
    check_roster,
    roster_from_wire,
    roster_signing_bytes,
    roster_to_document,
)
from pointline.net.protocol._transcript import Record, RecordKind, Transcript

__all__ = [
    "NONCE_BYTES",
    "ROSTER_DOMAIN",
    "AllCommitted",
    "DeadlineKind",
    "Event",
    "HandResolved",
    "Member",
    "Peer",
    "ReceiptStatus",
    "ReceiptsIncomplete",
    "ReceiptsMatched",
    "ReceiptsMismatch",
    "Revealed",
    "Roster",
    "RoundOpened",
    "SessionComplete",
    "SessionEnded",
    "Step",
    "ThrowCommitted",
    "Thrown",
    "Timeouts",
    "check_roster",
    "encode_any",
    "ending_text",
    "roster_from_wire",
    "roster_signing_bytes",
    "roster_to_document",
    "seat_label",
]

NONCE_BYTES = 32
_SENT, _RECEIVED = RecordKind.SENT, RecordKind.RECEIVED
# Steps bound once: looking a member up on its enum class costs several times a plain global,
# and the peer checks its step many times for every frame.
_COMMIT, _REVEAL, _RECEIPTS, _COMPLETE, _ENDED = (
    Step.COMMIT,
    Step.REVEAL,
    Step.RECEIPTS,
    Step.COMPLETE,
    Step.ENDED,
)


class _Fault(Exception):
    """Raised inside a step, caught by the peer itself (it never leaves this module): the
    session ends with ``reason`` naming ``seat``."""

    def __init__(self, reason: EndReason, seat: int | None) -> None:
        super().__init__(reason.value)
        self.reason = reason
        self.seat = seat


def encode_any(frame: Mapping[str, Any]) -> str:
    """A received dict frame as canonical JSON text (for the transcript's rejected records)."""
    return canonical_json(frame).decode("utf-8")


FRAME_CHARS = 4096
"""A ``rejected`` record keeps the first 4,096 characters of the frame's text, counted as
Unicode code points (spec/ONLINE.md §8, "`frame`")."""


def cut_frame(text: str) -> str:
    """``text``'s first ``FRAME_CHARS`` code points (never UTF-16 units, never bytes)."""
    return text[:FRAME_CHARS]


def rejected_frame(frame: object) -> str:
    """The ``frame`` of a ``rejected`` record: a payload object's canonical JSON (a payload
    naming a member twice keeps both, ``RepeatedMembers.text``, so replaying the text refuses
    it again), text as it came, cut to ``FRAME_CHARS`` code points."""
    try:
        text = frame if isinstance(frame, str) else None
        if isinstance(frame, (bytes, bytearray)):
            text = bytes(frame[:MAX_FRAME_BYTES]).decode("utf-8", "replace")
        elif isinstance(frame, RepeatedMembers):
            text = frame.text()
        elif isinstance(frame, dict):
            text = encode_any(frame)
    except (TypeError, ValueError, UnicodeError, RecursionError):
        text = None
    return cut_frame(text or repr(type(frame))).encode("utf-8", "backslashreplace").decode("utf-8")


@functools.lru_cache(maxsize=256)
def _choice(data: bytes) -> Choice:
    """``Choice.from_bytes``, read once per distinct text: seats reveal the same few choices
    throw after throw (a refusal raises and is not kept)."""
    return Choice.from_bytes(data)


@functools.lru_cache(maxsize=256)
def _choice_bytes(choice: Choice) -> bytes:
    """``choice.to_bytes()``, encoded once per distinct choice (a seat commits the same few)."""
    return choice.to_bytes()


def _default_nonce() -> bytes:
    return os.urandom(NONCE_BYTES)


# ---------------------------------------------------------------------------- the peer


class Peer:
    """One seat's view of an online session (see the module docstring)."""

    def __init__(
        self,
        table_id: str,
        roster: Roster,
        seat: int,
        signing_key: SigningKey,
        timeouts: Timeouts | None = None,
        now: float = 0.0,
        nonce_source: Callable[[], bytes] | None = None,
        roster_sig: bytes | None = None,
        host: str | None = None,
    ) -> None:
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= ONLINE_TABLE_ID_MAX:
            raise RosterError(f"a table id is a string of 1 to {ONLINE_TABLE_ID_MAX} characters")
        roster = tuple(roster)
        check_roster(roster)
        if type(seat) is not int or not 0 <= seat < len(roster):
            who = seat_label(seat) if type(seat) is int and seat >= 0 else "the seat given"
            raise RosterError(f"{who} is not in the roster")
        if roster[seat].public_key != signing_key.public_key:
            raise RosterError("the roster shows another key for my seat")
        if roster_sig is not None and (
            not isinstance(roster_sig, bytes) or len(roster_sig) != SIGNATURE_BYTES
        ):
            raise RosterError("the relay's roster signature is 64 bytes")
        if host is not None and (not isinstance(host, str) or not host or roster_sig is None):
            raise RosterError("a hosted table's host is a name, signed with the roster")
        self.table_id = table_id
        self.roster: Roster = roster
        self.seat = seat
        self.timeouts = timeouts or Timeouts()
        for name, value in self.timeouts.to_document().items():
            if type(value) not in (int, float) or not 0 < value < float("inf"):
                raise RosterError(f"the {name} timeout must be a positive number of seconds")
        self._key = signing_key
        self._nonce_source = nonce_source or _default_nonce
        self._keys: Mapping[int, bytes] = {m.seat: m.public_key for m in roster}
        self._n = len(roster)
        self._others = tuple(s for s in range(self._n) if s != seat)
        self._table = Table(seats=self._n, table_id=table_id)
        self._step = _COMMIT
        self._session_deadline = now + self.timeouts.session
        self._deadline: float | None = None
        self._deadline_kind: DeadlineKind | None = None
        self._out: list[dict[str, Any]] = []
        self._events: list[Event] = []
        self._my_seq = 0
        self._inbox: dict[int, deque[tuple[Message, str]]] = {s: deque() for s in range(self._n)}
        self._order = OrderChecker(self._n, seat)
        self._last_commit: dict[int, Commit | None] = dict.fromkeys(range(self._n))
        self._screened: dict[int, tuple[Choice, tuple[SeatAction, ...]]] = {}
        """Each seat's checked reveal: its choice and the actions that seal it (planned once)."""
        self._commits: dict[int, Commit] = {}
        self._reveals: dict[int, Reveal] = {}
        self._choices: dict[int, tuple[Choice, tuple[SeatAction, ...]]] = {}
        self._my_nonce = b""
        self._my_choice = b""
        self._my_plan: tuple[SeatAction, ...] = ()
        self._history: list[tuple[Commit | Reveal, str]] = []
        self._receipts: dict[int, Receipt] = {}
        self._my_receipt: Receipt | None = None
        self._ending: SessionEnded | None = None
        self._receipt_status: ReceiptStatus | None = None
        self.transcript = Transcript(
            {
                "version": PROTOCOL_VERSION,
                "table_id": table_id,
                "seat": seat,
                "roster": roster_to_document(roster),
                "timeouts": self.timeouts.to_document(),
                "started_at": now,
                **({} if roster_sig is None else {"roster_sig": roster_sig.hex()}),
                **({} if host is None else {"host": host}),
            }
        )
        self._open_round(now)

    # ------------------------------------------------------------------ reading
    def records(self) -> list[Record]:
        """The transcript records made since the last call (the header first), in order: the
        caller puts them on disk (``net.protocol._transcript.TranscriptWriter``); the peer writes no
        file. The whole log stays in ``transcript``."""
        return self.transcript.drain()

    @property
    def table(self) -> Table:
        """This peer's own reconstruction of the table (a copy: callers cannot change it)."""
        return self._table.copy()

    @property
    def state(self) -> Step:
        return self._step

    @property
    def is_live(self) -> bool:
        step = self._step
        return step is _COMMIT or step is _REVEAL

    @property
    def throw_index(self) -> int:
        """The throw the current round is for (``table.throws + 1``)."""
        return self._table.throws + 1

    @property
    def has_committed(self) -> bool:
        return self.seat in self._commits

    @property
    def awaiting(self) -> tuple[int, ...]:
        """Seats whose message this step still waits for (my own seat included)."""
        if self._step is _COMMIT:
            return tuple(s for s in range(self._n) if s not in self._commits)
        if self._step is _REVEAL:
            return tuple(s for s in range(self._n) if s not in self._reveals)
        if self._step is _RECEIPTS:
            return tuple(s for s in self._others if s not in self._receipts)
        return ()

    @property
    def deadline_kind(self) -> DeadlineKind | None:
        return self._deadline_kind

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

    def next_deadline(self) -> float | None:
        """When ``tick`` must next be called (``None`` once finished)."""
        if self._deadline is None:
            return None
        if self.is_live:
            return min(self._deadline, self._session_deadline)
        return self._deadline

    def outgoing(self) -> list[dict[str, Any]]:
        """Signed frames to broadcast to every other member, oldest first (drains)."""
        out, self._out = self._out, []
        return out

    def events(self) -> list[Event]:
        """What happened since the last call, oldest first (drains)."""
        events, self._events = self._events, []
        return events

    # ------------------------------------------------------------------ commands
    def commit(self, choice: Choice, now: float) -> None:
        """Commit my choices for the current throw; raises if now is not the time or illegal.

        A kernel ``PointlineError`` means the rules forbid ``choice`` (nothing is sent);
        ``NotNow`` means the session is not waiting for my commit.
        """
        self.tick(now)
        if self._step is not _COMMIT or self.seat in self._commits:
            raise NotNow("the session is not waiting for my commit")
        if not isinstance(choice, Choice):
            raise NotNow("a commit takes a kernel Choice")
        actions = plan(self._table, self.seat, choice)  # raises IllegalAction / MalformedAction
        nonce = self._nonce_source()
        if not isinstance(nonce, bytes) or len(nonce) != NONCE_BYTES:
            raise RosterError("the nonce source must give 32 bytes")
        throw = self.throw_index
        data = _choice_bytes(choice)
        digest = commitment(self.table_id, throw, self.seat, nonce, data)
        self._my_nonce, self._my_choice, self._my_plan = nonce, data, actions
        message = Commit(self.table_id, self.seat, self._my_seq, throw, digest)
        signed = self._send(message, now)
        assert isinstance(signed, Commit)
        self._commits[self.seat] = signed
        self._events.append(ThrowCommitted(self.seat, throw))
        self._pump(now)

    def receive(self, frame: object, from_seat: int, now: float) -> None:
        """A payload the relay delivered from ``from_seat``; bad input ends the session."""
        self.tick(now)
        if self.is_finished:
            return
        if type(from_seat) is not int or not 0 <= from_seat < self._n:
            self._reject(frame, None, NonMemberSeat("the relay named no member seat"), now)
            return
        if from_seat == self.seat:
            return  # the relay never echoes; nothing to learn from my own frames
        try:
            message, text = parse_encoded(frame, self.table_id, self._keys, self._n)
            self._order.accept(message, from_seat)
            if isinstance(message, Commit):
                self._last_commit[from_seat] = message
        except MessageError as error:
            self._reject(frame, from_seat, error, now)
            return
        if isinstance(message, Reveal):
            try:
                self._screen_reveal(message)
            except BadReveal as error:  # refused as it arrives, like any frame that ends it
                self._reject(frame, from_seat, error, now)
                return
        self.transcript.append_message(_RECEIVED, from_seat, now, text)
        if isinstance(message, AbortNotice):
            self._reported(message, now, self.awaiting)
            return
        self._inbox[from_seat].append((message, text))
        self._pump(now, from_seat)

    def depart(self, seat: int, now: float) -> None:
        """``seat`` left the room: the relay announced it, or it is my own seat leaving on
        purpose (the player left, or this device stops the session). Either way the session
        ends with a departure naming that seat, and a signed notice is queued in ``outgoing``
        for whoever can still be reached (for my own seat: before the connection closes). A
        connection that is lost instead is ``lose_connection``."""
        self.tick(now)
        if self.is_finished or type(seat) is not int or not 0 <= seat < self._n:
            return
        if self._step is _RECEIPTS and seat in self._receipts:
            return
        self._fault(EndReason.DEPARTURE, seat, now)

    def lose_connection(self, now: float) -> None:
        """My own connection to the relay is gone (not a deliberate leave): the session ends
        here as my own departure, and no notice is written or queued, since none can reach
        anyone. So this seat's transcript tells a lost connection (an ``ended`` outcome naming
        my own seat with no notice of mine before it) from a leave (``depart(my seat)``: the
        signed notice first), spec/ONLINE.md §7."""
        self.tick(now)
        if self.is_finished:
            return
        self._fault(EndReason.DEPARTURE, self.seat, now, notify=False)

    def background(self, now: float) -> None:
        """This app went to the background: the session ends for everyone."""
        self.tick(now)
        if not self.is_finished:
            self._fault(EndReason.BACKGROUND, self.seat, now)

    def tick(self, now: float) -> None:
        """Fire every deadline that has passed by ``now``."""
        if self.is_finished or self._deadline is None:
            return
        if self.is_live and now >= self._session_deadline:
            self._fault(EndReason.DEADLINE, None, now)
        elif now >= self._deadline:
            waiting = self.awaiting
            self._fault(EndReason.DEADLINE, waiting[0] if waiting else None, now)

    # ------------------------------------------------------------------ internals
    def _send(self, message: Message, now: float) -> Message:
        signed, text = sign_encoded(message, self._key)
        self._order.accept(signed, self.seat)  # my own order: the same rules as everyone's
        self._my_seq += 1
        self._out.append(to_frame(signed))
        self.transcript.append_message(_SENT, self.seat, now, text)
        if isinstance(signed, (Commit, Reveal)):
            self._history.append((signed, text))
        return signed

    def _open_round(self, now: float) -> None:
        self._step = _COMMIT
        self._commits, self._reveals, self._choices = {}, {}, {}
        self._deadline = now + self.timeouts.confirm
        self._deadline_kind = DeadlineKind.CONFIRM
        self._events.append(RoundOpened(self.throw_index, self._deadline))

    def _pump(self, now: float, sender: int | None = None) -> None:
        """Take what the queues hold for this step, and move on while steps complete. A seat
        has at most one message for each step, and after a delivery from ``sender`` only its
        queue can have changed: the other queues are looked at again when the step moves on."""
        seats = self._others if sender is None else (sender,)
        try:
            while not self.is_finished:
                for s in seats:
                    if self._inbox[s]:
                        self._take(s, now)
                step = self._step
                if step is _COMMIT and len(self._commits) == self._n:
                    self._all_committed(now)
                elif step is _REVEAL and len(self._reveals) == self._n:
                    self._apply_round(now)
                elif step is _RECEIPTS and len(self._receipts) == self._n - 1:
                    self._compare_receipts()
                else:
                    return
                seats = self._others
        except _Fault as fault:  # a receipt out of step: verify cannot prove it yet, so reported
            self._fault(fault.reason, fault.seat, now)

    def _take(self, s: int, now: float) -> bool:
        """Consume seat ``s``'s next queued message if the current step takes it."""
        inbox = self._inbox[s]
        if not inbox:
            return False
        head, text = inbox[0]
        throw = self.throw_index
        if self._step is _COMMIT:
            if isinstance(head, Commit) and head.throw == throw and s not in self._commits:
                inbox.popleft()
                self._commits[s] = head
                self._history.append((head, text))
                self._events.append(ThrowCommitted(s, throw))
                return True
            if isinstance(head, Receipt):
                raise _Fault(EndReason.REPLAY, s)
            return False
        if self._step is _REVEAL:
            if isinstance(head, Reveal) and head.throw == throw and s not in self._reveals:
                inbox.popleft()
                self._accept_reveal(head, text)
                return True
            # a Receipt waits: this throw may complete the session (the sender saw every
            # reveal first); if it does not, the commit step refuses it
            return False
        if self._step is _RECEIPTS:
            if isinstance(head, Receipt):
                inbox.popleft()
                self._receipts[s] = head
                return True
            raise _Fault(EndReason.REPLAY, s)
        return False

    def _screen_reveal(self, reveal: Reveal) -> None:
        """Check a reveal as it arrives: against the sender's commit, and its choice against
        the table (which is at that throw's state: no reveal comes before my own commit)."""
        s = reveal.seat
        committed = self._last_commit[s]
        if committed is None or not verify_commitment(
            committed.commitment, self.table_id, reveal.throw, s, reveal.nonce, reveal.choice
        ):
            raise BadReveal(f"{seat_label(s)}'s reveal does not match its commit")
        try:
            choice = _choice(reveal.choice)
            actions = plan(self._table, s, choice)
        except PointlineError:
            raise BadReveal(f"{seat_label(s)} revealed a choice the rules refuse now") from None
        self._screened[s] = (choice, actions)

    def _accept_reveal(self, reveal: Reveal, text: str) -> None:
        s = reveal.seat
        self._choices[s] = screened = self._screened.pop(s)
        self._reveals[s] = reveal
        self._history.append((reveal, text))
        self._events.append(Revealed(s, reveal.throw, screened[0]))

    def _all_committed(self, now: float) -> None:
        throw = self.throw_index
        self._events.append(AllCommitted(throw))
        self._step = _REVEAL
        self._deadline = now + self.timeouts.response
        self._deadline_kind = DeadlineKind.RESPONSE
        message = Reveal(
            self.table_id, self.seat, self._my_seq, throw, self._my_nonce, self._my_choice
        )
        signed = self._send(message, now)
        assert isinstance(signed, Reveal)
        self._reveals[self.seat] = signed
        choice = _choice(self._my_choice)
        self._choices[self.seat] = (choice, self._my_plan)
        self._events.append(Revealed(self.seat, throw, choice))

    def _apply_round(self, now: float) -> None:
        throw = self.throw_index
        table = self._table
        for s in range(self._n):  # each seat's plan touches only its own seat: planned once
            for action in self._choices[s][1]:
                table.push(action)
        nonces = [self._reveals[s].nonce for s in range(self._n)]
        die1, die2 = derive_dice(self.table_id, throw, nonces)
        resolved = table.hands_resolved
        table.push(Throw(die1, die2))
        self.transcript.append_throw(throw, die1, die2)
        self._events.append(Thrown(throw, die1, die2, die1 + die2, table.phase, table.point))
        if table.hands_resolved != resolved:
            self._events.append(HandResolved(table.hands_resolved))
        if table.phase is Phase.COMPLETE:
            self._complete(now)
        elif table.phase is Phase.ENDED:
            ending = table.ending
            assert ending is not None
            self._finish_ended(ending.reason, ending.seat, self.seat, True)
        else:
            self._open_round(now)

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
        self.transcript.append(
            RecordKind.REJECTED,
            {
                "from": from_seat,
                "at": now,
                "error": error.code,
                "detail": error.message,
                "frame": rejected_frame(frame),
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
            who = self.seat if reporter is None else reporter
            self._events.append(ReceiptsIncomplete(reason, seat, who, proven, accused))
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
