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
import logging
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
from pointline.net.protocol._wire import ClientFrame, Start, WireError
from pointline.net.relay._accounts import Accounts
from pointline.net.relay._cluster import ClusterConfig, PresenceUnavailable, Router
from pointline.net.relay._conn import (
    ACCEPT_EXHAUSTED,
    LOOPBACK_TESTS,
    REFUSED_GRACE,
    AcceptLogFilter,
    Connection,
    ConnectionGate,
    HashGate,
    RelayConnection,
    Sender,
    tls_context,
)
from pointline.net.relay._core import (
    Action,
    Authenticated,
    Call,
    Close,
    Dispatch,
    Left,
    RelayConfig,
    RelayCore,
    TokenBucket,
    Transmit,
    sign_roster,
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


class Relay:
    """The websockets driver of one relay's ``RelayCore``: ``handler`` for each connection feeds
    it frames and times, sends what it returns through each connection's ``Sender``, and runs
    its store, hashing and directory calls. It decides nothing itself."""

    def __init__(
        self,
        accounts: Accounts,
        config: RelayConfig | None = None,
        router: Router | None = None,
    ) -> None:
        self.accounts = accounts
        self.config = config or RelayConfig()
        self.core = RelayCore(accounts, accounts.relay_key(), self.config, router, self.host_of)
        self.connections: dict[int, Connection] = {}
        self.gate = ConnectionGate(self.config)
        self._hashing: HashGate | None = None
        self._timer: asyncio.TimerHandle | None = None  # armed for the core's next deadline
        self._timer_at = 0.0

    @property
    def rooms(self) -> Rooms:
        return self.core.rooms

    @property
    def router(self) -> Router | None:
        """The cluster's routing (None: a single relay, every room is here)."""
        return self.core.router

    @router.setter
    def router(self, router: Router | None) -> None:
        self.core.router = router

    @property
    def key(self) -> SigningKey:
        """The relay's Ed25519 key (kept in its database): it signs every started roster."""
        return self.core.key

    @key.setter
    def key(self, key: SigningKey) -> None:
        self.core.key = key

    @property
    def frames_forwarded(self) -> int:
        return self.core.frames_forwarded

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
        address = getattr(ws, "address", "")
        accepted = getattr(ws, "accepted_at", None)
        conn_id = self.core.opened(address, loop.time(), accepted)

        def report(frames: int, sending_since: float | None) -> None:
            self._apply(self.core.outbox(conn_id, frames, sending_since, loop.time()))
            self._arm()

        conn = Connection(conn_id, ws, Sender(ws, report), address)
        self.connections[conn.id] = conn
        self._arm()
        try:
            async for message in ws:
                for action in self.core.receive(conn_id, message, loop.time()):
                    if isinstance(action, Dispatch):
                        try:
                            await self.dispatch(conn, action.frame)
                        except WireError as exc:
                            self._apply(self.core.refusal(conn_id, action.frame, exc))
                    else:
                        self._apply([action])
        except ConnectionClosed:
            pass
        finally:
            conn.sender.stop()
            self._leave(conn)
            self._apply(self.core.closed(conn_id))
            del self.connections[conn.id]

    async def dispatch(self, conn: Connection, frame: ClientFrame) -> None:
        """Run one request through the core, doing its calls; a ``WireError`` that leaves here
        is its refusal (``handler`` answers it)."""
        steps = self.core.request(conn.id, frame)
        value: Any = None
        failure: WireError | None = None
        while True:
            try:
                action = steps.throw(failure) if failure is not None else steps.send(value)
            except StopIteration:
                room = self.rooms.room_of(conn.id)
                if isinstance(frame, Start) and room is not None:
                    log.info("room %s started with %d seats", room.code, len(room.members))
                return
            value, failure = None, None
            if isinstance(action, Call) and action.kind != "background":
                try:
                    value = await self._call(action)
                except WireError as exc:
                    failure = exc
            elif isinstance(action, Left):
                self._leave(conn)
            else:
                self._apply([action])

    async def _call(self, call: Call) -> Any:
        if call.kind == "hash":
            return await self.hashing.run(call.fn, *call.args)
        if call.kind == "presence":
            return await call.fn(*call.args)
        return await self._store(call.fn, *call.args)

    def _apply(self, actions: list[Action]) -> None:
        """Do what the core asked, in order."""
        for action in actions:
            if isinstance(action, Transmit):
                for c in action.conns:
                    conn = self.connections.get(c)
                    if conn is not None:
                        conn.sender.put(action.data)
            elif isinstance(action, Authenticated):
                pass  # the core has dropped its sign-in deadline
            elif isinstance(action, Close):
                self._close(action)
            elif isinstance(action, Call):  # a background directory update
                task = asyncio.get_running_loop().create_task(action.fn(*action.args))
                self.gate.tasks.add(task)
                task.add_done_callback(self.gate.tasks.discard)

    def _close(self, action: Close) -> None:
        """Close a connection as the core said (a deadline passed, or a reader too slow)."""
        conn = self.connections.get(action.conn)
        if conn is None:
            return
        conn.sender.drop(action.why or action.reason)
        if action.cause == "signin":
            self.gate.idle_closed += 1
        else:
            log.warning("closing a connection that stopped reading (%s)", action.why)
        if isinstance(conn.ws, RelayConnection):
            conn.ws.shut(action.code, action.reason)
        else:
            task = asyncio.get_running_loop().create_task(conn.ws.close(action.code, action.reason))
            self.gate.tasks.add(task)
            task.add_done_callback(self.gate.tasks.discard)

    def _arm(self) -> None:
        """One timer, for the earliest deadline the core names."""
        at = self.core.next_deadline()
        if at is None or (self._timer is not None and self._timer_at <= at):
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer_at = at
        self._timer = asyncio.get_running_loop().call_at(at, self._deadline)

    def _deadline(self) -> None:
        self._timer = None
        now = max(asyncio.get_running_loop().time(), self._timer_at)
        self._apply(self.core.tick(now))
        self._arm()

    def stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def watch_senders(self) -> None:
        """Forget the sign-in counts and tokens that have left their window, once a window."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.config.auth_window)
            self.core.now = loop.time()
            with contextlib.suppress(WireError):  # a shared store may be away
                await self._store(self.purge_limits)

    def purge_limits(self) -> int:
        """Drop the sign-in counts that have left their window and the expired tokens."""
        return self.core.purge_limits()

    async def _store(self, fn: Callable[..., T], *args: Any) -> T:
        """Call the account store: at once for the relay's own SQLite file (as a single relay
        always did), in a worker thread for a shared database (a network round trip)."""
        if self.accounts.shared:
            return await asyncio.to_thread(fn, *args)
        return fn(*args)

    def _leave(self, conn: Connection) -> None:
        """``conn`` leaves its room (asked, cut or gone): the core announces it."""
        self._apply(self.core.leave(conn.id))


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
            token_slides=config.token_slides,
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
                    relay.stop_timer()
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
    key_first: bool = False,
) -> None:
    """Serve until SIGTERM; ``around(running)`` wraps the serving (``--announce``'s mDNS).
    ``key_first``: the relay's public key (64 hex digits) is standard output's first line, once
    it listens (HARNESS.md's relay command line)."""
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
        if key_first:
            print(running.relay.key.public_hex, flush=True)
        print(f"pointline-relay listening on {running.url} (accounts in {where}{more})", flush=True)
        async with around(running) if around is not None else contextlib.nullcontext():
            await stop  # until SIGTERM (or cancelled, e.g. Ctrl+C); then every socket is closed
