"""The online bridge's shared state and plumbing, which its parts build on.

``OnlineBridge`` (gui/online/bridge.py) is one QObject for QML made of parts, each a plain
mixin in its own module, listed before ``QObject``: PySide6 merges a mixin's signals, slots and
properties into the QObject's meta-object (a QObject base class would not do: PySide6 looks a
property's notify signal up among the signals of the class that declares the property only).
The parts are ``account`` (sign-in, the relay's trust questions, the lobby, leaving), ``table``
(my draft, the actions, the result moment's beats, the seats), ``results`` (endings, receipts,
the transcript's verdict, the standings) and the bridge itself (the notify signals, the events,
the properties). This module holds what they share: the state's declarations, the constants,
the setters and the async plumbing.

How a property notifies: each has its own signal, emitted by the setter that changes it.

- A plain value (the screen, the error, Help, ...) is set through ``_set(key=value)``, which
  stores ``_key`` and, only if the value differs, emits that property's signal (``_NOTIFY``).
- The room's properties (code, creator, roster, may I start) are derived from the roster the
  relay sent: a setter of one of their inputs republishes them (``_show_room``), each emitting
  its own signal only when its value changed.
- My seat's table (phase, dice, drafts, legality, history) is published into the ``OnlineSeat``
  the table view reads (``SeatTable.publish``, per property) by ``_show_table``, which the
  handlers that change the table's inputs call: a protocol event, a beat of the result moment,
  one of my actions, Help, the leave question. The bridge does not repeat those properties:
  QML and Python read them on ``seatTable``, so each value is computed and notified in one place.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt

from pointline.gui.moment import ResultMoment
from pointline.gui.online.countdown import Countdown
from pointline.gui.online.models import RowsModel
from pointline.gui.online.seat import OnlineSeat
from pointline.gui.online.texts import (
    seat_label,
)
from pointline.gui.online.trust import RelayTrust
from pointline.kernel import (
    CREATOR_SEAT,
    Line,
    Phase,
    Table,
)
from pointline.net.client.relay_client import (
    RelayClient,
)
from pointline.net.errors import NetError
from pointline.net.protocol.keys import verification_words
from pointline.net.protocol.peer import (
    DeadlineKind,
    Timeouts,
)
from pointline.net.protocol.verify import Report
from pointline.net.protocol.wire import RosterEntry

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
    "OnlineState",
    "Verify",
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


if TYPE_CHECKING:
    # For the type checker a part is what it always ends up in, a QObject; at run time it
    # must stay a plain class (see the module docstring).
    _Part = QObject
else:
    _Part = object

_NOTIFY: dict[str, tuple[str, ...]] = {
    "screen": ("screenChanged", "keyHintsChanged", "keyHintsShortChanged"),
    "url": ("relayUrlChanged",),
    "error": ("errorChanged",),
    "name": ("nameChanged",),
    "muted": ("mutedChanged",),
    "outcome": ("outcomeChanged",),
    "end_text": ("endTextChanged",),
    "receipts": ("receiptsTextChanged",),
    "transcript": ("transcriptPathChanged",),
    "verifying": ("verifyingChanged",),
    "verify_ok": ("verifyOkChanged",),
    "verify_text": ("verifyTextChanged",),
    "mode": ("windowModeChanged",),
    "asking_leave": ("askingLeaveChanged",),
    "help": ("helpOpenChanged",),
}
"""The state a setter stores (``_key``) -> the notify signals of the properties that read it."""
_ROOM_INPUTS = frozenset({"code", "creator", "roster", "seat"})
_PLAIN_ONLY = (frozenset(_NOTIFY) | {"busy", "after_moment"}) - {"screen", "asking_leave", "help"}
"""Values no table property reads: setting them republishes nothing else."""


class OnlineState(_Part):
    """What every part of the online bridge reads and the helpers they share."""

    # The state, set in OnlineBridge.__init__; declared here for the parts that read it.
    _url: str
    timeouts: Timeouts
    _connect_override: Connect | None
    _nonce_source: Callable[[], bytes] | None
    _ca: str | None
    client: RelayClient | None
    _tasks: set[asyncio.Task[Any]]
    _requests: set[asyncio.Task[Any]]
    _screen: str
    _busy: bool
    _busy_shown: bool
    _error: str
    _name: str
    _code: str
    _creator: str
    _roster: tuple[RosterEntry, ...]
    _seat: int
    _draft: Table | None
    _view: Table | None
    _committed: bool
    _sit_out_armed: bool
    sounds: Any
    _muted: bool
    _ledger_mark: int
    _outcome: str
    _end_text: str
    _outcomes: dict[str, str]
    _receipts: str
    _transcript: str
    _verifying: bool
    _verify_ok: bool
    _verify_text: str
    _verify: Verify
    _mode: str
    _asking_leave: bool
    _mobile: bool
    _insets: Any
    _on_leave: Callable[[], None] | None
    _leaving: bool
    _help_html: str
    _trust: RelayTrust
    _pending: tuple[str, str, str, bool] | None
    _chip: int
    submitted: Any  # OnlineBridge's Signal(str): a choice of mine reached the client
    _seat_table: OnlineSeat
    _room: dict[str, Any]
    """The room's published property values (``_show_room``)."""
    _own: dict[str, Any]
    """The table's values the bridge publishes beside my seat (``_show_table``)."""
    _line: Line
    _help: bool
    _announcement: str
    _notice: str
    _dice: tuple[int, int]
    _serial: int
    _shown: Table | None
    _next_outcomes: dict[str, str]
    _next_flights: dict[str, int]
    _next_words: str
    _next_sound: str
    _after_moment: str
    _countdown: Countdown
    _moment: ResultMoment
    _seats: RowsModel
    _members: RowsModel
    _standings: RowsModel

    # Provided by the other parts (OnlineBridge combines them).
    async def _pump(self, client: RelayClient) -> None:
        raise NotImplementedError

    def _reset_account(self, error: str = "") -> None:
        raise NotImplementedError

    def _fresh_draft(self) -> None:
        raise NotImplementedError

    def _on_saved(self, path: Path) -> None:
        raise NotImplementedError

    async def shutdown(self) -> None:
        raise NotImplementedError

    def _seat_rows(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def _publish_seat(self) -> None:
        raise NotImplementedError

    def _standing_rows(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def _roster_rows(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def _ledger(self) -> Any:
        raise NotImplementedError

    def _is_creator(self) -> bool:
        raise NotImplementedError

    def _start_reason(self) -> str:
        raise NotImplementedError

    def leave(self) -> None:
        raise NotImplementedError

    def leaveRoom(self) -> None:
        raise NotImplementedError

    def backToLobby(self) -> None:
        raise NotImplementedError

    def _spawn(self, coro: Coroutine[Any, Any, Any], *, request: bool = True) -> asyncio.Task[Any]:
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

    def _set(self, **values: Any) -> None:
        """Store each ``_key``; emit the signal of every property whose value changed, and
        republish the room and the table when one of their inputs changed."""
        changed = set()
        for key, value in values.items():
            old = getattr(self, f"_{key}")
            setattr(self, f"_{key}", value)
            if old != value or type(old) is not type(value):
                changed.add(key)
        for key in changed:
            for signal in _NOTIFY.get(key, ()):
                getattr(self, signal).emit()
        if "busy" in changed:
            self._show_busy()
        if changed & _ROOM_INPUTS:
            self._show_room()
        if changed - _PLAIN_ONLY:
            self._show_table()

    def _show_busy(self) -> None:
        """``busy``: a request of mine is in flight (or a step marked itself busy)."""
        busy = self._busy or bool(self._requests)
        if busy != self._busy_shown:
            self._busy_shown = busy
            getattr(self, "busyChanged").emit()  # noqa: B009 - declared by OnlineBridge

    def _show_room(self) -> None:
        """Publish the room's properties (each notifies only when its value changed)."""
        mine = self._seat
        values = {
            "roomCode": self._code,
            "creator": self._creator,
            "isCreator": self._is_creator(),
            "mySeat": mine,
            "mySeatLabel": seat_label(mine) if mine >= 0 else "",
            "canStart": not self._start_reason(),
            "startReason": self._start_reason(),
        }
        self._put(self._room, values)
        self._members.set_rows(self._roster_rows())

    def _put(self, store: dict[str, Any], values: dict[str, Any]) -> None:
        """Store each value; a property whose value changed emits its own ``<name>Changed``."""
        for name, value in values.items():
            if name not in store or store[name] != value:
                store[name] = value
                getattr(self, f"{name}Changed").emit()

    def _show_table(self) -> None:
        """Publish my seat to the table view, the seats and the standings (each property and
        each row notifies only when it changed)."""
        self._publish_seat()
        self._seats.set_rows(self._seat_rows())
        self._standings.set_rows(self._standing_rows())

    def _announce(self, text: str) -> None:
        """Say ``text`` to screen readers (and on the status line)."""
        self._announcement = text
        self._seat_table.publish(announcement=text, status=self._notice or text)

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
