"""Tables nearby: a ``_pointline._tcp`` DNS-SD service announced and browsed over mDNS.

A hosted table (``net.hosting``) and a standalone relay (``pointline-relay --announce``)
announce themselves; the app's sign-in screen browses and lists what it finds, live. Both sides
use python-zeroconf's asyncio API (pure Python, Bonjour and Avahi compatible) and always bind to
the addresses the caller names (``AsyncZeroconf(interfaces=[...])``), never zeroconf's default of
every interface: mDNS goes only onto the network the player chose.

The TXT record (every value ASCII or UTF-8, checked strictly on the way in)::

    v=1            protocol version (``PROTOCOL_VERSION``; another one is listed, not joinable)
    kind=table     a player's hosted table, or kind=relay for a standalone relay
    name=...       the table's (or relay's) name, 1-40 printable characters
    host=...       the host's player name (kind=table only; the relay's account rule)
    seats=N        seats taken, 0-8 (kind=table)
    room=ABC234    the table's join code (kind=table: guests go straight in)
    open=1         1 while the table takes seats, 0 once its session runs (kind=table)
    rooms=N        open rooms (kind=relay; joining there still takes a code)
    fp=<64 hex>    SHA-256 of the TLS certificate (required for kind=table: it serves wss://
                   only; absent for a ws:// relay)

A malformed announcement is dropped (and counted in ``TableBrowser.dropped``), never raised.

Every record is announced with a short TTL (``RECORD_TTL``, 20 s; zeroconf's defaults are 2 min
for addresses and 75 min for the rest). A browser cannot rely on the PTR record's expiry
(python-zeroconf keeps any PTR at least 1125 s, against responders that announce too short a
TTL), so ``TableBrowser`` checks that each listed table still answers: every ``RECORD_TTL / 2``
it resolves it again, which asks the network once the 20 s records have run out, and a table
that does not answer within ``RESOLVE_MS`` is gone. So a table whose host vanished without a
goodbye (a killed app, a phone off the Wi-Fi) leaves every list within about 35 s; a closing
table says goodbye and leaves at once; a fresh browser (its own empty cache) lists only the
tables that answer now. ``TableBrowser.running`` counts the browsers alive in this process
(the app keeps one, while a list is shown).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
import secrets
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Final, Literal

from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from pointline.kernel import ONLINE_SEATS_MAX
from pointline.net.errors import NetCode, NetError
from pointline.net.protocol._wire import CODE_ALPHABET, CODE_LENGTH, NAME_RULE

__all__ = [
    "PROTOCOL_VERSION",
    "SERVICE_TYPE",
    "Announcement",
    "Announcer",
    "BadAnnouncement",
    "NearbyEvent",
    "NearbyTable",
    "TableAppeared",
    "TableBrowser",
    "TableGone",
    "TableUpdated",
    "check_addresses",
    "local_addresses",
    "multicast_lock",
    "parse_txt",
    "set_multicast_lock",
    "with_seats",
]

log = logging.getLogger("pointline.discovery")

SERVICE_TYPE: Final = "_pointline._tcp.local."
PROTOCOL_VERSION: Final = 1
MAX_TABLE_NAME: Final = 40
"""Characters in a table's name (it is also the DNS-SD instance label: at most 63 bytes)."""
MAX_ROOMS: Final = 100_000
RECORD_TTL: Final = 20
"""Seconds every announced record lives (see the module's text): a vanished host is gone from
a list within about 35 s (``RECORD_TTL`` + ``RECORD_TTL / 2`` + ``RESOLVE_MS``)."""
RESOLVE_MS: Final = 3000
"""How long one announcement's details are asked for before it is given up (milliseconds)."""

Kind = Literal["table", "relay"]
_HEX64 = re.compile(r"[0-9a-f]{64}")
_COUNT = re.compile(r"0|[1-9][0-9]{0,5}")
_CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")


class BadAnnouncement(NetError, ValueError, code=NetCode.BAD_ANNOUNCEMENT):
    """A TXT record that is not a Pointline announcement, or a table name that cannot be
    announced (``text`` in plain words; also a ``ValueError``, as every check here raises)."""


def check_table_name(name: str) -> str:
    """``name`` if it is 1-40 printable characters with no leading or trailing space."""
    if (
        not isinstance(name, str)
        or not 1 <= len(name) <= MAX_TABLE_NAME
        or not name.isprintable()
        or name != name.strip()
        or len(name.encode("utf-8")) > 63
    ):
        raise BadAnnouncement(
            f"a table's name is 1-{MAX_TABLE_NAME} printable characters, no spaces at its ends"
        )
    return name


@dataclass(frozen=True, slots=True)
class Announcement:
    """What a table or a relay says about itself (the TXT record, checked)."""

    kind: Kind
    name: str
    fingerprint: str | None
    """The certificate's SHA-256 (64 lowercase hex digits); None: a ``ws://`` relay."""
    host: str = ""
    seats: int = 0
    room: str = ""
    rooms: int = 0
    version: int = PROTOCOL_VERSION
    open: bool = True
    """A table taking seats (False: its session runs; list it, do not offer to join)."""

    def __post_init__(self) -> None:
        check_table_name(self.name)
        if self.fingerprint is not None and not _HEX64.fullmatch(self.fingerprint):
            raise BadAnnouncement("a fingerprint is 64 lowercase hex digits")
        if self.kind == "table":
            if self.fingerprint is None:
                raise BadAnnouncement("a hosted table serves wss:// only: it needs fp")
            if not NAME_RULE.fullmatch(self.host):
                raise BadAnnouncement("a host's name is 3-24 letters, digits, '_' or '-'")
            if not 0 <= self.seats <= ONLINE_SEATS_MAX:
                raise BadAnnouncement(f"seats taken is 0-{ONLINE_SEATS_MAX}")
            if not _CODE.fullmatch(self.room):
                raise BadAnnouncement("a table's room is a join code")
        elif self.kind == "relay":
            if self.host or self.room or self.seats or not self.open:
                raise BadAnnouncement("a relay names no host, seats, room or state")
            if not 0 <= self.rooms <= MAX_ROOMS:
                raise BadAnnouncement("open rooms out of range")
        else:
            raise BadAnnouncement("kind is table or relay")
        if not 1 <= self.version <= 999_999:
            raise BadAnnouncement("the version is a positive number")

    @property
    def compatible(self) -> bool:
        """Whether this app speaks the announced protocol (else: list it, do not join)."""
        return self.version == PROTOCOL_VERSION

    def txt(self) -> dict[str, str]:
        """The TXT record's keys and values."""
        record = {"v": str(self.version), "kind": self.kind, "name": self.name}
        if self.fingerprint is not None:
            record["fp"] = self.fingerprint
        if self.kind == "table":
            record.update(
                host=self.host, seats=str(self.seats), room=self.room, open=str(int(self.open))
            )
        else:
            record["rooms"] = str(self.rooms)
        return record


_KEYS: Final = {
    "table": frozenset({"v", "kind", "name", "host", "seats", "room", "open", "fp"}),
    "relay": frozenset({"v", "kind", "name", "rooms", "fp"}),
}


def _count(text: str, what: str) -> int:
    if not _COUNT.fullmatch(text):
        raise BadAnnouncement(f"{what} is a whole number")
    return int(text)


def parse_txt(properties: Mapping[bytes, bytes | None]) -> Announcement:
    """The announcement in a TXT record (zeroconf's ``properties``); ``BadAnnouncement`` for
    anything else: unknown or missing keys, keys without values, bad UTF-8, bad values."""
    record: dict[str, str] = {}
    for raw_key, raw_value in properties.items():
        if not isinstance(raw_key, bytes) or not isinstance(raw_value, bytes):
            raise BadAnnouncement("every key has a value")
        try:
            key, value = raw_key.decode("ascii"), raw_value.decode("utf-8")
        except UnicodeDecodeError:
            raise BadAnnouncement("keys are ASCII, values UTF-8") from None
        record[key] = value
    kind: Kind
    match record.get("kind"):
        case "table":
            kind = "table"
        case "relay":
            kind = "relay"
        case _:
            raise BadAnnouncement("kind is table or relay")
    required = _KEYS[kind] - {"fp"}
    if not required <= record.keys() or not record.keys() <= _KEYS[kind]:
        raise BadAnnouncement(f"a {kind} announcement has exactly {', '.join(sorted(required))}")
    state = record.get("open", "1")
    if state not in ("0", "1"):
        raise BadAnnouncement("open is 0 or 1")
    return Announcement(
        kind=kind,
        open=state == "1",
        name=record["name"],
        fingerprint=record.get("fp"),
        host=record.get("host", ""),
        seats=_count(record.get("seats", "0"), "seats"),
        room=record.get("room", ""),
        rooms=_count(record.get("rooms", "0"), "rooms"),
        version=_count(record["v"], "the version"),
    )


def check_addresses(addresses: list[str]) -> list[str]:
    """The IPv4 addresses to use, as given (at least one; never a wildcard or a multicast
    address: mDNS goes onto named interfaces only). ``ValueError`` in plain words otherwise."""
    if not addresses:
        raise ValueError("name at least one address to announce or browse on")
    checked = []
    for text in addresses:
        try:
            address = ipaddress.IPv4Address(text)
        except ValueError:
            raise ValueError(f"{text!r} is not an IPv4 address") from None
        if address.is_unspecified or address.is_multicast:
            raise ValueError(f"{text} names no single interface")
        checked.append(str(address))
    return checked


def local_addresses() -> list[str]:
    """This device's IPv4 addresses other than loopback (for a screen to pick the network to
    host on: on a phone, the Wi-Fi's)."""
    import ifaddr  # zeroconf's own dependency

    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ipaddress.IPv4Address(ip.ip).is_loopback:
                found.append(ip.ip)
    return sorted(set(found))


def _zeroconf(addresses: list[str]) -> AsyncZeroconf:
    return AsyncZeroconf(interfaces=check_addresses(addresses), ip_version=IPVersion.V4Only)


class MulticastLock:
    """Held while anything announces or browses: Android drops multicast packets unless the app
    holds Wi-Fi's multicast lock. The app sets ``acquire``/``release`` at start-up on a phone
    (``set_multicast_lock``: through Qt for Python's JNI bridge; this module never imports Qt).
    Counted: the lock is taken by the first user and given back by the last."""

    def __init__(self) -> None:
        self.acquire: Callable[[], None] | None = None
        self.release: Callable[[], None] | None = None
        self.users = 0

    def take(self) -> None:
        self.users += 1
        if self.users == 1 and self.acquire is not None:
            self.acquire()

    def give_back(self) -> None:
        if self.users == 0:
            return
        self.users -= 1
        if self.users == 0 and self.release is not None:
            self.release()


multicast_lock = MulticastLock()


def set_multicast_lock(
    acquire: Callable[[], None] | None, release: Callable[[], None] | None
) -> None:
    """Give the platform's multicast lock (None, None: there is none, as on a desktop)."""
    multicast_lock.acquire, multicast_lock.release = acquire, release


class Announcer:
    """One announced service on ``addresses``: ``start``, ``update`` (e.g. seats taken),
    ``stop`` (says goodbye, so browsers drop it at once)."""

    def __init__(
        self,
        addresses: list[str],
        port: int,
        announcement: Announcement,
        record_ttl: int = RECORD_TTL,
    ) -> None:
        self.addresses = check_addresses(addresses)
        self.record_ttl = record_ttl
        if not 0 < port < 65536:
            raise ValueError("a port is 1-65535")
        self.port = port
        self.announcement = announcement
        self._server = f"pointline-{secrets.token_hex(6)}.local."
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None

    def _service(self, announcement: Announcement, name: str | None = None) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            SERVICE_TYPE,
            name or f"{announcement.name}.{SERVICE_TYPE}",
            addresses=[socket.inet_aton(a) for a in self.addresses],
            port=self.port,
            properties=announcement.txt(),
            server=self._server,
            host_ttl=self.record_ttl,
            other_ttl=self.record_ttl,
        )

    @property
    def service_name(self) -> str | None:
        """The DNS-SD instance name it got (another host's same name gets " (2)" etc.)."""
        return None if self._info is None else self._info.name

    async def start(self) -> None:
        multicast_lock.take()
        try:
            self._zc = _zeroconf(self.addresses)
        except BaseException:
            multicast_lock.give_back()
            raise
        self._info = self._service(self.announcement)
        await (await self._zc.async_register_service(self._info, allow_name_change=True))

    async def update(self, announcement: Announcement) -> None:
        """Announce new details (the same name): browsers see ``TableUpdated``."""
        self.announcement = announcement
        if self._zc is None or self._info is None:
            return
        self._info = self._service(announcement, self._info.name)
        await (await self._zc.async_update_service(self._info))

    async def stop(self) -> None:
        zc, info, self._zc, self._info = self._zc, self._info, None, None
        if zc is None:
            return
        try:
            if info is not None:
                with contextlib.suppress(OSError, RuntimeError):
                    await (await zc.async_unregister_service(info))
        finally:
            await zc.async_close()
            multicast_lock.give_back()


@dataclass(frozen=True, slots=True)
class NearbyTable:
    """A table (or relay) found nearby: where to reach it and what it says."""

    service: str
    """Its DNS-SD instance name: the key of the live list."""
    address: str
    port: int
    announcement: Announcement

    @property
    def url(self) -> str:
        scheme = "ws" if self.announcement.fingerprint is None else "wss"
        return f"{scheme}://{self.address}:{self.port}"


@dataclass(frozen=True, slots=True)
class TableAppeared:
    table: NearbyTable


@dataclass(frozen=True, slots=True)
class TableUpdated:
    table: NearbyTable


@dataclass(frozen=True, slots=True)
class TableGone:
    service: str


NearbyEvent = TableAppeared | TableUpdated | TableGone


class TableBrowser:
    """The live list of ``_pointline._tcp`` services seen on ``addresses``.

    ``tables`` is the current list (by service name); ``on_event`` is called in the event loop
    with ``TableAppeared``, ``TableUpdated`` and ``TableGone`` as hosts come, change and go.
    An announcement that does not check out is dropped (``dropped`` counts them) and a table
    that turns bad is gone."""

    running: int = 0
    """How many browsers are started and not yet stopped in this process (all instances)."""

    def __init__(
        self,
        addresses: list[str],
        on_event: Callable[[NearbyEvent], None] | None = None,
        check_every: float = RECORD_TTL / 2,
        answer_ms: int = RESOLVE_MS,
    ) -> None:
        self.addresses = check_addresses(addresses)
        self.on_event = on_event
        self.check_every = check_every
        """Seconds between two checks that each listed table still answers."""
        self.answer_ms = answer_ms
        """How long a listed table has to answer a check (milliseconds)."""
        self._checker: asyncio.Task[None] | None = None
        self.tables: dict[str, NearbyTable] = {}
        self.dropped = 0
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._changed = asyncio.Event()

    async def start(self) -> None:
        multicast_lock.take()
        try:
            self._zc = _zeroconf(self.addresses)
        except BaseException:
            multicast_lock.give_back()
            raise
        self._browser = AsyncServiceBrowser(
            self._zc.zeroconf, SERVICE_TYPE, handlers=[self._on_change]
        )
        TableBrowser.running += 1
        self._checker = asyncio.get_running_loop().create_task(self._check_alive())

    async def _check_alive(self) -> None:
        """Every ``check_every`` s, resolve each listed table again (from the cache while its
        records live, else by asking): one that does not answer is gone."""
        while True:
            await asyncio.sleep(self.check_every)
            for name in list(self.tables):
                zc = self._zc
                if zc is None:
                    return
                info = AsyncServiceInfo(SERVICE_TYPE, name)
                try:
                    found = await info.async_request(zc.zeroconf, self.answer_ms)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # zeroconf closing, the network gone
                    log.info("could not check %s: %s", name, exc)
                    found = False
                if not found:
                    self._gone(name)

    async def stop(self) -> None:
        browser, zc, self._browser, self._zc = self._browser, self._zc, None, None
        self.on_event = None  # nothing more reaches the listener, even a late resolve
        checker, self._checker = self._checker, None
        if checker is not None:
            checker.cancel()
        for task in list(self._tasks):
            task.cancel()
        if browser is not None:
            await browser.async_cancel()
        if zc is not None:
            TableBrowser.running -= 1
            await zc.async_close()
            multicast_lock.give_back()

    async def __aenter__(self) -> TableBrowser:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def wait_for(
        self, predicate: Callable[[dict[str, NearbyTable]], bool], timeout: float
    ) -> None:
        """Wait until ``predicate(tables)`` holds (``TimeoutError`` after ``timeout`` s)."""
        async with asyncio.timeout(timeout):
            while not predicate(self.tables):
                self._changed.clear()
                await self._changed.wait()

    def _on_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        if state_change is ServiceStateChange.Removed:
            self._gone(name)
            return
        task = asyncio.get_running_loop().create_task(self._resolve(name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, name: str) -> None:
        zc = self._zc
        if zc is None:
            return
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        try:
            found = await info.async_request(zc.zeroconf, RESOLVE_MS)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # zeroconf closing, a bad name, the network gone: skip it
            log.info("could not ask %s for its details: %s", name, exc)
            found = False
        if not found:
            return
        try:
            table = self._table(name, info)
        except BadAnnouncement as bad:
            self.dropped += 1
            log.info("dropped the announcement of %s: %s", name, bad.text)
            self._gone(name)
            return
        before = self.tables.get(name)
        if before == table:
            return
        self.tables[name] = table
        self._emit(TableAppeared(table) if before is None else TableUpdated(table))

    def _table(self, name: str, info: AsyncServiceInfo) -> NearbyTable:
        announcement = parse_txt(info.properties)
        addresses = info.parsed_addresses(IPVersion.V4Only)
        if not addresses or info.port is None or not 0 < info.port < 65536:
            raise BadAnnouncement("no address or port")
        # prefer an address on one of our own networks (a host may announce several)
        mine = [ipaddress.IPv4Interface(f"{a}/24").network for a in self.addresses]
        near = [a for a in addresses if any(ipaddress.IPv4Address(a) in n for n in mine)]
        return NearbyTable(name, (near or addresses)[0], info.port, announcement)

    def _gone(self, name: str) -> None:
        if self.tables.pop(name, None) is not None:
            self._emit(TableGone(name))

    def _emit(self, event: NearbyEvent) -> None:
        self._changed.set()
        if self.on_event is not None:
            try:
                self.on_event(event)
            except Exception:  # a listener's bug must not stop the browser
                log.exception("a nearby-tables listener failed")


def with_seats(announcement: Announcement, seats: int) -> Announcement:
    """The same announcement with ``seats`` taken."""
    return replace(announcement, seats=seats)
