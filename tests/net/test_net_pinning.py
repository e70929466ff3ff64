"""Trust on first use: the relay's key checked during play and its TLS certificate pinned,
each against a real relay on loopback (#19 part 3)."""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import json
import ssl
from collections.abc import Iterator
from pathlib import Path

import pytest

from pointline.net.client._relay_client import RelayClient, RelayError, connect_trusted
from pointline.net.client._trust import (
    KNOWN_RELAYS_FILE,
    CertificateNotTrusted,
    KnownRelays,
    RelayKeyChanged,
    relay_address,
)
from pointline.net.errors import ClientCode, ClientError
from pointline.net.protocol import _wire as wire
from pointline.net.protocol._keys import SigningKey
from pointline.net.relay import _core as relay_module
from tests.net.support import PASSWORD, relay, run, self_signed, tls_relay

_said_key: dict[str, str] = {}


@pytest.fixture
def relay_says_its_key(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The relay's ``signed_in`` naming the key ``_said_key["key"]``: a test makes the relay say
    another key than its own (a relay whose key changed, or an impostor)."""

    def signed_in(
        name: str, token: str, request_id: int | None = None, relay_key: str | None = None
    ) -> wire.SignedIn:
        return wire.SignedIn(name, token, request_id, relay_key=_said_key.get("key", relay_key))

    monkeypatch.setattr(relay_module, "SignedIn", signed_in)
    _said_key.clear()
    yield _said_key


def test_the_relay_names_its_own_key_at_sign_in_and_the_client_pins_it(tmp_path: Path) -> None:
    known = KnownRelays(tmp_path / "trust")

    async def scenario() -> None:
        async with relay(tmp_path) as running:
            client = await connect_trusted(running.url, known)
            await client.signup("plain", PASSWORD)
            assert client.relay_key == running.relay.key.public_hex
            assert known.relay_key(relay_address(running.url)) == running.relay.key.public_hex
            await client.close()

    asyncio.run(scenario())


def test_the_relay_key_is_pinned_at_first_contact_and_a_change_must_be_accepted(
    tmp_path: Path, relay_says_its_key: dict[str, str]
) -> None:
    known = KnownRelays(tmp_path / "trust")

    async def scenario() -> None:
        async with relay(tmp_path) as running:
            real = running.relay.key.public_hex
            relay_says_its_key["key"] = real
            address = relay_address(running.url)
            first = await connect_trusted(running.url, known)
            await first.signup("pinner", PASSWORD)
            assert known.relay_key(address) == real  # pinned on first use, in the file
            entry = json.loads((tmp_path / "trust" / KNOWN_RELAYS_FILE).read_text())["relays"]
            today = datetime.datetime.now(datetime.UTC).date().isoformat()
            assert entry[address] == {"relay_key": real, "relay_key_pinned": today}  # issue 41
            await first.close()

            other = SigningKey.generate().public_hex
            relay_says_its_key["key"] = other
            second = await connect_trusted(running.url, known)
            with pytest.raises(RelayKeyChanged) as caught:
                await second.signin("pinner", PASSWORD)
            assert (caught.value.address, caught.value.old, caught.value.new) == (
                address,
                real,
                other,
            )
            assert caught.value.code == ClientCode.RELAY_KEY_CHANGED
            assert "different key" in caught.value.text and "--" not in caught.value.text
            with pytest.raises(RelayKeyChanged):
                await second.create_room()  # no room until the player accepts
            assert known.relay_key(address) == real  # nothing changed by the refusal
            second.accept_relay_key()
            assert known.relay_key(address) == other
            room = await second.create_room()
            assert room.code
            await second.close()

    run(scenario())


def test_a_roster_the_pinned_key_did_not_sign_never_starts_a_session(
    tmp_path: Path, relay_says_its_key: dict[str, str]
) -> None:
    known = KnownRelays(tmp_path / "trust")

    async def scenario() -> None:
        async with relay(tmp_path) as running:
            impostor = SigningKey.generate().public_hex  # said and pinned; rosters signed by
            relay_says_its_key["key"] = impostor  # the relay's real key do not verify with it
            a = await connect_trusted(running.url, known)
            b = await RelayClient.connect(running.url)  # no pinning: starts as before
            await a.signup("rosterer_a", PASSWORD)
            await b.signup("rosterer_b", PASSWORD)
            room = await b.create_room()
            await a.join_room(room.code)
            await b.start()
            async with asyncio.timeout(10):
                while True:
                    event = await a.next_event()
                    if isinstance(event, RelayError):
                        break
            assert event.code == ClientCode.BAD_ROSTER_SIGNATURE
            assert "not signed by the relay key" in event.message
            assert a.peer is None and a.started is None
            await a.close()
            await b.close()

    run(scenario())


def test_a_self_signed_certificate_is_trusted_by_its_fingerprint_then_pinned(
    tmp_path: Path,
) -> None:
    cert, key = self_signed(tmp_path)
    der = ssl.PEM_cert_to_DER_cert(cert.read_text())
    known = KnownRelays(tmp_path / "trust")

    async def scenario() -> None:
        async with tls_relay(tmp_path, cert, key) as running:
            url = f"wss://localhost:{running.port}"
            with pytest.raises(CertificateNotTrusted) as caught:
                await connect_trusted(url, known)
            refused = caught.value
            assert refused.fingerprint == hashlib.sha256(der).hexdigest()
            assert refused.code == ClientCode.CERTIFICATE and not refused.changed
            assert refused.fingerprint[:4] in refused.text and "--ca" not in refused.text
            assert known.certificate(refused.address) is None  # nothing trusted unasked
            assert known.pin_certificate(refused.address, refused.pem) == refused.fingerprint
            client = await connect_trusted(url, known)
            await client.signup("tofu", PASSWORD)
            assert client.token
            await client.close()

    run(scenario())


def test_another_certificate_at_a_pinned_address_is_refused_with_its_fingerprint(
    tmp_path: Path,
) -> None:
    first_dir, second_dir = tmp_path / "one", tmp_path / "two"
    first_dir.mkdir()
    second_dir.mkdir()
    cert1, _ = self_signed(first_dir)
    cert2, key2 = self_signed(second_dir)
    known = KnownRelays(tmp_path / "trust")

    async def scenario() -> None:
        async with tls_relay(tmp_path, cert2, key2) as running:
            url = f"wss://localhost:{running.port}"
            known.pin_certificate(relay_address(url), cert1.read_text())
            with pytest.raises(CertificateNotTrusted) as caught:
                await connect_trusted(url, known)
            assert caught.value.changed
            assert (
                caught.value.fingerprint
                == hashlib.sha256(ssl.PEM_cert_to_DER_cert(cert2.read_text())).hexdigest()
            )
            assert "another certificate" in caught.value.text

    run(scenario())


def test_a_damaged_known_relays_file_is_a_typed_error_in_plain_words(tmp_path: Path) -> None:
    (tmp_path / KNOWN_RELAYS_FILE).write_text("{not json")
    known = KnownRelays(tmp_path)
    with pytest.raises(ClientError) as caught:
        known.relay_key("ws://a:1")
    assert caught.value.code == ClientCode.BAD_TRUST_FILE
    assert "damaged" in caught.value.text and "Traceback" not in caught.value.text
    assert (tmp_path / KNOWN_RELAYS_FILE).read_text() == "{not json"  # left as it was
