"""The relay server: accounts, rooms and message forwarding over websockets.

The relay signs people in, seats them in rooms by join code, binds each member's session
public key to its account in the roster it sends at the start, forwards each member's signed
payloads to the other members of its room, and announces departures. It deals nothing,
decides nothing and never alters a payload. Frames are capped (``max_size``), messages and
sign-in attempts are rate-limited per connection, and a bad frame gets ``{"op":"error"}``.

    pointline-relay --port 8765 --db relay.sqlite3          # ws://127.0.0.1:8765
    pointline-relay --cert cert.pem --key key.pem ...       # wss://

The connection machinery lives in ``net.relay._conn`` and the hot path's reading of a ``send``
frame in ``net.relay._frames`` (their public names are re-exported here); the command line
``pointline-relay`` (``python -m pointline.net.relay``) is ``net.relay._cli``, which starts
``serve_forever`` here.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import secrets
import signal
import ssl
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any, TypeVar

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

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
from pointline.net.relay._accounts import Accounts, RateLimiter
from pointline.net.relay._cluster import ClusterConfig, PresenceUnavailable, Router
from pointline.net.relay._conn import (
    ACCEPT_EXHAUSTED,
    LOOPBACK_TESTS,
    REFUSED_GRACE,
    AcceptLogFilter,
    Connection,
    ConnectionGate,
    HashGate,
    RelayConfig,
    RelayConnection,
    Sender,
    TokenBucket,
    tls_context,
)
from pointline.net.relay._frames import received_payload, send_payload
from pointline.net.relay._rooms import Room, Rooms
from pointline.net.relay._store import Database

__all__ = [
    "ACCEPT_EXHAUSTED",
    "LOOPBACK_TESTS",
    "REFUSED_GRACE",
    "AcceptLogFilter",
    "Connection",
    "ConnectionGate",
    "HashGate",
    "Relay",
    "RelayConfig",
    "RelayConnection",
    "RunningRelay",
    "Sender",
    "TokenBucket",
    "received_payload",
    "running_relay",
    "send_payload",
    "serve_forever",
    "sign_roster",
    "tls_context",
]

log = logging.getLogger("pointline.relay")
T = TypeVar("T")


def sign_roster(
    key: SigningKey, table_id: str, roster: tuple[RosterEntry, ...], host: str | None = None
) -> str:
    """The relay's signature (hex) of a started room's roster: over exactly the bytes
    ``pointline verify --relay-key`` checks (``net.protocol._peer.roster_signing_bytes`` of the
    roster as the transcript header holds it), so it binds each session key to its account name;
    a hosted table's relay signs its host's name with it."""
    members = roster_from_wire(
        [{"seat": e.seat, "name": e.name, "session_key": e.session_key} for e in roster]
    )
    return key.sign(roster_signing_bytes(table_id, members, host)).hex()


class Relay:
    """The relay's logic for one server: call ``handler`` for each websocket connection."""

    def __init__(
        self,
        accounts: Accounts,
        config: RelayConfig | None = None,
        router: Router | None = None,
    ) -> None:
        self.accounts = accounts
        self.router = router
        """The cluster's routing (None: a single relay, every room is here)."""
        self.config = config or RelayConfig()
        self.rooms = Rooms()
        self.connections: dict[int, Connection] = {}
        self._ids = itertools.count(1)
        self.key = accounts.relay_key()
        """The relay's Ed25519 key (kept in its database): it signs every started roster."""
        self._auth = RateLimiter(self.config.auth_attempts, self.config.auth_window)
        self._auth_by_address = accounts.limiter(
            "address", self.config.auth_per_address, self.config.auth_window
        )
        self.gate = ConnectionGate(self.config)
        self._hashing: HashGate | None = None
        self.frames_forwarded = 0

    def host_of(self, room: Room) -> str | None:
        """Who vouches for a started room's names besides this relay: None here (a relay that
        is not hosted); a hosted table's relay names its host, signed with the roster."""
        return None

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
                    raw = send_payload(message)
                    if raw is not None and allowed:  # the hot path: no await, bytes kept
                        self._forward(conn, None, raw)
                        continue
                    frame = parse_client(message)
                    if not allowed:
                        raise WireError(ErrorCode.RATE_LIMITED, "slow down")
                    if isinstance(frame, Send):
                        self._forward(conn, frame.payload, received_payload(message, frame))
                    else:
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
                with contextlib.suppress(WireError):  # a shared store may be away
                    await self._store(self.purge_limits)
            for conn in list(self.connections.values()):
                if conn.sender.stalled(now):
                    conn.sender.cut_off(
                        f"one frame waited more than {self.config.send_timeout:g} s"
                    )

    def purge_limits(self) -> int:
        """Drop the sign-in counts that have left their window (all three limiters) and the
        expired tokens."""
        limiters = (self._auth, self._auth_by_address, self.accounts.failures)
        return sum(limiter.purge() for limiter in limiters) + self.accounts.purge_expired()

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

    async def _store(self, fn: Callable[..., T], *args: Any) -> T:
        """Call the account store: at once for the relay's own SQLite file (as a single relay
        always did), in a worker thread for a shared database (a network round trip)."""
        if self.accounts.shared:
            return await asyncio.to_thread(fn, *args)
        return fn(*args)

    async def _account(self, conn: Connection, token: str) -> str:
        name = await self._store(self.accounts.lookup, token)
        if name is None:
            raise WireError(ErrorCode.BAD_TOKEN, "sign in again: this token is not valid")
        self._signed_in(conn)
        return name

    @staticmethod
    def _signed_in(conn: Connection) -> None:
        if isinstance(conn.ws, RelayConnection):
            conn.ws.mark_signed_in()

    async def _count_auth(self, conn: Connection) -> None:
        """One sign-up/sign-in/password check: limited per connection and per address (the
        address's count is the cluster's when the store is shared)."""
        key = str(conn.id)
        if not self._auth.allowed(key):
            raise WireError(ErrorCode.SIGNIN_LIMITED, "too many sign-in attempts; wait")
        if not await self._store(self._auth_by_address.take, conn.address):
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
                await self._count_auth(conn)
                if isinstance(frame, Signup):
                    token = await self.hashing.run(self.accounts.signup, name, password)
                else:
                    name, token = await self.hashing.run(
                        self.accounts.signin, name, password, conn.address
                    )
                self._signed_in(conn)
                await self._reply(
                    conn, SignedIn(name, token, frame.id, relay_key=self.key.public_hex)
                )
            case CreateRoom(token, key):
                name = await self._account(conn, token)
                if self.rooms.room_of(conn.id) is not None:
                    raise WireError(ErrorCode.IN_ROOM, "leave your current room first")
                code = None
                if self.router is not None:
                    elsewhere = self.router.for_create(conn.redirects, self.rooms.seats())
                    if elsewhere is not None:
                        await self._reply(conn, Redirect(elsewhere, frame.id))
                        return
                    code = await self.router.claim_code(self.rooms.free_code)
                room = self.rooms.create(conn.id, name, key, code)
                conn.name = name
                await self._reply(
                    conn, RoomJoined(room.code, 0, room.creator, room.roster(), frame.id)
                )
            case JoinRoom(token, code, key):
                name = await self._account(conn, token)
                if self.router is not None and self.rooms.get(code) is None:
                    elsewhere = await self.router.for_join(conn.redirects, code)
                    if elsewhere is not None:
                        await self._reply(conn, Redirect(elsewhere, frame.id))
                        return
                room = self.rooms.join(conn.id, name, key, code)
                conn.name = name
                seat = room.seat_of(conn.id)
                assert seat is not None
                await self._reply(
                    conn, RoomJoined(room.code, seat, room.creator, room.roster(), frame.id)
                )
                self._roster(room, exclude=conn.id)
            case Start(token):
                name = await self._account(conn, token)
                room = self.rooms.start(conn.id, name, secrets.token_hex(8))
                assert room.table_id is not None
                roster = room.roster()
                host = self.host_of(room)
                signature = sign_roster(self.key, room.table_id, roster, host)
                for seat, member in enumerate(room.members):
                    answer = frame.id if member.conn == conn.id else None  # the creator asked
                    started = Started(
                        room.code, room.table_id, seat, roster, signature, answer, host
                    )
                    self._broadcast([member.conn], started)
                log.info("room %s started with %d seats", room.code, len(roster))
            case Signout(token):
                if not await asyncio.to_thread(self.accounts.signout, token):
                    raise WireError(ErrorCode.BAD_TOKEN, "that token was not signed in")
                await self._reply(conn, SignedOut(frame.id))
            case ChangePassword(token, old, new):
                await self._count_auth(conn)
                fresh = await self.hashing.run(
                    self.accounts.change_password, token, old, new, conn.address
                )
                self._signed_in(conn)
                account = await self._store(self.accounts.lookup, fresh)
                assert account is not None
                await self._reply(
                    conn, SignedIn(account, fresh, frame.id, relay_key=self.key.public_hex)
                )
            case Leave():
                if self.rooms.room_of(conn.id) is None:
                    raise WireError(ErrorCode.NOT_IN_ROOM, "you are in no room")
                self._leave(conn)

    def _forward(
        self, conn: Connection, payload: dict[str, Any] | None, raw: str | None = None
    ) -> None:
        """Deliver ``payload`` to the room's other present members: as the bytes received
        (``raw``, the payload's text cut out of the strictly parsed frame) when given, so the
        peers get exactly what the sender wrote and the relay encodes nothing twice."""
        room = self.rooms.room_of(conn.id)
        if room is None:
            raise WireError(ErrorCode.NOT_IN_ROOM, "you are in no room")
        if not room.started:
            raise WireError(ErrorCode.NOT_STARTED, "the room has not started")
        seat = room.seat_of(conn.id)
        assert seat is not None
        others = [m.conn for m in room.present() if m.conn != conn.id]
        if raw is None:
            assert payload is not None
            self._broadcast(others, Deliver(seat, payload))
        else:
            data = f'{{"op":"deliver","from_seat":{seat},"payload":{raw}}}'.encode()
            for c in others:
                other = self.connections.get(c)
                if other is not None:
                    other.sender.put(data)
        self.frames_forwarded += 1

    def _roster(self, room: Room, exclude: int | None = None) -> None:
        frame = Roster(room.code, room.creator, room.roster())
        self._broadcast([m.conn for m in room.members if m.conn != exclude], frame)

    def _leave(self, conn: Connection) -> None:
        gone = self.rooms.leave(conn.id)
        if gone is None:
            return
        room = gone.room
        if gone.closed and self.router is not None:
            task = asyncio.get_running_loop().create_task(self.router.presence.release(room.code))
            self.gate.tasks.add(task)
            task.add_done_callback(self.gate.tasks.discard)
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
    cluster: ClusterConfig | None = None,
    relay_class: type[Relay] = Relay,
) -> AsyncIterator[RunningRelay]:
    """Serve a relay for the duration of the block (port 0 picks a free port).

    ``relay_class`` is ``Relay`` or a subclass (``net.hosting``'s one-table relay).
    ``cluster`` with ``store`` keeps the accounts in PostgreSQL instead of ``db_path``; with
    ``presence`` the relay joins the Redis directory and routes rooms (``net.relay._cluster``)."""
    config = config or RelayConfig()
    cluster = cluster or ClusterConfig()
    store: str | Path | Database = db_path
    if cluster.store:
        from pointline.net.relay._store_pg import (
            PostgresDatabase,  # the driver is the cluster extra
        )

        store = await asyncio.to_thread(PostgresDatabase, cluster.store)
    accounts = await asyncio.to_thread(
        functools.partial(
            Accounts,
            store,
            config.hash_params,
            config.failures_per_name,
            config.auth_window,
            token_ttl=config.token_ttl,
            tokens_per_account=config.tokens_per_account,
        )
    )
    relay = relay_class(accounts, config)
    loop = asyncio.get_running_loop()
    previous_handler = loop.get_exception_handler()
    loop.set_exception_handler(AcceptLogFilter(loop, config.accept_log_interval, loop.time))
    connection_class = type(
        "BoundRelayConnection", (RelayConnection,), {"gate": relay.gate, "tls": ssl_context}
    )
    try:
        async with serve(
            relay.handler,
            host,
            port,
            max_size=config.max_size,
            ssl=None,  # TLS is RelayConnection's: counted, under its own deadline
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
            url = f"{scheme}://{shown}:{bound_port}"
            async with contextlib.AsyncExitStack() as stack:
                if cluster.presence:
                    await stack.enter_async_context(
                        _in_directory(relay, cluster.presence, cluster.public_url or url, cluster)
                    )
                try:
                    yield RunningRelay(relay, server, url, host, bound_port)
                finally:
                    watchdog.cancel()
                    for task in list(relay.gate.tasks):
                        task.cancel()
    finally:
        loop.set_exception_handler(previous_handler)
        accounts.close()


@contextlib.asynccontextmanager
async def _in_directory(
    relay: Relay, redis_url: str, public_url: str, cluster: ClusterConfig
) -> AsyncIterator[None]:
    """The relay's entry in the Redis directory, kept alive by a heartbeat, removed at the end
    (a relay that dies instead drops out within the TTL)."""
    from pointline.net.relay._presence import Presence, heartbeat  # the driver is the cluster extra

    presence = Presence(redis_url, public_url, cluster.presence_ttl)
    relay.router = Router(presence)
    with contextlib.suppress(PresenceUnavailable):  # Redis away: rooms here still work
        await presence.beat(relay.rooms.seats(), relay.rooms.codes())
    beating = asyncio.create_task(
        heartbeat(presence, relay.rooms.seats, relay.rooms.codes), name="relay-heartbeat"
    )
    try:
        yield
    finally:
        beating.cancel()
        await presence.leave(relay.rooms.codes())
        await presence.close()


async def serve_forever(
    db_path: str | Path,
    host: str,
    port: int,
    ssl_context: ssl.SSLContext | None = None,
    config: RelayConfig | None = None,
    cluster: ClusterConfig | None = None,
    around: Callable[[RunningRelay], contextlib.AbstractAsyncContextManager[None]] | None = None,
) -> None:
    """Serve until SIGTERM; ``around(running)`` wraps the serving (``--announce``'s mDNS)."""
    loop = asyncio.get_running_loop()
    stop: asyncio.Future[None] = loop.create_future()

    def on_term() -> None:
        if not stop.done():
            stop.set_result(None)

    with contextlib.suppress(NotImplementedError, RuntimeError):  # not on Windows
        loop.add_signal_handler(signal.SIGTERM, on_term)
    async with running_relay(db_path, host, port, config, ssl_context, cluster) as running:
        where = running.relay.accounts.label
        more = ""
        if running.relay.router is not None:
            more = f", room directory in Redis as {running.relay.router.presence.public_url}"
        print(f"pointline-relay listening on {running.url} (accounts in {where}{more})", flush=True)
        async with around(running) if around is not None else contextlib.nullcontext():
            await stop  # until SIGTERM (or cancelled, e.g. Ctrl+C); then every socket is closed
