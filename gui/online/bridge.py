"""The online bridge: one person's relay connection and session, for QML.

Screens: ``signin`` -> ``lobby`` -> ``table`` -> ``results``. Every request to the relay runs as
an asyncio task on the loop qasync runs inside Qt; the relay's answers and the protocol's
events arrive through ``RelayClient.next_event`` (``_pump``) and ``Events.route`` (state.py)
hands each to the small objects subscribed to its type; each then publishes its own changes.
The small objects never call the bridge: they read it through a ``Link`` and ask for a change
by the link's signals, connected here once (``_connect_link``). Help stays live and pauses
nothing; going to the background (application state Suspended or Hidden; losing focus alone
is not that) ends the session for everyone without a result.

``OnlineBridge`` is thin: it holds the connection, the screen, the busy flag, the error line,
Help, the leave question, the window and the app's constants, and exposes the window's small
QObjects as constant properties, each with its own properties and one notify signal per
property (gui/online/state.py says how they notify):

- ``account`` (``Account``, account.py): sign-in, the relay's trust questions, signing out;
- ``lobby`` (``Lobby``, lobby.py): the room, its members, my seat, creating, joining, starting;
- ``table`` (``OnlineTable``, table.py): my draft, the actions, the result moment's beats, the
  seats; my seat's felt is ``seatTable`` (an ``OnlineSeat``, the ``SeatTable`` the shared
  table view reads, for QML and for Python alike);
- ``results`` (``Results``, results.py): the ending, receipts, the transcript's verdict and
  the standings;
- ``countdown``, ``moment`` and ``trust``: the seconds left to choose, the result moment and
  the open question about trusting the relay.

One online throw, from the relay to the die: ``RelayClient._handle`` (net/client.py) hands each
relay frame to its ``Peer.receive`` (net/protocol.py), which appends a ``Thrown`` event when the
last reveal is in; ``_pump`` below reads it from ``RelayClient.next_event`` and ``Events.route``
passes it to ``OnlineTable.on_thrown`` (table.py: the dice, one more ``rollSerial``, the result
moment starts); ``OnlineTable.publish`` writes the presenter's values into ``seatTable``; in
``DiceThrow.qml`` the new ``rollSerial`` starts the flight and its two ``Die.qml`` show ``die1``
and ``die2`` when the rolling beat ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import Property, QObject, Qt, Signal, Slot
from PySide6.QtQml import QmlElement, QmlUncreatable

from pointline.gui.awake import KeepAwake
from pointline.gui.clock import Clock as BeatClock
from pointline.gui.moment import ResultMoment, reduce_motion_setting
from pointline.gui.online.account import Account
from pointline.gui.online.countdown import Clock, Countdown
from pointline.gui.online.from_net import (
    RECONNECTING,
    ClientError,
    DeadlineKind,
    Disconnected,
    MemberDeparted,
    Reconnected,
    Reconnecting,
    RelayClient,
    RelayError,
    RosterChanged,
    SessionComplete,
    SessionEnded,
    SessionStarted,
    TableClosed,
    Timeouts,
    TranscriptFailed,
    TranscriptSaved,
    verify_transcript,
)
from pointline.gui.online.host import Host
from pointline.gui.online.lobby import Lobby
from pointline.gui.online.nearby import Nearby
from pointline.gui.online.results import Results
from pointline.gui.online.state import (
    BACKGROUND_STATES,
    Connect,
    Events,
    Link,
    Verify,
    loop_time,
)
from pointline.gui.online.table import OnlineTable
from pointline.gui.online.texts import (
    AWAKE_REASON,
    CASUAL_NOTICE,
    DEFAULT_RELAY,
    FREE_POINTS,
    HELP_KEYS,
    HELP_TOUCH,
    HOST_VOUCHES,
    KEY_HINTS,
    KEY_HINTS_SHORT,
    RELAY_LOST,
    help_html,
    host_vanished,
    hosted_by,
    refusal,
    seat_label,
    seconds,
)
from pointline.gui.online.trust import RelayTrust
from pointline.gui.seat_table import QVARIANT_LIST
from pointline.gui.shell import Shell, link_shell, shell_face
from pointline.kernel import HANDS_PER_SESSION, POINT_NUMBERS, STARTING_POINTS, THROW_CAP, UNIT

__all__ = ["OnlineBridge"]

RECONNECTING_LINE = f"{RECONNECTING[0].upper()}{RECONNECTING[1:]}"
"""The error line while the client takes its seat back (net's words, as a line begins)."""

QML_IMPORT_NAME = "Pointline.Online"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
@QmlUncreatable("the online app makes one bridge and hands it to OnlineMain")
class OnlineBridge(QObject):  # type: ignore[operator]  # PySide6 stubs: QmlUncreatable
    """The online window: its screen and shared lines, and its small objects as constants."""

    screenChanged = Signal()
    busyChanged = Signal()
    errorChanged = Signal()
    askingLeaveChanged = Signal()
    keyHintsChanged = Signal()
    keyHintsShortChanged = Signal()
    hostedNoteChanged = Signal()
    left = Signal()
    """The bridge has shut down after ``leave`` (the app returns to the solo table)."""

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
        discover: bool = False,
        shell: Shell | None = None,
    ) -> None:
        """``discover`` lists the tables nearby by mDNS on this device's networks (the app
        turns it on; tests and screenshots never send multicast onto a real network);
        ``clock`` is what the countdown reads (default: the event loop's time, which the
        protocol's deadlines are kept in); ``reduce_motion`` defaults to the player's setting;
        ``beats`` runs the result moment's beats (default: a ``QtClock``); ``shell`` is the
        window's (gui/shell.py: the frame's, shared with the solo table; default: its own)."""
        super().__init__()
        self.timeouts = timeouts or Timeouts()
        self.client: RelayClient | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._requests: set[asyncio.Task[Any]] = set()
        """The requests in flight (``busy`` is true while there is one)."""
        self._screen = "signin"
        self._busy = False
        self._busy_shown = False
        self._error = ""
        self._closed = ""
        """What the relay going away said ("hostana closed the table."; ``TableClosed``)."""
        self.sounds = sounds
        """A ``gui.sound.Sounds`` (the app passes one; tests and screenshots play nothing)."""
        self.shell = shell or Shell(sounds, parent=self)
        """The window's shell: insets, window mode, sound and Help (online never pauses)."""
        link_shell(self, self.shell, self.SHELL)
        self._asking_leave = False
        self._mobile = self.shell.mobile
        self._awake = KeepAwake(AWAKE_REASON, parent=self)
        """The screen stays on while I sit at the table (gui/awake.py: ``set_screen``)."""
        self._on_leave = on_leave
        self._leaving = False
        self._help_html = help_html(self.timeouts)
        self._trust = RelayTrust(self)
        self._countdown = Countdown(clock or loop_time, self)
        motion = reduce_motion_setting() if reduce_motion is None else reduce_motion
        self._moment = ResultMoment(self, reduce_motion=motion, clock=beats)
        self._events = Events(self)
        self.shell.helpOpenChanged.connect(self._events.shared.emit)
        link = self._link = Link(self, self._events, self)
        self._connect_link(link)
        self._lobby = Lobby(link, self)
        self._table = OnlineTable(link, self._lobby, self)
        self._results = Results(link, self._lobby, self._table, verify, self)
        self._account = Account(link, self._lobby, url, connect, nonce_source, ca, self)
        self._hosted_note = ""
        self._guest_of = ""
        """The host whose table I sit at as a guest ("": none, or my own table)."""
        self.host_config: Any = None
        """The hosted relay's ``RelayConfig`` (None: the relay's defaults; tests and the bench
        pass their own)."""
        self._host = Host(link, self._lobby, self.shell.close_question, self)
        self._nearby = Nearby(link, self._lobby, self)
        self._nearby.relayChosen.connect(self._account.use_relay)
        if not discover:
            self._nearby.addresses = []
        self._moment.stageChanged.connect(self._table.on_beat)
        self._subscribe()
        self._events.shared.emit()

    def _connect_link(self, link: Link) -> None:
        """What the small objects ask of the window arrives here, and only here."""
        link.said.connect(self.announce)
        link.failed.connect(self.set_error)
        link.screenWanted.connect(self.set_screen)
        link.busyWanted.connect(self.set_busy)
        link.askingLeaveWanted.connect(self.set_asking_leave)
        link.hostedChanged.connect(self.set_hosted)
        link.signedIn.connect(self.signed_in)
        link.sounded.connect(self.play)
        link.countdownStale.connect(self.refresh_countdown)
        link.connected.connect(self._set_client)
        link.pumpWanted.connect(self.pump)

    def _set_client(self, client: RelayClient | None) -> None:
        self.client = client

    # ------------------------------------------------------------------ what the small objects read
    @property
    def screen_name(self) -> str:
        return self._screen

    @property
    def help_open(self) -> bool:
        return self.shell.help_open

    @property
    def asking_leave(self) -> bool:
        return self._asking_leave

    @property
    def on_mobile(self) -> bool:
        return self._mobile

    @property
    def result_moment(self) -> ResultMoment:
        return self._moment

    @property
    def relay_trust(self) -> RelayTrust:
        return self._trust

    @property
    def peer(self) -> Any:
        return None if self.client is None else self.client.peer

    def session_running(self) -> bool:
        peer = self.peer
        return peer is not None and not peer.is_finished

    def requesting(self) -> bool:
        """A request of mine is in flight (or a step marked itself busy)."""
        return self._busy or bool(self._requests)

    def spawn(self, coro: Coroutine[Any, Any, Any], *, request: bool = True) -> asyncio.Task[Any]:
        """Run ``coro`` on the loop; a ``request`` (to the relay, or leaving) keeps ``busy``
        true until it is done, so a screen and a test can wait for it by that property."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if request:
            self._requests.add(task)
            task.add_done_callback(self._request_done)
            self._show_busy()
        return task

    def _request_done(self, task: asyncio.Task[Any]) -> None:
        self._requests.discard(task)
        self._show_busy()

    def _show_busy(self) -> None:
        busy = self.requesting()
        if busy != self._busy_shown:
            self._busy_shown = busy
            self.busyChanged.emit()

    def pump(self, client: RelayClient) -> None:
        """Read ``client``'s events until it disconnects."""
        self.spawn(self._pump(client), request=False).set_name("online-pump")

    def set_screen(self, screen: str) -> None:
        if screen == "signin":
            self._nearby.browse()  # the list is live again (it stops once seated)
        self._awake.hold(screen == "table")  # from sit-down until the results or leaving
        if screen != self._screen:
            self._screen = screen
            self.screenChanged.emit()
            self.keyHintsChanged.emit()
            self.keyHintsShortChanged.emit()
            self._events.shared.emit()

    def set_busy(self, busy: bool) -> None:
        self._busy = busy
        self._show_busy()

    def set_error(self, error: str) -> None:
        if error != self._error:
            self._error = error
            self.errorChanged.emit()

    def set_help(self, shown: bool) -> None:
        self.shell.set_help(shown)

    def set_asking_leave(self, asking: bool) -> None:
        if asking != self._asking_leave:
            self._asking_leave = asking
            self.askingLeaveChanged.emit()
            self._events.shared.emit()

    def set_hosted(self, host: str, me_host: bool) -> None:
        """The room is a hosted table (``host`` "" for a relay of a club or a server)."""
        note = hosted_by(host, me_host) if host else ""
        self._guest_of = "" if me_host else host
        if note != self._hosted_note:
            self._hosted_note = note
            self.hostedNoteChanged.emit()

    def signed_in(self, name: str, url: str) -> None:
        """Seated at a hosted table (the host's or a guest's): the lobby shows its room."""
        # the typed address keeps what the player typed: a hosted table's wss://…:port dies
        # with the table (issue 41, finding 8); the client knows where it is connected
        self._account.put(name=name)
        self.set_error("")
        self.set_screen("lobby")
        self.announce(f"Signed in as {name}. You are in the room: the host starts.")

    def announce(self, text: str) -> None:
        """Say ``text`` to screen readers (and on the status line)."""
        self._table.announce(text)

    def play(self, name: str) -> None:
        if self.sounds is not None and not self.shell.muted_now:
            self.sounds.play(name)

    def refresh_countdown(self) -> None:
        """Count to the confirm deadline while choices are open; hidden during the moment."""
        peer = self.peer
        running = peer is not None and not peer.is_finished
        confirm = running and peer.deadline_kind is DeadlineKind.CONFIRM
        self._countdown.hold(self._moment.running)
        self._countdown.run_to(peer.next_deadline() if confirm and peer else None)

    async def shutdown(self) -> None:
        """Close the connection (a departure if a session runs) and stop our tasks."""
        self._countdown.run_to(None)
        await self._awake.close()  # the screen may sleep again, even mid-session (quitting)
        await self._host.close_table()
        await self._nearby.stop()
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

    def _end(self, text: str) -> None:
        """The session ended without a result: the results say why, at once."""
        self._results.ended(text)
        self.set_help(False)
        self.set_asking_leave(False)
        self.set_screen("results")

    def _on_event(self, event: Any) -> None:
        """A relay event: every object that owns it hears it (``Events.route``)."""
        self._events.route(event)
        self.refresh_countdown()

    # The window's own part of the events: the screen, the error line and what is said.
    def _on_roster(self, event: RosterChanged) -> None:
        self.announce(f"{len(event.roster)} in room {event.code}")

    def _on_started(self, event: SessionStarted) -> None:
        self.set_screen("table")
        # the lobby's words still waiting ("Room ...: share the code") are stale now
        self.shell.drop_waiting_words()
        # said with the table as it takes the focus (OnlineTable.greet), not as a Notification
        self._table.greet(
            f"The session started: {len(event.roster)} seats, you are {seat_label(event.seat)}. "
            f"Allocate, then confirm within {seconds(self.timeouts.confirm)}."
        )

    def _on_complete(self, event: SessionComplete) -> None:
        me, result = self._lobby.seat, event.result
        self.set_help(False)
        self.set_asking_leave(False)
        if not self._moment.running:  # else the last throw's result shows first
            self.set_screen("results")
        self.announce(
            f"Session complete: your final points {result.final[me]:,}, "
            f"rank {result.ranks[me]} of {len(result.final)}."
        )

    def _on_ended(self, event: SessionEnded) -> None:
        self._moment.finish()  # an ending shows at once
        text = self._results.ending_words(event)
        self._end(text)
        self._countdown.run_to(None)
        self.announce(text)

    def _on_saved(self, _event: TranscriptSaved) -> None:
        self._countdown.run_to(None)

    def _on_transcript_failed(self, event: TranscriptFailed) -> None:
        # The disk refused the transcript: the session ended (as this seat leaving); say why
        # in plain words, and where the part already written is.
        self._countdown.run_to(None)
        reason = re.sub(r"\[Errno \d+\]\s*", "", event.reason)  # people read no errno
        text = (
            f"No result: your transcript could not be saved ({reason}), so you left "
            f"the table. What was written before the error is in {event.path}."
        )
        self._end(text)
        self.announce(text)

    def _on_departed(self, event: MemberDeparted) -> None:
        if self._screen in ("table", "results"):
            self.announce(f"{self._lobby.seat_name(event.seat)} ({seat_label(event.seat)}) left.")

    def _on_relay_error(self, event: RelayError) -> None:
        self.set_error(refusal(event.code, event.message))

    def _on_reconnecting(self, _event: Reconnecting) -> None:
        # a blip is not a departure (issue 43): the seat is being taken back; nothing more is
        # said when it is, unless the seat is lost (then the ending says so)
        self.set_error(RECONNECTING_LINE)
        self.announce(self._error)

    def _on_reconnected(self, _event: Reconnected) -> None:
        if self._error == RECONNECTING_LINE:
            self.set_error("")

    def _on_table_closed(self, event: TableClosed) -> None:
        # the relay stops: a hosted table's host closed it (issue 41); it comes after the
        # session's ending (which could only say the connection was lost) and before
        # ``Disconnected``
        self._closed = event.text
        if event.host is not None:  # a club relay stopping: the results keep "connection lost"
            self._results.table_closed(event.text)
        self.announce(event.text)

    def _on_disconnected(self, _event: Disconnected) -> None:
        self._countdown.run_to(None)
        self.client = None
        if self._guest_of and not self._closed:  # the results name the table, not "the relay"
            self._results.table_closed(host_vanished(self._guest_of))
        lost = (
            self._closed
            or (
                host_vanished(self._guest_of)  # a hosted table gone without a word (issue 41)
                if self._guest_of
                else f"{RELAY_LOST[0].upper()}{RELAY_LOST[1:]}: sign in again when it is back."
            )
        )
        self._closed = ""
        if self._screen == "lobby":
            self._account.reset(error=lost)
        elif self._screen != "results":
            self.set_error(lost)

    def _subscribe(self) -> None:
        """The window hears the events that change its screen, its error line or what it says
        (after the small objects: they hold the state these words read)."""
        events = self._events
        events.subscribe(RosterChanged, self._on_roster)
        events.subscribe(SessionStarted, self._on_started)
        events.subscribe(SessionComplete, self._on_complete)
        events.subscribe(SessionEnded, self._on_ended)
        events.subscribe(TranscriptSaved, self._on_saved)
        events.subscribe(TranscriptFailed, self._on_transcript_failed)
        events.subscribe(MemberDeparted, self._on_departed)
        events.subscribe(RelayError, self._on_relay_error)
        events.subscribe(Reconnecting, self._on_reconnecting)
        events.subscribe(Reconnected, self._on_reconnected)
        events.subscribe(TableClosed, self._on_table_closed)
        events.subscribe(Disconnected, self._on_disconnected)

    # ------------------------------------------------------------------ properties
    screen = Property(str, lambda self: self._screen, notify=screenChanged)
    busy = Property(bool, lambda self: self._busy_shown, notify=busyChanged)
    """A request of mine is in flight (signing in, a room, leaving): its buttons wait."""
    error = Property(str, lambda self: self._error, notify=errorChanged)
    SHELL = ("insets", "windowMode", "muted", "helpOpen")
    """The window's shell (gui/shell.py) as the online screens read it on the bridge."""
    shell_face(vars(), SHELL)
    askingLeave = Property(bool, lambda self: self._asking_leave, notify=askingLeaveChanged)
    keyHints = Property(
        str,
        lambda self: "" if self._mobile else KEY_HINTS.get(self._screen, ""),
        notify=keyHintsChanged,
    )
    """The footer's key hints for the current screen ("" on a phone)."""
    keyHintsShort = Property(
        str,
        lambda self: "" if self._mobile else KEY_HINTS_SHORT.get(self._screen, ""),
        notify=keyHintsShortChanged,
    )
    """The same in a few words, for a narrow window."""

    account = Property(QObject, lambda self: self._account, constant=True)
    """Sign-in and the relay's trust questions (an ``Account``)."""
    lobby = Property(QObject, lambda self: self._lobby, constant=True)
    """The room and my seat in it (a ``Lobby``)."""
    table = Property(QObject, lambda self: self._table, constant=True)
    """My seat at the table: actions, seats, what is awaited (an ``OnlineTable``)."""
    results = Property(QObject, lambda self: self._results, constant=True)
    """The ending, receipts, the transcript's verdict and the standings (a ``Results``)."""
    seatTable = Property(QObject, lambda self: self._table.seat_table, constant=True)
    """My seat as the shared table view reads it (an ``OnlineSeat``)."""
    countdown = Property(QObject, lambda self: self._countdown, constant=True)
    """The seconds left to choose (``countdown.secondsLeft``; 0 while the result shows)."""
    moment = Property(QObject, lambda self: self._moment, constant=True)
    """The result moment (``moment.stage``, ``moment.reduceMotion``)."""
    host = Property(QObject, lambda self: self._host, constant=True)
    """The table I host: Host a table, its words, who is in, Start (a ``Host``)."""
    extras = Property(QObject, lambda self: self._host, constant=True)
    """The same ``Host``, under the name the shared ``CloseAsk`` card reads the window's close
    question on (``extras.closeQuestion``: closing while guests sit at my table asks first)."""
    nearby = Property(QObject, lambda self: self._nearby, constant=True)
    """The tables nearby and joining one (a ``Nearby``)."""
    hostedNote = Property(str, lambda self: self._hosted_note, notify=hostedNoteChanged)
    """On a hosted table: who hosts it and what the host can and cannot do ("" elsewhere)."""
    hostVouches = Property(str, lambda self: HOST_VOUCHES, constant=True)
    trust = Property(QObject, lambda self: self._trust, constant=True)
    """The open question about trusting the relay (``trust.asking``, ``text``, ``fingerprint``)."""
    canLeave = Property(bool, lambda self: self._on_leave is not None, constant=True)
    """Whether a solo table waits behind this window (``Back to solo table`` is shown)."""

    # constants: rules, deadlines and notices from Python, never copied into QML
    casualNotice = Property(str, lambda self: CASUAL_NOTICE, constant=True)
    freeText = Property(str, lambda self: FREE_POINTS, constant=True)
    confirmSeconds = Property(int, lambda self: round(self.timeouts.confirm), constant=True)
    helpText = Property(str, lambda self: self._help_html, constant=True)
    helpKeys = Property(str, lambda self: HELP_TOUCH if self._mobile else HELP_KEYS, constant=True)
    pointNumbers = Property(QVARIANT_LIST, lambda self: sorted(POINT_NUMBERS), constant=True)
    """The totals that set the point (``pointline.kernel.POINT_NUMBERS``), in order."""
    unit = Property(int, lambda self: UNIT, constant=True)
    hands = Property(int, lambda self: HANDS_PER_SESSION, constant=True)
    throwCap = Property(int, lambda self: THROW_CAP, constant=True)
    startingPoints = Property(int, lambda self: STARTING_POINTS, constant=True)
    mobile = Property(bool, lambda self: self._mobile, constant=True)
    """Android or iOS (or POINTLINE_FORCE_MOBILE=1): desktop-only controls are hidden."""
    # the text size asked for (gui.device.font_scale), the shell's, read once
    fontScale = Property(float, lambda self: self.shell.font_scale, constant=True)

    def set_insets(self, insets: dict[str, int]) -> None:
        """Fake safe-area insets (the shell's: the layout check and the screenshots)."""
        self.shell.set_insets(insets)

    # ------------------------------------------------------------------ Help and the window
    @Slot()
    def openHelp(self) -> None:
        self.set_help(True)

    @Slot()
    def closeHelp(self) -> None:
        self.set_help(False)

    @Slot()
    def escape(self) -> None:
        """Escape closes Help (or the leave question); online nothing pauses."""
        if self.shell.close_question.asked:
            self.shell.close_question.cancel()
        elif self.help_open:
            self.set_help(False)
        elif self._asking_leave:
            self.set_asking_leave(False)
        elif self._screen == "table":
            self.announce("Online sessions do not pause: the countdown keeps running.")

    @Slot()
    def back(self) -> None:
        """Android Back: closes Help; at the table asks before leaving; in the lobby leaves the
        room (or goes back to the solo table); at sign-in only goes back to the solo table."""
        if self.help_open:
            self.set_help(False)
        elif self._asking_leave:
            self.set_asking_leave(False)
        elif self._screen == "table":
            self.askLeave()
        elif self._screen == "lobby":
            if self._lobby.code:
                self._lobby.leaveRoom()
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
        if not self.session_running():
            self._lobby.leaveRoom()
            return
        self.set_asking_leave(True)
        self.announce(
            "Leave the table? The session ends for everyone without a result. Choose Leave or Stay."
        )

    @Slot()
    def confirmLeave(self) -> None:
        if not self._asking_leave:
            return
        self.set_asking_leave(False)
        self._lobby.leaveRoom()

    @Slot()
    def cancelLeave(self) -> None:
        if self._asking_leave:
            self.set_asking_leave(False)
            self.announce("You stay at the table.")

    @Slot()
    def toggleMute(self) -> None:
        self.announce(self.shell.toggle_mute())  # the whole app's sound, said in solo's words

    def applicationStateChanged_(self, state: Qt.ApplicationState) -> None:
        """For ``QGuiApplication.applicationStateChanged`` (it passes the enum member)."""
        self.applicationStateChanged(state.value)

    @Slot(int)
    def applicationStateChanged(self, state: int) -> None:
        """Suspended or Hidden ends a running session without a result (not a focus loss)."""
        if state not in BACKGROUND_STATES:
            return
        if self._host.table is not None and self._mobile:  # a phone: the table stops
            self.spawn(self._host_background())
            return
        peer, client = self.peer, self.client
        if client is None or peer is None or peer.is_finished:
            return
        with contextlib.suppress(ClientError):
            client.background()
        self._table.publish()

    async def _after_hosted(self) -> None:
        await self._host.close_table()
        client, self.client = self.client, None
        if client is not None:
            await client.close()
        self.set_hosted("", False)
        self._account.reset()
        self._host.refreshKeptName()

    async def _host_background(self) -> None:
        await self._host.background()
        self._table.publish()

    # ------------------------------------------------------------------ after the results
    @Slot()
    def backToLobby(self) -> None:
        """After the results: a fresh room (nothing carries over between sessions); the
        account signs in again on a new connection (``Account.reconnect``). A hosted table
        holds one session: the host's table closes and everyone goes back to Play online (host
        again, or tap the table again: one tap each)."""
        if self._hosted_note:
            self.spawn(self._after_hosted())
            self._moment.finish()
            self._table.clear_session()
            self._results.clear()
            self.set_help(False)
            return
        self.spawn(self._account.reconnect())
        self._moment.finish()
        self._table.clear_session()
        self._results.clear()
        self.set_help(False)
        self.set_screen("lobby")
        self._table.publish()

    # ------------------------------------------------------------------ leaving online play
    @Slot()
    def leave(self) -> None:
        """Back to the solo table: leave the room (never sign out), close, then ``on_leave``.

        Offered on the sign-in and lobby screens (and after the results); at a running table
        it is refused (Leave table ends the session first), so it never ends a session itself.
        """
        if self._leaving:
            return
        if self.session_running():
            self._table.presenter.notice = "Leave the table first: the session is still running."
            self.announce(self._table.presenter.notice)
            self._table.publish()
            return
        self._leaving = True
        self.spawn(self._leave_online())

    @Slot()
    def windowClosed(self) -> None:
        """The online window was closed: as Back to solo table, but even mid-session (then the
        session ends as this seat's departure, as closing the standalone app does)."""
        if self._leaving:
            return
        self._leaving = True
        self.spawn(self._leave_online())

    async def _leave_online(self) -> None:
        self.set_busy(True)
        await self._host.close_table()  # the host's departure first, then the relay stops
        await self._nearby.stop()
        client = self.client
        if (
            client is not None
            and not client.closed.is_set()
            and client.token is not None
            and not self.session_running()
        ):
            # leave the room, never sign out: coming back is one tap (issue 41); only the
            # player's "Forget this table" / "Sign out" cancels a kept sign-in
            with contextlib.suppress(ClientError, TimeoutError):
                if self._lobby.code:
                    await client.leave()
        await self.shutdown()
        self._account.reset()
        self.set_help(False)  # the window's Help (its shell's) is not left open under solo
        self.left.emit()
        if self._on_leave is not None:
            self._on_leave()
