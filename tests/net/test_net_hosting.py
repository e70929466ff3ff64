"""Hosting a table in-process (issue 32), on loopback: the relay in the test's loop, the host in
seat 1, a guest pinning the announced certificate, tokens kept, certificate changes and forged
announcements refused. (mDNS itself is tested across two network namespaces in
test_net_lan.py; these build the ``NearbyTable`` a browser would have found.)"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import os
import ssl
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pointline.net.client._trust import (
    AnnouncementMismatch,
    KnownTables,
    TableCertificateChanged,
    TableTrust,
    certificate_fingerprint,
)
from pointline.net.client._verify_command import verify_transcript
from pointline.net.discovery import (
    Announcement,
    Announcer,
    BadAnnouncement,
    NearbyEvent,
    NearbyTable,
    TableBrowser,
    parse_txt,
    set_multicast_lock,
)
from pointline.net.errors import ClientError
from pointline.net.hostcert import (
    CERTIFICATE_WORDS,
    certificate_words,
    ensure_host_certificate,
)
from pointline.net.hosting import ACCOUNT_FILE, HostedTable, HostingError
from pointline.net.joining import (
    GUEST_TOKENS_FILE,
    UNENCRYPTED,
    GuestTokens,
    SignInNeeded,
    connect_table,
    connection_warning,
    enter_table,
)
from pointline.net.protocol._events import EndReason, SessionEnded
from pointline.net.protocol._keys import WORDS
from pointline.net.protocol._verify import HOST_VOUCHES, NO_RELAY_KEY
from tests.net.support import RELAXED, play, random_chooser, relay_config, run, until


def _private(path: Path) -> bool:
    return stat.S_IMODE(os.stat(path).st_mode) == 0o600


def nearby(table: HostedTable, announcement: Announcement | None = None) -> NearbyTable:
    """What a browser finds for ``table`` (``announcement`` to forge one)."""
    assert table.running is not None
    return NearbyTable("t", "127.0.0.1", table.running.port, announcement or table.announcement)


def hosted(folder: Path, name: str = "alice") -> HostedTable:
    return HostedTable(
        "Kitchen table", name, "127.0.0.1", folder=folder, config=relay_config(), announce=False
    )


def test_certificate_kept_private_reused_and_named_apart(tmp_path: Path) -> None:
    first = ensure_host_certificate(tmp_path / "host")
    assert _private(first.cert_path) and _private(first.key_path)
    assert stat.S_IMODE(os.stat(tmp_path / "host").st_mode) == 0o700
    again = ensure_host_certificate(tmp_path / "host")
    assert again.fingerprint == first.fingerprint  # reused, not remade
    assert len(set(CERTIFICATE_WORDS)) == 256 and not set(CERTIFICATE_WORDS) & set(WORDS)
    assert all(w in CERTIFICATE_WORDS for w in first.words) and len(first.words) == 4
    first.key_path.write_text("damaged")  # a damaged key: a new certificate, not a crash
    assert ensure_host_certificate(tmp_path / "host").fingerprint != first.fingerprint
    with pytest.raises(ValueError):
        certificate_words("XYZ")


def test_the_certificate_is_a_well_formed_self_signed_ed25519_x509(tmp_path: Path) -> None:
    """The certificate pyca cryptography made reads back as the one we asked for: Ed25519,
    self-signed, v3, ten years, the pointline.local name."""
    from cryptography import x509
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    made = ensure_host_certificate(tmp_path)
    cert = x509.load_pem_x509_certificate(made.pem.encode("ascii"))
    key = cert.public_key()
    assert isinstance(key, Ed25519PublicKey)
    key.verify(cert.signature, cert.tbs_certificate_bytes)  # raises unless self-signed
    assert cert.version is x509.Version.v3 and cert.issuer == cert.subject
    now = datetime.datetime.now(datetime.UTC)
    assert cert.not_valid_before_utc < now < cert.not_valid_after_utc
    assert cert.not_valid_after_utc - now > datetime.timedelta(days=3600)
    alt = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert alt.get_values_for_type(x509.DNSName) == ["pointline.local"]
    assert certificate_fingerprint(ssl.PEM_cert_to_DER_cert(made.pem)) == made.fingerprint


@pytest.mark.parametrize("version", [ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3])
def test_python_ssl_serves_the_ed25519_certificate_in_tls_1_2_and_1_3(
    tmp_path: Path, version: ssl.TLSVersion
) -> None:
    """A guest's ``ssl`` (pinned to one TLS version) completes a handshake with the host's
    server context and sees the certificate whose fingerprint the table announces."""
    made = ensure_host_certificate(tmp_path)
    client_context = ssl.create_default_context(cadata=made.pem)
    client_context.minimum_version = client_context.maximum_version = version
    server_bios, client_bios = (
        (ssl.MemoryBIO(), ssl.MemoryBIO()),
        (ssl.MemoryBIO(), ssl.MemoryBIO()),
    )
    server = made.server_context().wrap_bio(*server_bios, server_side=True)
    client = client_context.wrap_bio(*client_bios, server_hostname="pointline.local")
    done = {"server": False, "client": False}
    for _ in range(10):  # each side answers what the other wrote, until both are through
        for side, end in (("client", client), ("server", server)):
            if not done[side]:
                try:
                    end.do_handshake()
                    done[side] = True
                except ssl.SSLWantReadError:
                    pass
        client_bios[0].write(server_bios[1].read())
        server_bios[0].write(client_bios[1].read())
        if all(done.values()):
            break
    assert all(done.values()) and client.version() == server.version()
    assert client.version() == {ssl.TLSVersion.TLSv1_2: "TLSv1.2"}.get(version, "TLSv1.3")
    assert certificate_fingerprint(client.getpeercert(binary_form=True) or b"") == made.fingerprint


def test_txt_records_are_checked_strictly() -> None:
    good = Announcement("table", "Kitchen", "ab" * 32, host="alice", seats=2, room="ABCDEF")
    txt = {k.encode(): v.encode() for k, v in good.txt().items()}
    assert parse_txt(txt) == good
    bad = [
        {**txt, b"seats": b"9"},
        {**txt, b"seats": b"01"},
        {**txt, b"fp": b"AB" * 32},
        {**txt, b"host": b"a b"},
        {**txt, b"extra": b"1"},
        {**txt, b"name": b"\xff"},
        {**txt, b"room": None},
        {k: v for k, v in txt.items() if k != b"fp"},
        {**txt, b"kind": b"printer"},
        {**txt, b"name": b" padded "},
        {**txt, b"open": b"2"},
    ]
    for record in bad:
        with pytest.raises(BadAnnouncement):
            parse_txt(record)
    relay = Announcement("relay", "Club", None, rooms=3)
    assert parse_txt({k.encode(): v.encode() for k, v in relay.txt().items()}) == relay


def test_ws_addresses_are_said_to_be_unencrypted() -> None:
    assert connection_warning("ws://192.168.1.20:8765") == UNENCRYPTED
    assert connection_warning("wss://192.168.1.20:8765") is None


def test_host_and_guest_play_a_session_then_the_guest_returns_with_one_tap(
    tmp_path: Path, data_dir: Path
) -> None:
    async def scenario() -> None:
        seats: list[int] = []
        table = hosted(tmp_path / "host")
        table.on_seats = seats.append
        async with table:
            assert table.url.startswith("wss://") and table.seats == 1
            assert _private(tmp_path / "host" / ACCOUNT_FILE)
            known, tokens = KnownTables(data_dir), GuestTokens(data_dir)
            found = nearby(table)
            assert known.check("alice", table.fingerprint).outcome is TableTrust.FIRST_VISIT
            guest = await connect_table(found, known, timeouts=RELAXED)
            room = await enter_table(guest, found, tokens, "bob", "password-123", signup=True)
            assert room.seat == 1 and room.code == table.code
            await until(lambda: table.seats == 2, what="the seat count")
            assert seats == [2] and _private(data_dir / GUEST_TOKENS_FILE)
            assert "password-123" not in (data_dir / GUEST_TOKENS_FILE).read_text()
            assert known.check("alice", table.fingerprint).outcome is TableTrust.KNOWN
            # nobody else opens a room on a hosted table
            with pytest.raises(ClientError):
                await guest.create_room()
            host = table.client
            assert host is not None
            await table.start()
            peers = await asyncio.gather(
                play(host, random_chooser(1), timeout=60),
                play(guest, random_chooser(2), timeout=60),
            )
            assert {p.result for p in peers} != {None} and len({p.result for p in peers}) == 1
            for c in (host, guest):
                assert c.transcript_path is not None
                report = verify_transcript(c.transcript_path)
                assert report.ok, report.problem
                assert report.players == NO_RELAY_KEY  # the host's mark is not checked unkeyed
                # with the host relay's key: the host vouches for the names, signed
                keyed = verify_transcript(c.transcript_path, table.relay.key.public_key)
                assert keyed.ok, keyed.problem
                assert keyed.players == (
                    f"{HOST_VOUCHES}alice, whose relay signed the roster: Seat 1 alice, Seat 2 bob"
                )
            await guest.close()
            assert guest.transcript_path is not None
            _verify_names_the_pinned_table(guest.transcript_path, data_dir, table)
            # next game night: the same guest, no password, straight back in
            await until(lambda: table.seats == 0 or table.seats == 1, what="guest gone")
        async with hosted(tmp_path / "host") as again:
            assert again.fingerprint == table.fingerprint  # the certificate was kept
            back = await connect_table(nearby(again), KnownTables(data_dir))
            room = await enter_table(back, nearby(again), GuestTokens(data_dir))
            assert room.seat == 1 and back.name == "bob"
            await back.close()

    run(scenario(), timeout=120)


def _verify_names_the_pinned_table(path: Path, data_dir: Path, table: HostedTable) -> None:
    """Finding 9 (issue 41): ``pointline verify`` without ``--relay-key`` tries the keys this app
    pinned and names the table whose key signed the roster, and the day it was pinned; a key
    from a file kept before days were, and a retired key, still verify; an unknown one does not.
    """
    import contextlib
    import io
    import json

    from pointline.net.client._verify_command import main
    from pointline.net.protocol._report import NO_PINNED_KEY_SIGNED

    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    names = "Seat 1 alice, Seat 2 bob"
    report = verify_transcript(path, known=data_dir)
    assert report.ok and report.players == (
        f"the names are vouched for by alice's table, whose key this app pinned on {today}: {names}"
    )
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([str(path)]) == 0  # the app's data folder (POINTLINE_DATA_DIR)
    assert f"vouched for by alice's table, whose key this app pinned on {today}" in out.getvalue()
    # a known-relays.json written before days were kept: migrated as read, never reset
    old = data_dir.parent / "old"
    old.mkdir()
    key = table.relay.key.public_hex
    (old / "known-relays.json").write_text(
        json.dumps({"relays": {"table:alice": {"relay_key": key}}})
    )
    assert verify_transcript(path, known=old).players.endswith(
        f"alice's table, whose key this app pinned earlier: {names}"
    )
    KnownTables(old).trust("alice", "ab" * 32)  # alice reinstalled: her old key is retired
    assert "reinstalled" in verify_transcript(path, known=old).players
    assert "former_keys" in (old / "known-relays.json").read_text()
    stranger = data_dir.parent / "stranger"
    stranger.mkdir()
    (stranger / "known-relays.json").write_text(
        json.dumps({"relays": {"wss://club:443": {"relay_key": "cd" * 32}}})
    )
    assert verify_transcript(path, known=stranger).players == NO_PINNED_KEY_SIGNED


def test_host_closing_mid_session_sends_the_host_departure_first(
    tmp_path: Path, data_dir: Path
) -> None:
    async def scenario() -> None:
        table = hosted(tmp_path / "host")
        await table.open()
        try:
            guest = await connect_table(nearby(table), KnownTables(data_dir), timeouts=RELAXED)
            await enter_table(guest, nearby(table), GuestTokens(data_dir), "bob", "pw-12345", True)
            await until(lambda: table.seats == 2)
            await table.start()
            await guest.wait_started(10)
        finally:
            await table.close()
        events = []
        async with asyncio.timeout(10):
            async for event in guest.events():
                events.append(event)
        endings = [e for e in events if isinstance(e, SessionEnded)]
        assert [(e.reason, e.seat) for e in endings] == [(EndReason.DEPARTURE, 0)], events
        assert endings[0].text == "alice closed the table"  # finding 5 (issue 41)
        await guest.close()
        assert guest.transcript_path is not None
        report = verify_transcript(guest.transcript_path)  # the guest's reads as the host's leave
        assert report.ok and (report.reason, report.seat) == (EndReason.DEPARTURE, 0), report
        assert report.summary.endswith("ended without a result: alice closed the table")

    run(scenario(), timeout=60)


def test_changed_certificate_needs_the_explicit_choice_and_forgery_is_refused(
    tmp_path: Path, data_dir: Path
) -> None:
    async def scenario() -> None:
        known = KnownTables(data_dir)
        async with hosted(tmp_path / "first") as first:
            await (await connect_table(nearby(first), known)).close()
            old = first.fingerprint
        # a reinstall: same host name, a new certificate
        async with hosted(tmp_path / "second") as second:
            assert second.fingerprint != old
            assert known.check("alice", second.fingerprint).outcome is TableTrust.CHANGED
            with pytest.raises(TableCertificateChanged) as changed:
                await connect_table(nearby(second), known)
            assert (changed.value.old, changed.value.new) == (old, second.fingerprint)
            assert known.pinned("alice") is not None
            assert known.pinned("alice")[0] == old  # type: ignore[index]  # nothing changed
            known.trust("alice", changed.value.new)  # the player's explicit choice
            await (await connect_table(nearby(second), known)).close()
            # forged: a new name announcing a certificate the server does not show
            forged = Announcement(
                "table", "Kitchen table", old, host="mallory", seats=1, room=second.code
            )
            with pytest.raises(AnnouncementMismatch):
                await connect_table(nearby(second, forged), known)
            assert known.pinned("mallory") is None
            # forged: a known name announcing another certificate: reported, never joined
            other = Announcement("table", "K", "cd" * 32, host="alice", seats=1, room="ABCDEF")
            with pytest.raises(TableCertificateChanged):
                await connect_table(nearby(second, other), known)
            # a kept token that expired asks for the password again (typed)
            GuestTokens(data_dir).put("alice", second.fingerprint, "bob", "0" * 64)
            client = await connect_table(nearby(second), known)
            with pytest.raises(SignInNeeded):
                await enter_table(client, nearby(second), GuestTokens(data_dir))
            assert GuestTokens(data_dir).get("alice", second.fingerprint) is None
            # a token kept for the old certificate is never sent to the new one
            tokens = GuestTokens(data_dir)
            room = await enter_table(client, nearby(second), tokens, "bob", "password-1", True)
            assert room.seat == 1
            await client.close()
            GuestTokens(data_dir).put("alice", old, "bob", "1" * 64)
            assert GuestTokens(data_dir).get("alice", second.fingerprint) is None
            client = await connect_table(nearby(second), known)
            with pytest.raises(SignInNeeded):
                await enter_table(client, nearby(second), GuestTokens(data_dir))
            await client.close()

    run(scenario(), timeout=60)


def test_bad_host_settings_are_plain_errors(tmp_path: Path) -> None:
    with pytest.raises(HostingError):
        HostedTable("Kitchen", "a b", "127.0.0.1")
    with pytest.raises(HostingError):
        HostedTable("Kitchen", "alice", "0.0.0.0")
    with pytest.raises(BadAnnouncement):
        HostedTable("", "alice", "127.0.0.1")

    async def busy_port() -> None:
        async with hosted(tmp_path / "a") as first:
            assert first.running is not None
            second = HostedTable(
                "Other",
                "carol",
                "127.0.0.1",
                first.running.port,
                folder=tmp_path / "b",
                config=relay_config(),
                announce=False,
            )
            with pytest.raises(HostingError, match="cannot listen"):
                await second.open()
            assert second.running is None

    run(busy_port())


def test_the_multicast_lock_is_held_while_browsing_or_announcing() -> None:
    held: list[str] = []
    set_multicast_lock(lambda: held.append("take"), lambda: held.append("give back"))

    async def scenario() -> None:
        browser = TableBrowser(["127.0.0.1"])
        announcer = Announcer(["127.0.0.1"], 9, Announcement("relay", "Club", None))
        await browser.start()
        try:
            assert held == ["take"]
            await announcer.start()
            assert held == ["take"]  # counted: one lock for both
            await announcer.stop()
            assert held == ["take"]
        finally:
            await browser.stop()
        assert held == ["take", "give back"]

    try:
        run(scenario())
    finally:
        set_multicast_lock(None, None)


def test_guests_load_no_relay_code() -> None:
    code = (
        "import sys, pointline.net.joining, pointline.net.discovery;"
        "print(sorted(m for m in sys.modules if m.startswith(("
        "'pointline.net.relay._server', 'argon2',"
        " 'pointline.net.relay._accounts', 'pointline.net.hosting'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_live_list_follows_the_table_on_loopback(tmp_path: Path, data_dir: Path) -> None:
    """Announced on 127.0.0.1 and browsed there: the table appears with one seat taken, its
    seats and then its state change as a guest comes and the host starts, and it goes."""

    async def scenario() -> None:
        events: list[NearbyEvent] = []
        table = HostedTable(
            "Kitchen table", "alice", "127.0.0.1", folder=tmp_path / "h", config=relay_config()
        )
        async with TableBrowser(["127.0.0.1"], events.append) as browser:
            await table.open()
            try:
                await browser.wait_for(lambda t: len(t) == 1, 15)
                (found,) = browser.tables.values()
                ann = found.announcement
                assert (ann.name, ann.host, ann.seats, ann.room, ann.open) == (
                    "Kitchen table",
                    "alice",
                    1,
                    table.code,
                    True,
                )
                assert ann.fingerprint == table.fingerprint
                guest = await connect_table(found, KnownTables(data_dir), timeouts=RELAXED)
                await enter_table(guest, found, GuestTokens(data_dir), "bob", "password-1", True)
                await browser.wait_for(
                    lambda t: [x.announcement.seats for x in t.values()] == [2], 15
                )
                assert table.players == ("alice", "bob")
                await table.start()
                await browser.wait_for(
                    lambda t: [x.announcement.open for x in t.values()] == [False], 15
                )
                await table.background()  # a phone host going to the background
                endings = [e async for e in guest.events() if isinstance(e, SessionEnded)]
                assert [(e.reason, e.seat) for e in endings] == [(EndReason.BACKGROUND, 0)]
                await guest.close()
            finally:
                await table.close()
            await browser.wait_for(lambda t: not t, 15)
        kinds = [type(e).__name__ for e in events]
        assert kinds[0] == "TableAppeared" and kinds[-1] == "TableGone"
        assert "TableUpdated" in kinds

    run(scenario(), timeout=60)


def _tls_half_close(port: int, request: bytes) -> bytes:
    """Open TLS to the hosted relay (no certificate check: only the close matters), send
    ``request`` with the TLS close_notify right after the handshake, then half-close the TCP
    socket; returns what the relay wrote back before closing."""
    import socket

    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    with context.wrap_socket(raw) as tls:
        if request:
            tls.sendall(request)
        tls.setblocking(False)
        with contextlib.suppress(ssl.SSLError, OSError):
            tls.unwrap()  # sends close_notify without waiting for the relay's
        tls.setblocking(True)
        tls.shutdown(socket.SHUT_WR)  # then the TCP half-close
        got = b""
        with contextlib.suppress(OSError):
            while chunk := tls.recv(4096):
                got += chunk
        return got


def test_a_tls_peer_half_closing_leaves_the_hosts_stderr_clean(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """Finding 10 (issue 41): a guest that closes TLS right after the handshake (with or without
    a request in flight) made the host print "Error calling eof_received() … 'BoundRelayConnection'
    object has no attribute 'transport'". The relay drops such a socket quietly, frees its place,
    and still serves the next guest."""

    async def scenario() -> None:
        async with hosted(tmp_path / "host") as table:
            assert table.running is not None
            port, gate = table.running.port, table.relay.gate
            upgrade = (
                b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            for request in (b"", upgrade, b""):
                await asyncio.to_thread(_tls_half_close, port, request)
            await until(lambda: gate.total == table.seats, what="the places freed")
            guest = await connect_table(nearby(table), KnownTables(tmp_path / "g"))
            await guest.close()

    with caplog.at_level("DEBUG", logger="asyncio"):
        run(scenario(), timeout=60)
    err = capfd.readouterr().err + caplog.text
    assert "Error calling" not in err and "Traceback" not in err and "transport" not in err, err


def test_forget_this_table_deletes_the_token_only_and_an_expired_sign_in_says_so(
    tmp_path: Path, data_dir: Path
) -> None:
    """Issue 41: only "Forget this table" cancels a kept sign-in; it keeps the certificate pin
    and the relay's key (old sessions still verify). With no sign-in kept the guest is asked to
    sign in, not told it expired; a sign-in the relay let lapse is called expired."""
    from pointline.net.client._trust import KnownRelays, table_relay_address
    from pointline.net.joining import forget_table

    async def scenario() -> None:
        async with hosted(tmp_path / "host") as table:
            known, tokens = KnownTables(data_dir), GuestTokens(data_dir)
            guest = await connect_table(nearby(table), known)
            await enter_table(guest, nearby(table), tokens, "bob", "password-123", signup=True)
            address = table_relay_address("alice")
            key = KnownRelays(data_dir).relay_key(address)
            assert key == table.relay.key.public_hex
            await forget_table(guest, "alice", tokens)
            await guest.close()
            assert tokens.get("alice", table.fingerprint) is None
            assert known.check("alice", table.fingerprint).outcome is TableTrust.KNOWN
            assert KnownRelays(data_dir).relay_key(address) == key
            again = await connect_table(nearby(table), known)
            with pytest.raises(SignInNeeded) as forgotten:
                await enter_table(again, nearby(table), tokens)
            assert not forgotten.value.expired and "expired" not in forgotten.value.text
            await enter_table(again, nearby(table), tokens, "bob", "password-123", signup=True)
            await again.close()
            table.relay.accounts.database.run("UPDATE sessions SET expires = 0")  # lapsed
            late = await connect_table(nearby(table), known)
            with pytest.raises(SignInNeeded) as lapsed:
                await enter_table(late, nearby(table), tokens)
            assert lapsed.value.expired and "has expired" in lapsed.value.text
            await late.close()

    run(scenario(), timeout=60)


def test_only_the_hosts_own_departure_reads_as_the_host_closing() -> None:
    from pointline.net.protocol._events import named_host

    guest_left = SessionEnded(EndReason.DEPARTURE, 1, reporter=1)
    assert named_host(guest_left, "alice", 0) is guest_left  # a guest leaving: as before
    assert "closed the table" not in named_host(guest_left, "alice", 0).text
    deadline = SessionEnded(EndReason.DEADLINE, 0, reporter=1)
    assert named_host(deadline, "alice", 0) is deadline  # the host's deadline is not a close
    assert named_host(SessionEnded(EndReason.DEPARTURE, 0), None, None).host is None  # a club
    assert named_host(SessionEnded(EndReason.DEPARTURE, 0), "alice", 0).text == (
        "alice closed the table"
    )


def test_a_guest_in_the_lobby_reads_that_the_host_closed_the_table(
    tmp_path: Path, data_dir: Path
) -> None:
    """Finding 5 (issue 41): the hosted relay stops with 1001 (going away, ONLINE.md §9 R11)
    and the guest's client says it as a typed event, "alice closed the table", not as a lost
    connection."""
    from pointline.net.client import Disconnected, TableClosed

    async def scenario() -> None:
        table = hosted(tmp_path / "host")
        await table.open()
        try:
            guest = await connect_table(nearby(table), KnownTables(data_dir), timeouts=RELAXED)
            await enter_table(guest, nearby(table), GuestTokens(data_dir), "bob", "pw-12345", True)
            await until(lambda: table.seats == 2)
        finally:
            await table.close()
        events = []
        async with asyncio.timeout(10):
            async for event in guest.events():
                events.append(event)
        kinds = [type(e) for e in events]
        assert TableClosed in kinds and Disconnected in kinds, events
        assert kinds.index(TableClosed) < kinds.index(Disconnected)
        closed = events[kinds.index(TableClosed)]
        assert isinstance(closed, TableClosed) and closed.text == "alice closed the table."
        await guest.close()

    run(scenario(), timeout=60)


_KILLED_HOST = """
import asyncio, sys
from pointline.net.discovery import Announcement, Announcer
async def main():
    name = sys.argv[1]
    await Announcer(["127.0.0.1"], 8765, Announcement("relay", name, None), record_ttl=1).start()
    print("up", flush=True)
    await asyncio.sleep(600)
asyncio.run(main())
"""


def test_a_host_that_vanishes_without_a_goodbye_leaves_the_list() -> None:
    """Findings 3 (issue 41): python-zeroconf keeps a PTR record at least 1125 s whatever TTL it
    was sent with, so a killed host stayed listed for minutes. The browser now checks that each
    listed table still answers; a host killed with SIGKILL (no goodbye) leaves within its
    records' life plus one check, and one still running stays. (Records live 1 s here, 20 s in
    the app: a vanished table is gone within about 35 s there.)"""
    import time

    async def scenario() -> None:
        killed = subprocess.Popen(
            [sys.executable, "-c", _KILLED_HOST, "Killed club"], stdout=subprocess.PIPE, text=True
        )
        living = Announcer(["127.0.0.1"], 8766, Announcement("relay", "Living club", None), 1)
        await living.start()  # while the other host starts
        assert killed.stdout is not None
        assert (await asyncio.to_thread(killed.stdout.readline)).strip() == "up"
        try:
            checking = TableBrowser(["127.0.0.1"], check_every=0.5, answer_ms=800)
            async with checking as browser:
                await browser.wait_for(lambda t: len(t) == 2, 15)
                killed.kill()
                killed.wait()
                began = time.monotonic()
                await browser.wait_for(lambda t: len(t) == 1, 15)
                took = time.monotonic() - began
                (left,) = browser.tables.values()
                assert left.announcement.name == "Living club" and took < 10.0, took
                await asyncio.sleep(2.0)  # two more records' lives and checks: the living stays
                assert [t.announcement.name for t in browser.tables.values()] == ["Living club"]
        finally:
            killed.kill()
            killed.wait()
            await living.stop()

    run(scenario(), timeout=60)
