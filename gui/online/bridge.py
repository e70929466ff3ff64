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

Every property has its own notify signal (or shares one with a small coherent group, such as
the two draft amounts), emitted only when its value changes: after anything that may change
state, ``_sync`` reads each group's values and emits the signals of the groups that differ from
what QML last saw. The seat-control slots of the shared ``SeatControls`` mixin emit its
``changed``, which runs ``_sync`` here; the mixin's properties are redeclared below with their
own signals, so no online property notifies through ``changed``.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, ClassVar

from PySide6.QtCore import Property, QObject, QSettings, Qt, Signal, Slot

from pointline.gui.bridge import WINDOW_MODES
from pointline.gui.clock import Clock as BeatClock
from pointline.gui.controls import ACTIONS, QVARIANT_LIST, QVARIANT_MAP, SeatControls
from pointline.gui.device import fake_insets, is_mobile
from pointline.gui.history import chart_samples, draft_words, line_outcomes, settlement_words
from pointline.gui.online.countdown import Clock, Countdown
from pointline.gui.online.models import RowsModel
from pointline.gui.online.moment import ResultMoment, reduce_motion_setting
from pointline.gui.online.texts import (
    CASUAL_NOTICE,
    DEFAULT_RELAY,
    FREE_POINTS,
    HELP_KEYS,
    HELP_TOUCH,
    KEY_HINTS,
    KEY_HINTS_SHORT,
    MAX_PEOPLE,
    MIN_PEOPLE,
    NAME_HINT,
    NO_RELAY_YET,
    REASON_TEXT,
    RELAY_LOST,
    help_html,
    password_hint,
    people,
    refusal,
    seat_label,
    seconds,
    sign_in_problem,
    unreachable,
)
from pointline.gui.online.trust import RelayTrust
from pointline.gui.texts import SOLO_WORDS
from pointline.kernel import (
    POINT_NUMBERS,
    STARTING_POINTS,
    UNIT,
    EndReason,
    Outcome,
    Phase,
    PointlineError,
    Standing,
    Table,
    current_choice,
    is_online_seat_count,
)
from pointline.kernel.ledger import Settled, Voided
from pointline.net.client import (
    Disconnected,
    MemberDeparted,
    RelayClient,
    RelayError,
    RosterChanged,
    SessionStarted,
    TranscriptFailed,
    TranscriptSaved,
    connect_trusted,
)
from pointline.net.errors import ClientError, NetError
from pointline.net.keys import verification_words
from pointline.net.paths import data_dir
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
from pointline.net.trust import CertificateNotTrusted, KnownRelays, RelayKeyChanged
from pointline.net.verify import Report, verify_transcript
from pointline.net.wire import RosterEntry

SEAT_KEYS = ("seat", "label", "name", "you", "balance", "pass", "dontPass", "awaited", "status")
STANDING_KEYS = ("seat", "label", "name", "final", "rank", "you", "chart")
"""A standing's ``rank`` is 0 when the session ended without a result (no ranks then)."""
CREATOR_SEAT = 0
"""The relay seats a room's creator at seat 0 of its roster (net/rooms.py)."""
DECLINED_TRUST = "Nothing was trusted and nothing was sent: check the relay's address."
SIT_OUT_ASK = "Sit out this hand? Press Sit out (or Enter) again to sit it out, or allocate first."
HELP_LIVE = "Help is open; the countdown keeps running: close Help to play."
Connect = Callable[[str], Awaitable[RelayClient]]
Verify = Callable[[Path], Report]

_BACKGROUND_STATES = (
    Qt.ApplicationState.ApplicationSuspended.value,
    Qt.ApplicationState.ApplicationHidden.value,
)


def loop_time() -> float:
    """The running event loop's clock: the one the protocol's deadlines are kept in."""
    return asyncio.get_event_loop().time()


def words_for(session_key_hex: str) -> str:
    """A roster member's verification words, to compare out loud."""
    try:
        return " ".join(verification_words(bytes.fromhex(session_key_hex)))
    except (ValueError, NetError):
        return "(no valid key)"


def verdict_words(report: Report) -> tuple[bool, str]:
    """What ``pointline verify`` said about the saved transcript, in plain words."""
    if not report.ok:
        return False, (
            "pointline verify found a problem in this transcript: it does not prove this session."
        )
    if report.complete:
        return True, "pointline verify accepts it: every throw, the dice and the points match."
    return True, (
        "pointline verify accepts what it holds, but it is incomplete: a signed receipt is "
        "missing or does not match."
    )


class OnlineBridge(SeatControls, QObject):
    """The online screens' state; each property notifies through its own signal."""

    left = Signal()
    """The bridge has shut down after ``leave`` (the app returns to the solo table)."""

    # ---- one notify signal per property (or per small coherent group) --------------------
    screenChanged = Signal()
    relayUrlChanged = Signal()
    busyChanged = Signal()
    errorChanged = Signal()
    nameChanged = Signal()
    roomChanged = Signal()  # roomCode, creator, isCreator, mySeat, mySeatLabel
    rosterChanged = Signal()
    startChanged = Signal()  # canStart, startReason
    positionChanged = Signal()  # phase, point, hand, throws
    balanceChanged = Signal()
    draftChanged = Signal()  # draftPass, draftDontPass
    contractsChanged = Signal()  # contractPass, contractDontPass
    committedChanged = Signal()
    confirmLabelChanged = Signal()
    awaitedTextChanged = Signal()
    mutedChanged = Signal()
    outcomeChanged = Signal()
    endTextChanged = Signal()
    receiptsTextChanged = Signal()
    transcriptPathChanged = Signal()
    verifyChanged = Signal()  # verifying, verifyOk, verifyText
    selectedLineChanged = Signal()
    legalChanged = Signal()
    reasonsChanged = Signal()
    lineReasonsChanged = Signal()
    historyChanged = Signal()
    chartChanged = Signal()
    diceChanged = Signal()  # die1, die2, rollSerial
    revealChanged = Signal()  # revealStage, the result moment's beat
    helpOpenChanged = Signal()
    announcementChanged = Signal()
    noticeChanged = Signal()
    lineOutcomesChanged = Signal()
    windowModeChanged = Signal()
    askingLeaveChanged = Signal()
    keyHintsChanged = Signal()

    _GROUPS: ClassVar[dict[str, tuple[str, ...]]] = {
        "screenChanged": ("screen",),
        "relayUrlChanged": ("relayUrl",),
        "busyChanged": ("busy",),
        "errorChanged": ("error",),
        "nameChanged": ("name",),
        "roomChanged": ("roomCode", "creator", "isCreator", "mySeat", "mySeatLabel"),
        "rosterChanged": ("roster",),
        "startChanged": ("canStart", "startReason"),
        "positionChanged": ("phase", "point", "hand", "throws"),
        "balanceChanged": ("balance",),
        "draftChanged": ("draftPass", "draftDontPass"),
        "contractsChanged": ("contractPass", "contractDontPass"),
        "committedChanged": ("committed",),
        "confirmLabelChanged": ("confirmLabel",),
        "awaitedTextChanged": ("awaitedText",),
        "mutedChanged": ("muted",),
        "outcomeChanged": ("outcome",),
        "endTextChanged": ("endText",),
        "receiptsTextChanged": ("receiptsText",),
        "transcriptPathChanged": ("transcriptPath",),
        "verifyChanged": ("verifying", "verifyOk", "verifyText"),
        "selectedLineChanged": ("selectedLine",),
        "legalChanged": ("legal",),
        "reasonsChanged": ("reasons",),
        "lineReasonsChanged": ("lineReasons",),
        "historyChanged": ("history",),
        "chartChanged": ("chart",),
        "diceChanged": ("die1", "die2", "rollSerial"),
        "revealChanged": ("revealStage",),
        "helpOpenChanged": ("helpOpen",),
        "announcementChanged": ("announcement",),
        "noticeChanged": ("notice",),
        "lineOutcomesChanged": ("lineOutcomes",),
        "windowModeChanged": ("windowMode",),
        "askingLeaveChanged": ("askingLeave",),
        "keyHintsChanged": ("keyHints", "keyHintsShort"),
    }

    def __init__(
        self,
        url: str = DEFAULT_RELAY,
        timeouts: Timeouts | None = None,
        connect: Connect | None = None,
        nonce_source: Callable[[], bytes] | None = None,
        sounds: Any = None,
        ca: str | None = None,
        on_leave: Callable[[], None] | None = None,
        verify: Verify = verify_transcript,
        clock: Clock | None = None,
        reduce_motion: bool | None = None,
        beats: BeatClock | None = None,
    ) -> None:
        """``clock`` is what the countdown reads (default: the event loop's time, which the
        protocol's deadlines are kept in); ``reduce_motion`` defaults to the player's setting;
        ``beats`` runs the result moment's beats (default: a ``QtClock``)."""
        super().__init__()
        self._url = url
        self.timeouts = timeouts or Timeouts()
        # No lambda over self here: the bridge must not sit in a reference cycle, so that it
        # is freed on the GUI thread when the app drops it, never by a garbage collection that
        # happens to run on another thread (a QObject deleted there leaves its timers behind).
        self._connect_override = connect
        self._nonce_source = nonce_source
        self._ca = ca
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
        self._sit_out_armed = False
        """Confirm was pressed once on an empty draft: the next press sits the hand out."""
        self.sounds = sounds
        """A ``gui.sound.Sounds`` (the app passes one; tests and screenshots play nothing)."""
        self._muted = bool(getattr(sounds, "muted", False))
        self._ledger_mark = 0
        self._outcome = ""  # "complete" | "ended" | ""
        self._end_text = ""
        self._outcomes: dict[str, str] = {}
        self._receipts = ""
        self._transcript = ""
        self._verifying = False
        self._verify_ok = False
        self._verify_text = ""
        self._verify: Verify = verify
        self.verify_threads: list[int] = []
        """The thread id each verification ran on (tests check it is not the GUI thread)."""
        self._mode = "standard"
        self._asking_leave = False
        self._mobile = is_mobile()
        self._insets = fake_insets()
        self._on_leave = on_leave
        self._leaving = False
        self._help_html = help_html(self.timeouts)
        self._trust = RelayTrust(self)
        self._pending: tuple[str, str, str, bool] | None = None
        """The sign-in waiting for the player to trust the relay's certificate."""
        self.submissions = 0
        """How many commits reached the client (tests check that blur or resize adds none)."""
        self._seen: dict[str, tuple[Any, ...]] = {}
        self._syncing = False
        self._shown: Table | None = None
        """My table as it was before the throw whose result moment is showing (else None)."""
        self._next_outcomes: dict[str, str] = {}
        self._next_words = ""
        self._next_sound = ""
        self._after_moment = ""
        """The screen to show when the moment ends (the last throw completed the session)."""
        self._countdown = Countdown(clock or loop_time, self)
        motion = reduce_motion_setting() if reduce_motion is None else reduce_motion
        self._moment = ResultMoment(self, reduce_motion=motion, clock=beats)
        self._moment.stageChanged.connect(self._on_beat)
        self._seats = RowsModel(SEAT_KEYS, self)
        self._standings = RowsModel(STANDING_KEYS, self)
        self.changed.connect(self._sync)  # the mixin's slots (line, Help) announce through it
        self._sync()

    def _connect(self, url: str) -> Awaitable[RelayClient]:
        """Connect with the relay's key and certificate pinned on first use (``net.trust``,
        kept in the app's data folder); a certificate given as ``ca`` is trusted instead."""
        if self._connect_override is not None:
            return self._connect_override(url)
        options: dict[str, Any] = {"timeouts": self.timeouts, "nonce_source": self._nonce_source}
        if self._ca is not None:
            options["ca"] = self._ca
        return connect_trusted(url, KnownRelays(data_dir()), **options)

    # ------------------------------------------------------------------ notification
    def _sync(self) -> None:
        """Emit the notify signal of every property group whose value changed since last time."""
        if self._syncing:
            return
        self._syncing = True
        try:
            due = []
            for signal, names in self._GROUPS.items():
                values = tuple(getattr(self, n) for n in names)
                if self._seen.get(signal) != values:
                    self._seen[signal] = values
                    due.append(signal)
        finally:
            self._syncing = False
        for signal in due:
            getattr(self, signal).emit()
        self._seats.set_rows(self._seat_rows())
        self._standings.set_rows(self._standing_rows())

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
        self._sync()

    def _announce(self, text: str) -> None:
        self._announcement = text
        self.announced.emit(text)
        self._sync()

    @property
    def peer(self):  # type: ignore[no-untyped-def]
        return None if self.client is None else self.client.peer

    @property
    def table(self) -> Table | None:
        """The peer's reconstruction as of the last event (``Peer.table`` copies: cache it)."""
        return self._view

    @property
    def shown(self) -> Table | None:
        """The table the screen shows: my pre-throw table while a result moment runs."""
        return self._shown if self._shown is not None else self._view

    def _refresh_countdown(self) -> None:
        """Count to the confirm deadline while choices are open; hidden during the moment."""
        peer = self.peer
        running = peer is not None and not peer.is_finished
        confirm = running and peer.deadline_kind is DeadlineKind.CONFIRM
        self._countdown.hold(self._moment.running)
        self._countdown.run_to(peer.next_deadline() if confirm and peer else None)

    def _refresh_view(self) -> None:
        peer = self.peer
        if peer is None:
            if self._screen != "results":
                self._view = None  # the results keep the last table in sight
            return
        self._view = peer.table

    def _session_running(self) -> bool:
        peer = self.peer
        return peer is not None and not peer.is_finished

    # ------------------------------------------------------------------ sign in
    async def _sign(self, url: str, name: str, password: str, signup: bool) -> None:
        url = url.strip() or DEFAULT_RELAY
        self._set(busy=True, error="", url=url)
        try:
            if self.client is None or self.client.closed.is_set():
                try:
                    self.client = await asyncio.wait_for(self._connect(url), 12.0)
                except CertificateNotTrusted as exc:  # ask: "Trust this relay's certificate"
                    self._pending = (url, name, password, signup)
                    self._trust.ask_certificate(exc)
                    self._announce(exc.text)
                    return
                except ClientError as exc:  # unreachable, refused certificate, bad address
                    known = exc.code in ("certificate", "bad_ca", "not_tls")
                    self._set(error=refusal(exc.code) if known else unreachable(url))
                    return
                except (OSError, TimeoutError):
                    self._set(error=unreachable(url))
                    return
                task = self._spawn(self._pump(self.client))
                task.set_name("online-pump")
            try:
                if signup:
                    await self.client.signup(name, password)
                else:
                    await self.client.signin(name, password)
            except RelayKeyChanged as exc:  # signed in, but the lobby waits for the player
                self._trust.ask_key(exc)
                self._announce(exc.text)
                return
            except ClientError as exc:
                self._set(error=refusal(exc.code, exc.text))
                return
            except TimeoutError:
                self._set(error="The relay did not answer in time: try again.")
                return
            self._signed_in(name)
        finally:
            self._set(busy=False)

    def _signed_in(self, typed: str) -> None:
        name = (self.client.name if self.client else None) or typed  # the account's spelling
        self._set(name=name, screen="lobby", error="")
        self._announce(f"Signed in as {name}. Create a room or join one by its code.")

    @Slot()
    def trustCertificate(self) -> None:
        """The player compared the fingerprint and trusts it: pin it, then sign in again."""
        certificate, pending = self._trust.certificate, self._pending
        self._trust.clear()
        self._pending = None
        if certificate is None or pending is None:
            return
        try:
            KnownRelays(data_dir()).pin_certificate(certificate.address, certificate.pem)
        except ClientError as exc:
            self._set(error=exc.text)
            return
        self._spawn(self._sign(*pending))

    @Slot()
    def acceptRelayKey(self) -> None:
        """The player accepts the relay's new key (its owner said it changed): the lobby opens."""
        if self._trust.key_change is None or self.client is None:
            return
        self._trust.clear()
        self.client.accept_relay_key()
        self._signed_in(self._name)

    @Slot()
    def declineTrust(self) -> None:
        """Not trusted: nothing is pinned, and no sign-in stays open."""
        asking = self._trust.asking
        self._trust.clear()
        self._pending = None
        if not asking:
            return
        self._set(error=DECLINED_TRUST)
        self._spawn(self._drop_connection())

    async def _drop_connection(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            await client.close()

    def _sign_slot(self, url: str, name: str, password: str, signup: bool) -> None:
        if self._busy:
            self._set(error=refusal("busy"))
            return
        problem = sign_in_problem(name, password)
        if problem:  # refused here: nothing is sent and nothing changes but the message
            self._set(error=problem)
            self._announce(problem)
            return
        self._spawn(self._sign(url, name, password, signup))

    @Slot(str, str, str)
    def signIn(self, url: str, name: str, password: str) -> None:
        self._sign_slot(url, name, password, signup=False)

    @Slot(str, str, str)
    def signUp(self, url: str, name: str, password: str) -> None:
        self._sign_slot(url, name, password, signup=True)

    @Slot()
    def signOut(self) -> None:
        """Revoke this sign-in at the relay and return to the sign-in screen (not mid-session)."""
        if self._session_running():
            self._set(error="Leave the table first: signing out is for the lobby.")
            return
        self._spawn(self._signout())

    async def _signout(self) -> None:
        client = self.client
        self._set(busy=True, error="")
        note = ""
        try:
            if client is not None and not client.closed.is_set():
                if self._code:
                    await client.leave()
                if client.token is not None:
                    try:
                        await client.signout()
                    except (ClientError, TimeoutError):
                        note = (
                            "Signed out on this device; the relay did not confirm, so your "
                            "sign-in there ends when it expires."
                        )
            self.client = None
            if client is not None:
                await client.close()
        finally:
            self._reset_account(error=note)
        self._announce("Signed out.")

    def _reset_account(self, error: str = "") -> None:
        self._set(
            screen="signin",
            name="",
            code="",
            creator="",
            roster=(),
            seat=-1,
            busy=False,
            error=error,
            asking_leave=False,
        )

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
            self._set(error=refusal(exc.code, exc.text))
            return None
        except TimeoutError:
            self._set(error="The relay did not answer in time: try again.")
            return None
        finally:
            self._set(busy=False)

    async def _enter(self, make: Callable[[RelayClient], Awaitable[Any]]) -> None:
        room = await self._request(make)
        if room is None:
            return
        self._set(code=room.code, creator=room.creator, roster=room.roster, seat=room.seat)
        self._announce(f"Room {room.code}: you are {seat_label(room.seat)}. Share the code.")

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
        running = self._session_running()
        if self.client is not None:
            await self.client.leave()
        if running:  # the ending names the seats: keep them until the results
            self._set(asking_leave=False)
        else:
            self._set(code="", creator="", roster=(), seat=-1, asking_leave=False)

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
        self._moment.finish()
        self._set(
            shown=None,
            after_moment="",
            screen="lobby",
            outcome="",
            end_text="",
            receipts="",
            transcript="",
            verify_text="",
            verify_ok=False,
            verifying=False,
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
                self._reset_account()
                return
            try:
                client = await asyncio.wait_for(self._connect(self._url), 12.0)
            except Exception:  # unreachable now: back to sign-in with the reason
                self._reset_account(error=unreachable(self._url))
                return
            client.name, client.token = old.name, old.token
            self.client = client
            self._spawn(self._pump(client)).set_name("online-pump")
        finally:
            self._set(busy=False)

    # ------------------------------------------------------------------ leaving online play
    @Slot()
    def leave(self) -> None:
        """Back to the solo table: sign out, close the connection, then call ``on_leave``.

        Offered on the sign-in and lobby screens (and after the results); at a running table
        it is refused (Leave table ends the session first), so it never ends a session itself.
        """
        if self._leaving:
            return
        if self._session_running():
            self._notice = "Leave the table first: the session is still running."
            self._announce(self._notice)
            return
        self._leaving = True
        self._spawn(self._leave_online())

    @Slot()
    def windowClosed(self) -> None:
        """The online window was closed: as Back to solo table, but even mid-session (then the
        session ends as this seat's departure, as closing the standalone app does)."""
        if self._leaving:
            return
        self._leaving = True
        self._spawn(self._leave_online())

    async def _leave_online(self) -> None:
        client = self.client
        self._set(busy=True)
        if (
            client is not None
            and not client.closed.is_set()
            and client.token is not None
            and not self._session_running()
        ):
            with contextlib.suppress(ClientError, TimeoutError):
                if self._code:
                    await client.leave()
                await asyncio.wait_for(client.signout(), 3.0)
        await self.shutdown()
        self._reset_account()
        self.left.emit()
        if self._on_leave is not None:
            self._on_leave()

    canLeave = Property(bool, lambda self: self._on_leave is not None, constant=True)
    """Whether a solo table waits behind this window (``Back to solo table`` is shown)."""

    async def shutdown(self) -> None:
        """Close the connection (a departure if a session runs) and stop our tasks."""
        self._countdown.run_to(None)
        client, self.client = self.client, None
        if client is not None:
            await client.close()
        for task in list(self._tasks):
            if task is not asyncio.current_task():
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
                seat = self._roster_seat(roster)  # seats close up when one leaves
                self._set(
                    code=code,
                    creator=creator,
                    roster=roster,
                    seat=self._seat if seat is None else seat,
                )
                self._announce(f"{len(roster)} in room {code}")
            case SessionStarted(code, _table_id, seat, roster, _path):
                self._set(code=code, seat=seat, roster=roster, screen="table", committed=False)
                self._ledger_mark = 0
                self._outcomes = {}
                self._announce(
                    f"The session started: {len(roster)} seats, you are {seat_label(seat)}. "
                    f"Allocate, then confirm within {seconds(self.timeouts.confirm)}."
                )
            case RoundOpened():
                self._fresh_draft()
                if self._moment.running:  # said when the throw's result is shown
                    self._next_words = f"{self._next_words} {self._round_words()}"
                else:
                    self._announce(self._round_words())
            case ThrowCommitted():
                pass
            case Thrown():
                self._on_thrown(event)
            case SessionComplete(result):
                me = self._seat
                screen = "results"
                if self._moment.running:  # the last throw's result shows first
                    self._after_moment, screen = "results", self._screen
                self._set(outcome="complete", screen=screen, help=False, asking_leave=False)
                self._announce(
                    f"Session complete: your final points {result.final[me]:,}, "
                    f"rank {result.ranks[me]} of {len(result.final)}."
                )
            case SessionEnded(reason, seat):
                self._moment.finish()  # an ending shows at once
                text = self._ending_words(reason, seat)
                self._set(
                    outcome="ended", screen="results", end_text=text, help=False, asking_leave=False
                )
                self._countdown.run_to(None)
                self._announce(text)
            case ReceiptsMatched(count):
                self._set(
                    receipts=f"{count} of {count} signed receipts matched within "
                    f"{seconds(self.timeouts.receipts)}."
                )
            case ReceiptsMismatch(seats):
                names = people([self._who(s) for s in seats])
                self._set(receipts=f"Receipts differ from yours: {names}.")
            case ReceiptsIncomplete(reason, seat):
                who = "" if seat is None else f" ({self._who(seat)})"
                self._set(receipts=f"Receipts incomplete: {REASON_TEXT[reason]}{who}.")
            case TranscriptSaved(path):
                self._countdown.run_to(None)
                self._on_saved(path)
            case TranscriptFailed(path, reason):
                # The disk refused the transcript: the session ended (as this seat leaving);
                # say why in plain words, and where the part already written is.
                self._countdown.run_to(None)
                reason = re.sub(r"\[Errno \d+\]\s*", "", reason)  # people read no errno
                text = (
                    f"No result: your transcript could not be saved ({reason}), so you left "
                    f"the table. What was written before the error is in {path}."
                )
                self._set(
                    outcome="ended", screen="results", end_text=text, help=False, asking_leave=False
                )
                self._announce(text)
            case MemberDeparted(seat, _name):
                if self._screen in ("table", "results"):
                    self._announce(f"{self._seat_name(seat)} ({seat_label(seat)}) left.")
            case RelayError(code, message):
                if code == "room_closed":
                    self._set(code="", creator="", roster=(), seat=-1)
                self._set(error=refusal(code, message))
            case Disconnected():
                self._countdown.run_to(None)
                self.client = None
                lost = f"{RELAY_LOST[0].upper()}{RELAY_LOST[1:]}: sign in again when it is back."
                if self._screen == "lobby":
                    self._reset_account(error=lost)
                elif self._screen != "results":
                    self._set(error=lost)
        self._refresh_countdown()
        self._sync()

    def _ending_words(self, reason: EndReason, seat: int | None) -> str:
        if self._lost_relay(reason, seat):
            text = f"No result: {RELAY_LOST}."
        else:
            who = "" if seat is None else f" ({self._who(seat)})"
            text = f"No result: {REASON_TEXT[reason]}{who}."
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
        self._spawn(self._verify_saved(path))

    def _verify_in_thread(self, path: Path) -> Report:
        self.verify_threads.append(threading.get_ident())
        return self._verify(path)

    async def _verify_saved(self, path: Path) -> None:
        """Replay the transcript off the GUI thread; the verdict shows when it is done."""
        try:
            report = await asyncio.to_thread(self._verify_in_thread, path)
        except Exception:  # a verifier that breaks is a verdict too, never a traceback
            ok, text = False, "pointline verify could not read the saved transcript."
        else:
            ok, text = verdict_words(report)
        if self._transcript != str(path):
            return  # back in the lobby meanwhile: this verdict is for a closed session
        self._set(verifying=False, verify_ok=ok, verify_text=text)

    def _fresh_draft(self) -> None:
        table = self.table
        self._draft = None if table is None else table.copy()
        self._committed = False
        self._sit_out_armed = False
        self._notice = ""

    def _on_thrown(self, event: Thrown) -> None:
        """A throw was revealed: its result moment shows it beat by beat (gui/online/moment)."""
        table = self.table
        assert table is not None
        before = self._draft if self._draft is not None else self.shown
        words = [f"Throw {event.throw}: {event.die1} and {event.die2}, total {event.total}"]
        entries = table.ledger_since(self._seat, self._ledger_mark)
        self._ledger_mark = table.ledger_length(self._seat)
        settled = [e for e in entries if isinstance(e, Settled)]
        words.extend(settlement_words(e) for e in settled)
        outcomes = {e.outcome for e in settled}
        first = [o for o in (Outcome.WIN, Outcome.LOSS, Outcome.PUSH) if o in outcomes]
        self._next_sound = first[0].value if first else ""
        if table.phase is Phase.POINT and event.phase is not Phase.POINT:
            words.append(f"Point is {table.point}")
        self._next_words = ". ".join(words) + "."
        self._next_outcomes = line_outcomes(entries)  # shown on the felt until my next change
        self._outcomes = {}
        self._dice = (event.die1, event.die2)
        self._serial += 1
        self._fresh_draft()
        self._shown = before.copy() if before is not None else None
        self._play("dice")
        self.rolled.emit()
        self._moment.start(bool(self._next_outcomes))

    def _on_beat(self) -> None:
        """The result moment moved on: outcomes on the felt, then the pay-out, then choices."""
        stage = self._moment.beat
        if stage == "outcome":
            self._outcomes = self._next_outcomes
            self._sound_outcome()
        elif stage == "count":
            self._sound_outcome()
            self._shown = None  # chips pay or are swept, the balance counts
            self._outcomes = self._next_outcomes
            self._announce(self._next_words)
        elif not stage:
            self._shown = None
            if self._after_moment:
                self._after_moment, screen = "", self._after_moment
                self._set(screen=screen)
        self._refresh_countdown()
        self._sync()

    def _sound_outcome(self) -> None:
        sound, self._next_sound = self._next_sound, ""
        if sound:
            self._play(sound)

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
        return seat_label(seat)

    def _who(self, seat: int) -> str:
        """'you, Seat 1' for my seat, else 'bob, Seat 2': one numbering for people."""
        if seat == self._seat:
            return f"you, {seat_label(seat)}"
        name = self._seat_name(seat)
        return name if name == seat_label(seat) else f"{name}, {seat_label(seat)}"

    # ------------------------------------------------------------------ the draft
    def _seat_index(self) -> int:
        return self._seat

    def _choice_table(self) -> Table | None:
        return self._draft

    def _ledger(self) -> Any:
        t = self.shown
        return None if t is None or self._seat < 0 else t.seat(self._seat).ledger

    def reason(self, name: str) -> str:
        """Why an action is refused now ("" when legal): Help, the step, else the kernel."""
        if self._help:
            return HELP_LIVE
        if self._asking_leave:
            return "Answer the question about leaving first."
        peer = self.peer
        if peer is None or self._draft is None:
            return "The session has not started."
        if self._moment.running:
            return SOLO_WORDS["revealing"]  # the same words as on the solo table
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
        if name == "confirm" and self._empty_draft() and not self._sit_out_armed:
            # An empty Confirm sits the hand out: only a second, deliberate press does it.
            self._sit_out_armed = True
            self._notice = SIT_OUT_ASK
            self._announce(SIT_OUT_ASK)
            return False
        self._sit_out_armed = False
        if name in ("confirm", "roll"):
            choice = current_choice(draft, self._seat)
            try:
                client.commit(choice)
            except (PointlineError, NetError, ClientError) as exc:
                self._notice = exc.text
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
        self._notice = ""
        self._outcomes = {}
        self._announce(draft_words(draft, self._seat))
        return True

    def _empty_draft(self) -> bool:
        """At come-out with nothing allocated: Confirm would sit this hand out."""
        draft = self._shown if self._shown is not None else self._draft
        if draft is None or self._seat < 0 or draft.phase is not Phase.COME_OUT:
            return False
        d = draft.draft(self._seat)
        return d.pass_amount + d.dont_pass_amount == 0

    def _confirm_label(self) -> str:
        return "Sit out" if self._empty_draft() else "Confirm"

    # ------------------------------------------------------------------ property values
    def _phase(self) -> str:
        t = self.shown
        return "come_out" if t is None else str(t.phase.value)

    def _my(self, what: str) -> int:
        shown = self.shown
        t = self._draft if self._draft is not None and self._shown is None else shown
        if t is None or self._seat < 0:
            return STARTING_POINTS if what == "balance" else 0
        if what == "balance":
            return (shown or t).balance(self._seat)
        if what in ("draftPass", "draftDontPass"):
            d = t.draft(self._seat)
            return d.pass_amount if what == "draftPass" else d.dont_pass_amount
        c = (shown or t).contracts(self._seat)
        return c.pass_amount if what == "contractPass" else c.dont_pass_amount

    def _roster_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": e.seat,
                "label": seat_label(e.seat),
                "name": e.name,
                "words": words_for(e.session_key),
                "you": e.seat == self._seat,
                "creator": e.seat == CREATOR_SEAT,
            }
            for e in self._roster
        ]

    def _roster_seat(self, roster: tuple[RosterEntry, ...]) -> int | None:
        """My seat in a roster the relay sent, found by my session key (None: not in it)."""
        key = None if self.client is None else self.client.signing_key
        mine = [e.seat for e in roster if key is not None and e.session_key == key.public_hex]
        return mine[0] if len(mine) == 1 else None

    def _is_creator(self) -> bool:
        """Whether I created this room: the relay seats its creator at seat 0 of the roster it
        sends (the relay alone decides, folding the case of names as it does)."""
        return bool(self._code) and self._roster_seat(self._roster) == CREATOR_SEAT

    def _seat_rows(self) -> list[dict[str, Any]]:
        t, peer = self.shown, self.peer
        if t is None or peer is None:
            return []
        choosing = peer.state is Step.COMMIT and not self._moment.running
        awaiting = set(peer.awaiting) if choosing else set()
        rows = []
        for e in self._roster:
            c = t.contracts(e.seat)
            rows.append(
                {
                    "seat": e.seat,
                    "label": seat_label(e.seat),
                    "name": e.name,
                    "you": e.seat == self._seat,
                    "balance": t.balance(e.seat),
                    "pass": c.pass_amount,
                    "dontPass": c.dont_pass_amount,
                    "awaited": e.seat in awaiting,
                    "status": ("choosing" if e.seat in awaiting else "committed")
                    if choosing
                    else "",
                }
            )
        return rows

    def _awaited_text(self) -> str:
        peer = self.peer
        if peer is None or peer.is_finished:
            return ""
        if self._moment.running:
            return "The result shows first, then the countdown starts."
        if peer.state is Step.RECEIPTS:
            return "Exchanging signed receipts…"
        waiting = sorted(peer.awaiting)
        if not waiting:
            return ""
        names = ["you" if s == self._seat else self._seat_name(s) for s in waiting]
        if self._seat in waiting:  # "you" first: it is the one a person can act on
            names.remove("you")
            names.insert(0, "you")
        step = "choose" if peer.state is Step.COMMIT else "reveal"
        return f"Waiting for {people(names)} to {step}"

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

    def _start_reason(self) -> str:
        if not self._code:
            return "Create or join a room first."
        if not self._is_creator():
            return f"Waiting for {self._creator}, who created the room, to start it."
        if not is_online_seat_count(len(self._roster)):
            return (
                f"A room starts with {MIN_PEOPLE} to {MAX_PEOPLE} people: wait for at least "
                "one more."
            )
        return ""

    def _key_hints(self) -> str:
        return "" if self._mobile else KEY_HINTS.get(self._screen, "")

    def _key_hints_short(self) -> str:
        return "" if self._mobile else KEY_HINTS_SHORT.get(self._screen, "")

    # ------------------------------------------------------------------ properties
    screen = Property(str, lambda self: self._screen, notify=screenChanged)
    relayUrl = Property(str, lambda self: self._url, notify=relayUrlChanged)
    busy = Property(bool, lambda self: self._busy, notify=busyChanged)
    error = Property(str, lambda self: self._error, notify=errorChanged)
    name = Property(str, lambda self: self._name, notify=nameChanged)
    roomCode = Property(str, lambda self: self._code, notify=roomChanged)
    creator = Property(str, lambda self: self._creator, notify=roomChanged)
    isCreator = Property(bool, lambda self: self._is_creator(), notify=roomChanged)
    mySeat = Property(int, lambda self: self._seat, notify=roomChanged)
    """The protocol's 0-based index (-1: none); people read ``mySeatLabel``."""
    mySeatLabel = Property(
        str, lambda self: seat_label(self._seat) if self._seat >= 0 else "", notify=roomChanged
    )
    roster = Property(QVARIANT_LIST, _roster_rows, notify=rosterChanged)
    canStart = Property(bool, lambda self: not self._start_reason(), notify=startChanged)
    startReason = Property(str, _start_reason, notify=startChanged)

    phase = Property(str, lambda self: self._phase(), notify=positionChanged)
    point = Property(
        int, lambda self: (self.shown.point or 0) if self.shown else 0, notify=positionChanged
    )
    hand = Property(int, lambda self: self.shown.hand if self.shown else 1, notify=positionChanged)
    throws = Property(
        int, lambda self: self.shown.throws if self.shown else 0, notify=positionChanged
    )
    balance = Property(int, lambda self: self._my("balance"), notify=balanceChanged)
    draftPass = Property(int, lambda self: self._my("draftPass"), notify=draftChanged)
    draftDontPass = Property(int, lambda self: self._my("draftDontPass"), notify=draftChanged)
    contractPass = Property(int, lambda self: self._my("contractPass"), notify=contractsChanged)
    contractDontPass = Property(
        int, lambda self: self._my("contractDontPass"), notify=contractsChanged
    )
    seats = Property(QObject, lambda self: self._seats, constant=True)
    """Every seat at the table (a ``RowsModel`` with the roles of ``SEAT_KEYS``)."""
    committed = Property(bool, lambda self: self._committed, notify=committedChanged)
    confirmLabel = Property(str, lambda self: self._confirm_label(), notify=confirmLabelChanged)
    """"Sit out" for an empty come-out draft (it asks for a second press), else "Confirm"."""
    awaitedText = Property(str, _awaited_text, notify=awaitedTextChanged)
    countdown = Property(QObject, lambda self: self._countdown, constant=True)
    """The seconds left to choose (``countdown.secondsLeft``; 0 while the result shows)."""
    moment = Property(QObject, lambda self: self._moment, constant=True)
    trust = Property(QObject, lambda self: self._trust, constant=True)
    """The open question about trusting the relay (``trust.asking``, ``text``, ``fingerprint``)."""
    """The result moment (``moment.stage``, ``moment.reduceMotion``)."""
    revealStage = Property(str, lambda self: self._moment.beat, notify=revealChanged)
    muted = Property(bool, lambda self: self._muted, notify=mutedChanged)

    selectedLine = Property(str, lambda self: str(self._line.value), notify=selectedLineChanged)
    legal = Property(
        QVARIANT_MAP, lambda self: {n: not self.reason(n) for n in ACTIONS}, notify=legalChanged
    )
    reasons = Property(
        QVARIANT_MAP, lambda self: {n: self.reason(n) for n in ACTIONS}, notify=reasonsChanged
    )
    lineReasons = Property(
        QVARIANT_MAP, lambda self: self._line_reasons(), notify=lineReasonsChanged
    )
    history = Property(QVARIANT_LIST, lambda self: self._history(), notify=historyChanged)
    chart = Property(QVARIANT_LIST, lambda self: self._chart(), notify=chartChanged)
    die1 = Property(int, lambda self: self._dice[0], notify=diceChanged)
    die2 = Property(int, lambda self: self._dice[1], notify=diceChanged)
    rollSerial = Property(int, lambda self: self._serial, notify=diceChanged)
    helpOpen = Property(bool, lambda self: self._help, notify=helpOpenChanged)
    announcement = Property(str, lambda self: self._announcement, notify=announcementChanged)
    notice = Property(str, lambda self: self._notice, notify=noticeChanged)
    lineOutcomes = Property(QVARIANT_MAP, lambda self: self._outcomes, notify=lineOutcomesChanged)
    """Each line's outcome on the felt after a throw ("+20", "−10", "push", "refund 10")."""

    outcome = Property(str, lambda self: self._outcome, notify=outcomeChanged)
    standings = Property(QObject, lambda self: self._standings, constant=True)
    """The results page's rows (``STANDING_KEYS``), each with its balance chart."""
    endText = Property(str, lambda self: self._end_text, notify=endTextChanged)
    receiptsText = Property(str, lambda self: self._receipts, notify=receiptsTextChanged)
    transcriptPath = Property(str, lambda self: self._transcript, notify=transcriptPathChanged)
    verifying = Property(bool, lambda self: self._verifying, notify=verifyChanged)
    verifyOk = Property(bool, lambda self: self._verify_ok, notify=verifyChanged)
    verifyText = Property(str, lambda self: self._verify_text, notify=verifyChanged)
    windowMode = Property(str, lambda self: self._mode, notify=windowModeChanged)
    askingLeave = Property(bool, lambda self: self._asking_leave, notify=askingLeaveChanged)
    keyHints = Property(str, _key_hints, notify=keyHintsChanged)
    """The footer's key hints for the current screen ("" on a phone)."""
    keyHintsShort = Property(str, _key_hints_short, notify=keyHintsChanged)
    """The same in a few words, for a narrow window."""

    # constants: rules, deadlines and notices from Python, never copied into QML
    casualNotice = Property(str, lambda self: CASUAL_NOTICE, constant=True)
    freeText = Property(str, lambda self: FREE_POINTS, constant=True)
    confirmSeconds = Property(int, lambda self: round(self.timeouts.confirm), constant=True)
    helpText = Property(str, lambda self: self._help_html, constant=True)
    helpKeys = Property(str, lambda self: HELP_TOUCH if self._mobile else HELP_KEYS, constant=True)
    pointNumbers = Property(QVARIANT_LIST, lambda self: sorted(POINT_NUMBERS), constant=True)
    """The totals that set the point (``pointline.kernel.POINT_NUMBERS``), in order."""
    maxSeats = Property(int, lambda self: MAX_PEOPLE, constant=True)
    minPeople = Property(int, lambda self: MIN_PEOPLE, constant=True)
    unit = Property(int, lambda self: UNIT, constant=True)
    startingPoints = Property(int, lambda self: STARTING_POINTS, constant=True)
    nameHint = Property(str, lambda self: NAME_HINT, constant=True)
    noRelayText = Property(str, lambda self: NO_RELAY_YET, constant=True)
    passwordHint = Property(str, lambda self: password_hint(), constant=True)
    mobile = Property(bool, lambda self: self._mobile, constant=True)
    insets = Property(QVARIANT_MAP, lambda self: self._insets, constant=True)
    """Extra safe-area insets (tests fake a notch); QML adds Qt's own SafeArea margins."""
    """Android or iOS (or POINTLINE_FORCE_MOBILE=1): desktop-only controls are hidden."""

    # ------------------------------------------------------------------ table slots
    @Slot(str, result=bool)
    def tableKey(self, key: str) -> bool:
        """Space or Enter on the table; during a result moment a fresh press only ends the
        moment (the result shows at once) and submits nothing: the next press acts."""
        if self._moment.running:
            self._moment.finish()
            return False
        return bool(super().tableKey(key))

    @Slot(bool)
    def setReduceMotion(self, on: bool) -> None:
        """Reduce motion: every result shows at once (remembered, as on the solo table)."""
        settings = QSettings("Pointline", "Pointline Table")
        settings.setValue("reduceMotion", bool(on))
        settings.sync()
        self._moment.set_reduce_motion(bool(on))
        self._announce("Reduce motion on" if on else "Reduce motion off")

    @Slot()
    def escape(self) -> None:
        """Escape closes Help (or the leave question); online nothing pauses."""
        if self._help:
            self._set(help=False)
        elif self._asking_leave:
            self._set(asking_leave=False)
        elif self._screen == "table":
            self._announce("Online sessions do not pause: the countdown keeps running.")

    @Slot()
    def back(self) -> None:
        """Android Back: closes Help; at the table asks before leaving; in the lobby leaves the
        room (or goes back to the solo table); at sign-in only goes back to the solo table."""
        if self._help:
            self._set(help=False)
        elif self._asking_leave:
            self._set(asking_leave=False)
        elif self._screen == "table":
            self.askLeave()
        elif self._screen == "lobby":
            if self._code:
                self.leaveRoom()
            elif self._on_leave is not None:
                self.leave()
        elif self._screen == "results":
            self.backToLobby()
        elif self._on_leave is not None and not self._busy:
            self.leave()

    @Slot()
    def askLeave(self) -> None:
        """Leaving the table ends the session for everyone: ask first."""
        if self._screen != "table":
            return
        if not self._session_running():
            self.leaveRoom()
            return
        self._set(asking_leave=True)
        self._announce(
            "Leave the table? The session ends for everyone without a result. Choose Leave or Stay."
        )

    @Slot()
    def confirmLeave(self) -> None:
        if not self._asking_leave:
            return
        self._set(asking_leave=False)
        self.leaveRoom()

    @Slot()
    def cancelLeave(self) -> None:
        if self._asking_leave:
            self._set(asking_leave=False)
            self._announce("You stay at the table.")

    @Slot(str)
    def setWindowMode(self, mode: str) -> None:
        """Standard, Theater or Fullscreen: only the window changes, the session is kept."""
        if mode not in WINDOW_MODES:
            raise ValueError(f"window mode is one of {WINDOW_MODES}, not {mode!r}")
        self._set(mode=mode)

    @Slot()
    def cycleWindowMode(self) -> None:
        self.setWindowMode(WINDOW_MODES[(WINDOW_MODES.index(self._mode) + 1) % 3])

    @Slot()
    def toggleMute(self) -> None:
        self._muted = not self._muted
        if self.sounds is not None:
            self.sounds.muted = self._muted
        self._announce("Sound off" if self._muted else "Sound on")

    def applicationStateChanged_(self, state: Qt.ApplicationState) -> None:
        """For ``QGuiApplication.applicationStateChanged`` (it passes the enum member)."""
        self.applicationStateChanged(state.value)

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
        self._sync()
