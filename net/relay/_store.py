"""The relay's storage interface: one ``Database`` shape, two engines.

``net.relay._accounts.Accounts`` holds every rule about accounts, tokens, the relay key and sign-in
limits, and speaks to its database only through this interface. ``SqliteDatabase`` (below) is
the embedded default, one file next to one relay; ``net.relay._store_pg.PostgresDatabase`` is the
shared one a cluster of relays uses (``pointline-relay --store postgresql://...``).

SQL is written once, with ``?`` placeholders and what SQLite and PostgreSQL both accept; an
engine rewrites placeholders for its driver. The schema is versioned and migrated the same way
for both (``migrate``): numbered steps, each in one transaction that also records the new
version, never skipping one and never touching a database newer than this code. The steps
themselves are each engine's own (column types differ), but the tables and columns match, so
``copy_accounts`` can move a SQLite relay's accounts into PostgreSQL as they are.

A database that cannot be reached raises ``StoreUnavailable`` (a ``WireError``: the relay
answers "try again" and keeps running); the engine reconnects on the next call.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar, Final

from pointline.net.protocol._wire import ErrorCode, WireError

_log = logging.getLogger("pointline.relay")

__all__ = [
    "SCHEMA_VERSION",
    "Database",
    "Outage",
    "SharedLimiter",
    "SqliteDatabase",
    "StoreUnavailable",
    "Unavailable",
    "migrate",
]

SCHEMA_VERSION: Final = 2
TOKEN_TTL_V1: Final = 12 * 3600.0  # the token lifetime version 1 used (for its migration)

Row = tuple[Any, ...]


class Unavailable(WireError):
    """A server the relay needs cannot be reached now (``what`` names it); the relay keeps
    running and the player is told to try again. ``detail``: the driver's words, for logs."""

    what: ClassVar[str] = "a server it needs"

    def __init__(self, detail: str) -> None:
        super().__init__(
            ErrorCode.BUSY, f"The relay cannot reach {self.what} right now; try again in a moment."
        )
        self.detail = detail


class Outage:
    """One server's outages as the relay logs them: once when it stops answering, once when it
    answers again, in plain words naming the server (``what``, never a password); the driver's
    own text (errno, "Connect call failed") goes only to the debug log."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.down = False

    def failed(self, detail: object = "") -> bool:
        """The server did not answer: True when that starts an outage (logged once)."""
        _log.debug("%s: %s", self.what, detail)
        if self.down:
            return False
        self.down = True
        _log.warning(
            "%s cannot be reached; the relay keeps running and asks players to try again",
            self.what,
        )
        return True

    def answered(self) -> bool:
        """The server answered: True when that ends an outage (logged once)."""
        if not self.down:
            return False
        self.down = False
        _log.warning("%s answers again", self.what)
        return True


class StoreUnavailable(Unavailable):
    """The accounts database cannot be reached now."""

    what: ClassVar[str] = "its accounts database"


class Database(ABC):
    """A connection to the relay's tables. Not thread-safe by itself: ``Accounts`` serialises
    every call with one lock (the relay hashes passwords in worker threads)."""

    label: str = ""
    """How the database is named in messages (a path, or a URL without its password)."""
    shared: ClassVar[bool] = False
    """True when several relays use it at once: sign-in limits are then counted in it."""
    newest_first: ClassVar[str] = "issued DESC"
    """The ORDER BY of a account's tokens, newest first, with a tiebreak by insertion order."""
    steps: ClassVar[dict[int, str]] = {}
    """Schema step n: the statements that bring version n-1 to version n."""

    @abstractmethod
    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    @abstractmethod
    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    @abstractmethod
    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Execute one statement; the number of rows it changed."""

    @abstractmethod
    def transaction(self) -> contextlib.AbstractContextManager[None]:
        """A block that commits as one, or rolls back on any exception (writers serialised)."""

    @abstractmethod
    def version(self) -> int:
        """The schema version stored in the database (0: empty)."""

    @abstractmethod
    def apply(self, step: int) -> None:
        """Run schema step ``step`` and record it, in one transaction."""

    @abstractmethod
    def is_duplicate(self, exc: BaseException) -> bool:
        """Whether ``exc`` is a unique-key violation (a taken name)."""

    @abstractmethod
    def close(self) -> None: ...

    def lock(self, key: str) -> None:
        """Inside a transaction: serialise with every other writer of ``key`` (SQLite's
        ``BEGIN IMMEDIATE`` already serialises all writers)."""
        return None


def migrate(db: Database, target: int = SCHEMA_VERSION) -> int:
    """Bring ``db`` to ``target`` one step at a time; returns the version it was at.

    A database newer than ``target`` is refused (``RuntimeError``), never rewritten."""
    version = db.version()
    if version > target:
        raise RuntimeError(f"{db.label}: schema version {version} is newer than {target}")
    for step in range(version + 1, target + 1):
        db.apply(step)  # a failed step leaves the database at the previous one
    return version


class SharedLimiter:
    """``RateLimiter``'s shape, counted in the shared database: at most ``limit`` events per
    ``window`` seconds per key for every relay together (a sliding window over wall-clock
    times in the ``limit_events`` table; each ``take`` is one transaction under a per-key
    lock, so two relays cannot both take the last place)."""

    def __init__(
        self,
        db: Database,
        lock: threading.Lock,
        kind: str,
        limit: int,
        window: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.db, self._lock, self.kind = db, lock, kind
        self.limit, self.window, self._clock = limit, window, clock

    @staticmethod
    def _key(key: str) -> str:
        return key.replace("\x00", " ")  # text columns hold no NUL; names hold no space

    _IN_WINDOW: ClassVar[str] = (
        "SELECT COUNT(*) FROM limit_events WHERE kind = ? AND key = ? AND at > ?"
    )

    def take(self, key: str) -> bool:
        """Check and record in one step: False when over the limit. One statement under the
        key's lock (events older than the window are not counted; ``purge`` drops them)."""
        key = self._key(key)
        now = self._clock()
        with self._lock, self.db.transaction():
            self.db.lock(f"{self.kind} {key}")
            added = self.db.run(
                f"INSERT INTO limit_events (kind, key, at) SELECT ?, ?, ? "
                f"WHERE ({self._IN_WINDOW}) < ?",
                (self.kind, key, now, self.kind, key, now - self.window, self.limit),
            )
        return added > 0

    def allowed(self, key: str) -> bool:
        key = self._key(key)
        with self._lock:
            row = self.db.one(self._IN_WINDOW, (self.kind, key, self._clock() - self.window))
        return (0 if row is None else int(row[0])) < self.limit

    def record(self, key: str) -> None:
        key = self._key(key)
        with self._lock:
            self.db.run(
                "INSERT INTO limit_events (kind, key, at) VALUES (?, ?, ?)",
                (self.kind, key, self._clock()),
            )

    def clear(self, key: str) -> None:
        key = self._key(key)
        with self._lock:
            self.db.run("DELETE FROM limit_events WHERE kind = ? AND key = ?", (self.kind, key))

    def purge(self) -> int:
        """Forget the events that left the window (every relay's); how many were dropped."""
        with self._lock:
            return self.db.run(
                "DELETE FROM limit_events WHERE kind = ? AND at <= ?",
                (self.kind, self._clock() - self.window),
            )

    def __len__(self) -> int:
        with self._lock:
            row = self.db.one(
                "SELECT COUNT(DISTINCT key) FROM limit_events WHERE kind = ? AND at > ?",
                (self.kind, self._clock() - self.window),
            )
        return 0 if row is None else int(row[0])


# ---- SQLite ----------------------------------------------------------------------------------

# Version 1 exactly as it shipped: a new file is made at 1, then migrated like an old one.
_SQLITE_V1 = """
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

_SQLITE_V2 = f"""
ALTER TABLE sessions ADD COLUMN purpose TEXT NOT NULL DEFAULT 'session';
ALTER TABLE sessions ADD COLUMN issued REAL NOT NULL DEFAULT 0;
UPDATE sessions SET issued = expires - {TOKEN_TTL_V1!r};
CREATE INDEX IF NOT EXISTS sessions_by_account ON sessions (folded, purpose, issued);
CREATE TABLE IF NOT EXISTS relay_key (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    private_key BLOB NOT NULL,
    created REAL NOT NULL
);
"""


class SqliteDatabase(Database):
    """One SQLite file in WAL mode, its schema version in ``PRAGMA user_version``."""

    newest_first: ClassVar[str] = "issued DESC, rowid DESC"
    steps: ClassVar[dict[int, str]] = {1: _SQLITE_V1, 2: _SQLITE_V2}

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.label = str(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA foreign_keys=ON")

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row = self._db.execute(sql, tuple(params)).fetchone()
        return None if row is None else tuple(row)

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return [tuple(r) for r in self._db.execute(sql, tuple(params)).fetchall()]

    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._db.execute(sql, tuple(params)).rowcount

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def apply(self, step: int) -> None:
        self._db.executescript(f"BEGIN; {self.steps[step]} PRAGMA user_version={step}; COMMIT;")

    def is_duplicate(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.IntegrityError)

    def close(self) -> None:
        self._db.close()
