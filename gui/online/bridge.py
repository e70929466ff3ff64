"""The online bridge: one person's relay connection and session as Qt properties for QML.

Screens: ``signin`` -> ``lobby`` -> ``table`` -> ``results``. Every request to the relay runs as
an asyncio task on the loop qasync runs inside Qt; the relay's answers and the protocol's
events arrive through ``RelayClient.next_event`` and update the properties.

At the table my choices for a throw are a local draft: a copy of the peer's kernel table on
which Allocate/Reset/Reduce/Remove are applied for my seat only (the kernel's rejection words
say why anything is refused). Confirm (come-out) or Roll (point phase) commits the draft's
choice through ``RelayClient.commit``; the shared table, dice and point only ever come from
the peer's own reconstruction. Help stays live and pauses nothing; going to the background
(application state Suspended or Hidden; losing focus alone is not that) ends the session for
everyone without a result.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

from PySide6.QtCore import Property, QObject, Qt, QTimer, Signal, Slot

from pointline.gui.controls import SeatControls
from pointline.gui.history import settlement_words
from pointline.gui.online.texts import (
    CASUAL_NOTICE,
    DEFAULT_RELAY,
    FREE_POINTS,
    REASON_TEXT,
    refusal,
    unreachable,
)
from pointline.kernel import (
    EndReason,
    Outcome,
    Phase,
    PointlineError,
    Table,
    current_choice,
)
from pointline.kernel.ledger import Settled
from pointline.net.client import (
    ClientError,
    Disconnected,
    MemberDeparted,
    RelayClient,
    RelayError,
    RosterChanged,
    SessionStarted,
    TranscriptSaved,
)
from pointline.net.errors import NetError
from pointline.net.keys import verification_words
from pointline.net.protocol import (
    DeadlineKind,
    ReceiptsIncomplete,
    ReceiptsMatched,
    ReceiptsMismatch,
    RoundOpened,
    SessionComplete,
    SessionEnded,
    Step,
    ThrowCommitted,
    Thrown,
    Timeouts,
)
from pointline.net.verify import verify_transcript
from pointline.net.wire import RosterEntry

SCREENS = ("signin", "lobby", "table", "results")
HELP_LIVE = "Help is open; the countdown keeps running: close Help to play."
Connect = Callable[[str], Awaitable[RelayClient]]

_BACKGROUND_STATES = (
    Qt.ApplicationState.ApplicationSuspended.value,
    Qt.ApplicationState.ApplicationHidden.value,
)


def words_for(session_key_hex: str) -> str:
    """A roster member's verification words, to compare out loud."""
    try:
        return " ".join(verification_words(bytes.fromhex(session_key_hex)))
    except (ValueError, NetError):
        return "(no valid key)"


class OnlineBridge(SeatControls, QObject):
    """The online screens' state; every property notifies through ``changed``."""

    ticked = Signal()

    def __init__(
        self,
        url: str = DEFAULT_RELAY,
        timeouts: Timeouts | None = None,
        connect: Connect | None = None,
        nonce_source: Callable[[], bytes] | None = None,
        sounds: Any = None,
        ca: str | None = None,
    ) -> None:
        super().__init__()
        self._url = url
        self.timeouts = timeouts or Timeouts()
        self._connect: Connect = connect or (
            lambda u: RelayClient.connect(
                u, timeouts=self.timeouts, nonce_source=nonce_source, ca=ca
            )
        )
        self.client: RelayClient | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._screen = "signin"
        self._busy = False
        self._error = ""
        self._name = ""
        self._code = ""
        self._creator = ""
        self._roster: tuple[RosterEntry, ...] = ()
        self._seat = -1
        self._draft: Table | None = None
        self._view: Table | None = None
        self._committed = False
        self.sounds = sounds
        """A ``gui.sound.Sounds`` (the app passes one; tests and screenshots play nothing)."""
        self._muted = bool(getattr(sounds, "muted", False))
        self._ledger_mark = 0
        self._outcome = ""  # "complete" | "ended" | ""
        self._end_text = ""
        self._receipts = ""
        self._transcript = ""
        self._verify_ok = False
        self._verify_text = ""
        self.submissions = 0
        """How many commits reached the client (tests check that blur or resize adds none)."""
        self._clock = QTimer(self)
        self._clock.setInterval(200)
        self._clock.timeout.connect(self.ticked)

    # ------------------------------------------------------------------ async plumbing
    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def idle(self, timeout: float = 10.0) -> None:
        """Wait until no request of ours is in flight (tests)."""
        async with asyncio.timeout(timeout):
            while any(t for t in self._tasks if t.get_name() != "online-pump" and not t.done()):
                await asyncio.sleep(0.01)

    def _set(self, **values: Any) -> None:
        for key, value in values.items():
            setattr(self, f"_{key}", value)
        self.changed.emit()

    def _announce(self, text: str) -> None:
        self._announcement = text
        self.announced.emit(text)
        self.changed.emit()

    @property
    def peer(self):  # type: ignore[no-untyped-def]
        return None if self.client is None else self.client.peer

    @property
    def table(self) -> Table | None:
        """The peer's reconstruction as of the last event (``Peer.table`` copies: cache it)."""
        return self._view

    def _refresh_view(self) -> None:
        peer = self.peer
        self._view = None if peer is None else peer.table

    # ------------------------------------------------------------------ sign in
    async def _sign(self, url: str, name: str, password: str, signup: bool) -> None:
        url = url.strip() or DEFAULT_RELAY
        self._set(busy=True, error="", url=url)
        try:
            if self.client is None or self.client.closed.is_set():
                try:
                    self.client = await asyncio.wait_for(self._connect(url), 12.0)
                except ClientError as exc:  # unreachable, refused certificate, bad address
                    self._set(error=exc.text)
                    return
                except (OSError, TimeoutError) as exc:
                    self._set(error=unreachable(url, str(exc) or "no answer"))
                    return
                task = self._spawn(self._pump(self.client))
                task.set_name("online-pump")
            try:
                if signup:
                    await self.client.signup(name, password)
                else:
                    await self.client.signin(name, password)
            except ClientError as exc:
                self._set(error=refusal(exc.code, exc.message))
                return
            except TimeoutError:
                self._set(error=unreachable(url, "the relay did not answer"))
                return
            self._set(name=name, screen="lobby", error="")
            self._announce(f"Signed in as {name}. Create a room or join one by its code.")
        finally:
            self._set(busy=False)

    @Slot(str, str, str)
    def signIn(self, url: str, name: str, password: str) -> None:
        self._spawn(self._sign(url, name, password, signup=False))

    @Slot(str, str, str)
    def signUp(self, url: str, name: str, password: str) -> None:
        self._spawn(self._sign(url, name, password, signup=True))

    # ------------------------------------------------------------------ lobby
    async def _request(self, make: Callable[[RelayClient], Awaitable[Any]]) -> Any:
        client = self.client
        if client is None:
            self._set(error="Sign in first.")
            return None
        self._set(busy=True, error="")
        try:
            return await make(client)
        except ClientError as exc:
            self._set(error=refusal(exc.code, exc.message))
            return None
        except TimeoutError:
            self._set(error="The relay did not answer in time.")
            return None
        finally:
            self._set(busy=False)

    async def _enter(self, make: Callable[[RelayClient], Awaitable[Any]]) -> None:
        room = await self._request(make)
        if room is None:
            return
        self._set(code=room.code, creator=room.creator, roster=room.roster, seat=room.seat)
        self._announce(f"Room {room.code}: you are seat {room.seat + 1}. Share the code.")

    @Slot()
    def createRoom(self) -> None:
        self._spawn(self._enter(lambda c: c.create_room()))

    @Slot(str)
    def joinRoom(self, code: str) -> None:
        code = code.strip().upper()
        if not code:
            self._set(error="Type the room's join code first.")
            return
        self._spawn(self._enter(lambda c: c.join_room(code)))

    @Slot()
    def startRoom(self) -> None:
        reason = self._start_reason()
        if reason:
            self._set(error=reason)
            return
        self._spawn(self._request(lambda c: c.start()))

    async def _leave(self) -> None:
        if self.client is not None:
            await self.client.leave()
        self._set(code="", creator="", roster=(), seat=-1)

    @Slot()
    def leaveRoom(self) -> None:
        """Leave the room (once started: a departure that ends the session for everyone)."""
        self._spawn(self._leave())

    @Slot()
    def backToLobby(self) -> None:
        """After the results: a fresh room (nothing carries over between sessions).

        A client runs one session, so the lobby gets a new connection signed in with the same
        account token (the relay's tokens belong to the account, not to a connection).
        """
        self._spawn(self._reconnect())
        self._set(
            screen="lobby",
            outcome="",
            end_text="",
            receipts="",
            transcript="",
            verify_text="",
            verify_ok=False,
            draft=None,
            view=None,
            dice=(0, 0),
            serial=0,
            notice="",
            help=False,
        )

    async def _reconnect(self) -> None:
        old = self.client
        self.client = None
        self._set(code="", creator="", roster=(), seat=-1, busy=True)
        try:
            if old is not None:
                await old.close()
            if old is None or old.token is None:
                self._set(screen="signin")
                return
            try:
                client = await asyncio.wait_for(self._connect(self._url), 12.0)
            except Exception as exc:  # unreachable now: back to sign-in with the reason
                self._set(screen="signin", error=unreachable(self._url, str(exc) or "no answer"))
                return
            client.name, client.token = old.name, old.token
            self.client = client
            self._spawn(self._pump(client)).set_name("online-pump")
        finally:
            self._set(busy=False)

    async def shutdown(self) -> None:
        """Close the connection (a departure if a session runs) and stop our tasks."""
        self._clock.stop()
        if self.client is not None:
            await self.client.close()
        for task in list(self._tasks):
            task.cancel()

    # ------------------------------------------------------------------ events
    async def _pump(self, client: RelayClient) -> None:
        while True:
            event = await client.next_event()
            if client is not self.client:
                return  # a connection we have replaced (back to the lobby): nothing to show
            self._on_event(event)
            if isinstance(event, Disconnected):
                return

    def _on_event(self, event: Any) -> None:
        self._refresh_view()
        match event:
            case RosterChanged(code, creator, roster):
                self._set(code=code, creator=creator, roster=roster)
                self._announce(f"{len(roster)} in room {code}")
            case SessionStarted(code, _table_id, seat, roster, _path):
                self._set(code=code, seat=seat, roster=roster, screen="table", committed=False)
                self._ledger_mark = 0
                self._clock.start()
                self._announce(
                    f"The session started: {len(roster)} seats, you are seat {seat + 1}. "
                    "Allocate, then confirm within 45 seconds."
                )
            case RoundOpened():
                self._fresh_draft()
                self._announce(self._round_words())
            case ThrowCommitted(seat, _throw):
                if seat != self._seat:
                    self.changed.emit()
            case Thrown():
                self._on_thrown(event)
            case SessionComplete(result):
                me = self._seat
                self._set(outcome="complete", screen="results", help=False)
                self._announce(
                    f"Session complete: your final points {result.final[me]:,}, "
                    f"rank {result.ranks[me]} of {len(result.final)}."
                )
            case SessionEnded(reason, seat):
                if self._lost_relay(reason, seat):
                    text = "No result: the connection to the relay was lost."
                else:
                    who = "" if seat is None else f" (seat {seat + 1}, {self._seat_name(seat)})"
                    text = f"No result: {REASON_TEXT[reason]}{who}."
                self._set(outcome="ended", screen="results", end_text=text, help=False)
                self._clock.stop()
                self._announce(text)
            case ReceiptsMatched(count):
                self._set(receipts=f"{count} of {count} signed receipts matched within 8 s.")
            case ReceiptsMismatch(seats):
                names = ", ".join(f"seat {s + 1}" for s in seats)
                self._set(receipts=f"Receipts differ from yours: {names}.")
            case ReceiptsIncomplete(reason, seat):
                who = "" if seat is None else f" (seat {seat + 1})"
                self._set(receipts=f"Receipts incomplete: {REASON_TEXT[reason]}{who}.")
            case TranscriptSaved(path):
                self._clock.stop()
                self._on_saved(path)
            case MemberDeparted(seat, name):
                if self._screen in ("table", "results"):
                    self._announce(f"{name} (seat {seat + 1}) left.")
            case RelayError(code, message):
                if code == "room_closed":
                    self._set(code="", creator="", roster=(), seat=-1)
                self._set(error=refusal(code, message))
            case Disconnected(reason):
                self._clock.stop()
                self.client = None
                if self._screen in ("lobby",):
                    self._set(screen="signin", code="", roster=(), seat=-1)
                self._set(error=f"Disconnected from the relay: {reason}.")
        self.changed.emit()

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
        report = verify_transcript(path)
        verdict = (
            "pointline verify accepts it." if report.ok else f"pointline verify: {report.problem}"
        )
        self._set(transcript=str(path), verify_ok=report.ok, verify_text=verdict)

    def _fresh_draft(self) -> None:
        table = self.table
        self._draft = None if table is None else table.copy()
        self._committed = False
        self._notice = ""

    def _on_thrown(self, event: Thrown) -> None:
        table = self.table
        assert table is not None
        words = [f"Throw {event.throw}: {event.die1} and {event.die2}, total {event.total}"]
        entries = table.ledger_since(self._seat, self._ledger_mark)
        self._ledger_mark = table.ledger_length(self._seat)
        settled = [e for e in entries if isinstance(e, Settled)]
        words.extend(settlement_words(e) for e in settled)
        self._play("dice")
        outcomes = {e.outcome for e in settled}
        for outcome in (Outcome.WIN, Outcome.LOSS, Outcome.PUSH):
            if outcome in outcomes:
                self._play(outcome.value)
                break
        if table.phase is Phase.POINT and event.phase is not Phase.POINT:
            words.append(f"Point is {table.point}")
        self._dice = (event.die1, event.die2)
        self._serial += 1
        self._fresh_draft()
        self.rolled.emit()
        self._announce(". ".join(words) + ".")

    def _play(self, name: str) -> None:
        if self.sounds is not None and not self._muted:
            self.sounds.play(name)

    def _round_words(self) -> str:
        table = self.table
        if table is None:
            return ""
        if table.phase is Phase.POINT:
            return f"Point {table.point}: prepare Don't Pass if you like, then Roll."
        return f"Come-out for hand {table.hand}: allocate, then Confirm."

    def _seat_name(self, seat: int) -> str:
        for entry in self._roster:
            if entry.seat == seat:
                return entry.name
        return f"seat {seat + 1}"

    # ------------------------------------------------------------------ the draft
    def _seat_index(self) -> int:
        return self._seat

    def _choice_table(self) -> Table | None:
        return self._draft

    def _ledger(self) -> Any:
        t = self.table
        return None if t is None or self._seat < 0 else t.seat(self._seat).ledger

    def _live(self) -> bool:
        peer = self.peer
        return peer is not None and peer.state is Step.COMMIT and self._draft is not None

    def reason(self, name: str) -> str:
        """Why an action is refused now ("" when legal): Help, the step, else the kernel."""
        if self._help:
            return HELP_LIVE
        peer = self.peer
        if peer is None or self._draft is None:
            return "The session has not started."
        if peer.is_finished or peer.state in (Step.COMPLETE, Step.ENDED):
            return "The session is over."
        if self._committed or peer.has_committed:
            return "Your choice for this throw is committed: waiting for the others."
        if peer.state is not Step.COMMIT:
            return "Waiting for every seat's reveal."
        code = self._draft.rejection(self._action(name))
        return "" if code is None else code.text

    def _submit(self, name: str) -> bool:
        why = self.reason(name)
        if why:
            self._notice = why
            self._announce(why)
            return False
        draft, client = self._draft, self.client
        assert draft is not None and client is not None
        action = self._action(name)
        if name in ("confirm", "roll"):
            choice = current_choice(draft, self._seat)
            try:
                client.commit(choice)
            except (PointlineError, NetError, ClientError) as exc:
                self._notice = str(exc)
                self._announce(self._notice)
                return False
            draft.push(action)
            self.submissions += 1
            self._committed = True
            self._notice = ""
            self._announce(
                f"Committed Pass {choice.pass_amount}, Don't Pass {choice.dont_pass_amount} "
                "for this throw; waiting for the others."
            )
            return True
        draft.push(action)
        d = draft.draft(self._seat)
        self._notice = ""
        self._announce(f"Draft: Pass {d.pass_amount}, Don't Pass {d.dont_pass_amount}")
        return True

    # ------------------------------------------------------------------ properties
    def _phase(self) -> str:
        t = self.table
        return "come_out" if t is None else str(t.phase.value)

    def _my(self, what: str) -> int:
        t = self._draft if self._draft is not None else self.table
        if t is None or self._seat < 0:
            return 1000 if what == "balance" else 0
        if what == "balance":
            return (self.table or t).balance(self._seat)
        if what in ("draftPass", "draftDontPass"):
            d = t.draft(self._seat)
            return d.pass_amount if what == "draftPass" else d.dont_pass_amount
        c = (self.table or t).contracts(self._seat)
        return c.pass_amount if what == "contractPass" else c.dont_pass_amount

    def _roster_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": e.seat,
                "name": e.name,
                "words": words_for(e.session_key),
                "you": e.seat == self._seat,
                "creator": e.name == self._creator,
            }
            for e in self._roster
        ]

    def _seat_rows(self) -> list[dict[str, Any]]:
        t, peer = self.table, self.peer
        if t is None or peer is None:
            return []
        awaiting = set(peer.awaiting) if peer.state is Step.COMMIT else set()
        rows = []
        for e in self._roster:
            c = t.contracts(e.seat)
            rows.append(
                {
                    "seat": e.seat,
                    "name": e.name,
                    "you": e.seat == self._seat,
                    "balance": t.balance(e.seat),
                    "pass": c.pass_amount,
                    "dontPass": c.dont_pass_amount,
                    "awaited": e.seat in awaiting,
                    "status": ("choosing" if e.seat in awaiting else "committed")
                    if peer.state is Step.COMMIT
                    else "",
                }
            )
        return rows

    def _awaited_text(self) -> str:
        peer = self.peer
        if peer is None or peer.is_finished:
            return ""
        if peer.state is Step.RECEIPTS:
            return "Exchanging signed receipts…"
        names = ["you" if s == self._seat else self._seat_name(s) for s in peer.awaiting]
        if not names:
            return ""
        step = "choose" if peer.state is Step.COMMIT else "reveal"
        return "Waiting for " + ", ".join(names) + f" to {step}"

    def _seconds_left(self) -> int:
        peer, client = self.peer, self.client
        if peer is None or client is None or peer.is_finished:
            return 0
        if peer.deadline_kind is not DeadlineKind.CONFIRM:
            return 0
        deadline = peer.next_deadline()
        if deadline is None:
            return 0
        return max(0, int(deadline - client.loop.time() + 0.999))

    def _results(self) -> list[dict[str, Any]]:
        t = self.table
        result = None if t is None else t.result
        if result is None:
            return []
        rows = [
            {
                "seat": s,
                "name": self._seat_name(s),
                "final": result.final[s],
                "rank": result.ranks[s],
                "you": s == self._seat,
            }
            for s in range(len(result.final))
        ]
        return sorted(rows, key=lambda r: (r["rank"], r["seat"]))

    def _start_reason(self) -> str:
        if not self._code:
            return "Create or join a room first."
        if self._creator != self._name:
            return f"Waiting for {self._creator}, who created the room, to start it."
        if not 2 <= len(self._roster) <= 8:
            return "A room starts with 2 to 8 people: wait for at least one more."
        return ""

    screen = Property(str, lambda self: self._screen, notify=SeatControls.changed)
    relayUrl = Property(str, lambda self: self._url, notify=SeatControls.changed)
    busy = Property(bool, lambda self: self._busy, notify=SeatControls.changed)
    error = Property(str, lambda self: self._error, notify=SeatControls.changed)
    name = Property(str, lambda self: self._name, notify=SeatControls.changed)
    roomCode = Property(str, lambda self: self._code, notify=SeatControls.changed)
    creator = Property(str, lambda self: self._creator, notify=SeatControls.changed)
    isCreator = Property(
        bool,
        lambda self: bool(self._code) and self._creator == self._name,
        notify=SeatControls.changed,
    )
    roster = Property("QVariantList", _roster_rows, notify=SeatControls.changed)
    canStart = Property(bool, lambda self: not self._start_reason(), notify=SeatControls.changed)
    startReason = Property(str, _start_reason, notify=SeatControls.changed)
    mySeat = Property(int, lambda self: self._seat, notify=SeatControls.changed)

    point = Property(
        int, lambda self: (self.table.point or 0) if self.table else 0, notify=SeatControls.changed
    )
    hand = Property(
        int, lambda self: self.table.hand if self.table else 1, notify=SeatControls.changed
    )
    throws = Property(
        int, lambda self: self.table.throws if self.table else 0, notify=SeatControls.changed
    )
    balance = Property(int, lambda self: self._my("balance"), notify=SeatControls.changed)
    draftPass = Property(int, lambda self: self._my("draftPass"), notify=SeatControls.changed)
    draftDontPass = Property(
        int, lambda self: self._my("draftDontPass"), notify=SeatControls.changed
    )
    contractPass = Property(int, lambda self: self._my("contractPass"), notify=SeatControls.changed)
    contractDontPass = Property(
        int, lambda self: self._my("contractDontPass"), notify=SeatControls.changed
    )
    seats = Property("QVariantList", _seat_rows, notify=SeatControls.changed)
    committed = Property(bool, lambda self: self._committed, notify=SeatControls.changed)
    awaitedText = Property(str, _awaited_text, notify=SeatControls.changed)
    secondsLeft = Property(int, _seconds_left, notify=ticked)
    confirmSeconds = Property(int, lambda self: round(self.timeouts.confirm), constant=True)
    muted = Property(bool, lambda self: self._muted, notify=SeatControls.changed)

    outcome = Property(str, lambda self: self._outcome, notify=SeatControls.changed)
    results = Property("QVariantList", _results, notify=SeatControls.changed)
    endText = Property(str, lambda self: self._end_text, notify=SeatControls.changed)
    receiptsText = Property(str, lambda self: self._receipts, notify=SeatControls.changed)
    transcriptPath = Property(str, lambda self: self._transcript, notify=SeatControls.changed)
    verifyOk = Property(bool, lambda self: self._verify_ok, notify=SeatControls.changed)
    verifyText = Property(str, lambda self: self._verify_text, notify=SeatControls.changed)
    casualNotice = Property(str, lambda self: CASUAL_NOTICE, constant=True)
    freeText = Property(str, lambda self: FREE_POINTS, constant=True)

    # ------------------------------------------------------------------ table slots
    @Slot()
    def escape(self) -> None:
        """Escape closes Help; online nothing pauses, so otherwise it only says so."""
        if self._help:
            self._help = False
            self.changed.emit()
        elif self._screen == "table":
            self._announce("Online sessions do not pause: the countdown keeps running.")

    @Slot()
    def toggleMute(self) -> None:
        self._muted = not self._muted
        if self.sounds is not None:
            self.sounds.muted = self._muted
        self._announce("Sound off" if self._muted else "Sound on")

    @Slot(int)
    def applicationStateChanged(self, state: int) -> None:
        """Suspended or Hidden ends a running session without a result (not a focus loss)."""
        if state not in _BACKGROUND_STATES:
            return
        peer, client = self.peer, self.client
        if client is None or peer is None or peer.is_finished:
            return
        with contextlib.suppress(ClientError):
            client.background()
