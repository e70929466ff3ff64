"""One storage interface, two engines: the same account rules on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.servers import PostgresServer
from pointline.net.relay._accounts import FAST_HASH, SCHEMA_VERSION, AccountError, Accounts
from pointline.net.relay._store import SharedLimiter, StoreUnavailable
from pointline.net.relay._store_pg import PostgresDatabase, redacted
from tests.cluster.support import Backends

PASSWORD = "password-123"


@pytest.fixture(params=["sqlite", "postgresql"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[object]:
    """A factory of ``Accounts`` on one database of the engine (every call: the same one)."""
    url = None
    if request.param == "postgresql":
        url = request.getfixturevalue("backends").store
    opened: list[Accounts] = []

    def factory(**options: object) -> Accounts:
        store = PostgresDatabase(url) if url else tmp_path / "a.sqlite3"
        accounts = Accounts(store, FAST_HASH, **options)  # type: ignore[arg-type]
        opened.append(accounts)
        return accounts

    yield factory
    for accounts in opened:
        accounts.close()


def test_the_same_rules_on_both_engines(make) -> None:  # type: ignore[no-untyped-def]
    accounts = make(tokens_per_account=2)
    assert accounts.schema_version == SCHEMA_VERSION
    first = accounts.signup("Both_Engines", PASSWORD)
    with pytest.raises(AccountError) as caught:
        accounts.signup("both_engines", PASSWORD)  # unique ignoring case
    assert caught.value.code.value == "name_taken"
    name, second = accounts.signin("BOTH_ENGINES", PASSWORD)
    assert name == "Both_Engines" and accounts.lookup(first) == name
    _, third = accounts.signin("both_engines", PASSWORD)  # a third token revokes the oldest
    assert accounts.lookup(first) is None and accounts.lookup(second) == name
    assert accounts.live_tokens(name) == 2
    with pytest.raises(AccountError) as caught:
        accounts.signin("both_engines", "wrong-password")
    assert caught.value.code.value == "bad_credentials"
    with pytest.raises(AccountError):
        accounts.signin("no\x00such", PASSWORD)  # a name no account can have: only refused
    assert accounts.signout(third) and not accounts.signout(third)
    fresh = accounts.change_password(second, PASSWORD, "new-password-1")
    assert accounts.lookup(second) is None and accounts.lookup(fresh) == name
    key = accounts.relay_key().public_hex
    again = make()
    assert again.relay_key().public_hex == key and again.count() == 1


def test_failures_lock_out_on_both_engines(make) -> None:  # type: ignore[no-untyped-def]
    accounts = make(failures_per_name=2)
    accounts.signup("locker", PASSWORD)
    for _ in range(2):
        with pytest.raises(AccountError):
            accounts.signin("locker", "wrong-password", "10.0.0.1")
    with pytest.raises(AccountError) as caught:
        accounts.signin("locker", PASSWORD, "10.0.0.1")
    assert caught.value.code.value == "signin_limited"
    assert accounts.signin("locker", PASSWORD, "10.0.0.2")[0] == "locker"  # another address


def test_relays_opening_a_new_database_at_once_migrate_it_once(backends: Backends) -> None:
    errors: list[BaseException] = []
    opened: list[Accounts] = []

    def open_one() -> None:
        try:
            opened.append(Accounts(PostgresDatabase(backends.store), FAST_HASH))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors and len(opened) == 4
    keys = {a.relay_key().public_hex for a in opened}
    assert len(keys) == 1  # one relay key for every relay
    assert {a.schema_version for a in opened} == {SCHEMA_VERSION}
    for a in opened:
        a.close()


def test_a_shared_limit_is_one_count_for_every_relay(backends: Backends) -> None:
    one = Accounts(PostgresDatabase(backends.store), FAST_HASH)
    two = Accounts(PostgresDatabase(backends.store), FAST_HASH)
    try:
        limits = [a.limiter("address", 3, 60.0) for a in (one, two)]
        assert all(isinstance(x, SharedLimiter) for x in limits)
        taken = [limits[i % 2].take("192.0.2.7") for i in range(5)]
        assert taken == [True, True, True, False, False]
        assert limits[1].take("192.0.2.8")  # another address has its own count
        limits[0].clear("192.0.2.7")
        assert limits[1].take("192.0.2.7")
    finally:
        one.close()
        two.close()


def test_a_newer_postgresql_schema_is_refused_not_rewritten(backends: Backends) -> None:
    Accounts(PostgresDatabase(backends.store), FAST_HASH).close()
    db = PostgresDatabase(backends.store)
    db.run("UPDATE pointline_schema SET version = 99")
    db.close()
    with pytest.raises(RuntimeError, match="newer"):
        Accounts(PostgresDatabase(backends.store), FAST_HASH)


def test_a_server_that_is_down_is_store_unavailable_and_the_password_stays_hidden(
    own_postgres: PostgresServer,
) -> None:
    url = own_postgres.url().replace("postgres@", "postgres:s3cret@")
    db = PostgresDatabase(url)
    assert "s3cret" not in db.label and "s3cret" not in redacted(url)
    own_postgres.kill()
    with pytest.raises(StoreUnavailable) as caught:
        db.one("SELECT 1")
    assert "accounts database" in caught.value.message and "s3cret" not in caught.value.detail
    own_postgres.start()
    assert db.one("SELECT 1") == (1,)  # the next call connects again
    db.close()
