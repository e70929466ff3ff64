"""A guest joins a table found nearby: the pinned certificate, the kept token, one tap.

The tables-nearby list (``net.discovery.TableBrowser``) gives a ``NearbyTable``; then

    check = known_tables.check(table.announcement.host, table.announcement.fingerprint)
    # FIRST_VISIT: show the four words (net.hostcert.certificate_words) and a Join button
    # KNOWN: join at once; CHANGED: "this table's certificate changed", the new words, and
    #        an explicit "Trust the new one" (known_tables.trust(host, new)) - never silent
    client = await connect_table(table, known_tables)     # wss://, exactly that certificate
    room = await enter_table(client, table, tokens)        # returning guest: the kept token
    room = await enter_table(client, table, tokens, name, password, signup=True)  # first time

``connect_table`` fetches the certificate the table shows (nothing is sent on that connection),
refuses it unless its fingerprint is the announced one (``AnnouncementMismatch``), pins it on a
first visit, then connects with TLS settings that accept exactly that certificate. The guest's
token for each host (never the password) is kept in ``guest-tokens.json`` (0600) in the data
folder, so the next game night is one tap. Typed ``ws://`` addresses still connect, with
``UNENCRYPTED`` said plainly (``connection_warning``).

This module loads no relay code (a guest's app never needs it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from pathlib import Path
from typing import Any, Final

from pointline.net import paths
from pointline.net.client._relay_client import RelayClient
from pointline.net.client._trust import (
    UNENCRYPTED,
    AnnouncementMismatch,
    KnownRelays,
    KnownTables,
    TableCertificateChanged,
    TableTrust,
    certificate_fingerprint,
    connection_warning,
    fetch_certificate,
    pinned_tls_context,
    table_relay_address,
)
from pointline.net.discovery import NearbyTable
from pointline.net.errors import ClientCode, ClientError, NetError
from pointline.net.hostcert import write_private
from pointline.net.protocol._wire import ErrorCode, RoomJoined

__all__ = [
    "GUEST_TOKENS_FILE",
    "UNENCRYPTED",
    "GuestTokens",
    "SignInNeeded",
    "connect_table",
    "connection_warning",
    "enter_table",
    "forget_table",
]

GUEST_TOKENS_FILE: Final = "guest-tokens.json"


class SignInNeeded(ClientError):
    """Ask for the password once: ``expired`` when the relay no longer accepts the kept token
    (unused for longer than the table keeps sign-ins), else no sign-in is kept for this table
    (a first visit, or the player chose "Forget this table": never called expired)."""

    def __init__(self, host: str, expired: bool = False) -> None:
        super().__init__(
            ErrorCode.BAD_TOKEN,
            f"Your sign-in at {host}'s table has expired: type your password once to come back."
            if expired
            else f"Sign in to {host}'s table with your name and password.",
        )
        self.host, self.expired = host, expired


class GuestTokens:
    """The relay tokens a guest keeps per host (``guest-tokens.json`` in ``folder``, 0600):
    ``{"tokens": {host: {"name": ..., "token": ..., "sha256": certificate}}}``. Never a
    password."""

    def __init__(self, folder: str | os.PathLike[str] | None = None) -> None:
        self.folder = Path(folder) if folder is not None else paths.data_dir()
        self.path = self.folder / GUEST_TOKENS_FILE

    def _load(self) -> dict[str, dict[str, str]]:
        try:
            doc: Any = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # none kept, or damaged: the guest signs in with the password once
        tokens = doc.get("tokens") if isinstance(doc, dict) else None
        if not isinstance(tokens, dict):
            return {}
        return {
            k: v
            for k, v in tokens.items()
            if isinstance(v, dict)
            and isinstance(v.get("name"), str)
            and isinstance(v.get("token"), str)
        }

    def _save(self, tokens: dict[str, dict[str, str]]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            write_private(self.path, json.dumps({"tokens": tokens}, indent=1).encode("utf-8"))
        except OSError as exc:
            raise ClientError(
                ClientCode.BAD_TRUST_FILE,
                f"The sign-in for next time cannot be kept ({exc.strerror or 'refused'}).",
            ) from None

    def get(self, host: str, fingerprint: str) -> tuple[str, str] | None:
        """(name, token) kept for ``host``'s table with the certificate ``fingerprint``, or None:
        a token is only ever sent back to the certificate it came from (after the player trusts
        a changed certificate, the guest signs in again)."""
        entry = self._load().get(host.casefold())
        if entry is None or entry.get("sha256") != fingerprint:
            return None
        return entry["name"], entry["token"]

    def put(self, host: str, fingerprint: str, name: str, token: str) -> None:
        tokens = self._load()
        tokens[host.casefold()] = {"name": name, "token": token, "sha256": fingerprint}
        self._save(tokens)

    def forget(self, host: str) -> None:
        tokens = self._load()
        if tokens.pop(host.casefold(), None) is not None:
            self._save(tokens)


async def connect_table(table: NearbyTable, known: KnownTables, **options: Any) -> RelayClient:
    """Connect to a nearby table over ``wss://`` trusting exactly its pinned certificate.

    ``TableCertificateChanged`` when another certificate is pinned for its host (until the
    player's explicit ``known.trust``), ``AnnouncementMismatch`` when the table shows another
    certificate than it announces; a first visit pins the announced one."""
    ann = table.announcement
    if ann.kind != "table" or ann.fingerprint is None:
        raise ClientError(ClientCode.CERTIFICATE, "That is not a hosted table.")
    check = known.check(ann.host, ann.fingerprint)
    if check.outcome is TableTrust.CHANGED:
        assert check.pinned is not None
        raise TableCertificateChanged(ann.host, check.pinned, ann.fingerprint)
    pinned = known.pinned(ann.host)
    pem = pinned[1] if pinned is not None else None
    if pem is None:
        pem, shown = await fetch_certificate(table.url)
        if shown != ann.fingerprint:
            raise AnnouncementMismatch(ann.host, ann.fingerprint, shown)
        known.trust(ann.host, ann.fingerprint, pem)
    client = await RelayClient.connect(table.url, ssl_context=pinned_tls_context(pem), **options)
    sslobj = client.ws.transport.get_extra_info("ssl_object")
    der = sslobj.getpeercert(binary_form=True) if sslobj is not None else b""
    if certificate_fingerprint(der or b"") != ann.fingerprint:  # (the context already checked)
        await client.close()
        shown = certificate_fingerprint(der or b"")
        raise AnnouncementMismatch(ann.host, ann.fingerprint, shown)
    client.known_relays = KnownRelays(known.folder)
    client.address = table_relay_address(ann.host)
    client.host = ann.host
    return client


async def enter_table(
    client: RelayClient,
    table: NearbyTable,
    tokens: GuestTokens,
    name: str | None = None,
    password: str | None = None,
    signup: bool = False,
) -> RoomJoined:
    """Sign in and take a seat at ``table``: with the kept token when no password is given
    (``SignInNeeded`` if it is no longer valid), else with ``name`` and ``password`` (signing
    up first when ``signup``); the new token is kept for next time."""
    host, fingerprint = table.announcement.host, table.announcement.fingerprint or ""
    if password is None:
        kept = tokens.get(host, fingerprint)
        if kept is None:
            raise SignInNeeded(host)
        client.name, client.token = kept
        try:
            return await client.join_room(table.announcement.room)
        except ClientError as exc:
            if exc.code != ErrorCode.BAD_TOKEN:
                raise
            client.name = client.token = None
            tokens.forget(host)
            raise SignInNeeded(host, expired=True) from None
    if name is None:
        raise ClientError("bad_name", "Type your name.")
    if signup:
        try:
            token = await client.signup(name, password)
        except ClientError as exc:
            if exc.code != ErrorCode.NAME_TAKEN:
                raise
            token = await client.signin(name, password)
    else:
        token = await client.signin(name, password)
    tokens.put(host, fingerprint, client.name or name, token)
    return await client.join_room(table.announcement.room)


async def forget_table(client: RelayClient | None, host: str, tokens: GuestTokens) -> None:
    """The player's explicit "Forget this table": the kept sign-in is cancelled at the table's
    relay when ``client`` is connected there (best effort: a table that is gone cannot be told)
    and deleted here. Only the token: the certificate pin and the relay's key stay (in
    ``known-tables.json`` and ``known-relays.json``), so the sessions played there still verify
    and the table's next announcement is not a first visit. Leaving, closing or going back to
    the solo table never calls this."""
    if client is not None and client.token is not None and not client.closed.is_set():
        with contextlib.suppress(ClientError, NetError, OSError, TimeoutError):
            await asyncio.wait_for(client.signout(), 3.0)
    tokens.forget(host)
