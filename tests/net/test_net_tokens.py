"""Tokens: sign-out, password change, lifetime, hashed storage, purpose, the per-account cap,
and the schema migration that keeps every account."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from pointline.net.client._relay_client import ClientError, RelayClient
from pointline.net.relay._accounts import FAST_HASH, SCHEMA_VERSION, Accounts, Purpose
from pointline.net.relay._server import LOOPBACK_TESTS, RelayConfig, running_relay
from tests.net.support import run

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

    from pointline.net.relay._accounts import AccountError, Accounts

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


# ---- token lifetime, storage, purpose, cap; schema migration -----------------------------------

_V1_SCHEMA = """
CREATE TABLE accounts (
    name TEXT NOT NULL,
    folded TEXT NOT NULL PRIMARY KEY,
    password_hash TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE sessions (
    token_hash TEXT NOT NULL PRIMARY KEY,
    folded TEXT NOT NULL REFERENCES accounts(folded),
    expires REAL NOT NULL
);
"""


def test_tokens_expire_after_the_ttl(tmp_path: Path) -> None:
    now = [1000.0]
    accounts = Accounts(tmp_path / "a.db", FAST_HASH, token_ttl=60.0, clock=lambda: now[0])
    token = accounts.signup("timed", PASSWORD)
    now[0] += 59.0
    assert accounts.lookup(token) == "timed"
    now[0] += 2.0
    assert accounts.lookup(token) is None
    accounts.close()


def test_expired_tokens_are_dropped_by_the_periodic_purge(tmp_path: Path) -> None:
    now = [1000.0]
    accounts = Accounts(tmp_path / "a.db", FAST_HASH, token_ttl=60.0, clock=lambda: now[0])
    old = accounts.signup("purged", PASSWORD)
    now[0] += 61.0
    _, fresh = accounts.signin("purged", PASSWORD)
    assert len(accounts.stored_token_hashes()) == 2  # a sign-in scans no other token
    assert accounts.purge_expired() == 1
    assert accounts.stored_token_hashes() == [hashlib.sha256(fresh.encode()).hexdigest()]
    assert accounts.lookup(old) is None and accounts.lookup(fresh) == "purged"
    assert accounts.purge_expired() == 0
    accounts.close()


def test_tokens_are_stored_hashed_only(tmp_path: Path) -> None:
    accounts = Accounts(tmp_path / "a.db", FAST_HASH)
    token = accounts.signup("hashed", PASSWORD)
    digests = accounts.stored_token_hashes()
    assert digests == [hashlib.sha256(token.encode()).hexdigest()]
    accounts.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert token.encode() not in raw


def test_a_token_is_accepted_only_for_its_purpose(tmp_path: Path) -> None:
    accounts = Accounts(tmp_path / "a.db", FAST_HASH)
    token = accounts.signup("purposed", PASSWORD)
    assert accounts.lookup(token, Purpose.SESSION) == "purposed"
    db = sqlite3.connect(tmp_path / "a.db")
    db.execute("UPDATE sessions SET purpose = 'reset'")  # a token issued for something else
    db.commit()
    db.close()
    assert accounts.lookup(token) is None
    accounts.close()


def test_a_new_sign_in_revokes_the_oldest_beyond_the_cap(tmp_path: Path) -> None:
    now = [1000.0]
    accounts = Accounts(tmp_path / "a.db", FAST_HASH, clock=lambda: now[0], tokens_per_account=3)
    tokens = [accounts.signup("capped", PASSWORD)]
    for _ in range(4):
        now[0] += 1.0
        tokens.append(accounts.signin("capped", PASSWORD)[1])
    assert accounts.live_tokens("capped") == 3
    assert [accounts.lookup(t) for t in tokens] == [None, None, "capped", "capped", "capped"]
    accounts.close()


def test_the_relay_caps_tokens_per_account(tmp_path: Path) -> None:
    async def scenario() -> None:
        config = RelayConfig(hash_params=FAST_HASH, tokens_per_account=2, **LOOPBACK_TESTS)
        async with running_relay(tmp_path / "r.db", config=config) as relay:
            clients = [await RelayClient.connect(relay.url) for _ in range(3)]
            try:
                await clients[0].signup("devices", PASSWORD)
                for c in clients[1:]:
                    await c.signin("devices", PASSWORD)
                with pytest.raises(ClientError) as caught:
                    await clients[0].create_room()  # the oldest token was revoked
                assert caught.value.code == "bad_token"
                assert (await clients[2].create_room()).code
            finally:
                for c in clients:
                    await c.close()

    run(scenario())


def test_a_version_1_file_is_migrated_and_keeps_its_accounts_and_tokens(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    hasher = FAST_HASH.hasher()
    token = "an-old-token-from-version-1"
    db = sqlite3.connect(path)
    db.executescript(_V1_SCHEMA)
    row = ("Old_Timer", "old_timer", hasher.hash(PASSWORD), 1)
    db.execute("INSERT INTO accounts VALUES (?,?,?,?)", row)
    db.execute(
        "INSERT INTO sessions VALUES (?,?,?)",
        (hashlib.sha256(token.encode()).hexdigest(), "old_timer", 4e12),
    )
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    accounts = Accounts(path, FAST_HASH)
    assert accounts.schema_version == SCHEMA_VERSION == 2
    assert accounts.count() == 1
    assert accounts.lookup(token) == "Old_Timer"  # a live token stays a session token
    assert accounts.signin("old_timer", PASSWORD)[0] == "Old_Timer"
    key = accounts.relay_key().public_hex
    accounts.close()
    again = Accounts(path, FAST_HASH)  # opening again migrates nothing and keeps the key
    assert again.schema_version == 2 and again.count() == 1
    assert again.relay_key().public_hex == key
    again.close()


def test_a_newer_file_is_refused_not_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.close()
    with pytest.raises(RuntimeError, match="newer"):
        Accounts(path, FAST_HASH)


def test_pointline_relay_migrate_brings_a_sqlite_file_up_to_date(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pointline.net.relay._cli import main

    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript(_V1_SCHEMA)
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    assert main(["migrate", "--db", str(path)]) == 0
    assert f"{path}: schema version {SCHEMA_VERSION}" in capsys.readouterr().out
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    with pytest.raises(SystemExit):  # copying needs a PostgreSQL store to copy into
        main(["migrate", "--from-sqlite", str(path)])
    assert "--from-sqlite copies into a --store" in capsys.readouterr().err


DAY = 86400.0


def test_a_hosted_relays_tokens_slide_with_each_use_and_lapse_unused(tmp_path: Path) -> None:
    """Issue 41: a hosted table keeps a guest's sign-in while the guest keeps coming (each use
    moves its expiry to 90 days on), and lets an unused one lapse 90 days after its last use."""
    from pointline.net.hosting import HOSTED_TOKEN_TTL

    assert HOSTED_TOKEN_TTL == 90 * DAY
    now = [1000.0]
    accounts = Accounts(
        tmp_path / "h.db", FAST_HASH, token_ttl=HOSTED_TOKEN_TTL, clock=lambda: now[0],
        token_slides=True,
    )  # fmt: skip
    used, unused = accounts.signup("weekly", PASSWORD), accounts.signup("once", PASSWORD)
    for _ in range(12):  # a monthly game night for a year
        now[0] += 30 * DAY
        assert accounts.lookup(used) == "weekly"
    assert accounts.lookup(unused) is None  # 360 days unused
    now[0] += HOSTED_TOKEN_TTL - 1.0
    assert accounts.lookup(used) == "weekly"
    now[0] += HOSTED_TOKEN_TTL + 1.0
    assert accounts.lookup(used) is None  # unused for longer than 90 days: lapsed
    accounts.close()


def test_a_club_relays_tokens_keep_the_operators_life(tmp_path: Path) -> None:
    now = [1000.0]
    accounts = Accounts(tmp_path / "c.db", FAST_HASH, token_ttl=60.0, clock=lambda: now[0])
    token = accounts.signup("clubber", PASSWORD)
    now[0] += 50.0
    assert accounts.lookup(token) == "clubber"  # a use does not extend it
    now[0] += 11.0
    assert accounts.lookup(token) is None
    accounts.close()


def test_tokens_kept_from_the_12_hour_days_are_migrated_to_the_sliding_life(
    tmp_path: Path,
) -> None:
    """A host's relay.sqlite3 from before issue 41 holds tokens issued for 12 h: opening it as a
    hosted relay gives the live ones the hosted life from their issue, never a reset."""
    now = [1000.0]
    path = tmp_path / "relay.sqlite3"
    old = Accounts(path, FAST_HASH, clock=lambda: now[0])  # the 12 h default of those days
    token = old.signup("before", PASSWORD)
    old.close()
    now[0] += 6 * 3600.0
    hosted = Accounts(path, FAST_HASH, token_ttl=90 * DAY, clock=lambda: now[0], token_slides=True)
    now[0] += 10 * DAY  # next week's game night: the 12 h token would be long gone
    assert hosted.lookup(token) == "before"
    hosted.close()


def test_a_hosted_table_always_runs_sliding_tokens(tmp_path: Path) -> None:
    from pointline.net.hosting import HOSTED_TOKEN_TTL, HostedTable
    from pointline.net.relay._server import RelayConfig as Config

    table = HostedTable("Kitchen", "alice", "127.0.0.1", folder=tmp_path, config=Config())
    assert (table.config.token_ttl, table.config.token_slides) == (HOSTED_TOKEN_TTL, True)
    assert not RelayConfig().token_slides  # club relays: the operator's --token-ttl, fixed
    from pointline.net.hosting import HOSTED_HASH

    phone = HostedTable("Kitchen", "alice", "127.0.0.1", folder=tmp_path)
    assert phone.config.hash_params == HOSTED_HASH  # a phone's argon2 cost (bench host)
    assert HOSTED_HASH.memory_cost < RelayConfig().hash_params.memory_cost
