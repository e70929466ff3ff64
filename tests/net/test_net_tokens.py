"""Sign-out revokes the token; a password change revokes every token of the account."""

from __future__ import annotations

from pathlib import Path

import pytest

from pointline.net.accounts import FAST_HASH
from pointline.net.client import ClientError, RelayClient
from pointline.net.relay import LOOPBACK_TESTS, RelayConfig, running_relay
from tests.net.conftest import run

PASSWORD = "password-123"


def test_signout_revokes_the_token(tmp_path: Path) -> None:
    async def scenario() -> None:
        config = RelayConfig(hash_params=FAST_HASH, **LOOPBACK_TESTS)
        async with running_relay(tmp_path / "r.db", config=config) as relay:
            client = await RelayClient.connect(relay.url)
            try:
                await client.signup("leaver", PASSWORD)
                token = client.token
                assert token and relay.relay.accounts.lookup(token) == "leaver"
                await client.signout()
                assert client.token is None
                assert relay.relay.accounts.lookup(token) is None
                with pytest.raises(ClientError) as caught:
                    await client.signout()
                assert caught.value.code == "not_signed_in"
                await client.signin("leaver", PASSWORD)  # the account itself is untouched
                assert client.token and client.token != token
            finally:
                await client.close()

    run(scenario())


def test_a_password_change_revokes_every_token_of_the_account(tmp_path: Path) -> None:
    async def scenario() -> None:
        config = RelayConfig(hash_params=FAST_HASH, **LOOPBACK_TESTS)
        async with running_relay(tmp_path / "r.db", config=config) as relay:
            phone = await RelayClient.connect(relay.url)
            laptop = await RelayClient.connect(relay.url)
            try:
                await phone.signup("mover", PASSWORD)
                await laptop.signin("mover", PASSWORD)
                old_phone, old_laptop = phone.token, laptop.token
                with pytest.raises(ClientError) as caught:
                    await phone.change_password("not-the-password", "new-password-1")
                assert caught.value.code == "bad_credentials"
                assert relay.relay.accounts.lookup(old_phone or "") == "mover"  # nothing changed
                fresh = await phone.change_password(PASSWORD, "new-password-1")
                accounts = relay.relay.accounts
                assert accounts.lookup(fresh) == "mover"
                assert accounts.lookup(old_phone or "") is None
                assert accounts.lookup(old_laptop or "") is None
                with pytest.raises(ClientError) as caught:
                    await laptop.signin("mover", PASSWORD)
                assert caught.value.code == "bad_credentials"
                await laptop.signin("mover", "new-password-1")
                with pytest.raises(ClientError) as caught:
                    await phone.change_password("new-password-1", "short")
                assert caught.value.code == "bad_password"
            finally:
                await phone.close()
                await laptop.close()

    run(scenario())


def test_simultaneous_guesses_are_counted_before_hashing(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from pointline.net.accounts import AccountError, Accounts

    accounts = Accounts(tmp_path / "a.db", FAST_HASH, failures_per_name=5)
    try:
        accounts.signup("target", PASSWORD)

        def guess(i: int) -> str:
            try:
                accounts.signin("target", f"wrong-guess-{i}")
            except AccountError as error:
                return str(error.code)
            return "signed_in"

        with ThreadPoolExecutor(max_workers=14) as pool:
            codes = list(pool.map(guess, range(14)))
        assert codes.count("bad_credentials") == 5
        assert codes.count("signin_limited") == 9
    finally:
        accounts.close()
