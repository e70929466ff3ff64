"""The relay's connection machinery: its limits (``RelayConfig``), each connection's ordered
sender, the per-connection frame budget, the connection and hashing gates, and the accept-error
log filter. ``net.relay._server`` builds a server from these; nothing here knows about rooms."""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from pointline.net._ws import frame_now
from pointline.net.protocol._wire import ErrorCode, WireError
from pointline.net.relay._core import RelayConfig, TokenBucket

__all__ = [
    "ACCEPT_EXHAUSTED",
    "LOOPBACK_TESTS",
    "REFUSED_GRACE",
    "AcceptLogFilter",
    "Connection",
    "ConnectionGate",
    "HashGate",
    "RelayConfig",
    "RelayConnection",
    "Sender",
    "TokenBucket",
    "tls_context",
]

log = logging.getLogger("pointline.relay")
T = TypeVar("T")


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
    the socket keeps up, so a burst costs one wake-up). It decides nothing about slow readers:
    whenever its backlog changes on the slow path it calls ``report(frames, sending_since)``
    (frames waiting; when the send in progress began, or None), and the relay's core says
    when to cut it (``RelayCore.outbox``, ``RelayCore.tick``); ``drop`` then empties it.
    """

    def __init__(
        self,
        ws: ServerConnection,
        report: Callable[[int, float | None], None],
    ) -> None:
        self.ws = ws
        self._report = report
        self._queue: deque[str | bytes] = deque()
        self._pending: list[bytes] = []  # framed by _write_now, written by _flush
        self._held = 0  # their size
        self._loop = asyncio.get_running_loop()
        self._wake: asyncio.Future[None] | None = None
        self.sending_since: float | None = None  # when the send in progress began
        self.cut: str | None = None
        self.sent = 0
        self._task = self._loop.create_task(self._run())

    def put(self, data: str | bytes) -> None:
        """Send one text frame (``bytes``: already UTF-8 encoded): at once when nothing waits
        before it and the socket keeps up, else queued for the task."""
        if self.cut is not None:
            return
        if not self._queue and self.sending_since is None and self._write_now(data):
            return
        self._queue.append(data)
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)
        self._report(len(self._queue), self.sending_since)

    def _write_now(self, data: str | bytes) -> bool:
        """The common case, without a wake-up of the task (``net._ws.frame_now``): the
        frame's bytes wait in ``_pending`` for this turn's one write."""
        chunks = frame_now(self.ws, data, self._held)
        if chunks is None:
            return False
        pending = self._pending
        if not pending:
            self._loop.call_soon(self._flush)
        for chunk in chunks:
            pending.append(chunk)
            self._held += len(chunk)
        self.sent += 1
        return True

    def _flush(self) -> None:
        """Write what ``_write_now`` framed during this turn of the loop as one write: the
        frames a busy relay forwards to one reader in one turn cost one system call. It runs
        before any later frame of the task (callbacks run in the order they were scheduled)."""
        data = b"".join(self._pending)
        self._pending.clear()
        self._held = 0
        # Closed meanwhile (websockets wrote its close frame and half-closed the transport):
        # these frames can no longer be sent, and writing after ``write_eof`` would raise.
        if data and self.ws.protocol.state is State.OPEN and not self.ws.transport.is_closing():
            self.ws.transport.write(data)

    async def _run(self) -> None:
        queue, loop = self._queue, self._loop
        try:
            while True:
                while not queue:
                    self._wake = loop.create_future()
                    await self._wake
                self.sending_since = loop.time()
                self._report(len(queue), self.sending_since)
                corked = len(queue) > 1 and self._cork(True)
                try:
                    while queue:
                        await self.ws.send(queue.popleft(), text=True)
                        self.sent += 1
                finally:
                    if corked:
                        self._cork(False)
                self.sending_since = None
                self._report(0, None)
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

    def drop(self, why: str) -> None:
        """The core closed the connection: nothing more is sent (``why``: for the log)."""
        if self.cut is not None:
            return
        self.cut = why
        self._queue.clear()
        self._pending.clear()
        self._held = 0
        self._task.cancel()

    def stop(self) -> None:
        """The connection is gone: stop sending."""
        self._task.cancel()


@dataclass(slots=True)
class Connection:
    """One open websocket as the driver holds it: its id in the core, its socket and sender."""

    id: int
    ws: ServerConnection
    sender: Sender
    address: str = ""


class RelayConnection(ServerConnection):
    """A server connection that counts itself against the relay's connection limits from
    the moment the socket is accepted (before any TLS or websocket handshake) until it is gone,
    and that notes when that was (``accepted_at``): the relay's core runs the sign-in deadline
    from it and says when to close (``shut``). A socket that never finishes its websocket
    handshake is dropped by websockets' ``open_timeout`` (the sign-in deadline).

    With ``tls`` set, the TLS handshake is done here (asyncio's public ``loop.start_tls``) on
    the counted socket, under its own deadline (``tls_handshake_deadline``): a client that opens
    TCP and never starts TLS holds one of its address's places for that long, then is dropped.

    ``running_relay`` makes a subclass with ``gate`` and ``tls`` set (websockets builds the
    connection)."""

    gate: ConnectionGate
    tls: ssl.SSLContext | None = None
    address: str = ""
    refusal: str | None = None  # why this connection is refused (answered with HTTP 503)
    accepted_at: float | None = None
    _counted: bool = False
    _opened: bool = False
    _lost: bool = False
    _early: bytes = b""  # TLS data that arrived before the websocket side was opened
    _early_eof: bool = False
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.accepted_at = self.loop.time()
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if peer else ""
        self.refusal = self.gate.admit(self.address)
        self._counted = self.refusal is None
        if self.tls is None:
            self._open(transport)
            return
        assert isinstance(transport, asyncio.Transport)
        transport.pause_reading()  # nothing reaches the websocket before TLS is up
        task = self.loop.create_task(self._start_tls(transport, self.tls))
        self.gate.tasks.add(task)
        task.add_done_callback(self.gate.tasks.discard)

    async def _start_tls(self, raw: asyncio.Transport, context: ssl.SSLContext) -> None:
        deadline = self.gate.config.tls_handshake_deadline
        if self.refusal is not None:
            deadline = min(deadline, REFUSED_GRACE)
        try:
            wrapped = await self.loop.start_tls(
                raw, self, context, server_side=True, ssl_handshake_timeout=deadline
            )
        except asyncio.CancelledError:  # the relay is shutting down
            raw.abort()
            self._release()
            raise
        except (OSError, ssl.SSLError, TimeoutError) as exc:
            raw.abort()
            self.gate.tls_failed += 1
            log.info("TLS handshake from %s failed: %s", self.address or "?", exc or "deadline")
            self._release()
            return
        if wrapped is None or self._lost or self._early_eof:
            # the socket closed during the handshake, or right after it, before the websocket
            # side was opened (a TLS close_notify in the handshake's last flight): nothing to
            # serve, nobody to answer
            if wrapped is not None:
                wrapped.abort()
            self._release()
            return
        self._open(wrapped)
        if self._early:  # what arrived between the handshake and this task's turn
            early, self._early = self._early, b""
            super().data_received(early)

    def _open(self, transport: asyncio.BaseTransport) -> None:
        self._opened = True
        super().connection_made(transport)
        if self.refusal is not None:  # refused with HTTP 503: it may read that, then it is cut
            self._deadline = self.loop.call_later(REFUSED_GRACE, self._cut)

    def data_received(self, data: bytes) -> None:
        if not self._opened:  # TLS delivers data as soon as the handshake is done
            self._early += data
            return
        super().data_received(data)

    def eof_received(self) -> None:
        if not self._opened:  # a peer that closed TLS before we even opened: drop it quietly
            self._early_eof = True
            return
        super().eof_received()

    def _release(self) -> None:
        if self._counted:
            self._counted = False
            self.gate.release(self.address)

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost = True
        if self._opened:
            super().connection_lost(exc)
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._release()

    def shut(self, code: int, reason: str) -> None:
        """Close as the core said: its places against the caps end now, not when the close
        handshake does (up to close_timeout later); the close frame goes out, and the socket
        gets REFUSED_GRACE to read it before it is cut."""
        self._release()
        if self.protocol.state is not State.OPEN:
            self.transport.abort()
            return
        task = self.loop.create_task(self.close(code, reason))
        self.gate.tasks.add(task)
        task.add_done_callback(self.gate.tasks.discard)
        self._deadline = self.loop.call_later(REFUSED_GRACE, self._cut)

    def _cut(self) -> None:
        """Drop a socket that had its close frame (or its 503) and did not close."""
        self._deadline = None
        if not self.transport.is_closing():
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
        self.tls_failed = 0  # TLS handshakes that failed or missed their deadline
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


def tls_context(cert: str, key: str) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    return context
