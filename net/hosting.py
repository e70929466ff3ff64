"""Host a table from the app: the relay in the app's own event loop, one room, announced nearby.

``HostedTable`` runs the same relay as ``pointline-relay``
(``net.relay._server.running_relay``, every limit and deadline on) inside the caller's asyncio
loop (the app's qasync loop), ``wss://`` only with the host's kept certificate
(``net.hostcert``), on the address and port the host chose.
It holds exactly one room, the host's table, with the host in seat 1 (the protocol's seat 0):
nobody else can open a room there. Its accounts and relay key live in the app's data folder
(``data_dir()/host/relay.sqlite3``); the host's account is made on first hosting with a
generated password kept there (``host-account.json``, 0600): the host never types one. The table
is announced by mDNS (``net.discovery``) with its name, the host's name, seats taken (updated as
people come and go), the room's join code and the certificate's fingerprint.

    table = HostedTable("Kitchen table", "alice", "192.168.1.20")
    await table.open()          # relay up, host seated, announced
    table.words                 # the certificate's four words, for the host screen
    table.seats / on_seats      # who is in
    await table.start()         # the host's Start (2-8 seated)
    ... play through table.client (a RelayClient), as any online seat ...
    await table.close()         # the host's signed departure first, then the relay stops

A guest's sign-in at a hosted table lasts (``HOSTED_TOKEN_TTL``, 90 days) and slides: each use
extends it on the relay's side, so a guest of weekly or monthly game nights comes back with one
tap for as long as they keep coming, and a sign-in unused for 90 days lapses (the guest types the
password once). A club relay (``pointline-relay``) keeps its operator's ``--token-ttl``.

This module imports the relay (and argon2): the app loads it only when a player hosts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import ssl
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

from pointline.net.client._relay_client import RelayClient, SessionStarted
from pointline.net.client._trust import pinned_tls_context
from pointline.net.discovery import Announcement, Announcer, check_addresses, with_seats
from pointline.net.errors import ClientError, NetCode, NetError
from pointline.net.hostcert import (
    HostCertificate,
    HostCertificateError,
    ensure_host_certificate,
    host_dir,
    write_private,
)
from pointline.net.protocol._wire import NAME_RULE, CreateRoom, ErrorCode, WireError
from pointline.net.relay._accounts import Accounts, HashParams
from pointline.net.relay._rooms import Room
from pointline.net.relay._server import Connection, Relay, RelayConfig, RunningRelay, running_relay

__all__ = [
    "ACCOUNT_FILE",
    "HOSTED_HASH",
    "HOSTED_TOKEN_TTL",
    "RELAY_DB",
    "HostRelay",
    "HostedTable",
    "HostingError",
    "host_account",
]

log = logging.getLogger("pointline.hosting")

RELAY_DB: Final = "relay.sqlite3"
ACCOUNT_FILE: Final = "host-account.json"
HOSTED_HASH: Final = HashParams(time_cost=2, memory_cost=19456, parallelism=1)
"""The hosted relay's argon2id cost: OWASP's recommended minimum (19 MiB, 2 passes, 1 lane),
not a public relay's RFC 9106 default (64 MiB, 3 passes, 4 lanes). The host is often a phone:
a sign-up there must stay under 1 s on a quarter of a core, and a few at once must not take
hundreds of MiB. Measured with ``python -m bench host --cpu-quota 0.25``: ~31 ms of CPU per hash
here (the default costs ~220 ms, about a second of wall time under that quota). The accounts
guard one table on a home network, and the sign-in limits still apply."""
HOSTED_TOKEN_TTL: Final = 90 * 86400.0
"""Seconds a guest's sign-in at a hosted table lives after its last use: game nights are
weekly or monthly, so three months covers a missed one or two; longer keeps a lost phone's
sign-in alive for no gain."""
LEAVE_WAIT: Final = 5.0
"""Seconds the relay is given to pass the host's departure on before it stops."""


class HostingError(NetError, code=NetCode.HOSTING):
    """The table could not be hosted (``text`` in plain words for the host screen)."""


def host_account(folder: Path, name: str) -> tuple[str, bool]:
    """The host's generated password for ``name`` (made and kept, 0600, the first time) and
    whether the account still has to be made on the relay."""
    path = folder / ACCOUNT_FILE
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        doc = None
    accounts = doc.get("accounts") if isinstance(doc, dict) else None
    if not isinstance(accounts, dict):
        accounts = {}
    password = accounts.get(name)
    if isinstance(password, str) and password:
        return password, False
    password = secrets.token_urlsafe(24)
    accounts[name] = password
    write_private(path, json.dumps({"accounts": accounts}, indent=1).encode("utf-8"))
    return password, True


class HostRelay(Relay):
    """The relay of a hosted table: one room only (the host's, created first), and a callback
    whenever its seats change."""

    def __init__(self, accounts: Accounts, config: RelayConfig | None = None, **kw: Any) -> None:
        super().__init__(accounts, config, **kw)
        self.on_change: Callable[[], None] | None = None
        self.host_conn: int | None = None
        self.host_left = asyncio.Event()

    async def dispatch(self, conn: Connection, frame: Any) -> None:
        if isinstance(frame, CreateRoom) and len(self.rooms) > 0:
            raise WireError(ErrorCode.NOT_CREATOR, "this table has its room: join it")
        was_empty = len(self.rooms) == 0
        await super().dispatch(conn, frame)
        if isinstance(frame, CreateRoom) and was_empty:
            self.host_conn = conn.id
        self._changed()

    def host_of(self, room: Room) -> str | None:
        """The host (its room's creator) vouches for the names: the started roster says so,
        signed (ONLINE.md §2, §8)."""
        return room.creator

    def _leave(self, conn: Connection) -> None:
        super()._leave(conn)
        if conn.id == self.host_conn:
            self.host_left.set()
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()


class HostedTable:
    """One hosted table (see the module's text). ``on_seats(n)`` is called in the loop each time
    the number of people seated changes."""

    def __init__(
        self,
        table_name: str,
        host_name: str,
        address: str,
        port: int = 0,
        *,
        folder: str | Path | None = None,
        config: RelayConfig | None = None,
        announce: bool = True,
        on_seats: Callable[[int], None] | None = None,
    ) -> None:
        if not NAME_RULE.fullmatch(host_name):
            raise HostingError("A player name is 3-24 letters, digits, '_' or '-' (no spaces).")
        try:
            self.address = check_addresses([address])[0]
        except ValueError as exc:
            raise HostingError(f"Choose the network to host on: {exc}.") from None
        self.announcement = Announcement(
            "table", table_name, "0" * 64, host=host_name, seats=1, room="AAAAAA"
        )  # checks the table's name at once (BadAnnouncement); the real values come at open
        self.table_name, self.host_name, self.port = table_name, host_name, port
        self.folder = folder
        self.config = replace(
            config or RelayConfig(hash_params=HOSTED_HASH),
            token_ttl=HOSTED_TOKEN_TTL,
            token_slides=True,
        )  # the hosted relay's sign-ins always slide (a test sets a short life after this)
        self.announce = announce
        self.on_seats = on_seats
        self.certificate: HostCertificate | None = None
        self.client: RelayClient | None = None
        self.running: RunningRelay | None = None
        self.code = ""
        self.seats = 0
        self._announcer: Announcer | None = None
        self._stack = contextlib.AsyncExitStack()
        self._seats_changed = asyncio.Event()
        self._updater: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return "" if self.running is None else self.running.url

    @property
    def fingerprint(self) -> str:
        return "" if self.certificate is None else self.certificate.fingerprint

    @property
    def words(self) -> tuple[str, ...]:
        """The certificate's four words, for the host screen (guests compare them)."""
        return () if self.certificate is None else self.certificate.words

    @property
    def relay(self) -> HostRelay:
        assert self.running is not None and isinstance(self.running.relay, HostRelay)
        return self.running.relay

    async def __aenter__(self) -> HostedTable:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def open(self) -> None:
        """Start the relay, seat the host (signing up the first time) and announce the table.
        ``HostingError`` in plain words if any step fails (nothing is left running)."""
        try:
            await self._open()
        except BaseException:
            await self._shutdown()
            raise

    async def _open(self) -> None:
        try:
            folder = await asyncio.to_thread(host_dir, self.folder)
            self.certificate = await asyncio.to_thread(ensure_host_certificate, folder)
            password, new = await asyncio.to_thread(host_account, folder, self.host_name)
        except HostCertificateError as exc:
            raise HostingError(exc.text) from None
        except OSError as exc:
            raise HostingError(
                f"The app's data folder cannot be written ({exc.strerror or 'refused'})."
            ) from None
        try:
            self.running = await self._stack.enter_async_context(
                running_relay(
                    folder / RELAY_DB,
                    self.address,
                    self.port,
                    self.config,
                    self.certificate.server_context(),
                    relay_class=HostRelay,
                )
            )
        except OSError as exc:
            raise HostingError(
                f"The table cannot listen on {self.address} port {self.port} "
                f"({exc.strerror or 'refused'})."
            ) from None
        except (ssl.SSLError, WireError) as exc:
            raise HostingError(f"The table's relay cannot start ({exc}).") from None
        self.relay.on_change = self._seats_now
        try:
            client = await RelayClient.connect(
                self.url, ssl_context=pinned_tls_context(self.certificate.pem)
            )
            self.client = client
            if new:
                try:
                    await client.signup(self.host_name, password)
                except ClientError as exc:
                    if exc.code != ErrorCode.NAME_TAKEN:
                        raise
                    await client.signin(self.host_name, password)
            else:
                await client.signin(self.host_name, password)
            room = await client.create_room()
        except (ClientError, NetError) as exc:
            raise HostingError(f"The host could not take seat 1: {exc}") from None
        self.code = room.code
        self.seats = 1
        self.announcement = Announcement(
            "table",
            self.table_name,
            self.certificate.fingerprint,
            host=self.host_name,
            seats=1,
            room=self.code,
        )
        if self.announce:
            assert self.running is not None
            announcer = Announcer([self.address], self.running.port, self.announcement)
            try:
                await announcer.start()
            except (OSError, RuntimeError) as exc:
                await announcer.stop()
                raise HostingError(f"The table cannot be announced nearby ({exc}).") from None
            self._announcer = announcer
            self._updater = asyncio.get_running_loop().create_task(self._announce_seats())

    def _seats_now(self) -> None:
        relay = self.relay
        room = relay.rooms.get(self.code) if self.code else None
        seats = 0 if room is None else len(room.present())
        if seats != self.seats:
            self.seats = seats
            self._seats_changed.set()
            if self.on_seats is not None:
                self.on_seats(seats)

    async def _announce_seats(self) -> None:
        """Keep the announcement's seats taken up to date (the latest count, coalesced)."""
        while True:
            await self._seats_changed.wait()
            self._seats_changed.clear()
            announcer = self._announcer
            if announcer is not None and announcer.announcement.seats != self.seats:
                try:
                    await announcer.update(with_seats(announcer.announcement, self.seats))
                except (OSError, RuntimeError) as exc:  # the network went away: keep hosting
                    log.warning("could not update the announcement: %s", exc)

    @property
    def players(self) -> tuple[str, ...]:
        """Who is in, in seat order (the host first), for the host screen."""
        room = self.relay.rooms.get(self.code) if self.running is not None and self.code else None
        return () if room is None else tuple(m.name for m in room.present())

    async def start(self) -> SessionStarted:
        """The host's Start: the session begins with everyone seated (2-8); the announcement
        then says the table is playing (listed, no longer offered to join)."""
        if self.client is None:
            raise HostingError("The table is not open.")
        started = await self.client.start()
        announcer = self._announcer
        if announcer is not None:
            try:
                await announcer.update(replace(announcer.announcement, open=False))
            except (OSError, RuntimeError) as exc:
                log.warning("could not update the announcement: %s", exc)
        return started

    async def background(self) -> None:
        """The host's app went to the background (a phone): the session ends for everyone
        (the card), then the table closes and the relay stops."""
        client = self.client
        if client is not None and client.peer is not None and not client.peer.is_finished:
            client.background()
        await self.close()

    async def close(self) -> None:
        """Close the table: the host's departure goes through the normal client path (signed
        into the host's transcript, passed on to every guest) before the relay stops; then the
        announcement says goodbye and the relay closes every connection."""
        client = self.client
        if client is not None and self.running is not None and not client.closed.is_set():
            with contextlib.suppress(ClientError, NetError, OSError):
                if client.room is not None:
                    await client.leave()
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(LEAVE_WAIT):
                            await self.relay.host_left.wait()
        await self._shutdown()

    async def _shutdown(self) -> None:
        if self._updater is not None:
            self._updater.cancel()
            self._updater = None
        announcer, self._announcer = self._announcer, None
        if announcer is not None:
            with contextlib.suppress(OSError, RuntimeError):
                await announcer.stop()
        client, self.client = self.client, None
        if client is not None:
            await client.close()
        if self.running is not None:
            self.relay.on_change = None
        await self._stack.aclose()
        self.running = None
