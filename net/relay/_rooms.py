"""Rooms: join codes, seats in join order, 2–8 signed-in members, one seat per account.

Pure bookkeeping (no sockets): the relay calls these methods and sends what they return.
A room is created by its creator (seat 0), filled by join code, started by the creator only
with 2–8 members; nobody joins after the start. Before the start a leaving member frees its
seat (seats close up); the creator leaving closes the room. After the start seats are fixed
and a departure is only announced.
"""

from __future__ import annotations

import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import Final

from pointline.kernel import CREATOR_SEAT, ONLINE_SEATS_MAX, ONLINE_SEATS_MIN
from pointline.net.protocol._wire import (
    CODE_ALPHABET,
    CODE_LENGTH,
    ErrorCode,
    RosterEntry,
    WireError,
)

__all__ = [
    "MAX_MEMBERS",
    "MIN_MEMBERS",
    "Departure",
    "Member",
    "Room",
    "RoomError",
    "Rooms",
    "new_code",
    "normalize_code",
]

MIN_MEMBERS: Final = ONLINE_SEATS_MIN
"""The card's room size, decided once in the kernel: exactly 2-8 people."""
MAX_MEMBERS: Final = ONLINE_SEATS_MAX
LOG_FRAMES: Final = 4096
"""``deliver`` frames a room keeps for a resume: a whole session of eight seats sends about
2,100 (128 throws, a commit and a reveal from each seat, then the receipts)."""
LOG_BYTES: Final = 4 * 1024 * 1024
"""And at most this many bytes of them (a whole eight-seat session is about 1 MiB): frames as
large as the 64 KiB cap cannot make a room hold more."""


class RoomError(WireError):
    """A refused room request."""


@dataclass(slots=True)
class Member:
    conn: int
    name: str
    session_key: str
    present: bool = True
    held_until: float | None = None
    """Its connection dropped without a leave: the seat is kept for a ``resume`` until then."""
    sent: int = 0
    """``send`` frames the relay has taken from this seat (``resumed``'s ``received``)."""
    got: int = 0
    """``deliver`` frames addressed to this seat, sent or held while it was away."""
    owed: bytes | None = None
    """Its ``started`` frame, when the room started while it was away."""
    departures: list[tuple[int, bytes]] = field(default_factory=list)
    """The ``departed`` frames of the other seats that left, each with how many ``deliver``
    frames this seat had been addressed then (``got``): a resume sends again the ones not
    before what it received, each right after those deliveries (issue 43)."""


@dataclass(slots=True)
class Room:
    code: str
    creator: str
    members: list[Member] = field(default_factory=list)
    table_id: str | None = None
    log: deque[tuple[int, bytes]] = field(default_factory=deque)
    """The ``deliver`` frames of the session, (sender's seat, frame), the last ``LOG_FRAMES``
    (at most ``LOG_BYTES``): a resumed seat gets the ones it missed again."""
    log_bytes: int = 0

    @property
    def started(self) -> bool:
        return self.table_id is not None

    def seat_of(self, conn: int) -> int | None:
        for seat, member in enumerate(self.members):
            if member.conn == conn:
                return seat
        return None

    def roster(self) -> tuple[RosterEntry, ...]:
        return tuple(RosterEntry(i, m.name, m.session_key) for i, m in enumerate(self.members))

    def present(self) -> list[Member]:
        return [m for m in self.members if m.present]

    @property
    def deserted(self) -> bool:
        """Nobody is here and no seat is held: the room ends."""
        return not any(m.present or m.held_until is not None for m in self.members)

    def record(self, seat: int, data: bytes) -> None:
        """Keep the ``deliver`` ``data`` from ``seat`` for a resume, and count it for each
        other member."""
        log = self.log
        log.append((seat, data))
        self.log_bytes += len(data)
        while len(log) > LOG_FRAMES or self.log_bytes > LOG_BYTES:
            self.log_bytes -= len(log.popleft()[1])
        for other, member in enumerate(self.members):
            if other != seat:
                member.got += 1

    def missed(self, seat: int, received: int) -> list[bytes] | None:
        """The frames addressed to ``seat`` after the first ``received`` of them, oldest first;
        None when some of them are no longer kept (or ``received`` counts more than were sent)."""
        member = self.members[seat]
        count = member.got - received
        if count < 0:
            return None
        if count == 0:
            return []
        out: list[bytes] = []
        for sender, data in reversed(self.log):
            if sender != seat:
                out.append(data)
                if len(out) == count:
                    return out[::-1]
        return None


@dataclass(frozen=True, slots=True)
class Departure:
    """What a leave did: the room, the seat and name that left, and whether the room closed."""

    room: Room
    seat: int
    name: str
    closed: bool


def _shown(code: str) -> str:
    """A code as a player typed it, for a message: upper case, at most 16 characters, nothing
    but letters and digits (no quotes, no control characters)."""
    return "".join(c for c in normalize_code(code)[:16] if c.isalnum()) or "(empty)"


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    return code.strip().upper()


class Rooms:
    """Every room on one relay, and which connection sits in which room."""

    def __init__(self) -> None:
        self._rooms: dict[str, Room] = {}
        self._by_conn: dict[int, Room] = {}

    def __len__(self) -> int:
        return len(self._rooms)

    def seats(self) -> int:
        """Seats taken in every room here (a relay's load in a cluster)."""
        return sum(len(room.members) for room in self._rooms.values())

    def codes(self) -> list[str]:
        return list(self._rooms)

    def free_code(self) -> str:
        """A join code no room here has."""
        code = new_code()
        while code in self._rooms:
            code = new_code()
        return code

    def room_of(self, conn: int) -> Room | None:
        return self._by_conn.get(conn)

    def get(self, code: str) -> Room | None:
        return self._rooms.get(normalize_code(code))

    def create(self, conn: int, name: str, session_key: str, code: str | None = None) -> Room:
        """A new room with ``conn`` in seat 0 (``code``: one claimed already, else a fresh one)."""
        if conn in self._by_conn:
            raise RoomError(ErrorCode.IN_ROOM, "leave your current room first")
        code = code if code is not None and code not in self._rooms else self.free_code()
        room = Room(code, name, [Member(conn, name, session_key)])
        self._rooms[code] = room
        self._by_conn[conn] = room
        return room

    def join(self, conn: int, name: str, session_key: str, code: str) -> Room:
        if conn in self._by_conn:
            raise RoomError(ErrorCode.IN_ROOM, "leave your current room first")
        room = self.get(code)
        if room is None:
            raise RoomError(ErrorCode.NO_ROOM, f"no room with code {_shown(code)}")
        if room.started:
            raise RoomError(ErrorCode.ROOM_STARTED, "this room has started; nobody joins now")
        if len(room.members) >= MAX_MEMBERS:
            raise RoomError(ErrorCode.ROOM_FULL, f"a room holds at most {MAX_MEMBERS} people")
        if any(m.name.casefold() == name.casefold() for m in room.members):
            raise RoomError(ErrorCode.DUPLICATE_ACCOUNT, "this account already has a seat here")
        if any(m.session_key == session_key for m in room.members):
            raise RoomError(ErrorCode.DUPLICATE_KEY, "this session key is already in the room")
        room.members.append(Member(conn, name, session_key))
        self._by_conn[conn] = room
        return room

    def start(self, conn: int, name: str, table_id: str) -> Room:
        room = self._by_conn.get(conn)
        if room is None:
            raise RoomError(ErrorCode.NOT_IN_ROOM, "you are in no room")
        if room.started:
            raise RoomError(ErrorCode.ROOM_STARTED, "this room has already started")
        if room.members[CREATOR_SEAT].conn != conn or room.creator.casefold() != name.casefold():
            raise RoomError(ErrorCode.NOT_CREATOR, "only the room's creator starts it")
        if not MIN_MEMBERS <= len(room.members) <= MAX_MEMBERS:
            raise RoomError(
                ErrorCode.TOO_FEW,
                f"a room starts with {MIN_MEMBERS}-{MAX_MEMBERS} people; it has "
                f"{len(room.members)}",
            )
        room.table_id = table_id
        return room

    def leave(self, conn: int) -> Departure | None:
        """Remove ``conn`` from its room (None if it sat in none)."""
        room = self._by_conn.pop(conn, None)
        if room is None:
            return None
        seat = room.seat_of(conn)
        assert seat is not None
        return self._remove(room, seat)

    def hold(self, conn: int, until: float) -> tuple[Room, Member] | None:
        """``conn`` dropped without a leave: its seat stays its own until ``until`` (a
        ``resume`` takes it back; ``expire`` gives it up). None if it sat in no room."""
        room = self._by_conn.pop(conn, None)
        if room is None:
            return None
        seat = room.seat_of(conn)
        assert seat is not None
        member = room.members[seat]
        member.present, member.held_until = False, until
        return room, member

    def expire(self, code: str, member: Member, until: float) -> Departure | None:
        """The seat held for ``member`` until ``until`` was not taken back: it leaves as a
        ``leave`` would (None when it came back or its room is gone)."""
        room = self._rooms.get(code)
        if room is None or member.held_until != until:
            return None
        for seat, other in enumerate(room.members):
            if other is member:
                member.held_until = None
                return self._remove(room, seat)
        return None

    def held_seat(self, name: str, session_key: str, code: str) -> tuple[Room, int]:
        """The seat of ``name`` with ``session_key`` in room ``code`` that a ``resume`` may take
        back: held for it, or still on an older connection of its own. Refused ``no_seat``."""
        room = self.get(code)
        seat = next(
            (
                i
                for i, m in enumerate(room.members if room is not None else ())
                if m.session_key == session_key and m.name.casefold() == name.casefold()
            ),
            None,
        )
        if room is None or seat is None:
            raise RoomError(ErrorCode.NO_SEAT, "no seat of yours is held in that room")
        member = room.members[seat]
        if not member.present and member.held_until is None:
            raise RoomError(ErrorCode.NO_SEAT, "your seat was given up: you were away too long")
        return room, seat

    def resume(self, conn: int, room: Room, seat: int) -> int | None:
        """``conn`` takes back ``seat`` of ``room`` (``held_seat``); the older connection that
        still held it, which the relay then closes, or None."""
        if conn in self._by_conn:
            raise RoomError(ErrorCode.IN_ROOM, "leave your current room first")
        member = room.members[seat]
        old = member.conn if member.present else None
        if old is not None:
            self._by_conn.pop(old, None)
        member.conn, member.present, member.held_until = conn, True, None
        self._by_conn[conn] = room
        return old

    def _remove(self, room: Room, seat: int) -> Departure:
        member = room.members[seat]
        closed = False
        if room.started:
            member.present = False
            closed = room.deserted
        elif seat == CREATOR_SEAT:
            closed = True
            for other in room.members[1:]:
                self._by_conn.pop(other.conn, None)
        else:
            del room.members[seat]
        if closed:
            self._rooms.pop(room.code, None)
        return Departure(room, seat, member.name, closed)
