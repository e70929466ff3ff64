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

from pointline.net.client._relay_client import ClientError, RelayClient, tls_client_context
from pointline.net.relay._accounts import FAST_HASH
from pointline.net.relay._server import RelayConfig, running_relay, tls_context
from tests.net.support import PASSWORD, run, self_signed, tls_relay, until


def test_wss_with_the_relays_certificate_as_ca_signs_in(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)

    async def scenario() -> None:
        async with tls_relay(tmp_path, cert, key) as running:
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
    cert, key = self_signed(tmp_path)

    async def scenario() -> None:
        async with tls_relay(tmp_path, cert, key) as running:
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
    cert, key = self_signed(tmp_path)

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
        async with tls_relay(tmp_path, cert, key) as running:
            url = f"wss://localhost:{running.port}"
            code, text = await client()
            assert code == 2 and "certificate was refused" in text
            assert "Traceback" not in text
            code, text = await client("--ca", str(cert))
            assert "room code:" in text  # signed in and created a room over TLS
            assert "Nobody else joined within 0.5 s" in text and code == 1
            assert "certificate" not in text and "Traceback" not in text

    run(scenario(), timeout=60)


def test_a_tcp_client_that_never_starts_tls_is_dropped_at_the_handshake_deadline_and_counted(
    tmp_path: Path,
) -> None:
    """A socket that connects and sends nothing holds one of its address's places only until
    ``tls_handshake_deadline``; while it waits it counts against ``connections_per_address``."""
    cert, key = self_signed(tmp_path)
    config = RelayConfig(
        hash_params=FAST_HASH,
        connections_per_address=1,
        tls_handshake_deadline=0.5,
        signin_deadline=30.0,
    )

    async def scenario() -> None:
        context = tls_context(str(cert), str(key))
        async with running_relay(tmp_path / "h.sqlite3", "localhost", 0, config, context) as r:
            loop = asyncio.get_running_loop()
            reader, writer = await asyncio.open_connection("localhost", r.port)
            await until(lambda: r.relay.gate.total == 1, 5)  # counted before any TLS byte
            with pytest.raises(ClientError) as caught:  # the address's only place is taken
                await RelayClient.connect(f"wss://localhost:{r.port}", ca=str(cert))
            assert caught.value.code in {"refused", "unreachable"}
            began = loop.time()
            assert await asyncio.wait_for(reader.read(), 5) == b""  # dropped by the relay
            held = loop.time() - began
            assert held < 3.0, f"held {held:.1f} s"
            writer.close()
            await until(lambda: r.relay.gate.total == 0, 5)
            assert r.relay.gate.tls_failed >= 1
            client = await RelayClient.connect(f"wss://localhost:{r.port}", ca=str(cert))
            try:  # the place is free again
                assert await client.signup("tls_after", PASSWORD)
            finally:
                await client.close()

    run(scenario())


def test_the_tls_handshake_deadline_is_a_flag_with_a_default_of_10_s() -> None:
    from pointline.net.relay._cli import build_parser, config_from_args

    assert config_from_args(build_parser().parse_args([])).tls_handshake_deadline == 10.0
    args = build_parser().parse_args(["--tls-handshake-deadline", "2.5"])
    assert config_from_args(args).tls_handshake_deadline == 2.5
