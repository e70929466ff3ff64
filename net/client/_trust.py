"""Trust on first use for relays: the relay's signing key and its TLS certificate, pinned.

A small known-relays file (``known-relays.json`` in a data folder the caller passes in) keeps,
per relay address (``wss://host:port`` or ``ws://host:port``), the relay's Ed25519 public key
and, for ``wss://``, its certificate (PEM, and its SHA-256 fingerprint)::

    {"relays": {"wss://192.168.1.20:8765": {"relay_key": "<64 hex>",
                                           "certificate": "-----BEGIN ...", "sha256": "<64 hex>"}}}

Each relay key is kept with the day it was pinned (``relay_key_pinned``, ``YYYY-MM-DD``, UTC), and
a key that was replaced (an accepted change, or a hosted table's new certificate) moves to
``former_keys`` ("HEX@DAY HEX@DAY"): never deleted, so ``pointline verify`` can still name the
relay that signed an old session's roster (``pinned_keys``). Files written before these fields
existed are read as they are (a key without a day was pinned "before").

Relay key: the first ``signed_in`` that carries the relay's key pins it; a later one with
another key raises ``RelayKeyChanged(address, old, new)`` (and keeps raising for rooms) until
the player accepts it (``RelayClient.accept_relay_key()``, or ``KnownRelays.pin_relay_key``).
Every ``started`` roster is then checked against the pinned key during play: a roster the
pinned key did not sign never starts a session.

Certificate: ``net.client._relay_client.connect_trusted`` connects as ``RelayClient.connect`` does
(the system's trust store); a certificate it refuses raises ``CertificateNotTrusted`` with the
certificate's fingerprint, for a screen to show ("Trust this relay's certificate"); once the
player accepts (``KnownRelays.pin_certificate``), connections to that address trust exactly
that certificate.

Hosted tables (``net.discovery``, ``net.hosting``): ``KnownTables`` (``known-tables.json``) pins
a table's certificate per host name by the fingerprint its announcement carries. ``check`` says
``FIRST_VISIT``, ``KNOWN`` (join asking nothing) or ``CHANGED`` (``TableCertificateChanged``:
never joined until the player's explicit ``KnownTables.trust``); a table whose answer does not
match its own announcement raises ``AnnouncementMismatch`` and is never trusted.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import enum
import json
import os
import ssl
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

from pointline.net.client._connection import unreachable_words
from pointline.net.errors import ClientCode, ClientError, RosterError
from pointline.net.hostcert import certificate_fingerprint
from pointline.net.protocol._keys import public_key_from_hex, verify_signature

__all__ = [
    "KNOWN_RELAYS_FILE",
    "KNOWN_TABLES_FILE",
    "UNENCRYPTED",
    "AnnouncementMismatch",
    "CertificateNotTrusted",
    "KnownRelays",
    "KnownTables",
    "PinnedKey",
    "RelayKeyChanged",
    "TableCertificateChanged",
    "TableCheck",
    "TableTrust",
    "certificate_fingerprint",
    "connection_warning",
    "fetch_certificate",
    "pinned_keys",
    "pinned_tls_context",
    "relay_address",
    "table_relay_address",
]

KNOWN_RELAYS_FILE = "known-relays.json"
MAX_FILE_BYTES = 1 << 20


class RelayKeyChanged(ClientError):
    """The relay at ``address`` signs with ``new``, not the key ``old`` pinned at first contact
    (both 64 hex digits). Show it as a warning the player must accept before playing on."""

    def __init__(self, address: str, old: str, new: str) -> None:
        super().__init__(
            ClientCode.RELAY_KEY_CHANGED,
            f"The relay at {address} now signs with a different key than the first time you "
            "used it. Someone may be standing in for it. Play on only if its owner says it "
            "changed.",
        )
        self.address, self.old, self.new = address, old, new


class CertificateNotTrusted(ClientError):
    """The relay's certificate is not in the trust store nor the one pinned for ``address``:
    ``fingerprint`` is its SHA-256 (64 hex digits) and ``pem`` the certificate, for the player
    to accept (``KnownRelays.pin_certificate(address, pem)``) or not."""

    def __init__(self, address: str, fingerprint: str, pem: str, changed: bool = False) -> None:
        what = (
            "now shows another certificate than the one you trusted"
            if changed
            else "uses a certificate this device does not know"
        )
        super().__init__(
            ClientCode.CERTIFICATE,
            f"The relay at {address} {what}. Trust it only if its owner reads you the same "
            f"fingerprint: {spaced(fingerprint)}.",
        )
        self.address, self.fingerprint, self.pem = address, fingerprint, pem
        self.changed = changed
        """True when another certificate was pinned for this address before."""


def spaced(fingerprint: str) -> str:
    """A fingerprint as people read it out: groups of four hex digits."""
    return " ".join(fingerprint[i : i + 4] for i in range(0, len(fingerprint), 4))


def relay_address(url: str) -> str:
    """The key a relay is known by: scheme, host and port of its URL (lowercase)."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "wss" else 80)
    return f"{parts.scheme.lower()}://{(parts.hostname or '').lower()}:{port}"


UNENCRYPTED: Final = (
    "This connection is not encrypted (ws://): anyone on the network can read it, your "
    "password too. Use a wss:// address where you can."
)


def connection_warning(url: str) -> str | None:
    """Plain words for an address that is not encrypted (``ws://``); None for ``wss://``."""
    return UNENCRYPTED if url.strip().lower().startswith("ws://") else None


class _PinFile:
    """One small JSON file of pins, ``{member: {name: {field: text}}}``: read on each call (a
    damaged file is a typed ``ClientError`` in plain words, never a traceback), written
    atomically. ``KnownRelays`` and ``KnownTables`` each keep one."""

    def __init__(self, path: Path, member: str, required: str | None = None) -> None:
        self.path = path
        self.member = member
        self.required = required

    def load(self) -> dict[str, dict[str, str]]:
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise self._bad(f"it cannot be read ({exc.strerror})") from None
        if len(data) > MAX_FILE_BYTES:
            raise self._bad("it is too large")
        try:
            doc = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise self._bad("it is not JSON") from None
        entries = doc.get(self.member) if isinstance(doc, dict) else None
        if not isinstance(entries, dict) or not all(
            isinstance(v, dict)
            and all(isinstance(x, str) for x in v.values())
            and (self.required is None or isinstance(v.get(self.required), str))
            for v in entries.values()
        ):
            raise self._bad(f"it does not list {self.member}")
        return entries

    def save(self, entries: dict[str, dict[str, str]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.stem}.")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump({self.member: entries}, handle, indent=1, sort_keys=True)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise self._bad(f"it cannot be written ({exc.strerror})") from None

    def _bad(self, why: str) -> ClientError:
        return ClientError(
            ClientCode.BAD_TRUST_FILE,
            f"The list of known {self.member} ({self.path}) is damaged: {why}.",
        )


class KnownRelays:
    """The known-relays file in ``folder`` (read on each call, written atomically)."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.path = Path(folder) / KNOWN_RELAYS_FILE
        self._file = _PinFile(self.path, "relays")

    def _load(self) -> dict[str, dict[str, str]]:
        return self._file.load()

    def _save(self, relays: dict[str, dict[str, str]]) -> None:
        self._file.save(relays)

    def _get(self, address: str, field: str) -> str | None:
        return self._load().get(address, {}).get(field)

    def _set(self, address: str, **fields: str) -> None:
        relays = self._load()
        relays[address] = {**relays.get(address, {}), **fields}
        self._save(relays)

    def relay_key(self, address: str) -> str | None:
        """The relay key pinned for ``address`` (64 hex digits), or None."""
        return self._get(address, "relay_key")

    def pin_relay_key(self, address: str, key_hex: str) -> None:
        """Pin (or, once the player accepted a change, re-pin) the relay's key; a key pinned
        before for ``address`` moves to its ``former_keys`` (old sessions still verify)."""
        public_key_from_hex(key_hex)  # RosterError unless 64 lowercase hex digits
        relays = self._load()
        entry = dict(relays.get(address, {}))
        if entry.get("relay_key") == key_hex:
            return
        _retire_key(entry)
        entry.update(relay_key=key_hex, relay_key_pinned=_today())
        relays[address] = entry
        self._save(relays)

    def retire_relay_key(self, address: str) -> None:
        """The relay at ``address`` was reinstalled (a hosted table's new certificate): its key
        is no longer expected, but kept in ``former_keys`` for the sessions it signed."""
        relays = self._load()
        entry = dict(relays.get(address, {}))
        if "relay_key" in entry:
            _retire_key(entry)
            relays[address] = entry
            self._save(relays)

    def check_relay_key(self, address: str, key_hex: str) -> None:
        """Pin ``key_hex`` on first use; raise ``RelayKeyChanged`` if another one is pinned."""
        pinned = self.relay_key(address)
        if pinned is None:
            self.pin_relay_key(address, key_hex)
        elif pinned != key_hex:
            raise RelayKeyChanged(address, pinned, key_hex)

    def roster_signed(self, address: str, signature: bytes, data: bytes) -> bool | None:
        """Whether the pinned key signed ``data``; None when no key is pinned for ``address``."""
        pinned = self.relay_key(address)
        if pinned is None:
            return None
        return verify_signature(bytes.fromhex(pinned), signature, data)

    def certificate(self, address: str) -> tuple[str, str] | None:
        """The pinned certificate of ``address``: (PEM, SHA-256 fingerprint), or None."""
        entry = self._load().get(address, {})
        pem, sha = entry.get("certificate"), entry.get("sha256")
        return None if pem is None or sha is None else (pem, sha)

    def pin_certificate(self, address: str, pem: str) -> str:
        """Trust ``pem`` for ``address`` from now on; returns its fingerprint."""
        try:
            der = ssl.PEM_cert_to_DER_cert(pem)
        except ValueError:
            raise ClientError(ClientCode.BAD_CA, "That is not a certificate.") from None
        fingerprint = certificate_fingerprint(der)
        self._set(address, certificate=pem, sha256=fingerprint)
        return fingerprint


def _today() -> str:
    return datetime.datetime.now(datetime.UTC).date().isoformat()


def _retire_key(entry: dict[str, str]) -> None:
    """Move ``entry``'s relay key (with its day) to its ``former_keys``."""
    key = entry.pop("relay_key", None)
    day = entry.pop("relay_key_pinned", "")
    if key is not None:
        former = entry.get("former_keys", "").split()
        entry["former_keys"] = " ".join([*former, f"{key}@{day}"])


@dataclass(frozen=True, slots=True)
class PinnedKey:
    """A relay key this app has pinned: ``key`` (32 bytes), whose it is (``owner``: "hostana's
    table" or "the relay at wss://…"), the day it was pinned (None in a file from before days
    were kept) and whether it is still the relay's current key."""

    key: bytes
    owner: str
    pinned_on: str | None
    current: bool = True


def pinned_keys(folder: str | os.PathLike[str]) -> list[PinnedKey]:
    """Every relay key pinned in ``folder``'s ``known-relays.json``: current keys first, then
    former ones. A damaged file is a ``ClientError``; a malformed key in it is skipped."""
    current: list[PinnedKey] = []
    former: list[PinnedKey] = []
    for address, entry in sorted(KnownRelays(folder)._load().items()):
        owner = (
            f"{address.removeprefix('table:')}'s table"
            if address.startswith("table:")
            else f"the relay at {address}"
        )
        found: list[tuple[str | None, str | None, bool]] = [
            (entry.get("relay_key"), entry.get("relay_key_pinned"), True)
        ]
        for item in entry.get("former_keys", "").split():
            key_hex, _, day = item.partition("@")
            found.append((key_hex, day, False))
        for hex_text, pinned_on, now in found:
            if hex_text is None:
                continue
            try:
                raw = public_key_from_hex(hex_text)
            except RosterError:
                continue
            (current if now else former).append(PinnedKey(raw, owner, pinned_on or None, now))
    return current + former


def pinned_tls_context(pem: str) -> ssl.SSLContext:
    """TLS settings that trust exactly the certificate ``pem`` (as its own trust anchor, so a
    self-signed or unknown-issuer certificate works; the name is not checked: the pin is)."""
    context = ssl.create_default_context(cadata=pem)
    context.check_hostname = False
    context.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN
    return context


async def fetch_certificate(url: str, timeout: float = 10.0) -> tuple[str, str]:
    """The certificate the relay at ``url`` presents, unverified: (PEM, fingerprint). Only for
    showing it to the player; nothing is sent over that connection."""
    parts = urlsplit(url)
    host, port = parts.hostname or "", parts.port or 443
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    try:
        async with asyncio.timeout(timeout):
            _, writer = await asyncio.open_connection(host, port, ssl=context)
    except (OSError, TimeoutError, ssl.SSLError) as exc:
        why = unreachable_words(exc, timeout)
        words = f"Cannot reach the relay at {url}: {why}."
        raise ClientError(ClientCode.UNREACHABLE, words) from exc
    try:
        sslobj: Any = writer.get_extra_info("ssl_object")
        der = sslobj.getpeercert(binary_form=True) if sslobj is not None else None
    finally:
        writer.close()
        with contextlib.suppress(OSError, ssl.SSLError):
            await writer.wait_closed()
    if not der:
        raise ClientError(ClientCode.CERTIFICATE, f"The relay at {url} showed no certificate.")
    return ssl.DER_cert_to_PEM_cert(der), certificate_fingerprint(der)


# ---- hosted tables found nearby (net.discovery): pinned by the announced fingerprint ---------

KNOWN_TABLES_FILE = "known-tables.json"


class TableTrust(enum.Enum):
    """What this device knows of a table's certificate (``KnownTables.check``)."""

    FIRST_VISIT = "first_visit"
    """No certificate is pinned for this host: show the words; joining pins it."""
    KNOWN = "known"
    """The announced certificate is the one pinned: join, asking nothing."""
    CHANGED = "changed"
    """Another certificate was pinned for this host: a reinstall, or someone standing in for
    it. Never joined until the player says so (``KnownTables.trust``)."""


@dataclass(frozen=True, slots=True)
class TableCheck:
    outcome: TableTrust
    host: str
    fingerprint: str
    """The announced certificate's SHA-256."""
    pinned: str | None
    """The pinned one (None on a first visit)."""


class TableCertificateChanged(ClientError):
    """The host ``host`` announces (or shows) certificate ``new``, not the pinned ``old``.
    Show "this table's certificate changed" with the new words; only the player's explicit
    ``KnownTables.trust(host, new)`` lets the device join it."""

    def __init__(self, host: str, old: str, new: str) -> None:
        super().__init__(
            ClientCode.TABLE_CERTIFICATE_CHANGED,
            f"The table of {host} shows another certificate than the one you trusted before. "
            "Join only if the host's screen shows the same words.",
        )
        self.host, self.old, self.new = host, old, new


class AnnouncementMismatch(ClientError):
    """The table answering at the announced address shows another certificate than its
    announcement names: never trusted (a forged or stale announcement)."""

    def __init__(self, host: str, announced: str, shown: str) -> None:
        super().__init__(
            ClientCode.ANNOUNCEMENT_MISMATCH,
            f"The table announced as {host}'s does not show the certificate it announced; "
            "it was not joined.",
        )
        self.host, self.announced, self.shown = host, announced, shown


def table_relay_address(host: str) -> str:
    """The key under which a hosted table's relay key is pinned in ``KnownRelays`` (the host,
    not its address: addresses on a home network change)."""
    return f"table:{host.casefold()}"


class KnownTables:
    """Certificates of hosted tables, pinned per host name (``known-tables.json`` in ``folder``,
    read on each call, written atomically; entries ``{"sha256": ..., "certificate": PEM}``)."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self.path = self.folder / KNOWN_TABLES_FILE
        self._file = _PinFile(self.path, "tables", required="sha256")

    def _load(self) -> dict[str, dict[str, str]]:
        return self._file.load()

    def _save(self, tables: dict[str, dict[str, str]]) -> None:
        self._file.save(tables)

    def pinned(self, host: str) -> tuple[str, str | None] | None:
        """The pinned (fingerprint, PEM or None) of ``host``'s table, or None."""
        entry = self._load().get(host.casefold())
        return None if entry is None else (entry["sha256"], entry.get("certificate"))

    def check(self, host: str, fingerprint: str) -> TableCheck:
        """Whether ``host``'s announced ``fingerprint`` is new, the pinned one, or changed."""
        pinned = self.pinned(host)
        if pinned is None:
            return TableCheck(TableTrust.FIRST_VISIT, host, fingerprint, None)
        outcome = TableTrust.KNOWN if pinned[0] == fingerprint else TableTrust.CHANGED
        return TableCheck(outcome, host, fingerprint, pinned[0])

    def trust(self, host: str, fingerprint: str, pem: str | None = None) -> None:
        """Pin ``fingerprint`` (and the certificate ``pem`` once fetched) for ``host``: on a
        first visit, or the player's explicit "trust the new one" after a change. A new
        certificate retires the relay key pinned for that table (it was reinstalled): a new
        key is pinned at the next sign-in; the old one stays in ``former_keys``."""
        if pem is not None:
            try:
                der = ssl.PEM_cert_to_DER_cert(pem)
            except ValueError:
                raise ClientError(ClientCode.BAD_CA, "That is not a certificate.") from None
            if certificate_fingerprint(der) != fingerprint:
                raise ClientError(ClientCode.BAD_CA, "That certificate has another fingerprint.")
        tables = self._load()
        key = host.casefold()
        before = tables.get(key, {})
        if before.get("sha256") != fingerprint:
            before = {}
            KnownRelays(self.folder).retire_relay_key(table_relay_address(host))
        entry = {**before, "sha256": fingerprint}
        if pem is not None:
            entry["certificate"] = pem
        tables[key] = entry
        self._save(tables)

    def forget(self, host: str) -> None:
        """Forget ``host``'s table (its next announcement is a first visit)."""
        tables = self._load()
        if tables.pop(host.casefold(), None) is not None:
            self._save(tables)
