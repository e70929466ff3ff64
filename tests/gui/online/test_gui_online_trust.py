"""Trusting a relay from the sign-in screen (#20, #19 part 3): a self-signed certificate by its
fingerprint, and the warning when the relay's key changed; against real relays on loopback."""

from __future__ import annotations

import hashlib
import ssl
from pathlib import Path

import pytest

from pointline.gui.online.bridge import OnlineBridge
from pointline.net.client._trust import spaced
from pointline.net.protocol import _wire as wire
from pointline.net.relay import _core as relay_module
from pointline.net.relay._accounts import FAST_HASH
from pointline.net.relay._server import LOOPBACK_TESTS, RelayConfig, running_relay
from tests.gui.online_support import (
    COMMAND_WORDS,
    FAST,
    PASSWORD,
    K,
    Window,
    answered,
    fresh_name,
    on_qt_loop,
    until,
    visible_texts,
)
from tests.net.support import self_signed, tls_relay


@on_qt_loop(timeout=60)
async def test_a_self_signed_relay_is_trusted_by_its_fingerprint(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    der = ssl.PEM_cert_to_DER_cert(cert.read_text())
    fingerprint = spaced(hashlib.sha256(der).hexdigest())

    async with tls_relay(tmp_path, cert, key) as running:
        url = f"wss://localhost:{running.port}"
        bridge = OnlineBridge(url, timeouts=FAST)
        ui = Window(bridge, (390, 844))
        bridge.account.signUp(url, fresh_name("tls"), PASSWORD)
        await until(lambda: bridge.trust.asking == "certificate", what="the trust question")
        assert bridge.screen == "signin" and bridge.client is None
        assert bridge.trust.fingerprint == fingerprint
        await until(lambda: ui.item("trustQuestion").isVisible(), what="the question shown")
        shown = " ".join(visible_texts(ui))
        assert "Trust this relay's certificate" in shown and fingerprint in shown
        assert not COMMAND_WORDS.search(shown)
        # focus rests on the safe answer: a stray Enter trusts nothing
        await until(lambda: ui.focus() == "btnDeclineTrust", what="focus on Don't trust")
        await ui.key(K.Key_Return)
        assert bridge.trust.asking == "" and "Nothing was trusted" in bridge.error
        # asked again, the player compares and trusts it: the sign-up goes through
        bridge.account.signUp(url, fresh_name("tls"), PASSWORD)
        await until(lambda: bridge.trust.asking == "certificate", what="asked again")
        await ui.click("btnTrust")
        await until(lambda: bridge.screen == "lobby", what="the lobby")
        await bridge.shutdown()
        # pinned on this device: the next sign-in asks nothing
        again = OnlineBridge(url, timeouts=FAST)
        await answered(again, lambda: again.account.signUp(url, fresh_name("tls"), PASSWORD))
        assert again.screen == "lobby" and again.trust.asking == "", again.error
        await again.shutdown()
        ui.close()


@on_qt_loop(timeout=60)
async def test_a_changed_relay_key_is_a_warning_the_player_must_accept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = RelayConfig(hash_params=FAST_HASH, **LOOPBACK_TESTS)
    said: dict[str, str] = {}

    def signed_in(
        name: str, token: str, request_id: int | None = None, relay_key: str | None = None
    ) -> wire.SignedIn:
        # the relay names its key at sign-in; here it names the key ``said["key"]`` (a relay
        # whose key changed), as tests/net/test_net_pinning.py does
        return wire.SignedIn(name, token, request_id, relay_key=said.get("key", relay_key))

    monkeypatch.setattr(relay_module, "SignedIn", signed_in)

    name = fresh_name("pinned")
    async with running_relay(tmp_path / "first.sqlite3", config=config) as first:
        port = first.port
        said["key"] = first.relay.key.public_hex
        bridge = OnlineBridge(first.url, timeouts=FAST)
        await answered(bridge, lambda: bridge.account.signUp(first.url, name, PASSWORD))
        assert bridge.screen == "lobby", bridge.error  # the key is pinned, nothing asked
        await bridge.shutdown()
    # another relay (another key) at the same address: someone may be standing in
    async with running_relay(tmp_path / "second.sqlite3", "127.0.0.1", port, config) as second:
        said["key"] = second.relay.key.public_hex
        bridge = OnlineBridge(second.url, timeouts=FAST)
        ui = Window(bridge, (1280, 720))
        bridge.account.signUp(second.url, name, PASSWORD)
        await until(lambda: bridge.trust.asking == "key", what="the key warning")
        assert bridge.screen == "signin" and "different key" in bridge.trust.text
        await until(lambda: ui.item("trustQuestion").isVisible(), what="the warning shown")
        await ui.click("btnTrust")  # "Accept the new key"
        await until(lambda: bridge.screen == "lobby", what="the lobby")
        await answered(bridge, bridge.lobby.createRoom)
        assert bridge.lobby.roomCode, bridge.error
        await bridge.shutdown()
        ui.close()
