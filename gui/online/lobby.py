"""The room: its code, its creator, its members and my seat, and the lobby's requests.

``Lobby`` is ``OnlineBridge.lobby``. Its properties follow from the roster the relay sent
(``set_room``); ``createRoom``, ``joinRoom``, ``startRoom`` and ``leaveRoom`` are requests to
the relay, run on the bridge's loop (``Link.spawn``), which keep ``busy`` true until answered.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from pointline.gui.online.from_net import (
    ClientError,
    RelayClient,
    RelayError,
    RosterChanged,
    RosterEntry,
    SessionStarted,
)
from pointline.gui.online.models import RowsModel
from pointline.gui.online.state import CREATOR_SEAT, ROSTER_KEYS, Link, Part, words_for
from pointline.gui.online.texts import (
    MAX_PEOPLE,
    MIN_PEOPLE,
    joined,
    left_room,
    refusal,
    seat_label,
)
from pointline.gui.seat_table import state_property
from pointline.kernel import is_online_seat_count

__all__ = ["Lobby"]


class Lobby(Part):
    """The room I am in (none: empty code, seat -1) and what I may do in it."""

    roomCodeChanged = Signal()
    creatorChanged = Signal()
    isCreatorChanged = Signal()
    mySeatChanged = Signal()
    mySeatLabelChanged = Signal()
    canStartChanged = Signal()
    startReasonChanged = Signal()

    def __init__(self, shell: Link, parent: QObject | None = None) -> None:
        super().__init__(shell, parent)
        self.code = ""
        self.creator_name = ""
        self.entries: tuple[RosterEntry, ...] = ()
        self.seat = -1
        self.news = ""
        """Who joined or left with the last roster the relay sent ("" none: ``roster_news``)."""
        self._members = RowsModel(ROSTER_KEYS, self)
        events = shell.events  # the events this lobby owns: the room as the relay sends it
        events.subscribe(RosterChanged, self.on_roster)
        events.subscribe(SessionStarted, self.on_started)
        events.subscribe(RelayError, self.on_relay_error)
        self.publish()

    roomCode = state_property(str, "roomCode", roomCodeChanged)
    creator = state_property(str, "creator", creatorChanged)
    isCreator = state_property(bool, "isCreator", isCreatorChanged)
    mySeat = state_property(int, "mySeat", mySeatChanged)
    """The protocol's 0-based index (-1: none); people read ``mySeatLabel``."""
    mySeatLabel = state_property(str, "mySeatLabel", mySeatLabelChanged)
    canStart = state_property(bool, "canStart", canStartChanged)
    startReason = state_property(str, "startReason", startReasonChanged)
    roster = Property(QObject, lambda self: self._members, constant=True)
    """The room's members with their verification words (a ``RowsModel``, ``ROSTER_KEYS``)."""
    maxSeats = Property(int, lambda self: MAX_PEOPLE, constant=True)
    minPeople = Property(int, lambda self: MIN_PEOPLE, constant=True)

    # ------------------------------------------------------------------ state
    def set_room(self, code: str, creator: str, roster: tuple[RosterEntry, ...], seat: int) -> None:
        """The room as the relay sent it (``clear`` for none)."""
        self.code, self.creator_name, self.entries, self.seat = code, creator, roster, seat
        self.publish()

    def clear(self) -> None:
        self.set_room("", "", (), -1)

    def on_roster(self, event: RosterChanged) -> None:
        before = self.entries if event.code == self.code else ()
        seat = self.roster_seat(event.roster)  # seats close up when one leaves
        self.set_room(event.code, event.creator, event.roster, self.seat if seat is None else seat)
        self.news = self.roster_news(before, event.roster)

    def roster_news(self, before: tuple[RosterEntry, ...], now: tuple[RosterEntry, ...]) -> str:
        """Who left and who joined the room I was already in, before the start, by the names
        its list shows, each with the count after it ("" for a room I have just come into)."""
        if self.shell.screen_name != "lobby" or self.roster_seat(before) is None:
            return ""
        was, keys, count = {e.session_key for e in before}, {e.session_key for e in now}, len(now)
        words = [left_room(e.name, count) for e in before if e.session_key not in keys]
        words += [joined(e.name, count) for e in now if e.session_key not in was]
        return ". ".join(words) + "." if words else ""

    def on_started(self, event: SessionStarted) -> None:
        self.set_room(event.code, self.creator_name, event.roster, event.seat)

    def on_relay_error(self, event: RelayError) -> None:
        if event.code == "room_closed":
            self.clear()

    def publish(self) -> None:
        """Publish the room's properties and members (each notifies only when it changed)."""
        mine, reason = self.seat, self.start_reason()
        self.put(
            roomCode=self.code,
            creator=self.creator_name,
            isCreator=self.is_creator(),
            mySeat=mine,
            mySeatLabel=seat_label(mine) if mine >= 0 else "",
            canStart=not reason,
            startReason=reason,
        )
        self._members.set_rows(
            [
                {
                    "seat": e.seat,
                    "label": seat_label(e.seat),
                    "name": e.name,
                    "words": words_for(e.session_key),
                    "you": e.seat == self.seat,
                    "creator": e.seat == CREATOR_SEAT,
                }
                for e in self.entries
            ]
        )

    def roster_seat(self, roster: tuple[RosterEntry, ...]) -> int | None:
        """My seat in a roster the relay sent, found by my session key (None: not in it)."""
        client = self.shell.client
        key = None if client is None else client.signing_key
        mine = [e.seat for e in roster if key is not None and e.session_key == key.public_hex]
        return mine[0] if len(mine) == 1 else None

    def is_creator(self) -> bool:
        """Whether I created this room: the relay seats its creator at seat 0 of the roster it
        sends (the relay alone decides, folding the case of names as it does)."""
        return bool(self.code) and self.roster_seat(self.entries) == CREATOR_SEAT

    def start_reason(self) -> str:
        if not self.code:
            return "Create or join a room first."
        if not self.is_creator():
            return f"Waiting for {self.creator_name}, who created the room, to start it."
        if not is_online_seat_count(len(self.entries)):
            return (
                f"A room starts with {MIN_PEOPLE} to {MAX_PEOPLE} people: wait for at least "
                "one more."
            )
        return ""

    def seat_name(self, seat: int) -> str:
        for entry in self.entries:
            if entry.seat == seat:
                return entry.name
        return seat_label(seat)

    def who(self, seat: int) -> str:
        """'you, Seat 1' for my seat, else 'bob, Seat 2': one numbering for people."""
        if seat == self.seat:
            return f"you, {seat_label(seat)}"
        name = self.seat_name(seat)
        return name if name == seat_label(seat) else f"{name}, {seat_label(seat)}"

    # ------------------------------------------------------------------ requests
    async def request(self, make: Callable[[RelayClient], Awaitable[Any]]) -> Any:
        """Send a request to the relay; its refusal becomes the error line (None then)."""
        shell = self.shell
        client = shell.client
        if client is None:
            shell.set_error("Sign in first.")
            return None
        shell.set_busy(True)
        shell.set_error("")
        try:
            return await make(client)
        except ClientError as exc:
            shell.set_error(refusal(exc.code, exc.text))
            return None
        except TimeoutError:
            shell.set_error("The relay did not answer in time: try again.")
            return None
        finally:
            shell.set_busy(False)

    async def _enter(self, make: Callable[[RelayClient], Awaitable[Any]]) -> None:
        room = await self.request(make)
        if room is None:
            return
        self.set_room(room.code, room.creator, room.roster, room.seat)
        self.publish()
        self.shell.announce(f"Room {room.code}: you are {seat_label(room.seat)}. Share the code.")

    @Slot()
    def createRoom(self) -> None:
        self.shell.spawn(self._enter(lambda c: c.create_room()))

    @Slot(str)
    def joinRoom(self, code: str) -> None:
        code = code.strip().upper()
        if not code:
            self.shell.set_error("Type the room's join code first.")
            return
        self.shell.spawn(self._enter(lambda c: c.join_room(code)))

    @Slot()
    def startRoom(self) -> None:
        reason = self.start_reason()
        if reason:
            self.shell.set_error(reason)
            return
        self.shell.spawn(self.request(lambda c: c.start()))

    async def _leave(self) -> None:
        running = self.shell.session_running()
        if self.shell.client is not None:
            await self.shell.client.leave()
        if not running:  # a running session's ending names the seats: keep them till then
            self.clear()
        self.shell.set_asking_leave(False)
        self.publish()

    @Slot()
    def leaveRoom(self) -> None:
        """Leave the room (once started: a departure that ends the session for everyone)."""
        self.shell.spawn(self._leave())
