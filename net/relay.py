"""``pointline-relay``: accounts, rooms and message forwarding over websockets.

The relay signs people in, seats them in rooms by join code, binds each member's session
public key to its account in the roster it sends at the start, forwards each member's signed
payloads to the other members of its room, and announces departures. It deals nothing,
decides nothing and never alters a payload. Frames are capped (``max_size``), messages and
sign-in attempts are rate-limited per connection, and a bad frame gets ``{"op":"error"}``.

    pointline-relay --port 8765 --db relay.sqlite3          # ws://127.0.0.1:8765
    pointline-relay --cert cert.pem --key key.pem ...       # wss://
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import itertools
import logging
import secrets
import signal
import socket
import sqlite3
import ssl
import sys
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any, Final, TypeVar

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State

from pointline.net.accounts import (
    TOKEN_TTL,
    TOKENS_PER_ACCOUNT,
    Accounts,
    HashParams,
    RateLimiter,
)
from pointline.net.keys import SigningKey
from pointline.net.protocol import roster_from_wire, roster_signing_bytes
from pointline.net.rooms import Room, Rooms
from pointline.net.wire import (
    ChangePassword,
    ClientFrame,
    CreateRoom,
    Deliver,
    Departed,
    ErrorCode,
    JoinRoom,
    Leave,
    RelayFrame,
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

log = logging.getLogger("pointline.relay")
T = TypeVar("T")


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
    auth_per_address: int = 30  # sign-ups/sign-ins per source address per auth_window
    hash_workers: int = 2  # argon2 hashes computed at once
    hash_queue: int = 16  # requests waiting for a hashing slot; more get "busy"
    accept_log_interval: float = 60.0  # seconds between two "out of descriptors" log lines
    outbox_frames: int = 256  # frames waiting for one reader; more and it is cut
    send_timeout: float = 10.0  # seconds one frame may wait for a reader; longer and it is cut
    token_ttl: float = TOKEN_TTL  # seconds a sign-in token lives
    tokens_per_account: int = TOKENS_PER_ACCOUNT  # live tokens; a new sign-in revokes the oldest


LOOPBACK_TESTS: Final[dict[str, Any]] = {
    "connections_per_address": 10_000,
    "auth_per_address": 100_000,
}
"""Per-address limits raised for tests and benchmarks, where every client is 127.0.0.1:
``RelayConfig(**LOOPBACK_TESTS)``."""


_TCP_CORK: Final[int | None] = getattr(socket, "TCP_CORK", None)


class Sender:
    """One connection's outgoing frames: a queue drained by one task doing ``await ws.send``
    (websockets' public API only), so frames keep their order and a reader that stops reading
    holds up nobody but itself.

    The task sends everything queued before it sleeps again (``ws.send`` returns at once while
    the socket keeps up, so a burst costs one wake-up). A consumer is too slow when more than
    ``limit`` frames wait for it, or when one send has waited more than ``timeout`` seconds for
    its socket to drain (``Relay.watch_senders`` checks): then ``on_cut`` runs (the relay
    announces the departure at once), the queue is dropped and the connection is closed.
    """

    def __init__(
        self,
        ws: ServerConnection,
        limit: int,
        timeout: float,
        on_cut: Callable[[], None],
    ) -> None:
        self.ws = ws
        self.limit = limit
        self.timeout = timeout
        self._on_cut = on_cut
        self._queue: deque[str | bytes] = deque()
        self._loop = asyncio.get_running_loop()
        self._wake: asyncio.Future[None] | None = None
        self.sending_since: float | None = None  # when the send in progress began
        self.cut: str | None = None
        self.sent = 0
        self._task = self._loop.create_task(self._run())
        self._closing: asyncio.Task[None] | None = None

    def put(self, data: str | bytes) -> None:
        """Queue one text frame (``bytes``: already UTF-8 encoded)."""
        if self.cut is not None:
            return
        if len(self._queue) >= self.limit:
            self.cut_off(f"more than {self.limit} frames waiting")
            return
        self._queue.append(data)
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)

    async def _run(self) -> None:
        queue, loop = self._queue, self._loop
        try:
            while True:
                while not queue:
                    self._wake = loop.create_future()
                    await self._wake
                self.sending_since = loop.time()
                corked = len(queue) > 1 and self._cork(True)
                try:
                    while queue:
                        await self.ws.send(queue.popleft(), text=True)
                        self.sent += 1
                finally:
                    if corked:
                        self._cork(False)
                self.sending_since = None
        except ConnectionClosed:
            pass

    def _cork(self, on: bool) -> bool:
        """Hold (or release) the frames of a burst in the kernel so they leave as one TCP
        segment: each ``ws.send`` is still one write, but on loopback and busy hosts the
        per-segment work is what costs. Linux ``TCP_CORK`` on the transport's socket (asyncio's
        public ``get_extra_info``); elsewhere, and on any error, nothing happens."""
        if _TCP_CORK is None:
            return False
        sock = self.ws.transport.get_extra_info("socket")
        if sock is None:
            return False
        try:
            sock.setsockopt(socket.IPPROTO_TCP, _TCP_CORK, 1 if on else 0)
        except OSError:
            return False
        return True

    def stalled(self, now: float) -> bool:
        """Whether the send in progress has waited longer than ``timeout``."""
        return self.sending_since is not None and now - self.sending_since > self.timeout

    def cut_off(self, why: str) -> None:
        if self.cut is not None:
            return
        self.cut = why
        log.warning("closing a connection that stopped reading (%s)", why)
        self._queue.clear()
        self._task.cancel()
        self._on_cut()
        self._closing = self._loop.create_task(
            self.ws.close(1008, "too slow: frames were not read")
        )

    def stop(self) -> None:
        """The connection is gone: stop sending."""
        self._task.cancel()


def sign_roster(key: SigningKey, table_id: str, roster: tuple[RosterEntry, ...]) -> str:
    """The relay's signature (hex) of a started room's roster: over exactly the bytes
    ``pointline verify --relay-key`` checks (``net.protocol.roster_signing_bytes`` of the roster
    as the transcript header holds it), so it binds each session key to its account name."""
    members = roster_from_wire(
        [{"seat": e.seat, "name": e.name, "session_key": e.session_key} for e in roster]
    )
    return key.sign(roster_signing_bytes(table_id, members)).hex()


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


@dataclass(slots=True)
class Connection:
    id: int
    ws: ServerConnection
    bucket: TokenBucket
    sender: Sender
    address: str = ""
    name: str | None = None  # account bound by the last create/join


class RelayConnection(ServerConnection):
    """A server connection that counts itself against the relay's connection limits from
    the moment the socket is accepted (before the handshake) until it is gone, and that is
    closed when nobody signs in on it within ``signin_deadline``.

    ``running_relay`` makes a subclass with ``gate`` set (websockets builds the connection)."""

    gate: ConnectionGate
    address: str = ""
    refusal: str | None = None  # why this connection is refused (answered with HTTP 503)
    signed_in: bool = False
    _counted: bool = False
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if peer else ""
        self.refusal = self.gate.admit(self.address)
        self._counted = self.refusal is None
        super().connection_made(transport)
        deadline = self.gate.config.signin_deadline
        if self.refusal is not None:
            deadline = min(deadline, REFUSED_GRACE)
        self._deadline = self.loop.call_later(deadline, self._deadline_passed)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        if self._counted:
            self._counted = False
            self.gate.release(self.address)

    def mark_signed_in(self) -> None:
        self.signed_in = True
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _deadline_passed(self) -> None:
        self._deadline = None
        if self.signed_in:
            return
        if self.protocol.state is State.OPEN and self.refusal is None:
            self.gate.idle_closed += 1
            seconds = f"{self.gate.config.signin_deadline:g}"
            task = self.loop.create_task(self.close(1008, f"sign in within {seconds} s"))
            self.gate.tasks.add(task)
            task.add_done_callback(self.gate.tasks.discard)
        else:  # still in the handshake (or refused and lingering): no more waiting
            self.transport.abort()


REFUSED_GRACE: Final = 2.0  # seconds a refused socket may take to read its HTTP 503


class ConnectionGate:
    """Counts open sockets in total and per source address; refuses those over the limits."""

    def __init__(self, config: RelayConfig) -> None:
        self.config = config
        self.total = 0
        self.by_address: dict[str, int] = {}
        self.refused = 0
        self.idle_closed = 0
        self.tasks: set[asyncio.Task[None]] = set()

    def admit(self, address: str) -> str | None:
        """None (and counted) when a new socket from ``address`` is within the limits, else
        the plain words of the refusal (not counted)."""
        if self.total >= self.config.max_connections:
            self.refused += 1
            return "The relay is full; try again in a few minutes."
        if self.by_address.get(address, 0) >= self.config.connections_per_address:
            self.refused += 1
            return (
                f"Too many connections from your address (at most "
                f"{self.config.connections_per_address}); close some and try again."
            )
        self.total += 1
        self.by_address[address] = self.by_address.get(address, 0) + 1
        return None

    def release(self, address: str) -> None:
        self.total -= 1
        left = self.by_address[address] - 1
        if left:
            self.by_address[address] = left
        else:
            del self.by_address[address]


class HashGate:
    """At most ``workers`` argon2 computations at once and ``queue`` waiting for a slot; a
    request beyond that is refused at once with ``busy`` (the client says: try again)."""

    def __init__(self, workers: int, queue: int) -> None:
        self.workers, self.queue = workers, queue
        self._slots = asyncio.Semaphore(workers)
        self.active = 0
        self.waiting = 0
        self.refused = 0

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        if self.active + self.waiting >= self.workers + self.queue:
            self.refused += 1
            raise WireError(
                ErrorCode.BUSY, "The relay is busy signing people in; try again in a few seconds."
            )
        self.waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self.waiting -= 1
        self.active += 1
        try:
            return await asyncio.to_thread(fn, *args)
        finally:
            self.active -= 1
            self._slots.release()


ACCEPT_EXHAUSTED: Final = "socket.accept() out of system resource"


class AcceptLogFilter:
    """An event loop exception handler: asyncio reports a failed ``accept()`` (no descriptors
    left) and retries a second later; this logs that at most once per ``interval`` seconds and
    passes everything else to the previous handler."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, interval: float, clock: Callable[[], float]
    ) -> None:
        self.interval = interval
        self._clock = clock
        self._previous = loop.get_exception_handler()
        self._last: float | None = None
        self.suppressed = 0
        self.logged = 0

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") != ACCEPT_EXHAUSTED:
            if self._previous is not None:
                self._previous(loop, context)
            else:
                loop.default_exception_handler(context)
            return
        now = self._clock()
        if self._last is not None and now - self._last < self.interval:
            self.suppressed += 1
            return
        self._last = now
        self.logged += 1
        more = f" ({self.suppressed} more since the last report)" if self.suppressed else ""
        self.suppressed = 0
        log.error(
            "cannot accept connections: %s; new connections wait%s",
            context.get("exception"),
            more,
        )


class Relay:
    """The relay's logic for one server: call ``handler`` for each websocket connection."""

    def __init__(self, accounts: Accounts, config: RelayConfig | None = None) -> None:
        self.accounts = accounts
        self.config = config or RelayConfig()
        self.rooms = Rooms()
        self.connections: dict[int, Connection] = {}
        self._ids = itertools.count(1)
        self.key = accounts.relay_key()
        """The relay's Ed25519 key (kept in its database): it signs every started roster."""
        self._auth = RateLimiter(self.config.auth_attempts, self.config.auth_window)
        self._auth_by_address = RateLimiter(self.config.auth_per_address, self.config.auth_window)
        self.gate = ConnectionGate(self.config)
        self._hashing: HashGate | None = None
        self.frames_forwarded = 0

    @property
    def hashing(self) -> HashGate:
        """The bound on argon2 work (made on first use, inside the running loop)."""
        if self._hashing is None:
            self._hashing = HashGate(self.config.hash_workers, self.config.hash_queue)
        return self._hashing

    def process_request(self, ws: ServerConnection, request: Request) -> Response | None:
        """websockets' handshake hook: a socket over the connection limits gets HTTP 503."""
        refusal = getattr(ws, "refusal", None)
        if refusal is None:
            return None
        response = ws.respond(HTTPStatus.SERVICE_UNAVAILABLE, refusal + "\n")
        response.headers["Retry-After"] = "30"
        return response

    async def handler(self, ws: ServerConnection) -> None:
        loop = asyncio.get_running_loop()
        conn_id = next(self._ids)
        conn = Connection(
            conn_id,
            ws,
            TokenBucket(self.config.message_rate, self.config.message_burst, loop.time()),
            Sender(
                ws,
                self.config.outbox_frames,
                self.config.send_timeout,
                lambda: self._cut(conn_id),
            ),
            getattr(ws, "address", ""),
        )
        self.connections[conn.id] = conn
        try:
            async for message in ws:
                allowed = conn.bucket.take(loop.time())
                frame: ClientFrame | None = None
                try:
                    frame = parse_client(message)
                    if not allowed:
                        raise WireError(ErrorCode.RATE_LIMITED, "slow down")
                    await self.dispatch(conn, frame)
                except WireError as exc:
                    # the answer names the request it refuses (its id), when it had one
                    request_id = exc.request_id if frame is None else frame.id
                    code, text = (
                        (exc.code, exc.message)
                        if allowed
                        else (ErrorCode.RATE_LIMITED, "slow down")
                    )
                    await self._reply(conn, error(code, text, request_id))
        except ConnectionClosed:
            pass
        finally:
            conn.sender.stop()
            self._leave(conn)
            self._auth.clear(str(conn.id))
            del self.connections[conn.id]

    async def watch_senders(self) -> None:
        """Cut every reader whose send has waited longer than ``send_timeout`` (checked a few
        times per timeout, at most once a second)."""
        period = min(1.0, self.config.send_timeout / 4)
        loop = asyncio.get_running_loop()
        next_purge = loop.time() + self.config.auth_window
        while True:
            await asyncio.sleep(period)
            now = loop.time()
            if now >= next_purge:  # forget addresses and names that went quiet
                next_purge = now + self.config.auth_window
                self.purge_limits()
            for conn in list(self.connections.values()):
                if conn.sender.stalled(now):
                    conn.sender.cut_off(
                        f"one frame waited more than {self.config.send_timeout:g} s"
                    )

    def purge_limits(self) -> int:
        """Drop the sign-in counts that have left their window (all three limiters)."""
        limiters = (self._auth, self._auth_by_address, self.accounts.failures)
        return sum(limiter.purge() for limiter in limiters)

    def _cut(self, conn_id: int) -> None:
        """A too-slow consumer was cut: its seat is gone now (announced to the others)."""
        conn = self.connections.get(conn_id)
        if conn is not None:
            self._leave(conn)

    async def _reply(self, conn: Connection, frame: RelayFrame) -> None:
        """Answer ``conn`` (through its sender, in order with everything else it gets)."""
        conn.sender.put(encode(frame))

    def _broadcast(self, conns: list[int], frame: RelayFrame) -> None:
        data = encode(frame).encode("utf-8")
        for c in conns:
            conn = self.connections.get(c)
            if conn is not None:
                conn.sender.put(data)

    def _account(self, conn: Connection, token: str) -> str:
        name = self.accounts.lookup(token)
        if name is None:
            raise WireError(ErrorCode.BAD_TOKEN, "sign in again: this token is not valid")
        self._signed_in(conn)
        return name

    @staticmethod
    def _signed_in(conn: Connection) -> None:
        if isinstance(conn.ws, RelayConnection):
            conn.ws.mark_signed_in()

    def _count_auth(self, conn: Connection) -> None:
        """One sign-up/sign-in/password check: limited per connection and per address."""
        key = str(conn.id)
        if not self._auth.allowed(key):
            raise WireError(ErrorCode.SIGNIN_LIMITED, "too many sign-in attempts; wait")
        if not self._auth_by_address.take(conn.address):
            raise WireError(
                ErrorCode.SIGNIN_LIMITED,
                "too many sign-ins from your address; wait a minute and try again",
            )
        self._auth.record(key)

    async def dispatch(self, conn: Connection, frame: ClientFrame) -> None:
        match frame:
            case Send(payload):
                self._forward(conn, payload)
            case Signup(name, password) | Signin(name, password):
                self._count_auth(conn)
                if isinstance(frame, Signup):
                    token = await self.hashing.run(self.accounts.signup, name, password)
                else:
                    name, token = await self.hashing.run(
                        self.accounts.signin, name, password, conn.address
                    )
                self._signed_in(conn)
                await self._reply(conn, SignedIn(name, token, frame.id))
            case CreateRoom(token, key):
                name = self._account(conn, token)
                room = self.rooms.create(conn.id, name, key)
                conn.name = name
                await self._reply(
                    conn, RoomJoined(room.code, 0, room.creator, room.roster(), frame.id)
                )
            case JoinRoom(token, code, key):
                name = self._account(conn, token)
                room = self.rooms.join(conn.id, name, key, code)
                conn.name = name
                seat = room.seat_of(conn.id)
                assert seat is not None
                await self._reply(
                    conn, RoomJoined(room.code, seat, room.creator, room.roster(), frame.id)
                )
                self._roster(room, exclude=conn.id)
            case Start(token):
                name = self._account(conn, token)
                room = self.rooms.start(conn.id, name, secrets.token_hex(8))
                assert room.table_id is not None
                roster = room.roster()
                signature = sign_roster(self.key, room.table_id, roster)
                for seat, member in enumerate(room.members):
                    answer = frame.id if member.conn == conn.id else None  # the creator asked
                    started = Started(room.code, room.table_id, seat, roster, signature, answer)
                    self._broadcast([member.conn], started)
                log.info("room %s started with %d seats", room.code, len(roster))
            case Signout(token):
                if not await asyncio.to_thread(self.accounts.signout, token):
                    raise WireError(ErrorCode.BAD_TOKEN, "that token was not signed in")
                await self._reply(conn, SignedOut(frame.id))
            case ChangePassword(token, old, new):
                self._count_auth(conn)
                fresh = await self.hashing.run(
                    self.accounts.change_password, token, old, new, conn.address
                )
                self._signed_in(conn)
                account = self.accounts.lookup(fresh)
                assert account is not None
                await self._reply(conn, SignedIn(account, fresh, frame.id))
            case Leave():
                if self.rooms.room_of(conn.id) is None:
                    raise WireError(ErrorCode.NOT_IN_ROOM, "you are in no room")
                self._leave(conn)

    def _forward(self, conn: Connection, payload: dict[str, Any]) -> None:
        room = self.rooms.room_of(conn.id)
        if room is None:
            raise WireError(ErrorCode.NOT_IN_ROOM, "you are in no room")
        if not room.started:
            raise WireError(ErrorCode.NOT_STARTED, "the room has not started")
        seat = room.seat_of(conn.id)
        assert seat is not None
        others = [m.conn for m in room.present() if m.conn != conn.id]
        self._broadcast(others, Deliver(seat, payload))
        self.frames_forwarded += 1

    def _roster(self, room: Room, exclude: int | None = None) -> None:
        frame = Roster(room.code, room.creator, room.roster())
        self._broadcast([m.conn for m in room.members if m.conn != exclude], frame)

    def _leave(self, conn: Connection) -> None:
        gone = self.rooms.leave(conn.id)
        if gone is None:
            return
        room = gone.room
        if room.started:
            self._broadcast([m.conn for m in room.present()], Departed(gone.seat, gone.name))
        elif gone.closed:
            self._broadcast(
                [m.conn for m in room.members[1:]],
                error(ErrorCode.ROOM_CLOSED, "the room's creator left; the room is closed"),
            )
        else:
            self._roster(room)


@dataclass(slots=True)
class RunningRelay:
    """A relay serving on a socket: ``url`` to connect, ``relay`` to inspect."""

    relay: Relay
    server: Server
    url: str
    host: str
    port: int


@contextlib.asynccontextmanager
async def running_relay(
    db_path: str | Path,
    host: str = "127.0.0.1",
    port: int = 0,
    config: RelayConfig | None = None,
    ssl_context: ssl.SSLContext | None = None,
) -> AsyncIterator[RunningRelay]:
    """Serve a relay for the duration of the block (port 0 picks a free port)."""
    config = config or RelayConfig()
    accounts = await asyncio.to_thread(
        functools.partial(
            Accounts,
            db_path,
            config.hash_params,
            config.failures_per_name,
            config.auth_window,
            token_ttl=config.token_ttl,
            tokens_per_account=config.tokens_per_account,
        )
    )
    relay = Relay(accounts, config)
    loop = asyncio.get_running_loop()
    previous_handler = loop.get_exception_handler()
    loop.set_exception_handler(AcceptLogFilter(loop, config.accept_log_interval, loop.time))
    connection_class = type("BoundRelayConnection", (RelayConnection,), {"gate": relay.gate})
    try:
        async with serve(
            relay.handler,
            host,
            port,
            max_size=config.max_size,
            ssl=ssl_context,
            compression=None,
            open_timeout=config.signin_deadline,
            process_request=relay.process_request,
            create_connection=connection_class,
        ) as server:
            watchdog = asyncio.create_task(relay.watch_senders(), name="relay-send-watchdog")
            sock = next(iter(server.sockets))
            bound_host, bound_port = sock.getsockname()[:2]
            scheme = "wss" if ssl_context else "ws"
            shown = f"[{bound_host}]" if ":" in bound_host else bound_host
            try:
                yield RunningRelay(
                    relay, server, f"{scheme}://{shown}:{bound_port}", host, bound_port
                )
            finally:
                watchdog.cancel()
    finally:
        loop.set_exception_handler(previous_handler)
        accounts.close()


def tls_context(cert: str, key: str) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    return context


async def serve_forever(
    db_path: str | Path,
    host: str,
    port: int,
    ssl_context: ssl.SSLContext | None = None,
    config: RelayConfig | None = None,
) -> None:
    loop = asyncio.get_running_loop()
    stop: asyncio.Future[None] = loop.create_future()

    def on_term() -> None:
        if not stop.done():
            stop.set_result(None)

    with contextlib.suppress(NotImplementedError, RuntimeError):  # not on Windows
        loop.add_signal_handler(signal.SIGTERM, on_term)
    async with running_relay(db_path, host, port, config, ssl_context) as running:
        print(f"pointline-relay listening on {running.url} (accounts in {db_path})", flush=True)
        await stop  # until SIGTERM (or cancelled, e.g. Ctrl+C); then every socket is closed


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: at least 1")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: a positive number of seconds")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pointline-relay",
        description="Relay for Pointline Table online rooms (free fictional points only).",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="port to bind (8765; 0 = any)")
    parser.add_argument(
        "--db", default="pointline-relay.sqlite3", help="accounts database file (created)"
    )
    parser.add_argument("--cert", help="TLS certificate chain (PEM); serves wss://")
    parser.add_argument("--key", help="TLS private key (PEM), with --cert")
    d = RelayConfig()
    parser.add_argument(
        "--max-size", type=_positive_int, default=d.max_size, help="frame cap in bytes"
    )
    limits = parser.add_argument_group("abuse limits")
    limits.add_argument(
        "--max-connections",
        type=_positive_int,
        default=d.max_connections,
        help=f"open sockets in total ({d.max_connections})",
    )
    limits.add_argument(
        "--connections-per-address",
        type=_positive_int,
        default=d.connections_per_address,
        help=f"open sockets per source address ({d.connections_per_address})",
    )
    limits.add_argument(
        "--signin-deadline",
        type=_positive_float,
        default=d.signin_deadline,
        help=f"seconds to sign in after connecting, else closed ({d.signin_deadline:g})",
    )
    limits.add_argument(
        "--auth-per-address",
        type=_positive_int,
        default=d.auth_per_address,
        help=f"sign-ins and sign-ups per source address per window ({d.auth_per_address})",
    )
    limits.add_argument(
        "--auth-per-connection",
        type=_positive_int,
        default=d.auth_attempts,
        help=f"sign-ins and sign-ups per connection per window ({d.auth_attempts})",
    )
    limits.add_argument(
        "--failures-per-name",
        type=_positive_int,
        default=d.failures_per_name,
        help=f"failed sign-ins per name and address per window ({d.failures_per_name})",
    )
    limits.add_argument(
        "--auth-window",
        type=_positive_float,
        default=d.auth_window,
        help=f"the sliding window of the sign-in limits, seconds ({d.auth_window:g})",
    )
    limits.add_argument(
        "--hash-workers",
        type=_positive_int,
        default=d.hash_workers,
        help=f"password hashes computed at once ({d.hash_workers})",
    )
    limits.add_argument(
        "--hash-queue",
        type=_positive_int,
        default=d.hash_queue,
        help=f"sign-ins waiting for a hashing slot; more are told 'busy' ({d.hash_queue})",
    )
    limits.add_argument(
        "--message-rate",
        type=_positive_float,
        default=d.message_rate,
        help=f"frames per second per connection ({d.message_rate:g})",
    )
    limits.add_argument(
        "--outbox-frames",
        type=_positive_int,
        default=d.outbox_frames,
        help=f"frames waiting for one slow reader before it is cut ({d.outbox_frames})",
    )
    limits.add_argument(
        "--send-timeout",
        type=_positive_float,
        default=d.send_timeout,
        help=f"seconds one frame may wait for a reader before it is cut ({d.send_timeout:g})",
    )
    limits.add_argument(
        "--token-ttl",
        type=_positive_float,
        default=d.token_ttl,
        help=f"seconds a sign-in token lives ({d.token_ttl:g})",
    )
    limits.add_argument(
        "--tokens-per-account",
        type=_positive_int,
        default=d.tokens_per_account,
        help=f"live tokens per account; a new sign-in revokes the oldest ({d.tokens_per_account})",
    )
    limits.add_argument(
        "--accept-log-interval",
        type=_positive_float,
        default=d.accept_log_interval,
        help=f"seconds between 'out of descriptors' log lines ({d.accept_log_interval:g})",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log every room event")
    parser.add_argument(
        "--print-key",
        action="store_true",
        help="print the relay's public key (for pointline verify --relay-key) and exit",
    )
    return parser


def print_key(db: str) -> int:
    """``--print-key``: the relay's public key, made (and kept in ``db``) if it has none yet."""
    try:
        accounts = Accounts(db)
    except (OSError, sqlite3.Error, RuntimeError) as exc:
        print(f"pointline-relay: cannot open {db}: {exc}", file=sys.stderr)
        return 2
    try:
        print(accounts.relay_key().public_hex)
    finally:
        accounts.close()
    return 0


def config_from_args(args: argparse.Namespace) -> RelayConfig:
    return RelayConfig(
        max_size=args.max_size,
        max_connections=args.max_connections,
        connections_per_address=args.connections_per_address,
        signin_deadline=args.signin_deadline,
        auth_per_address=args.auth_per_address,
        auth_attempts=args.auth_per_connection,
        failures_per_name=args.failures_per_name,
        auth_window=args.auth_window,
        hash_workers=args.hash_workers,
        hash_queue=args.hash_queue,
        message_rate=args.message_rate,
        message_burst=2 * args.message_rate,
        accept_log_interval=args.accept_log_interval,
        token_ttl=args.token_ttl,
        tokens_per_account=args.tokens_per_account,
        outbox_frames=args.outbox_frames,
        send_timeout=args.send_timeout,
    )


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.print_key:
        return print_key(args.db)
    if bool(args.cert) != bool(args.key):
        print("pointline-relay: --cert and --key go together", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(name)s %(message)s",
    )
    context = tls_context(args.cert, args.key) if args.cert else None
    config = config_from_args(args)
    try:
        asyncio.run(serve_forever(args.db, args.host, args.port, context, config))
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
