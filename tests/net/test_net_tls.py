"""wss:// as players use it: the client's own connect path against a TLS relay on loopback.

The connect call is the one the app and the headless client make (``RelayClient.connect(url,
ca=...)``), with no hand-built SSL context: a self-signed relay is trusted through ``ca``, an
untrusted certificate is refused with plain words, and ``wss://`` never needs extra flags.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from pointline.net.accounts import FAST_HASH
from pointline.net.client import ClientError, RelayClient, tls_client_context
from pointline.net.relay import LOOPBACK_TESTS, RelayConfig, running_relay, tls_context
from tests.net.conftest import run
from tests.net.test_net_online import _self_signed

PASSWORD = "password-123"


def _tls_relay(tmp_path: Path, cert: Path, key: Path):  # type: ignore[no-untyped-def]
    config = RelayConfig(hash_params=FAST_HASH, **LOOPBACK_TESTS)
    return running_relay(
        tmp_path / "tls.sqlite3", "localhost", 0, config, tls_context(str(cert), str(key))
    )


def test_wss_with_the_relays_certificate_as_ca_signs_in(tmp_path: Path) -> None:
    cert, key = _self_signed(tmp_path)

    async def scenario() -> None:
        async with _tls_relay(tmp_path, cert, key) as running:
            url = f"wss://localhost:{running.port}"
            client = await RelayClient.connect(url, ca=str(cert))
            try:
                token = await client.signup("tls_alice", PASSWORD)
                assert token and client.name == "tls_alice"
            finally:
                await client.close()

    run(scenario())


def test_wss_uses_the_system_trust_store_and_refuses_an_unknown_certificate(
    tmp_path: Path,
) -> None:
    cert, key = _self_signed(tmp_path)

    async def scenario() -> None:
        async with _tls_relay(tmp_path, cert, key) as running:
            with pytest.raises(ClientError) as caught:
                await RelayClient.connect(f"wss://localhost:{running.port}")
            assert caught.value.code == "certificate"
            assert "--ca FILE" in caught.value.text
            assert "Traceback" not in caught.value.text

    run(scenario())


def test_the_system_trust_store_is_the_default() -> None:
    default = tls_client_context()
    assert default.verify_mode.name == "CERT_REQUIRED" and default.check_hostname
    assert default.cert_store_stats()["x509_ca"] > 0 or default.get_ca_certs() == []


def test_a_missing_ca_file_and_a_ca_on_ws_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ClientError) as caught:
        tls_client_context(str(tmp_path / "nope.pem"))
    assert caught.value.code == "bad_ca" and "nope.pem" in caught.value.text

    async def scenario() -> None:
        with pytest.raises(ClientError) as caught:
            await RelayClient.connect("ws://127.0.0.1:9", ca=str(tmp_path / "x.pem"))
        assert caught.value.code == "not_tls"

    run(scenario())


def test_an_unreachable_relay_is_a_clear_error() -> None:
    async def scenario() -> None:
        with pytest.raises(ClientError) as caught:
            await RelayClient.connect("ws://127.0.0.1:9", open_timeout=5)
        assert caught.value.code == "unreachable" and "127.0.0.1:9" in caught.value.text

    run(scenario())


def test_headless_client_with_ca_and_without(tmp_path: Path, data_dir: Path) -> None:
    """``python -m pointline.net.client --ca FILE`` signs in; without it, one plain line."""
    cert, key = _self_signed(tmp_path)

    async def client(*extra: str) -> tuple[int, str]:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "pointline.net.client",
            "--url",
            url,
            "--name",
            "tls_bob",
            "--password",
            PASSWORD,
            "--signup",
            "--wait",
            "0.5",
            *extra,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), 30)
        return proc.returncode or 0, (out + err).decode()

    url = ""

    async def scenario() -> None:
        nonlocal url
        async with _tls_relay(tmp_path, cert, key) as running:
            url = f"wss://localhost:{running.port}"
            code, text = await client()
            assert code == 2 and "certificate was refused" in text
            assert "Traceback" not in text
            code, text = await client("--ca", str(cert))
            assert "room code:" in text  # signed in and created a room over TLS
            assert "Nobody else joined within 0.5 s" in text and code == 1
            assert "certificate" not in text and "Traceback" not in text

    run(scenario(), timeout=60)
