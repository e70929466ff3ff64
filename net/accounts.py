"""The relay's database in SQLite: accounts, session tokens, sign-in limits, the relay key.

Passwords are stored only as Argon2id hashes (argon2-cffi, memory-hard). Names are 3–24
letters, digits, ``_`` or ``-``, unique ignoring case.

Tokens: sign-in returns a random token (``secrets``, 256 bits); only its SHA-256 is stored,
with the account, its purpose (``Purpose``: a token is accepted only for the purpose it was
issued for), when it was issued and when it expires (``token_ttl``). An account holds at most
``tokens_per_account`` live tokens of a purpose: a new sign-in revokes the oldest.

Failed sign-ins are counted per (name, source address) before the password is hashed, so
guesses from one address never lock the right password out from another.

The relay's own Ed25519 key (it signs each room's roster) is generated once and kept here.

The file is created on first use, in WAL mode, with a schema version in ``PRAGMA
user_version``; an older file is migrated in place, in one transaction, and never loses an
account: 1 -> 2 adds the token purpose and issue time (live tokens stay valid as session
tokens) and the relay key table.
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
from enum import StrEnum
from pathlib import Path
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from pointline.net.keys import SigningKey
from pointline.net.wire import MAX_PASSWORD, NAME_RULE, ErrorCode, WireError

SCHEMA_VERSION: Final = 2
MIN_PASSWORD: Final = 8
TOKEN_TTL: Final = 12 * 3600.0
TOKENS_PER_ACCOUNT: Final = 5

# Version 1 exactly as it shipped: a new file is made at 1, then migrated like an old one.
_SCHEMA_V1 = """
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

_MIGRATE_V2 = f"""
ALTER TABLE sessions ADD COLUMN purpose TEXT NOT NULL DEFAULT 'session';
ALTER TABLE sessions ADD COLUMN issued REAL NOT NULL DEFAULT 0;
UPDATE sessions SET issued = expires - {TOKEN_TTL!r};
CREATE INDEX IF NOT EXISTS sessions_by_account ON sessions (folded, purpose, issued);
CREATE TABLE IF NOT EXISTS relay_key (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    private_key BLOB NOT NULL,
    created REAL NOT NULL
);
"""

_MIGRATIONS: Final[dict[int, str]] = {1: _SCHEMA_V1, 2: _MIGRATE_V2}


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
    """The account store. Thread-safe (the relay hashes in worker threads)."""

    def __init__(
        self,
        path: str | Path,
        params: HashParams | None = None,
        failures_per_name: int = 5,
        failure_window: float = 60.0,
        token_ttl: float = TOKEN_TTL,
        clock: Callable[[], float] = time.time,
        tokens_per_account: int = TOKENS_PER_ACCOUNT,
    ) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._hasher = (params or HashParams()).hasher()
        self._lock = threading.Lock()
        self._clock = clock
        self._token_ttl = token_ttl
        self._tokens_per_account = max(1, tokens_per_account)
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
            for target in range(version + 1, SCHEMA_VERSION + 1):
                # one transaction per step: a failed step leaves the file at the previous one
                self._db.executescript(
                    f"BEGIN; {_MIGRATIONS[target]} PRAGMA user_version={target}; COMMIT;"
                )

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

    def _issue(self, folded: str, purpose: Purpose = Purpose.SESSION) -> str:
        """A new token; beyond ``tokens_per_account`` live ones the oldest are revoked."""
        token = secrets.token_urlsafe(32)
        now = self._clock()
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("DELETE FROM sessions WHERE expires < ?", (now,))
                self._db.execute(
                    "DELETE FROM sessions WHERE token_hash IN (SELECT token_hash FROM sessions "
                    "WHERE folded = ? AND purpose = ? ORDER BY issued DESC, rowid DESC "
                    "LIMIT -1 OFFSET ?)",
                    (folded, purpose.value, self._tokens_per_account - 1),
                )
                self._db.execute(
                    "INSERT INTO sessions (token_hash, folded, expires, purpose, issued) "
                    "VALUES (?,?,?,?,?)",
                    (_token_hash(token), folded, now + self._token_ttl, purpose.value, now),
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return token

    def lookup(self, token: str, purpose: Purpose = Purpose.SESSION) -> str | None:
        """The account name a live token of ``purpose`` belongs to, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT a.name FROM sessions s JOIN accounts a ON a.folded = s.folded "
                "WHERE s.token_hash = ? AND s.purpose = ? AND s.expires >= ?",
                (_token_hash(token), purpose.value, self._clock()),
            ).fetchone()
        return None if row is None else str(row[0])

    def live_tokens(self, name: str, purpose: Purpose = Purpose.SESSION) -> int:
        """How many live tokens of ``purpose`` the account holds."""
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*) FROM sessions WHERE folded = ? AND purpose = ? AND expires >= ?",
                (name.casefold(), purpose.value, self._clock()),
            ).fetchone()
        return int(row[0])

    def stored_token_hashes(self) -> list[str]:
        """Every stored token digest (for tests and audits: tokens themselves are never kept)."""
        with self._lock:
            rows = self._db.execute("SELECT token_hash FROM sessions").fetchall()
        return [str(r[0]) for r in rows]

    def relay_key(self) -> SigningKey:
        """The relay's Ed25519 signing key: made on first use and kept in this file."""
        with self._lock:
            row = self._db.execute("SELECT private_key FROM relay_key WHERE id = 1").fetchone()
            if row is None:
                key = SigningKey.generate()
                self._db.execute(
                    "INSERT OR IGNORE INTO relay_key (id, private_key, created) VALUES (1, ?, ?)",
                    (key.private_bytes(), self._clock()),
                )
                row = self._db.execute("SELECT private_key FROM relay_key WHERE id = 1").fetchone()
        return SigningKey.from_bytes(bytes(row[0]))
