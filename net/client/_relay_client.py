"""The client peer: a websockets connection to the relay that runs a protocol ``Peer``.

    client = await RelayClient.connect("ws://127.0.0.1:8765")
    await client.signin("alice", "correct horse")
    room = await client.create_room()          # or: await client.join_room(code)
    await client.start()                       # the creator, once 2-8 people are in
    async for event in client.events():        # typed events (net.protocol._peer's and ours)
        if isinstance(event, RoundOpened):
            client.commit(Choice(10, 0))

The client feeds every delivered payload to ``peer.receive``, sends ``peer.outgoing()``,
calls ``peer.tick`` at ``peer.next_deadline()`` (``loop.time()`` is the peer's clock) and
turns a relay ``departed`` into ``peer.depart``. From the start on, the peer's transcript
records (``peer.records()``) go to the user data folder (``net.paths``) through a
``TranscriptWriter``, in one write at the end of each turn of the event loop that made them (so
a burst of frames costs one system call), and the file is closed whatever ends the session:
completion, a fault, socket loss, cancellation or an exception. A disk error ends the session
(this seat leaves) with ``TranscriptFailed``; the records written before it are kept.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import ssl
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection

from pointline.kernel import Choice, Phase, Table
from pointline.net import paths
from pointline.net.client._connection import (
    DEFAULT_MAX_SIZE,
    MAX_REDIRECTS,
    REQUEST_TIMEOUT,
    RelayConnection,
    open_ws,
    tls_client_context,
)
from pointline.net.client._events import (
    GOING_AWAY,
    ClientEvent,
    Disconnected,
    MemberDeparted,
    RelayError,
    RosterChanged,
    SessionStarted,
    TableClosed,
    TranscriptFailed,
    TranscriptSaved,
)
from pointline.net.client._transcript_file import TranscriptWriteError, TranscriptWriter
from pointline.net.client._trust import (
    CertificateNotTrusted,
    KnownRelays,
    RelayKeyChanged,
    certificate_fingerprint,
    fetch_certificate,
    pinned_tls_context,
    relay_address,
)
from pointline.net.errors import ClientCode, ClientError, NetError
from pointline.net.protocol._events import SessionEnded, named_host
from pointline.net.protocol._keys import SigningKey
from pointline.net.protocol._peer import (
    Peer,
    RoundOpened,
    Timeouts,
    roster_from_wire,
    roster_signing_bytes,
)
from pointline.net.protocol._transcript import Record
from pointline.net.protocol._wire import (
    ChangePassword,
    CreateRoom,
    Deliver,
    Departed,
    Error,
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
    encode,
)

__all__ = [
    "REQUEST_TIMEOUT",
    "ClientError",
    "ClientEvent",
    "Disconnected",
    "MemberDeparted",
    "RelayClient",
    "RelayError",
    "RosterChanged",
    "SessionStarted",
    "TableClosed",
    "TranscriptFailed",
    "TranscriptSaved",
    "connect_trusted",
    "play",
    "steady_choice",
    "tls_client_context",
]

log = logging.getLogger("pointline.client")
_FORGED = (
    "The room's list of players is not signed by the relay key this device pinned, so the "
    "session was not started. Leave and check which relay you are connected to."
)


def _roster_docs(roster: tuple[RosterEntry, ...]) -> list[dict[str, Any]]:
    return [{"seat": e.seat, "name": e.name, "session_key": e.session_key} for e in roster]


class RelayClient(RelayConnection):
    """One person's connection: account, room and (once started) the session's ``Peer``."""

    def __init__(
        self,
        ws: ClientConnection,
        timeouts: Timeouts | None = None,
        nonce_source: Callable[[], bytes] | None = None,
    ) -> None:
        self.timeouts = timeouts or Timeouts()
        self._nonce_source = nonce_source
        self.name: str | None = None
        self.token: str | None = None
        self.room: RoomJoined | None = None
        self.roster: tuple[RosterEntry, ...] = ()
        self.signing_key: SigningKey | None = None
        self.peer: Peer | None = None
        self.started: SessionStarted | None = None
        self._host: tuple[str, int] | None = None  # a hosted table's host and its seat
        self.host: str | None = None
        """A hosted table's host (``net.joining.connect_table`` sets it): a relay going away
        (close code 1001) then reads "hostana closed the table" (``TableClosed``)."""
        self.transcript_path: Path | None = None
        self.finished = asyncio.Event()
        self._timer: asyncio.Handle | None = None  # (qasync's call_at gives a plain Handle)
        self._timer_at = 0.0
        self._writer_file: TranscriptWriter | None = None
        self._unwritten: list[Record] = []
        """Records taken from the peer this turn of the loop, not yet on disk."""
        self._flush_due = False
        self.transcript_error: str | None = None
        """Why the transcript could not be written (the session ended for it), or None."""
        self.known_relays: KnownRelays | None = None
        """Where the relay's key is pinned (``connect_trusted`` sets it; None: no pinning)."""
        self.address = ""
        """The relay's address in ``known_relays`` (``net.client._trust.relay_address``)."""
        self.relay_key: str | None = None
        """The key the relay said it signs with, at sign-in (None: it did not say)."""
        self._key_change: RelayKeyChanged | None = None
        super().__init__(ws)

    @classmethod
    async def connect(
        cls,
        url: str,
        timeouts: Timeouts | None = None,
        ssl_context: ssl.SSLContext | None = None,
        nonce_source: Callable[[], bytes] | None = None,
        open_timeout: float = 10.0,
        max_size: int = DEFAULT_MAX_SIZE,
        ca: str | None = None,
    ) -> RelayClient:
        """Open a connection to the relay at ``url`` (``ws://`` or ``wss://``).

        ``wss://`` checks the relay's certificate against the system's trust store, or against
        ``ca`` (a PEM file, e.g. a self-signed relay's certificate) when given; ``ssl_context``
        overrides both. Failures raise ``ClientError`` with plain words, never a traceback.
        """
        ws = await open_ws(url, ssl_context, open_timeout, max_size, ca)
        client = cls(ws, timeouts, nonce_source)
        client._reconnect = functools.partial(
            open_ws,
            ssl_context=ssl_context,
            open_timeout=open_timeout,
            max_size=max_size,
            ca=ca,
        )
        client.url = url
        return client

    async def __aenter__(self) -> RelayClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def signup(self, name: str, password: str) -> str:
        """Create an account; returns (and keeps) the session token."""
        return self._signed(await self._request(Signup(name, password)))

    async def signin(self, name: str, password: str) -> str:
        """Sign in; returns (and keeps) the session token."""
        return self._signed(await self._request(Signin(name, password)))

    async def signout(self) -> None:
        """Revoke this client's token at the relay (then sign in again to play)."""
        reply = await self._request(Signout(self._token()))
        if not isinstance(reply, SignedOut):
            raise ClientError("bad_reply", f"expected signed_out, got {reply!r}")
        self.token = None

    async def change_password(self, old: str, new: str) -> str:
        """Change the password; every older token is revoked; returns (and keeps) a new one."""
        return self._signed(await self._request(ChangePassword(self._token(), old, new)))

    def _token(self) -> str:
        if self.token is None:
            raise ClientError("not_signed_in", "Sign in first.")
        return self.token

    def _signed(self, reply: RelayFrame) -> str:
        if not isinstance(reply, SignedIn):
            raise ClientError("bad_reply", f"expected signed_in, got {reply!r}")
        self.name, self.token = reply.name, reply.token
        if reply.relay_key is not None and self.known_relays is not None:
            self.relay_key = reply.relay_key
            try:
                self.known_relays.check_relay_key(self.address, reply.relay_key)
            except RelayKeyChanged as changed:
                self._key_change = changed
                raise
        return reply.token

    def accept_relay_key(self) -> None:
        """The player accepted the relay's new key (after ``RelayKeyChanged``): pin it, and
        rooms open again."""
        changed = self._key_change
        if changed is not None and self.known_relays is not None:
            self.known_relays.pin_relay_key(changed.address, changed.new)
        self._key_change = None

    def _need_token(self) -> str:
        if self.token is None:
            raise ClientError("bad_token", "sign in first")
        return self.token

    async def create_room(self) -> RoomJoined:
        """Open a room (I am its creator, seat 0); returns it with its join code."""
        return await self._enter(lambda key: CreateRoom(self._need_token(), key))

    async def join_room(self, code: str) -> RoomJoined:
        """Take the next seat in the room with join code ``code``."""
        return await self._enter(lambda key: JoinRoom(self._need_token(), code, key))

    async def _enter(self, frame: Callable[[str], CreateRoom | JoinRoom]) -> RoomJoined:
        if self._key_change is not None:
            raise self._key_change  # not accepted yet: no room with a relay not trusted
        key = SigningKey.generate()  # a fresh key per session
        previous, self.signing_key = self.signing_key, key
        # The key is in place before the request leaves: the creator may start the room at
        # once, and the reader must be able to begin the session as soon as `started` arrives,
        # even before this coroutine resumes with the `room` reply.
        try:
            reply = await self._request(frame(key.public_hex))
            for _ in range(MAX_REDIRECTS):  # a relay cluster: the room is on another relay
                if not isinstance(reply, Redirect):
                    break
                await self._follow(reply.url)
                reply = await self._request(frame(key.public_hex))
        except BaseException:
            self.signing_key = previous
            raise
        if not isinstance(reply, RoomJoined):
            self.signing_key = previous
            raise ClientError("bad_reply", f"expected room, got {reply!r}")
        self.room = reply
        if self.started is None:
            self.roster = reply.roster
        return reply

    async def start(self) -> SessionStarted:
        """Start my room (creator only, 2-8 members); returns once the session runs."""
        reply = await self._request(Start(self._need_token()))
        if not isinstance(reply, Started) or self.started is None:
            raise ClientError("bad_reply", f"expected started, got {reply!r}")
        return self.started

    async def wait_started(self, timeout: float) -> SessionStarted:
        """Wait (as a joiner) until the creator starts the room."""
        async with asyncio.timeout(timeout):
            while self.started is None:
                if self.closed.is_set():
                    raise ClientError("closed", "the connection closed before the start")
                self._wake.clear()
                await self._wake.wait()
        return self.started

    # ---- commands during the session ----------------------------------------------------------

    def _live_peer(self) -> Peer:
        if self.peer is None:
            raise ClientError("not_started", "the session has not started")
        return self.peer

    def commit(self, choice: Choice) -> None:
        """Commit my choices for the current throw (raises the kernel's error if illegal)."""
        peer = self._live_peer()
        try:
            peer.commit(choice, self.loop.time())
        finally:
            self._after()

    def background(self) -> None:
        """The app went to the background: the session ends for everyone."""
        peer = self._live_peer()
        peer.background(self.loop.time())
        self._after()

    async def leave(self) -> None:
        """Leave the room (a departure once started)."""
        self._end_own_seat()
        self.send_text(encode(Leave()))
        self.room = None

    async def close(self) -> None:
        """Close the connection; the transcript is finished and closed."""
        self._closing = True
        self._end_own_seat()
        await self._close_socket()
        self._finish_transcript()

    def outbound(self, payload: dict[str, Any]) -> list[dict[str, Any]]:
        """The payloads to send for one of the peer's frames: itself.

        An override point (the fault tests replace it on an instance to make a misbehaving
        client); the honest client never changes what its peer signed.
        """
        return [payload]

    async def events(self) -> AsyncIterator[ClientEvent]:
        """Events until the session's transcript is saved or the connection is gone."""
        while True:
            event = await self._queue.get()
            yield event
            if isinstance(event, TranscriptSaved | TranscriptFailed) or (
                isinstance(event, Disconnected) and self.peer is None
            ):
                return

    # ---- the machinery ------------------------------------------------------------------------

    def _handle(self, frame: RelayFrame) -> None:
        now = self.loop.time()
        match frame:
            case Deliver(from_seat, payload):
                if self.peer is not None:
                    self.peer.receive(payload, from_seat, now)
                    self._after()
            case Departed(seat, name):
                self._queue.put_nowait(MemberDeparted(seat, name))
                if self.peer is not None:
                    self.peer.depart(seat, now)
                    self._after()
            case Started():
                self._begin(frame, now)
                if frame.id is not None:
                    self._answer(frame.id, frame)
            case Roster(code, creator, roster):
                self.roster = roster
                self._queue.put_nowait(RosterChanged(code, creator, roster))
            case Error(code, message, request_id):
                if request_id is None:  # the relay's own notice, not an answer
                    self._queue.put_nowait(RelayError(code, message))
                else:  # an answer: to its request, or dropped when nobody waits any more
                    self._answer(request_id, frame)
                if code == "room_closed":
                    self.room = None
            case SignedIn() | RoomJoined() | SignedOut() | Redirect():
                if frame.id is None:
                    log.warning("dropped an answer without a request id: %r", frame)
                else:
                    self._answer(frame.id, frame)

    def _begin(self, frame: Started, now: float) -> None:
        if self.peer is not None or self.signing_key is None:
            return
        try:
            roster = roster_from_wire(_roster_docs(frame.roster))
            signature = bytes.fromhex(frame.roster_sig)  # into the transcript header
            if self.known_relays is not None and self._key_change is None:
                signed = roster_signing_bytes(frame.table_id, roster, frame.host)
                if self.known_relays.roster_signed(self.address, signature, signed) is False:
                    self._queue.put_nowait(RelayError(ClientCode.BAD_ROSTER_SIGNATURE, _FORGED))
                    self.send_text(encode(Leave()))
                    return
            peer = Peer(
                frame.table_id,
                roster,
                frame.seat,
                self.signing_key,
                self.timeouts,
                now,
                self._nonce_source,
                roster_sig=signature,
                host=frame.host,
            )
        except NetError as exc:  # not started: a local error, and the room is left (ONLINE §2)
            self._queue.put_nowait(RelayError("bad_roster", str(exc)))
            self.send_text(encode(Leave()))
            return
        path = paths.transcript_path(frame.table_id, frame.seat)
        self.transcript_path = path
        self._writer_file = TranscriptWriter(path)
        self.peer = peer
        seats = [m.seat for m in roster if frame.host is not None and m.name == frame.host]
        self._host = (frame.host, seats[0]) if frame.host is not None and seats else None
        self.started = SessionStarted(frame.code, frame.table_id, frame.seat, frame.roster, path)
        self._queue.put_nowait(self.started)
        self._wake.set()
        self._after()

    def _after(self) -> None:
        """Write the peer's new transcript records, send what it has to send, pass its events
        on, and re-arm its timer."""
        peer = self.peer
        if peer is None:
            return
        self._write_records(peer)
        for payload in peer.outgoing():
            for frame in self.outbound(payload):
                self.send_text(encode(Send(frame)))
        for event in peer.events():
            if isinstance(event, SessionEnded) and self._host is not None:
                event = named_host(event, *self._host)  # "hostana closed the table"
            self._queue.put_nowait(event)
        deadline = None if peer.is_finished else peer.next_deadline()
        if self._timer is not None:
            if deadline is not None and self._timer_at == deadline:
                return  # armed for this deadline already (most frames leave it as it is)
            self._timer.cancel()
            self._timer = None
        if peer.is_finished:
            self._finish_transcript()
            return
        if deadline is not None:
            self._timer = self.loop.call_at(deadline, self._on_timer)
            self._timer_at = deadline

    def _write_records(self, peer: Peer) -> None:
        """Take the peer's new records: they go to disk in one write at the end of this turn of
        the loop (the frames of one turn cost one system call), or at once when the transcript
        is finished (``_finish_transcript``)."""
        records = peer.records()
        if self._writer_file is None or not records:
            return
        self._unwritten += records
        if not self._flush_due:
            self._flush_due = True
            self.loop.call_soon(self._flush_turn)

    def _flush_turn(self) -> None:
        self._flush_due = False
        if self._flush_records():
            self._after()  # the session ended on it: send the notice, pass the events on

    def _flush_records(self) -> bool:
        """Put the records taken so far on disk. A disk error ends the session (this seat
        leaves, so everyone sees a departure) with a clear reason, and returns True; it never
        escapes into the loop, and the records written before it stay in the file."""
        writer, records, self._unwritten = self._writer_file, self._unwritten, []
        if writer is None or not records:
            return False
        try:
            writer.write(records)
        except TranscriptWriteError as exc:
            log.error("%s; ending the session", exc.text)
            self.transcript_error = exc.text  # TranscriptFailed follows the session's ending
            peer = self.peer
            if peer is not None and not peer.is_finished:
                peer.depart(peer.seat, self.loop.time())  # ends it: my seat leaves
                for payload in peer.outgoing():  # its notice first, then the leave (§7)
                    for frame in self.outbound(payload):
                        self.send_text(encode(Send(frame)))
                self.send_text(encode(Leave()))
                self.room = None
                return True
        return False

    def _on_timer(self) -> None:
        self._timer = None
        if self.peer is not None:
            self.peer.tick(self.loop.time())
            self._after()

    def _lost(self) -> None:
        """The socket is gone. Dropped under us (the relay died, the network went): the session
        ends here as this seat's departure with no notice, since none can be sent
        (``Peer.lose_connection``); closed by this client: as a leave (``_end_own_seat``)."""
        peer = self.peer
        rcvd = self.ws.protocol.close_rcvd
        going_away = self.connection_lost and rcvd is not None and rcvd.code == GOING_AWAY
        if self.connection_lost and peer is not None and not peer.is_finished:
            peer.lose_connection(self.loop.time())
            self._after()
        else:
            self._end_own_seat()
        if going_away:  # the relay is stopping: said as such, before ``Disconnected``
            self._queue.put_nowait(TableClosed(self.host))

    def _end_own_seat(self) -> None:
        peer = self.peer
        if peer is None or peer.is_finished:
            self._finish_transcript()
            return
        peer.depart(peer.seat, self.loop.time())  # ends it: DEPARTURE of my own seat
        self._after()

    def _finish_transcript(self) -> None:
        """Close the transcript file once the peer is finished (or we stop for good)."""
        if self.peer is None or self.finished.is_set():
            if self.peer is None and self.closed.is_set():
                self.finished.set()
            return
        if not self.peer.is_finished and not self.closed.is_set():
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._write_records(self.peer)
        self._flush_records()
        writer = self._writer_file
        if writer is not None:
            writer.close()
        self.finished.set()
        if writer is not None and self.transcript_error is not None:
            self._queue.put_nowait(TranscriptFailed(writer.path, self.transcript_error))
        elif writer is not None:
            self._queue.put_nowait(TranscriptSaved(writer.path))

    async def wait_finished(self, timeout: float) -> Peer:
        """Wait until the session is over (result, fault or lost connection)."""
        await asyncio.wait_for(self.finished.wait(), timeout)
        return self._live_peer()


async def connect_trusted(url: str, known: KnownRelays, **options: Any) -> RelayClient:
    """``RelayClient.connect`` with the relay's key and certificate pinned in ``known``.

    ``wss://`` to an address with a pinned certificate trusts exactly that certificate (and
    checks its fingerprint once connected); otherwise the system's trust store, and a refused
    certificate raises ``CertificateNotTrusted`` with its fingerprint: once the player accepts
    it (``known.pin_certificate(error.address, error.pem)``), connect again. The client checks
    the relay's key at sign-in (``RelayKeyChanged``) and every roster against it.
    """
    address = relay_address(url)
    pinned = known.certificate(address) if url.startswith("wss://") else None
    if pinned is not None and "ssl_context" not in options and "ca" not in options:
        options["ssl_context"] = pinned_tls_context(pinned[0])
    try:
        client = await RelayClient.connect(url, **options)
    except ClientError as exc:
        if exc.code != ClientCode.CERTIFICATE:
            raise
        pem, fingerprint = await fetch_certificate(url)
        raise CertificateNotTrusted(address, fingerprint, pem, pinned is not None) from exc
    if pinned is not None:
        sslobj = client.ws.transport.get_extra_info("ssl_object")
        der = sslobj.getpeercert(binary_form=True) if sslobj is not None else b""
        if certificate_fingerprint(der or b"") != pinned[1]:
            await client.close()
            pem = ssl.DER_cert_to_PEM_cert(der) if der else ""
            raise CertificateNotTrusted(address, certificate_fingerprint(der or b""), pem, True)
    client.known_relays, client.address = known, address
    return client


# ---- a headless player (two terminals: relay and clients) ------------------------------------


def steady_choice(table: Table, seat: int) -> Choice:
    """10 on each line at come-out (when affordable); keep everything in the point phase."""
    if table.phase is Phase.COME_OUT:
        return Choice(10, 10) if table.balance(seat) >= 20 else Choice(0, 0)
    contracts = table.contracts(seat)
    return Choice(contracts.pass_amount, contracts.dont_pass_amount)


async def play(
    client: RelayClient,
    choose: Callable[[Table, int], Choice] = steady_choice,
    on_event: Callable[[ClientEvent], None] | None = None,
    timeout: float = 900.0,
) -> Peer:
    """Commit ``choose``'s choice at every round until the session is over; returns the peer."""
    async with asyncio.timeout(timeout):
        async for event in client.events():
            if on_event is not None:
                on_event(event)
            peer = client.peer
            if isinstance(event, RoundOpened) and peer is not None and not peer.is_finished:
                client.commit(choose(peer.table, peer.seat))
    return client._live_peer()
