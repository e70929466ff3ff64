"""The relay's accounts, session tokens, sign-in limits and relay key, over ``net.relay._store``.

Passwords are stored only as Argon2id hashes (argon2-cffi, memory-hard). Names are 3–24
letters, digits, ``_`` or ``-``, unique ignoring case.

Tokens: sign-in returns a random token (``secrets``, 256 bits); only its SHA-256 is stored,
with the account, its purpose (``Purpose``: a token is accepted only for the purpose it was
issued for), when it was issued and when it expires (``token_ttl``). With ``token_slides`` (a
hosted table's relay) each accepted use moves the expiry to ``token_ttl`` after that use, so a
token in use every game night never lapses and an unused one lapses ``token_ttl`` after its
last use; opening such a store first gives its live tokens the life ``token_ttl`` from their
issue (tokens kept from before, issued with a shorter life, are migrated, never cut).
An account holds at most ``tokens_per_account`` live tokens of a purpose: a new sign-in
revokes the oldest.

Failed sign-ins are counted per (name, source address) before the password is hashed, so
guesses from one address never lock the right password out from another.

The relay's own Ed25519 key (it signs each room's roster) is generated once and kept here.

The database is SQLite by default (``Accounts(path)``: created on first use, in WAL mode, with
a schema version in ``PRAGMA user_version``) or any ``net.relay._store.Database`` (PostgreSQL for a
cluster: ``Accounts(PostgresDatabase(url))``, where the failure counts are kept in the database
too, so they hold for every relay). An older schema is migrated in place, one transaction per
step, and never loses an account: 1 -> 2 adds the token purpose and issue time (live tokens stay
valid as session tokens) and the relay key table.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from pointline.net.protocol._keys import SigningKey
from pointline.net.protocol._wire import MAX_PASSWORD, NAME_RULE, ErrorCode, WireError
from pointline.net.relay._store import (
    SCHEMA_VERSION,
    Database,
    SharedLimiter,
    SqliteDatabase,
    StoreUnavailable,
    migrate,
)

MIN_PASSWORD: Final = 8
TOKEN_TTL: Final = 12 * 3600.0
TOKENS_PER_ACCOUNT: Final = 5


class Purpose(StrEnum):
    """What a token may be used for; a token is accepted only for its own purpose."""

    SESSION = "session"  # from sign-in/sign-up: rooms, sign-out, password change


@dataclass(frozen=True, slots=True)
class HashParams:
    """Argon2id cost; the defaults are argon2-cffi's (RFC 9106 low-memory profile)."""

    time_cost: int = 3
    memory_cost: int = 65536  # KiB
    parallelism: int = 4

    def hasher(self) -> PasswordHasher:
        return PasswordHasher(
            time_cost=self.time_cost, memory_cost=self.memory_cost, parallelism=self.parallelism
        )


FAST_HASH: Final = HashParams(time_cost=1, memory_cost=1024, parallelism=1)  # tests only


class AccountError(WireError):
    """A refused sign-up or sign-in (a ``WireError`` so the relay can answer it as is)."""


class RateLimiter:
    """At most ``limit`` events per ``window`` seconds per key (sliding window)."""

    def __init__(
        self, limit: int, window: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._events: dict[str, deque[float]] = {}
        self._take_lock = threading.Lock()

    def _trim(self, key: str, now: float) -> deque[float]:
        events = self._events.setdefault(key, deque())
        while events and events[0] <= now - self.window:
            events.popleft()
        return events

    def allowed(self, key: str) -> bool:
        """Whether another event for ``key`` is allowed now (does not record it)."""
        events = self._trim(key, self._clock())
        if not events:
            self._events.pop(key, None)
        return len(events) < self.limit

    def record(self, key: str) -> None:
        self._trim(key, self._clock()).append(self._clock())

    def clear(self, key: str) -> None:
        self._events.pop(key, None)

    def purge(self) -> int:
        """Forget every key with no event inside the window (keeps memory bounded by the
        keys seen in one window); returns how many were dropped."""
        with self._take_lock:
            now = self._clock()
            stale = [k for k, ev in self._events.items() if not ev or ev[-1] <= now - self.window]
            for key in stale:
                del self._events[key]
        return len(stale)

    def __len__(self) -> int:
        return len(self._events)

    def take(self, key: str) -> bool:
        """Check and record in one step (safe across threads): False when over the limit."""
        with self._take_lock:
            if not self.allowed(key):
                return False
            self.record(key)
            return True


def check_name(name: str) -> str:
    if not NAME_RULE.fullmatch(name):
        raise AccountError(
            ErrorCode.BAD_NAME, "a name is 3-24 letters, digits, '_' or '-' (no spaces)"
        )
    return name


def check_password(password: str) -> str:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(
            ErrorCode.BAD_PASSWORD, f"a password is {MIN_PASSWORD}-{MAX_PASSWORD} characters"
        )
    return password


def _failure_key(folded: str, address: str) -> str:
    return f"{folded}\x00{address}"


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Accounts:
    """The account store. Thread-safe (the relay hashes in worker threads): every database
    call holds one lock. ``store`` is a SQLite file's path or a ``net.relay._store.Database``."""

    def __init__(
        self,
        store: str | Path | Database,
        params: HashParams | None = None,
        failures_per_name: int = 5,
        failure_window: float = 60.0,
        token_ttl: float = TOKEN_TTL,
        clock: Callable[[], float] = time.time,
        tokens_per_account: int = TOKENS_PER_ACCOUNT,
        token_slides: bool = False,
    ) -> None:
        self._db = store if isinstance(store, Database) else SqliteDatabase(store)
        self.path = Path(store) if not isinstance(store, Database) else None
        self._hasher = (params or HashParams()).hasher()
        self._lock = threading.Lock()
        self._clock = clock
        self._token_ttl = token_ttl
        self._token_slides = token_slides
        self._tokens_per_account = max(1, tokens_per_account)
        self.failures: RateLimiter | SharedLimiter = self.limiter(
            "failures", failures_per_name, failure_window
        )
        try:
            with self._lock:
                migrate(self._db)
                if token_slides:  # live tokens get the sliding life from their issue
                    self._db.run(
                        "UPDATE sessions SET expires = issued + ? "
                        "WHERE expires >= ? AND expires < issued + ?",
                        (token_ttl, clock(), token_ttl),
                    )
        except BaseException:
            self._db.close()
            raise
        # a real hash of a random password, so unknown names cost as much as known ones
        self._dummy_hash = self._hasher.hash(secrets.token_hex(16))

    @property
    def shared(self) -> bool:
        """True when several relays share this store (PostgreSQL): limits count in it."""
        return self._db.shared

    @property
    def database(self) -> Database:
        return self._db

    @property
    def label(self) -> str:
        return self._db.label

    def limiter(self, kind: str, limit: int, window: float) -> RateLimiter | SharedLimiter:
        """A sign-in limit: in memory for one relay, in the database when it is shared (then
        every relay counts against the same events)."""
        if self._db.shared:
            return SharedLimiter(self._db, self._lock, kind, limit, window)
        return RateLimiter(limit, window)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @property
    def schema_version(self) -> int:
        with self._lock:
            return self._db.version()

    def count(self) -> int:
        with self._lock:
            row = self._db.one("SELECT COUNT(*) FROM accounts")
        return 0 if row is None else int(row[0])

    def stored_hash(self, name: str) -> str | None:
        """The stored password hash (for tests and audits; never the password)."""
        with self._lock:
            row = self._db.one(
                "SELECT password_hash FROM accounts WHERE folded = ?", (name.casefold(),)
            )
        return None if row is None else str(row[0])

    def signup(self, name: str, password: str) -> str:
        """Create an account and sign it in; returns a session token."""
        check_name(name)
        check_password(password)
        digest = self._hasher.hash(password)
        token = secrets.token_urlsafe(32)
        now = self._clock()
        with self._lock:
            try:  # the account and its first token in one transaction (it has no other)
                with self._db.transaction():
                    self._db.run(
                        "INSERT INTO accounts (name, folded, password_hash, created) "
                        "VALUES (?,?,?,?)",
                        (name, name.casefold(), digest, now),
                    )
                    self._insert_token(token, name.casefold(), Purpose.SESSION, now)
            except StoreUnavailable:
                raise
            except Exception as exc:
                if not self._db.is_duplicate(exc):
                    raise
                raise AccountError(
                    ErrorCode.NAME_TAKEN, f"the name {name!r} is taken; choose another"
                ) from None
        return token

    def signin(self, name: str, password: str, address: str = "") -> tuple[str, str]:
        """``(account name, token)`` for a correct password; ``AccountError`` otherwise.

        Failures are counted per (name, source address): guesses from one address never lock
        the right password out from another."""
        folded = name.casefold()
        failure_key = _failure_key(folded, address)
        # Counted before hashing, so simultaneous guesses cannot all pass the check; a correct
        # password clears the count.
        if not self.failures.take(failure_key):
            raise AccountError(
                ErrorCode.SIGNIN_LIMITED, "too many failed sign-ins for this name; wait a minute"
            )
        row = None
        if NAME_RULE.fullmatch(name):  # no account has another name: only the hash is done
            with self._lock:
                row = self._db.one(
                    "SELECT name, password_hash FROM accounts WHERE folded = ?", (folded,)
                )
        stored = self._dummy_hash if row is None else str(row[1])
        try:
            self._hasher.verify(stored, password)
            ok = row is not None
        except (VerificationError, InvalidHashError):
            ok = False
        if not ok or row is None:
            raise AccountError(ErrorCode.BAD_CREDENTIALS, "wrong name or password")
        self.failures.clear(failure_key)
        if self._hasher.check_needs_rehash(stored):
            with self._lock:
                self._db.run(
                    "UPDATE accounts SET password_hash = ? WHERE folded = ?",
                    (self._hasher.hash(password), folded),
                )
        return str(row[0]), self._issue(folded)

    def signout(self, token: str) -> bool:
        """Revoke ``token``; True when it was a live token."""
        with self._lock:
            removed = self._db.run(
                "DELETE FROM sessions WHERE token_hash = ?", (_token_hash(token),)
            )
        return removed > 0

    def change_password(self, token: str, old: str, new: str, address: str = "") -> str:
        """Set a new password for the token's account after checking the old one; every token
        of the account is revoked and a new one is returned (``AccountError`` otherwise)."""
        name = self.lookup(token)
        if name is None:
            raise AccountError(ErrorCode.BAD_TOKEN, "sign in again: this token is not valid")
        check_password(new)
        folded = name.casefold()
        with self._lock:
            row = self._db.one("SELECT password_hash FROM accounts WHERE folded = ?", (folded,))
        failure_key = _failure_key(folded, address)
        if not self.failures.take(failure_key):
            raise AccountError(
                ErrorCode.SIGNIN_LIMITED, "too many failed password checks; wait a minute"
            )
        try:
            self._hasher.verify(str(row[0]) if row else self._dummy_hash, old)
        except (VerificationError, InvalidHashError):
            raise AccountError(ErrorCode.BAD_CREDENTIALS, "the current password is wrong") from None
        self.failures.clear(failure_key)
        digest = self._hasher.hash(new)
        with self._lock, self._db.transaction():
            self._db.run("UPDATE accounts SET password_hash = ? WHERE folded = ?", (digest, folded))
            self._db.run("DELETE FROM sessions WHERE folded = ?", (folded,))
        return self._issue(folded)

    def _issue(self, folded: str, purpose: Purpose = Purpose.SESSION) -> str:
        """A new token; beyond ``tokens_per_account`` live ones the oldest are revoked."""
        token = secrets.token_urlsafe(32)
        now = self._clock()
        with self._lock, self._db.transaction():
            self._db.lock(f"tokens {folded}")
            self._db.run(
                "DELETE FROM sessions WHERE token_hash IN (SELECT token_hash FROM sessions "
                f"WHERE folded = ? AND purpose = ? ORDER BY {self._db.newest_first} "
                "LIMIT 1000000000 OFFSET ?)",
                (folded, purpose.value, self._tokens_per_account - 1),
            )
            self._insert_token(token, folded, purpose, now)
        return token

    def _insert_token(self, token: str, folded: str, purpose: Purpose, now: float) -> None:
        self._db.run(
            "INSERT INTO sessions (token_hash, folded, expires, purpose, issued) "
            "VALUES (?,?,?,?,?)",
            (_token_hash(token), folded, now + self._token_ttl, purpose.value, now),
        )

    def purge_expired(self) -> int:
        """Drop the tokens past their expiry (every account's; ``lookup`` refuses them
        anyway): the relay does it once per ``auth_window``, not on every sign-in, so a
        sign-in costs no scan of the whole table. Returns how many were dropped."""
        with self._lock:
            return self._db.run("DELETE FROM sessions WHERE expires < ?", (self._clock(),))

    def lookup(self, token: str, purpose: Purpose = Purpose.SESSION) -> str | None:
        """The account name a live token of ``purpose`` belongs to, or None. With
        ``token_slides`` the token's expiry moves to ``token_ttl`` from now."""
        digest, now = _token_hash(token), self._clock()
        with self._lock:
            row = self._db.one(
                "SELECT a.name FROM sessions s JOIN accounts a ON a.folded = s.folded "
                "WHERE s.token_hash = ? AND s.purpose = ? AND s.expires >= ?",
                (digest, purpose.value, now),
            )
            if row is not None and self._token_slides:
                self._db.run(
                    "UPDATE sessions SET expires = ? WHERE token_hash = ?",
                    (now + self._token_ttl, digest),
                )
        return None if row is None else str(row[0])

    def live_tokens(self, name: str, purpose: Purpose = Purpose.SESSION) -> int:
        """How many live tokens of ``purpose`` the account holds."""
        with self._lock:
            row = self._db.one(
                "SELECT COUNT(*) FROM sessions WHERE folded = ? AND purpose = ? AND expires >= ?",
                (name.casefold(), purpose.value, self._clock()),
            )
        return 0 if row is None else int(row[0])

    def stored_token_hashes(self) -> list[str]:
        """Every stored token digest (for tests and audits: tokens themselves are never kept)."""
        with self._lock:
            rows = self._db.all("SELECT token_hash FROM sessions")
        return [str(r[0]) for r in rows]

    def relay_key(self) -> SigningKey:
        """The relay's Ed25519 signing key: made on first use and kept in the database (one
        key for every relay sharing it, so each signs rosters with the same key)."""
        with self._lock:
            row = self._db.one("SELECT private_key FROM relay_key WHERE id = 1")
            if row is None:
                key = SigningKey.generate()
                self._db.run(
                    "INSERT INTO relay_key (id, private_key, created) VALUES (1, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    (key.private_bytes(), self._clock()),
                )
                row = self._db.one("SELECT private_key FROM relay_key WHERE id = 1")
        assert row is not None
        return SigningKey.from_bytes(bytes(row[0]))


__all__ = [
    "FAST_HASH",
    "MIN_PASSWORD",
    "SCHEMA_VERSION",
    "TOKENS_PER_ACCOUNT",
    "TOKEN_TTL",
    "AccountError",
    "Accounts",
    "HashParams",
    "Purpose",
    "RateLimiter",
    "check_name",
    "check_password",
]
