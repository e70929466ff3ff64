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
import itertools
import logging
import secrets
import signal
import ssl
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed, InvalidState
from websockets.protocol import State

from pointline.net.accounts import Accounts, HashParams, RateLimiter
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


@dataclass(frozen=True, slots=True)
class RelayConfig:
    """Limits; the defaults suit a public relay, tests make them smaller or faster."""

    max_size: int = 64 * 1024  # bytes per frame
    message_rate: float = 100.0  # frames per second per connection (sustained)
    message_burst: float = 200.0  # frames a connection may send at once
    auth_attempts: int = 10  # sign-up/sign-in attempts per connection per auth_window
    auth_window: float = 60.0
    failures_per_name: int = 5  # failed sign-ins per name per auth_window
    hash_params: HashParams = field(default_factory=HashParams)


class Outbox:
    """Frames to other connections, coalesced: one socket write per connection per loop turn.

    On loopback and small machines the cost of forwarding is mostly one ``send`` system call
    per frame and recipient; the reveals of a round arrive together, so writing each
    connection's frames of one loop iteration at once saves most of those calls. Frames keep
    their order (they go through the connection's own websockets protocol object). A
    connection whose unsent data exceeds ``max_buffer`` (a peer that stopped reading) is cut.
    """

    def __init__(self, max_buffer: int = 4 * 1024 * 1024) -> None:
        self.max_buffer = max_buffer
        self._dirty: dict[int, ServerConnection] = {}
        self._scheduled = False
        self.writes = 0

    def put(self, ws: ServerConnection, data: bytes) -> None:
        if ws.protocol.state is not State.OPEN or ws.transport.is_closing():
            return
        try:
            ws.protocol.send_text(data)
        except InvalidState:
            return
        self._dirty[id(ws)] = ws
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        self._scheduled = False
        dirty, self._dirty = self._dirty, {}
        for ws in dirty.values():
            try:
                self._write(ws)
            except Exception:  # one broken connection never holds up the others
                log.exception("writing to a connection failed; cutting it")
                ws.transport.abort()

    def _write(self, ws: ServerConnection) -> None:
        chunks = ws.protocol.data_to_send()
        if ws.transport.is_closing():
            return
        data = b"".join(chunks)
        if data:
            ws.transport.write(data)
            self.writes += 1
        if any(not chunk for chunk in chunks):  # the protocol asks for end of stream
            if ws.transport.can_write_eof():
                ws.transport.write_eof()
            else:  # pragma: no cover - TLS
                ws.transport.close()
        elif ws.transport.get_write_buffer_size() > self.max_buffer:
            log.warning("cutting a connection that stopped reading")
            ws.transport.abort()


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
    name: str | None = None  # account bound by the last create/join


class Relay:
    """The relay's logic for one server: call ``handler`` for each websocket connection."""

    def __init__(self, accounts: Accounts, config: RelayConfig | None = None) -> None:
        self.accounts = accounts
        self.config = config or RelayConfig()
        self.rooms = Rooms()
        self.connections: dict[int, Connection] = {}
        self._ids = itertools.count(1)
        self._auth = RateLimiter(self.config.auth_attempts, self.config.auth_window)
        self.outbox = Outbox()
        self.frames_forwarded = 0

    async def handler(self, ws: ServerConnection) -> None:
        loop = asyncio.get_running_loop()
        conn = Connection(
            next(self._ids),
            ws,
            TokenBucket(self.config.message_rate, self.config.message_burst, loop.time()),
        )
        self.connections[conn.id] = conn
        try:
            async for message in ws:
                if not conn.bucket.take(loop.time()):
                    await self._reply(conn, error(ErrorCode.RATE_LIMITED, "slow down"))
                    continue
                try:
                    await self.dispatch(conn, parse_client(message))
                except WireError as exc:
                    await self._reply(conn, error(exc.code, exc.message))
        except ConnectionClosed:
            pass
        finally:
            self._leave(conn)
            self._auth.clear(str(conn.id))
            del self.connections[conn.id]

    async def _reply(self, conn: Connection, frame: RelayFrame) -> None:
        with contextlib.suppress(ConnectionClosed):
            await conn.ws.send(encode(frame))

    def _broadcast(self, conns: list[int], frame: RelayFrame) -> None:
        data = encode(frame).encode("utf-8")
        for c in conns:
            conn = self.connections.get(c)
            if conn is not None:
                self.outbox.put(conn.ws, data)

    def _account(self, token: str) -> str:
        name = self.accounts.lookup(token)
        if name is None:
            raise WireError(ErrorCode.BAD_TOKEN, "sign in again: this token is not valid")
        return name

    async def dispatch(self, conn: Connection, frame: ClientFrame) -> None:
        match frame:
            case Send(payload):
                self._forward(conn, payload)
            case Signup(name, password) | Signin(name, password):
                key = str(conn.id)
                if not self._auth.allowed(key):
                    raise WireError(ErrorCode.SIGNIN_LIMITED, "too many sign-in attempts; wait")
                self._auth.record(key)
                if isinstance(frame, Signup):
                    token = await asyncio.to_thread(self.accounts.signup, name, password)
                else:
                    name, token = await asyncio.to_thread(self.accounts.signin, name, password)
                await self._reply(conn, SignedIn(name, token))
            case CreateRoom(token, key):
                name = self._account(token)
                room = self.rooms.create(conn.id, name, key)
                conn.name = name
                await self._reply(conn, RoomJoined(room.code, 0, room.creator, room.roster()))
            case JoinRoom(token, code, key):
                name = self._account(token)
                room = self.rooms.join(conn.id, name, key, code)
                conn.name = name
                seat = room.seat_of(conn.id)
                assert seat is not None
                await self._reply(conn, RoomJoined(room.code, seat, room.creator, room.roster()))
                self._roster(room, exclude=conn.id)
            case Start(token):
                name = self._account(token)
                room = self.rooms.start(conn.id, name, secrets.token_hex(8))
                assert room.table_id is not None
                roster = room.roster()
                for seat, member in enumerate(room.members):
                    self._broadcast([member.conn], Started(room.code, room.table_id, seat, roster))
                log.info("room %s started with %d seats", room.code, len(roster))
            case Signout(token):
                if not await asyncio.to_thread(self.accounts.signout, token):
                    raise WireError(ErrorCode.BAD_TOKEN, "that token was not signed in")
                await self._reply(conn, SignedOut())
            case ChangePassword(token, old, new):
                key = str(conn.id)
                if not self._auth.allowed(key):
                    raise WireError(ErrorCode.SIGNIN_LIMITED, "too many sign-in attempts; wait")
                self._auth.record(key)
                fresh = await asyncio.to_thread(self.accounts.change_password, token, old, new)
                account = self.accounts.lookup(fresh)
                assert account is not None
                await self._reply(conn, SignedIn(account, fresh))
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
        Accounts,
        db_path,
        config.hash_params,
        config.failures_per_name,
        config.auth_window,
    )
    relay = Relay(accounts, config)
    try:
        async with serve(
            relay.handler,
            host,
            port,
            max_size=config.max_size,
            ssl=ssl_context,
            compression=None,
        ) as server:
            sock = next(iter(server.sockets))
            bound_host, bound_port = sock.getsockname()[:2]
            scheme = "wss" if ssl_context else "ws"
            shown = f"[{bound_host}]" if ":" in bound_host else bound_host
            yield RunningRelay(relay, server, f"{scheme}://{shown}:{bound_port}", host, bound_port)
    finally:
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
    parser.add_argument("--max-size", type=int, default=64 * 1024, help="frame cap in bytes")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every room event")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if bool(args.cert) != bool(args.key):
        print("pointline-relay: --cert and --key go together", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(name)s %(message)s",
    )
    context = tls_context(args.cert, args.key) if args.cert else None
    config = RelayConfig(max_size=args.max_size)
    try:
        asyncio.run(serve_forever(args.db, args.host, args.port, context, config))
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
