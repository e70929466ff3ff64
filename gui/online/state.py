"""What the online bridge's small objects share: words, constants, the ``Link`` to the window.

The online window is one thin ``OnlineBridge`` (gui/online/bridge.py: the screen, the busy
flag, the error, Help, the window, the relay connection and its events) exposing small QObjects
as constant properties, each in its own module with its own properties and one notify signal
per property: ``account`` (sign-in and the relay's trust questions, gui/online/account.py),
``lobby`` (the room, lobby.py), ``table`` (my seat at the table, table.py) and ``results``
(endings, receipts, the transcript's verdict, standings, results.py), beside ``seatTable``,
``countdown``, ``moment`` and ``trust``.

How a property notifies: a small object keeps its published values in a dict and, after its
state changed, publishes them again (``Part.put``): only a property whose value changed emits
its own ``<name>Changed`` signal.

Events flow one way (``Events``): each object subscribes to the relay events it owns and, after
one reached it, publishes its own changes; an object whose values read the window's shared state
(the screen, Help, the leave question) also subscribes to ``Events.shared``. Nothing
re-publishes every object.

Asking flows one way too: an object reads the window's state through its ``Link`` and asks the
window for a change (the screen, the error line, words to say) only by the link's signals,
which the window connects; no object calls the window back. This module imports nothing of
the others: each object receives its link and the objects it reads when the bridge makes it.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QObject, Qt, Signal

from pointline.gui.moment import ResultMoment
from pointline.gui.online.from_net import NetError, RelayClient, Report, verification_words
from pointline.gui.online.trust import RelayTrust
from pointline.kernel import CREATOR_SEAT

__all__ = [
    "BACKGROUND_STATES",
    "CREATOR_SEAT",
    "DECLINED_TRUST",
    "HELP_LIVE",
    "ROSTER_KEYS",
    "SEAT_KEYS",
    "SIT_OUT_ASK",
    "STANDING_KEYS",
    "Connect",
    "Events",
    "Link",
    "Part",
    "Verify",
    "WindowState",
    "loop_time",
    "verdict_words",
    "words_for",
]

ROSTER_KEYS = ("seat", "label", "name", "words", "you", "creator")
SEAT_KEYS = ("seat", "label", "name", "you", "balance", "pass", "dontPass", "awaited", "status")
STANDING_KEYS = ("seat", "label", "name", "final", "rank", "you", "chart")
"""A standing's ``rank`` is 0 when the session ended without a result (no ranks then)."""
DECLINED_TRUST = "Nothing was trusted and nothing was sent: check the relay's address."
SIT_OUT_ASK = "Sit out this hand? Press Sit out (or Enter) again to sit it out, or allocate first."
HELP_LIVE = "Help is open; the countdown keeps running: close Help to play."
Connect = Callable[[str], Awaitable[RelayClient]]
"""Opens a relay connection (tests pass their own)."""
Verify = Callable[[Path], Report]

BACKGROUND_STATES = (
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
    if report.status == "ended":  # it stops at my own departure: the relay connection ended
        where = f"after throw {report.throws}" if report.throws else "before the first throw"
        return True, (
            f"pointline verify accepts what it holds, but the transcript stops where the "
            f"connection to the relay was lost {where}; nothing after that can be checked."
        )
    return True, (
        "pointline verify accepts what it holds, but it is incomplete: a signed receipt is "
        "missing or does not match."
    )


class WindowState(Protocol):
    """What the online window lets its small objects read (they never call it back)."""

    client: RelayClient | None

    @property
    def timeouts(self) -> Any: ...
    @property
    def screen_name(self) -> str: ...
    @property
    def help_open(self) -> bool: ...
    @property
    def asking_leave(self) -> bool: ...
    @property
    def on_mobile(self) -> bool: ...
    @property
    def result_moment(self) -> ResultMoment: ...
    @property
    def relay_trust(self) -> RelayTrust: ...
    @property
    def peer(self) -> Any: ...
    def requesting(self) -> bool: ...
    def session_running(self) -> bool: ...
    def spawn(
        self, coro: Coroutine[Any, Any, Any], *, request: bool = True
    ) -> asyncio.Task[Any]: ...


class Link(QObject):
    """The window as its small objects see it: what they read of it, and what they ask of it.

    Reading goes down (the window's state, through ``WindowState``); asking goes up only as
    this object's signals, which the window alone connects (``OnlineBridge._connect_link``):
    no small object calls the window back. ``spawn`` runs a coroutine on the window's loop.
    """

    said = Signal(str)
    failed = Signal(str)
    """The error line's words ("" clears it)."""
    screenWanted = Signal(str)
    busyWanted = Signal(bool)
    askingLeaveWanted = Signal(bool)
    hostedChanged = Signal(str, bool)
    signedIn = Signal(str, str)
    sounded = Signal(str)
    countdownStale = Signal()
    connected = Signal(object)
    """A new relay connection (or None: none) is the window's now."""
    pumpWanted = Signal(object)

    def __init__(self, window: WindowState, events: Events, parent: QObject | None = None) -> None:
        super().__init__(parent)
        # A weak reference: the window must not sit in a reference cycle with its objects, so
        # it is freed on the GUI thread when the app drops it, never by a garbage collection
        # that happens to run on another thread.
        self._window = weakref.ref(window)
        self.events = events

    @property
    def window(self) -> WindowState:
        window = self._window()
        if window is None:
            raise RuntimeError("the online window is gone")
        return window

    # ------------------------------------------------------------------ read (down)
    @property
    def client(self) -> RelayClient | None:
        return self.window.client

    @client.setter
    def client(self, client: RelayClient | None) -> None:
        self.connected.emit(client)

    @property
    def timeouts(self) -> Any:
        return self.window.timeouts

    @property
    def screen_name(self) -> str:
        return self.window.screen_name

    @property
    def help_open(self) -> bool:
        return self.window.help_open

    @property
    def asking_leave(self) -> bool:
        return self.window.asking_leave

    @property
    def on_mobile(self) -> bool:
        return self.window.on_mobile

    @property
    def result_moment(self) -> ResultMoment:
        return self.window.result_moment

    @property
    def relay_trust(self) -> RelayTrust:
        return self.window.relay_trust

    @property
    def peer(self) -> Any:
        return self.window.peer

    @property
    def host_config(self) -> Any:
        """The hosted relay's ``RelayConfig`` (None: the relay's defaults)."""
        return getattr(self.window, "host_config", None)

    def requesting(self) -> bool:
        return self.window.requesting()

    def session_running(self) -> bool:
        return self.window.session_running()

    def spawn(self, coro: Coroutine[Any, Any, Any], *, request: bool = True) -> asyncio.Task[Any]:
        return self.window.spawn(coro, request=request)

    # ------------------------------------------------------------------ ask (up, as signals)
    def announce(self, text: str) -> None:
        self.said.emit(text)

    def set_error(self, error: str) -> None:
        self.failed.emit(error)

    def set_screen(self, screen: str) -> None:
        self.screenWanted.emit(screen)

    def set_busy(self, busy: bool) -> None:
        self.busyWanted.emit(busy)

    def set_asking_leave(self, asking: bool) -> None:
        self.askingLeaveWanted.emit(asking)

    def set_hosted(self, host: str, me_host: bool) -> None:
        self.hostedChanged.emit(host, me_host)

    def signed_in(self, name: str, url: str) -> None:
        self.signedIn.emit(name, url)

    def play(self, name: str) -> None:
        self.sounded.emit(name)

    def refresh_countdown(self) -> None:
        self.countdownStale.emit()

    def pump(self, client: RelayClient) -> None:
        self.pumpWanted.emit(client)


class Events(QObject):
    """What routes the online window's events, and all it does.

    ``route(event)`` hands a relay event to every handler subscribed to its type (``subscribe``;
    ``object`` for every event), in the order they subscribed, then each small object one of
    them belongs to publishes itself once. ``shared`` says that the window's shared state (the
    screen, Help, the leave question) changed: the objects whose values read it subscribe.
    """

    shared = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._routes: list[tuple[type, Callable[[Any], None]]] = []

    def subscribe(self, kind: type, handler: Callable[[Any], None]) -> None:
        self._routes.append((kind, handler))

    def route(self, event: object) -> None:
        touched: dict[int, Part] = {}
        for kind, handler in list(self._routes):
            if isinstance(event, kind):
                handler(event)
                owner = getattr(handler, "__self__", None)
                if isinstance(owner, Part):
                    touched.setdefault(id(owner), owner)
        for part in touched.values():
            part.publish()


class Part(QObject):
    """A small object of the online window: its published values, each notifying on its own.

    A subclass declares ``<name>Changed`` signals and properties reading ``self._values[name]``
    (``gui.seat_table.state_property``) in its own class body, and calls ``put`` with every
    value after its state changed. ``shell`` is the window as it sees it (a ``Link``).
    """

    def __init__(self, shell: Link, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.shell = shell
        self._values: dict[str, Any] = {}

    def publish(self) -> None:
        """Publish the values that follow from more than this object's own state (a subclass
        that has them overrides it); ``put`` publishes the rest as they change."""

    def put(self, **values: Any) -> None:
        """Store each value; a property whose value changed emits its own ``<name>Changed``."""
        for name, value in values.items():
            old = self._values.get(name, _UNSET)
            if old is _UNSET or old != value or type(old) is not type(value):
                self._values[name] = value
                getattr(self, f"{name}Changed").emit()


_UNSET = object()
