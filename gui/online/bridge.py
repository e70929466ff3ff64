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

The bridge is one QObject made of parts, each in its own module (gui/online/state.py says how):
``account`` (sign-in, trust, lobby), ``table`` (my seat), ``results`` and, here, the signals,
the events and the properties. The result moment (``moment``), the countdown (``countdown``),
the trust question (``trust``) and the seats and standings (list models) are QObjects of their
own, each property notifying through its own signal.

Every property has its own notify signal, emitted by the setter that changes its value
(gui/online/state.py says how): nothing polls and no group of properties shares a signal. My seat's
table (phase, dice, lines, balance, what is legal and why) is not repeated here: it is
``seatTable``, the ``OnlineSeat`` the shared table view reads, for QML and for Python alike.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Property, QObject, Signal
from PySide6.QtQml import QmlElement, QmlUncreatable

from pointline.gui.betting import CHIP_VALUES
from pointline.gui.clock import Clock as BeatClock
from pointline.gui.device import fake_insets, is_mobile
from pointline.gui.moment import ResultMoment, reduce_motion_setting
from pointline.gui.online.account import AccountPart
from pointline.gui.online.countdown import Clock, Countdown
from pointline.gui.online.models import RowsModel
from pointline.gui.online.results import ResultsPart
from pointline.gui.online.seat import OnlineSeat
from pointline.gui.online.state import (
    ROSTER_KEYS,
    SEAT_KEYS,
    STANDING_KEYS,
    Connect,
    Verify,
    loop_time,
)
from pointline.gui.online.table import TablePart
from pointline.gui.online.texts import (
    CASUAL_NOTICE,
    DEFAULT_RELAY,
    FREE_POINTS,
    HELP_KEYS,
    HELP_TOUCH,
    MAX_PEOPLE,
    MIN_PEOPLE,
    NAME_HINT,
    NO_RELAY_YET,
    RELAY_LOST,
    help_html,
    password_hint,
    people,
    refusal,
    seat_label,
    seconds,
)
from pointline.gui.online.trust import RelayTrust
from pointline.gui.seat_table import QVARIANT_LIST, QVARIANT_MAP
from pointline.kernel import (
    HANDS_PER_SESSION,
    POINT_NUMBERS,
    STARTING_POINTS,
    THROW_CAP,
    UNIT,
    Line,
    Table,
)
from pointline.net.client.relay_client import (
    Disconnected,
    MemberDeparted,
    RelayClient,
    RelayError,
    RosterChanged,
    SessionStarted,
    TranscriptFailed,
    TranscriptSaved,
)
from pointline.net.protocol.peer import (
    ReceiptsIncomplete,
    ReceiptsMatched,
    ReceiptsMismatch,
    RoundOpened,
    SessionComplete,
    SessionEnded,
    ThrowCommitted,
    Thrown,
    Timeouts,
    ending_text,
)
from pointline.net.protocol.verify import verify_transcript
from pointline.net.protocol.wire import RosterEntry

__all__ = ["OnlineBridge"]

QML_IMPORT_NAME = "Pointline.Online"
QML_IMPORT_MAJOR_VERSION = 1


def room_property(kind: Any, name: str, signal: Any) -> Any:
    """A property of the room (``_show_room`` publishes it)."""
    return Property(kind, lambda self: self._room[name], notify=signal)


def own_property(kind: Any, name: str, signal: Any) -> Any:
    """A property published with my seat by ``_show_table``."""
    return Property(kind, lambda self: self._own[name], notify=signal)


@QmlElement
@QmlUncreatable("the online app makes one bridge and hands it to OnlineMain")
class OnlineBridge(AccountPart, TablePart, ResultsPart, QObject):  # type: ignore[operator]  # PySide6 stubs: QmlUncreatable
    """The online screens' state; each property notifies through its own signal."""

    # ---- one notify signal per property, emitted by its setter (gui/online/state.py) -----
    screenChanged = Signal()
    relayUrlChanged = Signal()
    busyChanged = Signal()
    errorChanged = Signal()
    nameChanged = Signal()
    mutedChanged = Signal()
    outcomeChanged = Signal()
    endTextChanged = Signal()
    receiptsTextChanged = Signal()
    transcriptPathChanged = Signal()
    verifyingChanged = Signal()
    verifyOkChanged = Signal()
    verifyTextChanged = Signal()
    windowModeChanged = Signal()
    askingLeaveChanged = Signal()
    helpOpenChanged = Signal()
    keyHintsChanged = Signal()
    keyHintsShortChanged = Signal()
    # the room, published by ``_show_room``
    roomCodeChanged = Signal()
    creatorChanged = Signal()
    isCreatorChanged = Signal()
    mySeatChanged = Signal()
    mySeatLabelChanged = Signal()
    canStartChanged = Signal()
    startReasonChanged = Signal()
    # published with my seat by ``_show_table``
    nextThrowChanged = Signal()
    committedChanged = Signal()
    awaitedTextChanged = Signal()
    submitted = Signal(str)
    """A choice of mine reached the client (``confirm`` or ``roll``): one per commitment."""

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
        self._requests: set[asyncio.Task[Any]] = set()
        """The requests in flight (``busy`` is true while there is one)."""
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
        self._busy_shown = False
        self._room: dict[str, Any] = {}
        self._own: dict[str, Any] = {}
        self._line = Line.PASS
        self._help = False
        self._announcement = ""
        self._notice = ""
        self._dice = (0, 0)
        self._serial = 0
        self._shown: Table | None = None
        """My table as it was before the throw whose result moment is showing (else None)."""
        self._next_outcomes: dict[str, str] = {}
        self._next_flights: dict[str, int] = {}
        self._next_words = ""
        self._next_sound = ""
        self._after_moment = ""
        """The screen to show when the moment ends (the last throw completed the session)."""
        self._countdown = Countdown(clock or loop_time, self)
        motion = reduce_motion_setting() if reduce_motion is None else reduce_motion
        self._moment = ResultMoment(self, reduce_motion=motion, clock=beats)
        self._moment.stageChanged.connect(self._on_beat)
        self._chip = CHIP_VALUES[0]
        self._seat_table = OnlineSeat(self, self)
        self._seat_table.publish(**self._seat_constants())
        self._seats = RowsModel(SEAT_KEYS, self)
        self._members = RowsModel(ROSTER_KEYS, self)
        self._standings = RowsModel(STANDING_KEYS, self)
        self._show_room()
        self._show_table()

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
            case SessionEnded():
                self._moment.finish()  # an ending shows at once
                text = self._ending_words(event)
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
                words = ending_text(reason, seat, None, proven=False)
                self._set(receipts=f"Receipts incomplete: {words}.")
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
        self._show_table()

    # ------------------------------------------------------------------ properties
    screen = Property(str, lambda self: self._screen, notify=screenChanged)
    relayUrl = Property(str, lambda self: self._url, notify=relayUrlChanged)
    busy = Property(bool, lambda self: self._busy_shown, notify=busyChanged)
    """A request of mine is in flight (signing in, a room, leaving): its buttons wait."""
    error = Property(str, lambda self: self._error, notify=errorChanged)
    name = Property(str, lambda self: self._name, notify=nameChanged)
    muted = Property(bool, lambda self: self._muted, notify=mutedChanged)
    helpOpen = Property(bool, lambda self: self._help, notify=helpOpenChanged)
    windowMode = Property(str, lambda self: self._mode, notify=windowModeChanged)
    askingLeave = Property(bool, lambda self: self._asking_leave, notify=askingLeaveChanged)
    keyHints = Property(str, lambda self: self._key_hints(), notify=keyHintsChanged)
    """The footer's key hints for the current screen ("" on a phone)."""
    keyHintsShort = Property(str, lambda self: self._key_hints_short(), notify=keyHintsShortChanged)
    """The same in a few words, for a narrow window."""

    roomCode = room_property(str, "roomCode", roomCodeChanged)
    creator = room_property(str, "creator", creatorChanged)
    isCreator = room_property(bool, "isCreator", isCreatorChanged)
    mySeat = room_property(int, "mySeat", mySeatChanged)
    """The protocol's 0-based index (-1: none); people read ``mySeatLabel``."""
    mySeatLabel = room_property(str, "mySeatLabel", mySeatLabelChanged)
    roster = Property(QObject, lambda self: self._members, constant=True)
    """The room's members with their verification words (a ``RowsModel``, ``ROSTER_KEYS``)."""
    canStart = room_property(bool, "canStart", canStartChanged)
    startReason = room_property(str, "startReason", startReasonChanged)

    seatTable = Property(QObject, lambda self: self._seat_table, constant=True)
    """My seat as the shared table view reads it (an ``OnlineSeat``)."""
    history = Property(QObject, lambda self: self._seat_table.history, constant=True)
    """My ledger in words (the seat's ``HistoryModel``)."""
    nextThrow = own_property(int, "nextThrow", nextThrowChanged)
    """The number of the throw being chosen for, as people count throws."""
    committed = own_property(bool, "committed", committedChanged)
    awaitedText = own_property(str, "awaitedText", awaitedTextChanged)
    seats = Property(QObject, lambda self: self._seats, constant=True)
    """Every seat at the table (a ``RowsModel`` with the roles of ``SEAT_KEYS``)."""
    countdown = Property(QObject, lambda self: self._countdown, constant=True)
    """The seconds left to choose (``countdown.secondsLeft``; 0 while the result shows)."""
    moment = Property(QObject, lambda self: self._moment, constant=True)
    """The result moment (``moment.stage``, ``moment.reduceMotion``)."""
    trust = Property(QObject, lambda self: self._trust, constant=True)
    """The open question about trusting the relay (``trust.asking``, ``text``, ``fingerprint``)."""

    outcome = Property(str, lambda self: self._outcome, notify=outcomeChanged)
    standings = Property(QObject, lambda self: self._standings, constant=True)
    """The results page's rows (``STANDING_KEYS``), each with its balance chart."""
    endText = Property(str, lambda self: self._end_text, notify=endTextChanged)
    receiptsText = Property(str, lambda self: self._receipts, notify=receiptsTextChanged)
    transcriptPath = Property(str, lambda self: self._transcript, notify=transcriptPathChanged)
    verifying = Property(bool, lambda self: self._verifying, notify=verifyingChanged)
    verifyOk = Property(bool, lambda self: self._verify_ok, notify=verifyOkChanged)
    verifyText = Property(str, lambda self: self._verify_text, notify=verifyTextChanged)

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
    hands = Property(int, lambda self: HANDS_PER_SESSION, constant=True)
    throwCap = Property(int, lambda self: THROW_CAP, constant=True)
    startingPoints = Property(int, lambda self: STARTING_POINTS, constant=True)
    nameHint = Property(str, lambda self: NAME_HINT, constant=True)
    noRelayText = Property(str, lambda self: NO_RELAY_YET, constant=True)
    passwordHint = Property(str, lambda self: password_hint(), constant=True)
    mobile = Property(bool, lambda self: self._mobile, constant=True)
    insets = Property(QVARIANT_MAP, lambda self: self._insets, constant=True)
    """Extra safe-area insets (tests fake a notch); QML adds Qt's own SafeArea margins."""
    """Android or iOS (or POINTLINE_FORCE_MOBILE=1): desktop-only controls are hidden."""
