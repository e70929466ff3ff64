"""The relay's sans-IO core: frames and time in; frames, closes and store/presence requests out.

As ``net.protocol._peer.Peer`` is for a client (and as the websockets library's and h11's
protocol objects are for theirs), ``RelayCore`` holds everything the relay decides — accounts
requests, rooms, seats, the per-connection frame budget and sign-in count, the sign-in and
send-timeout deadlines and the outbox limit, dispatch, the signed roster and departures — and
does no I/O: no socket, no clock, no thread, no event loop.
``net.relay._server.Relay`` is the thin websockets driver around it.

The conversation (ONLINE.md §9 "What a relay must do" says what it decides; R9 its deadlines):

- ``opened(address, now, accepted)`` -> a connection id, when a websocket is up;
- ``receive(conn, message, now)`` -> actions, for each text frame it sends. A ``send`` is
  forwarded at once (``Transmit``); a refused frame is answered (``Transmit`` of an ``error``);
  a request (every other op) comes back as ``Dispatch``, which the driver hands to
  ``request(conn, frame)``;
- ``request(conn, frame)`` -> a generator of actions. A ``Call`` in it is a request the core
  cannot answer itself (the account store, a password hash, the cluster's directory): the
  driver runs it and sends its result back into the generator (``gen.send(result)``), or the
  ``WireError`` it raised (``gen.throw(exc)``). A ``WireError`` that leaves the generator is
  the refusal of the request: the driver answers it with ``refusal(frame, exc)``;
- ``leave(conn)`` / ``closed(conn)`` -> actions, when a connection leaves its room (asked)
  or is gone;
- ``outbox(conn, frames, sending_since, now)`` -> actions: the driver's report of what waits
  for a reader (frames queued behind the socket, and since when the send in progress has
  waited), made whenever that changes on its slow path; the core cuts a reader with more than
  ``outbox_frames`` waiting at once, and names the send-timeout deadline otherwise;
- time: ``opened(address, now, accepted)`` starts the sign-in deadline at ``accepted`` (when
  the socket was accepted, before any handshake); ``next_deadline()`` is the earliest time
  the core must hear from the clock, and ``tick(now)`` -> the ``Close`` (and departures) of
  every deadline passed by ``now``: a socket not signed in within ``signin_deadline``, a
  reader whose send has waited more than ``send_timeout``. The driver arms one timer for
  ``next_deadline()`` and closes what the core says to close;
- ``Authenticated(conn)`` tells the driver the connection has signed in (its sign-in deadline
  no longer runs: the core has dropped it).

Nothing here awaits: a driver that feeds the same frames and times in gets the same actions out,
which is what the unit tests do (tests/net/test_net_relay_core.py) without a socket.
"""

from __future__ import annotations

import heapq
import itertools
import secrets
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from pointline.net._ws import PING_INTERVAL, PING_TIMEOUT
from pointline.net.protocol._keys import SigningKey
from pointline.net.protocol._roster import roster_from_wire, roster_signing_bytes
from pointline.net.protocol._wire import (
    ChangePassword,
    ClientFrame,
    CreateRoom,
    Deliver,
    Departed,
    ErrorCode,
    JoinRoom,
    Leave,
    Redirect,
    RelayFrame,
    Resume,
    Resumed,
    RoomJoined,
    Roster,
    RosterEntry,
    Send,
    SignedIn,
    SignedOut,
    Signin,
    Signout,
    Signup,
    Start,
    Started,
    WireError,
    encode,
    error,
    parse_client,
)
from pointline.net.relay._accounts import TOKEN_TTL, TOKENS_PER_ACCOUNT, Accounts, HashParams
from pointline.net.relay._accounts import RateLimiter as RateLimiter
from pointline.net.relay._cluster import Redirects, Router
from pointline.net.relay._frames import received_payload, send_payload
from pointline.net.relay._rooms import Departure, Member, Room, Rooms

__all__ = [
    "ROOM_CLOSED_TEXT",
    "SLOW_READER_REASON",
    "Action",
    "Authenticated",
    "Call",
    "Close",
    "Dispatch",
    "Left",
    "RelayConfig",
    "RelayCore",
    "Session",
    "TokenBucket",
    "Transmit",
    "sign_roster",
]


RESUME_GRACE: Final = 60.0
"""Seconds a seat whose connection dropped (no ``leave``, no close frame) is held for a
``resume`` before its departure is announced: longer than the card's longest step deadline
(45 s to confirm), so a seat is only declared missing by its peers' own deadlines while it may
still come back (spec/ONLINE.md "A blip is not a departure")."""


@dataclass(frozen=True, slots=True)
class RelayConfig:
    """Limits; the defaults suit a public relay, tests make them smaller or faster.

    Every limit is also a ``pointline-relay`` flag (``build_parser``)."""

    max_size: int = 64 * 1024  # bytes per frame
    message_rate: float = 100.0  # frames per second per connection (sustained)
    message_burst: float = 200.0  # frames a connection may send at once
    auth_attempts: int = 10  # sign-up/sign-in attempts per connection per auth_window
    auth_window: float = 60.0
    failures_per_name: int = 5  # failed sign-ins per (name, address) per auth_window
    hash_params: HashParams = field(default_factory=HashParams)
    max_connections: int = 4096  # open sockets in total (handshake included)
    connections_per_address: int = 16  # open sockets per source address
    signin_deadline: float = 30.0  # seconds from connect to a sign-in (or a valid token)
    tls_handshake_deadline: float = 10.0  # seconds from connect to a finished TLS handshake
    auth_per_address: int = 30  # sign-ups/sign-ins per source address per auth_window
    hash_workers: int = 2  # argon2 hashes computed at once
    hash_queue: int = 16  # requests waiting for a hashing slot; more get "busy"
    accept_log_interval: float = 60.0  # seconds between two "out of descriptors" log lines
    outbox_frames: int = 256  # frames waiting for one reader; more and it is cut
    send_timeout: float = 10.0  # seconds one frame may wait for a reader; longer and it is cut
    token_ttl: float = TOKEN_TTL  # seconds a sign-in token lives
    token_slides: bool = False  # each use of a token extends its life by token_ttl (hosted tables)
    tokens_per_account: int = TOKENS_PER_ACCOUNT  # live tokens; a new sign-in revokes the oldest
    resume_grace: float = RESUME_GRACE  # seconds a dropped member's seat waits for its resume
    ping_interval: float = PING_INTERVAL  # seconds between two websocket pings to a client
    ping_timeout: float = PING_TIMEOUT  # seconds a ping waits for its pong; then it is dropped


ROOM_CLOSED_TEXT: Final = "the room's creator left; the room is closed"


class TokenBucket:
    """``rate`` tokens per second up to ``burst``; one token per frame."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


# ------------------------------------------------------------------------------ actions


@dataclass(frozen=True, slots=True)
class Transmit:
    """Send ``data`` (one text frame, UTF-8) to each connection of ``conns``, in order after
    everything sent to it before."""

    conns: tuple[int, ...]
    data: bytes


CloseCause = Literal["signin", "slow", "resumed"]


@dataclass(frozen=True, slots=True)
class Close:
    """Close connection ``conn`` with WebSocket code ``code`` and ``reason`` (the driver drops
    what still waits to be sent to it, lets it read the close frame for a short grace, then
    cuts it). ``cause``: which deadline or limit; ``why``: for the relay's log."""

    conn: int
    code: int
    reason: str
    cause: CloseCause
    why: str = ""


SLOW_READER_REASON: Final = "too slow: frames were not read"


@dataclass(frozen=True, slots=True)
class Authenticated:
    """``conn`` signed in (or showed a live token): its sign-in deadline no longer runs."""

    conn: int


@dataclass(frozen=True, slots=True)
class Dispatch:
    """A request frame for the driver to run through ``RelayCore.request``."""

    conn: int
    frame: ClientFrame


@dataclass(frozen=True, slots=True)
class Left:
    """``conn`` left its room on request (the core has seated the rest already): a driver with
    its own bookkeeping of departures hears of it here."""

    conn: int


CallKind = Literal["store", "hash", "presence", "background"]


@dataclass(frozen=True, slots=True)
class Call:
    """A request the core cannot answer itself: ``fn(*args)``. ``store``: the account store (a
    blocking call; a shared database's in a worker thread); ``hash``: a password hash (under the
    bound on hashing work, refused with ``busy`` beyond it); ``presence``: the cluster's
    directory (``fn`` returns an awaitable); ``background``: a directory update nobody waits for
    (nothing is sent back)."""

    kind: CallKind
    fn: Callable[..., Any]
    args: tuple[Any, ...] = ()


Action = Transmit | Close | Authenticated | Dispatch | Left | Call
Steps = Generator[Action, Any, None]


def sign_roster(
    key: SigningKey, table_id: str, roster: tuple[RosterEntry, ...], host: str | None = None
) -> str:
    """The relay's signature (hex) of a started room's roster: over exactly the bytes
    ``pointline verify --relay-key`` checks (``net.protocol._roster.roster_signing_bytes`` of the
    roster as the transcript header holds it), so it binds each session key to its account name;
    a hosted table's relay signs its host's name with it."""
    members = roster_from_wire(
        [{"seat": e.seat, "name": e.name, "session_key": e.session_key} for e in roster]
    )
    return key.sign(roster_signing_bytes(table_id, members, host)).hex()


@dataclass(slots=True)
class Session:
    """What the core knows of one open connection."""

    id: int
    address: str
    bucket: TokenBucket
    name: str | None = None  # account bound by the last create/join
    signed_in: bool = False
    redirects: Redirects = field(default_factory=Redirects)  # where a cluster sent it
    signin_by: float = 0.0  # the sign-in deadline (while not signed_in)
    send_by: float | None = None  # the send-timeout deadline of the send in progress
    closing: bool = False  # the core has closed it: no more deadlines


def _data(frame: RelayFrame) -> bytes:
    return encode(frame).encode("utf-8")


class RelayCore:
    """Every decision of one relay, driven by frames and times (see the module's text)."""

    def __init__(
        self,
        accounts: Accounts,
        key: SigningKey,
        config: RelayConfig | None = None,
        router: Router | None = None,
        host_of: Callable[[Room], str | None] | None = None,
        new_table_id: Callable[[], str] | None = None,
    ) -> None:
        self.accounts = accounts
        self.key = key
        """The relay's Ed25519 key: it signs every started roster."""
        self.config = config or RelayConfig()
        self.router = router
        """The cluster's routing (None: a single relay, every room is here)."""
        self.host_of = host_of or (lambda room: None)
        """Who vouches for a started room's names besides the relay (a hosted table's host)."""
        self.new_table_id = new_table_id or (lambda: secrets.token_hex(8))
        self.rooms = Rooms()
        self.sessions: dict[int, Session] = {}
        self.now = 0.0
        """The time of the last frame in (the driver's monotonic clock, seconds)."""
        self._ids = itertools.count(1)
        self.auth = RateLimiter(self.config.auth_attempts, self.config.auth_window, self._clock)
        """Sign-up/sign-in/password checks per connection (its id), in the core's time."""
        self.auth_by_address = accounts.limiter(
            "address", self.config.auth_per_address, self.config.auth_window
        )
        self.frames_forwarded = 0
        self._deadlines: list[tuple[float, int]] = []  # (when, conn), a heap; stale ones skipped
        self._held: list[tuple[float, int, str, Member]] = []
        """(until, order, room code, member): seats held for a resume, a heap; stale skipped."""
        self._held_order = itertools.count()
        self.resumed = 0
        self.signin_closed = 0
        self.slow_cut = 0

    def _clock(self) -> float:
        return self.now

    # ---------------------------------------------------------------- connections

    def opened(self, address: str, now: float, accepted: float | None = None) -> int:
        """A websocket from ``address`` is open at ``now``: its id. Its sign-in deadline runs
        from ``accepted`` (when its socket was accepted; ``now`` when not given)."""
        self.now = now
        conn = next(self._ids)
        burst = self.config.message_burst
        start = now if accepted is None else accepted
        session = Session(conn, address, TokenBucket(self.config.message_rate, burst, now))
        session.signin_by = start + self.config.signin_deadline
        self.sessions[conn] = session
        heapq.heappush(self._deadlines, (session.signin_by, conn))
        return conn

    def closed(self, conn: int, hold: bool = False, now: float | None = None) -> list[Action]:
        """The connection is gone: it leaves its room (announced), its counts are dropped.
        ``hold``: it dropped without a close frame (a lost network, a ping unanswered): its
        seat is held for a ``resume`` for ``resume_grace`` seconds, announced only then."""
        if now is not None:
            self.now = now
        held = self.rooms.hold(conn, self.now + self.config.resume_grace) if hold else None
        actions: list[Action] = []
        if held is not None:
            room, member = held
            entry = (member.held_until or 0.0, next(self._held_order), room.code, member)
            heapq.heappush(self._held, entry)
        else:
            actions = self.leave(conn)
        self.auth.clear(str(conn))
        self.sessions.pop(conn, None)
        return actions

    # ---------------------------------------------------------------- time and outboxes

    def _due(self, when: float, conn: int) -> bool:
        """Whether heap entry (``when``, ``conn``) is still a deadline of a live connection."""
        s = self.sessions.get(conn)
        if s is None or s.closing:
            return False
        return (not s.signed_in and s.signin_by == when) or s.send_by == when

    def next_deadline(self) -> float | None:
        """The earliest time at which ``tick`` has something to do (None: nothing waits)."""
        heap = self._deadlines
        while heap and not self._due(*heap[0]):
            heapq.heappop(heap)
        held = self._held
        while held and held[0][3].held_until != held[0][0]:
            heapq.heappop(held)
        times = [h[0][0] for h in (heap, held) if h]
        return min(times) if times else None

    def tick(self, now: float) -> list[Action]:
        """The clock reads ``now``: close every connection whose deadline has passed."""
        self.now = now
        heap = self._deadlines
        out: list[Action] = []
        while self._held and self._held[0][0] <= now:
            until, _, code, member = heapq.heappop(self._held)
            gone = self.rooms.expire(code, member, until)
            if gone is not None:
                out.extend(self._announce(gone))
        while heap and heap[0][0] <= now:
            when, conn = heapq.heappop(heap)
            if not self._due(when, conn):
                continue
            session = self.sessions[conn]
            if not session.signed_in and session.signin_by == when:
                session.closing = True
                self.signin_closed += 1
                seconds = f"{self.config.signin_deadline:g}"
                out.append(Close(conn, 1008, f"sign in within {seconds} s", "signin"))
            else:
                why = f"one frame waited more than {self.config.send_timeout:g} s"
                out.extend(self._cut(conn, why))
        return out

    def outbox(
        self, conn: int, frames: int, sending_since: float | None, now: float
    ) -> list[Action]:
        """The driver's report on ``conn``'s outbox: ``frames`` wait to be sent, and the send in
        progress began at ``sending_since`` (None: none is). More than ``outbox_frames``
        waiting cuts the reader at once; otherwise its send-timeout deadline is named."""
        self.now = now
        session = self.sessions.get(conn)
        if session is None or session.closing:
            return []
        if frames > self.config.outbox_frames:
            return self._cut(conn, f"more than {self.config.outbox_frames} frames waiting")
        if sending_since is None:
            session.send_by = None
        else:
            by = sending_since + self.config.send_timeout
            if session.send_by != by:
                session.send_by = by
                heapq.heappush(self._deadlines, (by, conn))
        return []

    def _cut(self, conn: int, why: str) -> list[Action]:
        """A reader too slow for its frames: closed, and its seat is gone (announced)."""
        self.sessions[conn].closing = True
        self.slow_cut += 1
        return [Close(conn, 1008, SLOW_READER_REASON, "slow", why), *self.leave(conn)]

    # ---------------------------------------------------------------- frames in

    def receive(self, conn: int, message: str | bytes, now: float) -> list[Action]:
        """One frame from ``conn`` at ``now``: forwarded, refused, or a ``Dispatch``."""
        self.now = now
        session = self.sessions[conn]
        allowed = session.bucket.take(now)
        frame: ClientFrame | None = None
        try:
            raw = send_payload(message)
            if raw is not None and allowed:  # the hot path: the payload's bytes are kept
                return self._forward(conn, None, raw)
            frame = parse_client(message)
            if not allowed:
                raise WireError(ErrorCode.RATE_LIMITED, "slow down")
            if isinstance(frame, Send):
                return self._forward(conn, frame.payload, received_payload(message, frame))
        except WireError as exc:
            # the answer names the request it refuses (its id), when it had one
            request_id = exc.request_id if frame is None else frame.id
            if not allowed:
                exc = WireError(ErrorCode.RATE_LIMITED, "slow down")
            return [Transmit((conn,), _data(error(exc.code, exc.message, request_id)))]
        return [Dispatch(conn, frame)]

    def refusal(self, conn: int, frame: ClientFrame, exc: WireError) -> list[Action]:
        """The answer to request ``frame`` that ended in ``exc``."""
        answer = error(exc.code, exc.message, frame.id, exc.retry_after)
        return [Transmit((conn,), _data(answer))]

    def _forward(self, conn: int, payload: dict[str, Any] | None, raw: str | None) -> list[Action]:
        """``deliver`` to the room's other present members: as the bytes received (``raw``,
        the payload's text cut out of the strictly parsed frame) when given, so the peers get
        exactly what the sender wrote."""
        room = self.rooms.room_of(conn)
        if room is None:
            raise WireError(ErrorCode.NOT_IN_ROOM, "you are in no room")
        if not room.started:
            raise WireError(ErrorCode.NOT_STARTED, "the room has not started")
        seat = room.seat_of(conn)
        assert seat is not None
        others = tuple(m.conn for m in room.present() if m.conn != conn)
        if raw is None:
            assert payload is not None
            data = _data(Deliver(seat, payload))
        else:
            data = f'{{"op":"deliver","from_seat":{seat},"payload":{raw}}}'.encode()
        room.members[seat].sent += 1
        room.record(seat, data)
        self.frames_forwarded += 1
        return [Transmit(others, data)] if others else []

    # ---------------------------------------------------------------- requests

    def _reply(self, conn: int, frame: RelayFrame) -> Transmit:
        return Transmit((conn,), _data(frame))

    def _account(self, conn: int, token: str) -> Generator[Action, Any, str]:
        name = yield Call("store", self.accounts.lookup, (token,))
        if name is None:
            raise WireError(ErrorCode.BAD_TOKEN, "sign in again: this token is not valid")
        yield from self._authenticated(conn)
        return str(name)

    def _authenticated(self, conn: int) -> Steps:
        session = self.sessions.get(conn)
        if session is not None and not session.signed_in:
            session.signed_in = True
            yield Authenticated(conn)

    def _count_auth(self, conn: int) -> Steps:
        """One sign-up/sign-in/password check: limited per connection and per address (the
        address's count is the cluster's when the store is shared)."""
        key = str(conn)
        if not self.auth.allowed(key):
            raise WireError(ErrorCode.SIGNIN_LIMITED, "too many sign-in attempts; wait")
        address = self.sessions[conn].address
        if not (yield Call("store", self.auth_by_address.take, (address,))):
            raise WireError(
                ErrorCode.SIGNIN_LIMITED,
                "too many sign-ins from your address; wait a minute and try again",
            )
        self.auth.record(key)

    def request(self, conn: int, frame: ClientFrame) -> Steps:
        """Run request ``frame`` of ``conn`` (see the module's text for the conversation)."""
        session = self.sessions[conn]
        match frame:
            case Send(payload):
                yield from self._forward(conn, payload, None)
            case Signup(name, password) | Signin(name, password):
                yield from self._count_auth(conn)
                if isinstance(frame, Signup):
                    token = yield Call("hash", self.accounts.signup, (name, password))
                else:
                    name, token = yield Call(
                        "hash", self.accounts.signin, (name, password, session.address)
                    )
                yield from self._authenticated(conn)
                yield self._reply(
                    conn, SignedIn(name, token, frame.id, relay_key=self.key.public_hex)
                )
            case CreateRoom(token, key):
                name = yield from self._account(conn, token)
                if self.rooms.room_of(conn) is not None:
                    raise WireError(ErrorCode.IN_ROOM, "leave your current room first")
                code = None
                if self.router is not None:
                    elsewhere = self.router.for_create(session.redirects, self.rooms.seats())
                    if elsewhere is not None:
                        yield self._reply(conn, Redirect(elsewhere, frame.id))
                        return
                    code = yield Call("presence", self.router.claim_code, (self.rooms.free_code,))
                room = self.rooms.create(conn, name, key, code)
                session.name = name
                yield self._reply(
                    conn, RoomJoined(room.code, 0, room.creator, room.roster(), frame.id)
                )
            case JoinRoom(token, code, key):
                name = yield from self._account(conn, token)
                if self.router is not None and self.rooms.get(code) is None:
                    elsewhere = yield Call(
                        "presence", self.router.for_join, (session.redirects, code)
                    )
                    if elsewhere is not None:
                        yield self._reply(conn, Redirect(elsewhere, frame.id))
                        return
                room = self.rooms.join(conn, name, key, code)
                session.name = name
                seat = room.seat_of(conn)
                assert seat is not None
                yield self._reply(
                    conn, RoomJoined(room.code, seat, room.creator, room.roster(), frame.id)
                )
                yield from self._roster(room, exclude=conn)
            case Start(token):
                name = yield from self._account(conn, token)
                room = self.rooms.start(conn, name, self.new_table_id())
                assert room.table_id is not None
                roster = room.roster()
                host = self.host_of(room)
                signature = sign_roster(self.key, room.table_id, roster, host)
                for seat, member in enumerate(room.members):
                    answer = frame.id if member.conn == conn else None  # the creator asked
                    started = Started(
                        room.code, room.table_id, seat, roster, signature, answer, host
                    )
                    if member.present:
                        yield self._reply(member.conn, started)
                    else:  # away: it gets its start when it resumes
                        member.owed = _data(started)
            case Resume(token, code, key, received):
                name = yield from self._account(conn, token)
                room, seat = self.rooms.held_seat(name, key, code)
                missed = room.missed(seat, received)
                if missed is None:  # nothing changes: the seat stays held (or where it is)
                    raise WireError(ErrorCode.NO_SEAT, "what you missed is no longer kept")
                old = self.rooms.resume(conn, room, seat)
                session.name = name
                member = room.members[seat]
                if old is not None:  # its own older connection, silent: replaced
                    old_session = self.sessions.get(old)
                    if old_session is not None:
                        old_session.closing = True
                    yield Close(old, 1000, "resumed on a new connection", "resumed")
                self.resumed += 1
                yield self._reply(conn, Resumed(room.code, seat, member.sent, frame.id))
                if member.owed is not None:
                    owed, member.owed = member.owed, None
                    yield Transmit((conn,), owed)
                # the deliveries it missed, and where they fell among them, the departures
                # announced while its seat was held (R13)
                # (one it got before a delivery it says it received needs no second copy)
                departures = [kept for kept in member.departures if kept[0] >= received]
                member.departures = []
                index = received
                for data in missed:
                    while departures and departures[0][0] <= index:
                        yield Transmit((conn,), departures.pop(0)[1])
                    yield Transmit((conn,), data)
                    index += 1
                for _, data in departures:
                    yield Transmit((conn,), data)
            case Signout(token):
                if not (yield Call("store", self.accounts.signout, (token,))):
                    raise WireError(ErrorCode.BAD_TOKEN, "that token was not signed in")
                yield self._reply(conn, SignedOut(frame.id))
            case ChangePassword(token, old, new):
                yield from self._count_auth(conn)
                fresh = yield Call(
                    "hash", self.accounts.change_password, (token, old, new, session.address)
                )
                yield from self._authenticated(conn)
                account = yield Call("store", self.accounts.lookup, (fresh,))
                assert account is not None
                yield self._reply(
                    conn, SignedIn(account, fresh, frame.id, relay_key=self.key.public_hex)
                )
            case Leave():
                if self.rooms.room_of(conn) is None:
                    raise WireError(ErrorCode.NOT_IN_ROOM, "you are in no room")
                yield from self.leave(conn)
                yield Left(conn)

    def run(self, conn: int, frame: ClientFrame, answer: Callable[[Call], Any]) -> list[Action]:
        """Run request ``frame`` to its end with ``answer`` for every ``Call`` (a driver whose
        calls are synchronous, the unit tests'): the other actions, in order, its refusal
        included."""
        out: list[Action] = []
        steps = self.request(conn, frame)
        value: Any = None
        failure: WireError | None = None
        try:
            while True:
                action = steps.throw(failure) if failure is not None else steps.send(value)
                value, failure = None, None
                if isinstance(action, Call):
                    try:
                        value = answer(action)
                    except WireError as exc:
                        failure = exc
                else:
                    out.append(action)
        except StopIteration:
            pass
        except WireError as exc:
            out.extend(self.refusal(conn, frame, exc))
        return out

    # ---------------------------------------------------------------- rooms

    def _roster(self, room: Room, exclude: int | None = None) -> Steps:
        conns = tuple(m.conn for m in room.members if m.conn != exclude and m.present)
        if conns:
            yield Transmit(conns, _data(Roster(room.code, room.creator, room.roster())))

    def leave(self, conn: int) -> list[Action]:
        """``conn`` leaves its room (asked, cut or gone); nothing if it sat in none."""
        gone = self.rooms.leave(conn)
        if gone is None:
            return []
        return self._announce(gone)

    def _announce(self, gone: Departure) -> list[Action]:
        """Tell a departure to the room's present members."""
        room = gone.room
        out: list[Action] = []
        if gone.closed and self.router is not None:
            out.append(Call("background", self.router.presence.release, (room.code,)))
        if room.started:
            conns = tuple(m.conn for m in room.present())
            departed = _data(Departed(gone.seat, gone.name))
            if conns:
                out.append(Transmit(conns, departed))
            # kept for every other seat, sent again when it resumes (R13): a seat held now, or
            # one whose socket is dead and not yet noticed, never got it
            for seat, member in enumerate(room.members):
                if seat != gone.seat:
                    member.departures.append((member.got, departed))
        elif gone.closed:
            conns = tuple(m.conn for m in room.members[1:] if m.present)
            if conns:
                out.append(Transmit(conns, _data(error(ErrorCode.ROOM_CLOSED, ROOM_CLOSED_TEXT))))
        else:
            out.extend(self._roster(room))
        return out

    # ---------------------------------------------------------------- housekeeping

    def purge_limits(self) -> int:
        """Drop the sign-in counts that have left their window (all three limiters) and the
        expired tokens (a store call: the driver runs it as one)."""
        limiters = (self.auth, self.auth_by_address, self.accounts.failures)
        return sum(limiter.purge() for limiter in limiters) + self.accounts.purge_expired()
