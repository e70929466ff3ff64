"""Relay accounts in SQLite: sign-up, sign-in, session tokens, sign-in rate limits.

Passwords are stored only as Argon2id hashes (argon2-cffi, memory-hard). Names are 3–24
letters, digits, ``_`` or ``-``, unique ignoring case. Sign-in returns a random token
(``secrets``); only its SHA-256 is stored. The database file is created on first use, in WAL
mode, with a schema version in ``PRAGMA user_version``.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from pointline.net.wire import MAX_PASSWORD, NAME_RULE, ErrorCode, WireError

SCHEMA_VERSION: Final = 1
MIN_PASSWORD: Final = 8
TOKEN_TTL: Final = 12 * 3600.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    name TEXT NOT NULL,
    folded TEXT NOT NULL PRIMARY KEY,
    password_hash TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT NOT NULL PRIMARY KEY,
    folded TEXT NOT NULL REFERENCES accounts(folded),
    expires REAL NOT NULL
);
"""


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
    """The account store. Thread-safe (the relay hashes in worker threads)."""

    def __init__(
        self,
        path: str | Path,
        params: HashParams | None = None,
        failures_per_name: int = 5,
        failure_window: float = 60.0,
        token_ttl: float = TOKEN_TTL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._hasher = (params or HashParams()).hasher()
        self._lock = threading.Lock()
        self._clock = clock
        self._token_ttl = token_ttl
        self.failures = RateLimiter(failures_per_name, failure_window)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._migrate()
        # a real hash of a random password, so unknown names cost as much as known ones
        self._dummy_hash = self._hasher.hash(secrets.token_hex(16))

    def _migrate(self) -> None:
        with self._lock:
            (version,) = self._db.execute("PRAGMA user_version").fetchone()
            if version > SCHEMA_VERSION:
                raise RuntimeError(
                    f"{self.path}: schema version {version} is newer than {SCHEMA_VERSION}"
                )
            if version < 1:
                self._db.executescript("BEGIN;" + _SCHEMA + "PRAGMA user_version=1; COMMIT;")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @property
    def schema_version(self) -> int:
        with self._lock:
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM accounts").fetchone()[0])

    def stored_hash(self, name: str) -> str | None:
        """The stored password hash (for tests and audits; never the password)."""
        with self._lock:
            row = self._db.execute(
                "SELECT password_hash FROM accounts WHERE folded = ?", (name.casefold(),)
            ).fetchone()
        return None if row is None else str(row[0])

    def signup(self, name: str, password: str) -> str:
        """Create an account and sign it in; returns a session token."""
        check_name(name)
        check_password(password)
        digest = self._hasher.hash(password)
        with self._lock:
            try:
                self._db.execute(
                    "INSERT INTO accounts (name, folded, password_hash, created) VALUES (?,?,?,?)",
                    (name, name.casefold(), digest, self._clock()),
                )
            except sqlite3.IntegrityError:
                raise AccountError(
                    ErrorCode.NAME_TAKEN, f"the name {name!r} is taken; choose another"
                ) from None
        return self._issue(name.casefold())

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
        with self._lock:
            row = self._db.execute(
                "SELECT name, password_hash FROM accounts WHERE folded = ?", (folded,)
            ).fetchone()
        stored = self._dummy_hash if row is None else str(row[1])
        try:
            self._hasher.verify(stored, password)
            ok = row is not None
        except (VerificationError, InvalidHashError):
            ok = False
        if not ok:
            raise AccountError(ErrorCode.BAD_CREDENTIALS, "wrong name or password")
        self.failures.clear(failure_key)
        if self._hasher.check_needs_rehash(stored):
            with self._lock:
                self._db.execute(
                    "UPDATE accounts SET password_hash = ? WHERE folded = ?",
                    (self._hasher.hash(password), folded),
                )
        return str(row[0]), self._issue(folded)

    def signout(self, token: str) -> bool:
        """Revoke ``token``; True when it was a live token."""
        with self._lock:
            cursor = self._db.execute(
                "DELETE FROM sessions WHERE token_hash = ?", (_token_hash(token),)
            )
        return cursor.rowcount > 0

    def change_password(self, token: str, old: str, new: str, address: str = "") -> str:
        """Set a new password for the token's account after checking the old one; every token
        of the account is revoked and a new one is returned (``AccountError`` otherwise)."""
        name = self.lookup(token)
        if name is None:
            raise AccountError(ErrorCode.BAD_TOKEN, "sign in again: this token is not valid")
        check_password(new)
        folded = name.casefold()
        with self._lock:
            row = self._db.execute(
                "SELECT password_hash FROM accounts WHERE folded = ?", (folded,)
            ).fetchone()
        failure_key = _failure_key(folded, address)
        if not self.failures.take(failure_key):
            raise AccountError(
                ErrorCode.SIGNIN_LIMITED, "too many failed password checks; wait a minute"
            )
        try:
            self._hasher.verify(str(row[0]), old)
        except (VerificationError, InvalidHashError):
            raise AccountError(ErrorCode.BAD_CREDENTIALS, "the current password is wrong") from None
        self.failures.clear(failure_key)
        digest = self._hasher.hash(new)
        with self._lock:
            self._db.execute(
                "UPDATE accounts SET password_hash = ? WHERE folded = ?", (digest, folded)
            )
            self._db.execute("DELETE FROM sessions WHERE folded = ?", (folded,))
        return self._issue(folded)

    def _issue(self, folded: str) -> str:
        token = secrets.token_urlsafe(32)
        now = self._clock()
        with self._lock:
            self._db.execute("DELETE FROM sessions WHERE expires < ?", (now,))
            self._db.execute(
                "INSERT INTO sessions (token_hash, folded, expires) VALUES (?,?,?)",
                (_token_hash(token), folded, now + self._token_ttl),
            )
        return token

    def lookup(self, token: str) -> str | None:
        """The account name a live token belongs to, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT a.name FROM sessions s JOIN accounts a ON a.folded = s.folded "
                "WHERE s.token_hash = ? AND s.expires >= ?",
                (_token_hash(token), self._clock()),
            ).fetchone()
        return None if row is None else str(row[0])
