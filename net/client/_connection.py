"""The relay connection under a ``net.client._relay_client.RelayClient``: opening ``ws://`` or ``wss://``,
the reader and writer tasks, requests matched to their answers by id, and a cluster's
redirect. What a frame means for the account, the room and the session is the client's
(``RelayConnection._handle``); this part only moves frames.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import socket
import ssl
from collections.abc import Awaitable, Callable
from typing import Any, TypeAlias

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from pointline.net._ws import PING_INTERVAL, PING_TIMEOUT, frame_now
from pointline.net.client._events import ClientEvent, Disconnected
from pointline.net.errors import ClientError
from pointline.net.protocol._wire import (
    ChangePassword,
    CreateRoom,
    Error,
    ErrorCode,
    JoinRoom,
    RelayFrame,
    Resume,
    Signin,
    Signout,
    Signup,
    Start,
    WireError,
    encode,
    parse_relay,
)

__all__ = [
    "DEFAULT_MAX_SIZE",
    "MAX_REDIRECTS",
    "PING_INTERVAL",
    "PING_TIMEOUT",
    "RECONNECTING",
    "RELAY_LOST",
    "REQUEST_TIMEOUT",
    "RelayConnection",
    "Request",
    "open_ws",
    "tls_client_context",
    "unreachable_words",
]

log = logging.getLogger("pointline.client")

DEFAULT_MAX_SIZE = 128 * 1024  # above the relay's 64 KiB cap plus the deliver envelope
REQUEST_TIMEOUT = 15.0
MAX_REDIRECTS = 3  # a cluster's redirects one create/join follows

RELAY_LOST = "the relay connection was lost"
"""The words for a connection to the relay that dropped under the client (the relay died, the
network went): the README's, for the headless player and the results alike."""

CLOSE_TIMEOUT = 2.0
"""Seconds the client waits for the relay's answer to its close frame before it cuts the
socket (also after a ping went unanswered)."""

RECONNECTING = "reconnecting…"
"""What a player reads while the client takes its seat back after a stall (``Reconnecting``);
nothing more is said when it comes back (``Reconnected``) unless the seat is lost."""


Request: TypeAlias = (
    Signup | Signin | CreateRoom | JoinRoom | Start | Signout | ChangePassword | Resume
)
"""A client frame that gets an answer (it carries a request id)."""


def _relay_code(code: str) -> str:
    """The relay's error code as its ``ErrorCode`` (a StrEnum), or as sent when unknown."""
    try:
        return ErrorCode(code)
    except ValueError:
        return code


def tls_client_context(ca: str | None = None) -> ssl.SSLContext:
    """The TLS settings for ``wss://``: the system trust store, or only ``ca`` when given."""
    try:
        return ssl.create_default_context(cafile=ca)
    except (OSError, ssl.SSLError) as exc:
        if isinstance(exc, FileNotFoundError):
            why = "there is no such file"
        elif isinstance(exc, PermissionError):
            why = "this user may not read it"
        elif isinstance(exc, ssl.SSLError):
            why = "it holds no certificate in PEM form"
        else:
            why = "it cannot be read"
        raise ClientError("bad_ca", f"Cannot read the certificate file {ca}: {why}.") from exc


async def open_ws(
    url: str,
    ssl_context: ssl.SSLContext | None,
    open_timeout: float,
    max_size: int,
    ca: str | None,
) -> ClientConnection:
    """A websocket to the relay at ``url``; every failure a ``ClientError`` in plain words."""
    options: dict[str, Any] = {}
    if url.startswith("wss://"):
        options["ssl"] = ssl_context or tls_client_context(ca)
    elif ssl_context is not None or ca is not None:
        raise ClientError("not_tls", "A certificate needs a wss:// address for the relay.")
    try:
        ws = await connect(
            url,
            open_timeout=open_timeout,
            max_size=max_size,
            compression=None,
            close_timeout=CLOSE_TIMEOUT,
            ping_interval=PING_INTERVAL,
            ping_timeout=PING_TIMEOUT,
            **options,
        )
    except ssl.SSLCertVerificationError as exc:
        raise ClientError(
            "certificate",
            f"The relay's certificate was refused ({exc.verify_message}). If the relay uses "
            "a self-signed certificate, trust it with --ca FILE.",
        ) from exc
    except InvalidStatus as exc:
        body = exc.response.body.decode("utf-8", "replace").strip()[:200]
        if exc.response.status_code == 503 and body:
            raise ClientError("refused", f"The relay refused the connection: {body}") from exc
        why = f"it answered with HTTP status {exc.response.status_code}, not as a relay"
        raise ClientError("unreachable", f"Cannot reach the relay at {url}: {why}.") from exc
    except (OSError, TimeoutError, InvalidURI, InvalidHandshake) as exc:
        why = unreachable_words(exc, open_timeout)
        raise ClientError("unreachable", f"Cannot reach the relay at {url}: {why}.") from exc
    return ws


def unreachable_words(exc: BaseException, open_timeout: float) -> str:
    """Why a relay could not be reached, in plain words: never errno or Python's own text."""
    if isinstance(exc, InvalidURI):
        return "that is not a relay address (it starts with ws:// or wss://)"
    if isinstance(exc, TimeoutError):
        return f"it did not answer within {open_timeout:g} s"
    if isinstance(exc, ConnectionRefusedError):
        return "nothing answers at that address and port (is the relay running?)"
    if isinstance(exc, socket.gaierror):
        return "that host name is not known (check the address and the network)"
    if isinstance(exc, InvalidHandshake):
        return "what answered there is not a relay"
    if isinstance(exc, ssl.SSLError):
        return "the secure connection could not be set up (is it a wss:// relay?)"
    if isinstance(exc, OSError):
        return "the network did not let the connection through (check the address and the network)"
    return "the connection could not be opened"


class RelayConnection:
    """Frames to and from the relay, in order; ``_handle`` gets each parsed frame."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.request_timeout = REQUEST_TIMEOUT
        self.loop = asyncio.get_running_loop()
        self.closed = asyncio.Event()
        self._wake = asyncio.Event()
        self._queue: asyncio.Queue[ClientEvent] = asyncio.Queue()
        self._out: asyncio.Queue[str | None] = asyncio.Queue()
        """Frames the writer task sends (``None`` ends it): those ``send_text`` could not
        write at once."""
        self._sending = False  # the writer task is in a ``ws.send``
        self._pending: dict[int, asyncio.Future[RelayFrame]] = {}
        self._ids = itertools.count(1)
        self.late_replies = 0
        """Answers that came after their request had timed out (logged and dropped)."""
        self._closing = False
        self.connection_lost = False
        """True once the relay connection dropped without this client closing it: a session it
        ends is recorded as this seat's departure, and shown as a lost connection."""
        self.url = ""
        """The relay this client is connected to (a cluster's redirect changes it)."""
        self._reconnect: Callable[[str], Awaitable[ClientConnection]] | None = None
        self._moving = False
        self._resume_task: asyncio.Task[None] | None = None
        self._resuming = False
        """The connection dropped and a resume runs: frames to send wait for it."""
        self._reader = asyncio.create_task(self._read(), name="pointline-client-reader")
        self._writer = asyncio.create_task(self._write(), name="pointline-client-writer")

    # ---- what the client decides ---------------------------------------------------------------

    def _handle(self, frame: RelayFrame) -> None:
        raise NotImplementedError  # net.client._relay_client.RelayClient

    def _lost(self) -> None:
        """The socket is gone (called before ``Disconnected`` is queued)."""

    # ---- requests -----------------------------------------------------------------------------

    async def _request(self, frame: Request, timeout: float | None = None) -> RelayFrame:
        """Send ``frame`` with a fresh id and wait for the relay's answer carrying that id.

        Only the answer with this id resolves this request: an error the relay sends on its own
        never does, and an answer that arrives after ``timeout`` is logged and dropped, never
        given to a later request."""
        if self.closed.is_set():
            raise ClientError("closed", self._closed_words())
        request_id = next(self._ids)
        future: asyncio.Future[RelayFrame] = self.loop.create_future()
        self._pending[request_id] = future
        self.send_text(encode(dataclasses.replace(frame, id=request_id)))
        limit = self.request_timeout if timeout is None else timeout
        try:
            reply = await asyncio.wait_for(future, limit)
        except TimeoutError:
            raise ClientError(
                "timeout", f"The relay did not answer within {limit:g} s; try again."
            ) from None
        finally:
            self._pending.pop(request_id, None)
        if isinstance(reply, Error):
            refusal = ClientError(_relay_code(reply.code), reply.message)
            refusal.retry_after = reply.retry_after
            raise refusal
        return reply

    def _closed_words(self) -> str:
        """Plain words for a request the closed connection cannot carry (``reason``,
        websockets' own, is for logs): the README's "the relay connection was lost" when this
        client did not close it, whether the request was cut short or came after the drop."""
        if self.connection_lost:
            return f"{RELAY_LOST[0].upper()}{RELAY_LOST[1:]}."
        return "The connection to the relay is closed."

    def _answer(self, request_id: int, frame: RelayFrame) -> bool:
        """Resolve the request ``request_id``; an answer nobody waits for is dropped."""
        future = self._pending.pop(request_id, None)
        if future is None or future.done():
            self.late_replies += 1
            log.warning("dropped a late answer to request %d: %s", request_id, type(frame).__name__)
            return False
        future.set_result(frame)
        return True

    async def _follow(self, url: str) -> None:
        """A cluster's ``redirect``: move this connection to the relay at ``url`` (the token
        works on every relay of the cluster), before any session runs. When that relay cannot
        be reached, stay here: the next answer comes from this relay again (it does not send a
        connection to the same place twice). ``wss://`` never moves to ``ws://``."""
        if self._reconnect is None or (self.url.startswith("wss://") and url.startswith("ws://")):
            return
        try:
            ws = await self._reconnect(url)
        except ClientError as exc:
            # for an operator's log only (INFO: below logging's last-resort handler, so a
            # player with no logging configured sees nothing of a redirect, as README says)
            log.info("the relay sent us to %s, which cannot be reached: %s", url, exc.text)
            return
        old, self.ws, self.url = self.ws, ws, url
        self._moving = True
        for task in (self._reader, self._writer):
            task.cancel()
        await asyncio.wait([self._reader, self._writer])
        self._moving = False
        self._reader = asyncio.create_task(self._read(), name="pointline-client-reader")
        self._writer = asyncio.create_task(self._write(), name="pointline-client-writer")
        with contextlib.suppress(ConnectionClosed, OSError):
            await old.close()

    def send_text(self, text: str) -> None:
        """Send one raw text frame to the relay, in order with everything else: at once when
        nothing waits before it and the socket keeps up, else queued for the writer task."""
        if self._out.empty() and not self._sending and self._write_now(text):
            return
        self._out.put_nowait(text)

    def _write_now(self, text: str) -> bool:
        """The common case, without a wake-up of the writer task
        (``net._ws.frame_now``)."""
        chunks = frame_now(self.ws, text)
        if chunks is None:
            return False
        for chunk in chunks:
            self.ws.transport.write(chunk)
        return True

    async def _close_socket(self) -> None:
        """Send what is queued, close the socket and stop both tasks."""
        self._out.put_nowait(None)
        # waited, never awaited: a writer a resume stopped is cancelled, not failed
        await asyncio.wait({self._writer}, timeout=2.0)
        await self.ws.close()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._reader), 2.0)
        self._reader.cancel()
        self._writer.cancel()
        self.closed.set()

    # ---- events -------------------------------------------------------------------------------

    async def next_event(self, timeout: float | None = None) -> ClientEvent:
        """The next event (``TimeoutError`` after ``timeout`` seconds)."""
        if timeout is None:
            return await self._queue.get()
        return await asyncio.wait_for(self._queue.get(), timeout)

    def pending_events(self) -> list[ClientEvent]:
        """Every queued event, without waiting (drains)."""
        out: list[ClientEvent] = []
        while not self._queue.empty():
            out.append(self._queue.get_nowait())
        return out

    # ---- the tasks ----------------------------------------------------------------------------

    async def _write(self) -> None:
        while True:
            text = await self._out.get()
            if text is None:
                return
            self._sending = True
            try:
                await self.ws.send(text)
            except ConnectionClosed:
                return
            finally:
                self._sending = False

    async def _read(self) -> None:
        reason = "closed"
        try:
            async for message in self.ws:
                self._on_text(message)
            reason = f"closed by the relay ({self.ws.close_code})"
        except ConnectionClosed as exc:
            reason = f"connection lost ({exc})"
        except asyncio.CancelledError:
            reason = "cancelled"
            raise
        finally:
            if self._moving:  # a redirect: the new connection's reader takes over
                return  # noqa: B012
            if self._resuming:  # the new connection of a resume dropped too: try again
                self._fail_pending()
                return  # noqa: B012
            # resumed only when it dropped: no close frame came from the relay (a relay that
            # closes says why, and holds no seat for it)
            dropped = self.ws.protocol.close_rcvd is None
            if not self._closing and dropped and self._resumable():
                self._resuming = True
                self._resume_task = asyncio.create_task(
                    self._resume(reason), name="pointline-client-resume"
                )
                return  # noqa: B012
            self._gone(reason)

    def _resumable(self) -> bool:
        """Whether a connection that dropped under this client is taken up again
        (``RelayClient``: while it holds a seat in a room or a live session)."""
        return False

    async def _resume(self, reason: str) -> None:
        raise NotImplementedError  # net.client._relay_client.RelayClient

    def _gone(self, reason: str) -> None:
        """The connection is gone for good: pending requests fail, the session ends, and
        ``Disconnected`` is the last event."""
        self._resuming = False
        self.closed.set()
        self._wake.set()
        self.connection_lost = not self._closing
        self._fail_pending()
        self._lost()  # the session's ending comes first, then the disconnection
        self._queue.put_nowait(Disconnected(reason))

    def _fail_pending(self) -> None:
        words = self._closed_words()
        for future in self._pending.values():
            if not future.done():
                future.set_result(Error("closed", words))

    def _on_text(self, message: str | bytes) -> None:
        """One frame as the relay sent it: parsed strictly, then handled. A payload that names
        a member twice still reaches the peer, which ends the session on it (malformed, naming
        the sender); any other bad frame is logged and dropped."""
        try:
            frame = parse_relay(message)
        except WireError as exc:
            log.warning("bad frame from the relay: %s", exc)
            return
        self._handle(frame)
