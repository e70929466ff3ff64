"""The relay's tables in PostgreSQL, shared by every relay of a cluster (``--store URL``).

Driver: psycopg 3 (``psycopg[binary]``), used synchronously: ``Accounts`` already runs its
database calls in worker threads (the relay hashes passwords there), so the one storage
interface keeps one synchronous shape for SQLite and PostgreSQL alike.

The schema is the same as SQLite's, step for step (``net.relay._store``), plus ``limit_events`` (the
sign-in limits every relay counts against) and ``sessions.seq`` (insertion order, SQLite's
``rowid``). The version is kept in ``pointline_schema``; a step runs under an advisory lock, so
two relays starting at once migrate once. A lost connection raises ``StoreUnavailable`` and the
next call connects again.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Final

import psycopg
from psycopg import conninfo, errors

from pointline.net.relay._store import (
    SCHEMA_VERSION,
    TOKEN_TTL_V1,
    Database,
    Outage,
    Row,
    StoreUnavailable,
    migrate,
)

__all__ = ["Copied", "PostgresDatabase", "copy_accounts", "redacted"]

_MIGRATION_LOCK: Final = 0x706F696E746C6E  # any constant: "pointln"

_PG_V1 = """
CREATE TABLE IF NOT EXISTS accounts (
    name TEXT NOT NULL,
    folded TEXT NOT NULL PRIMARY KEY,
    password_hash TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT NOT NULL PRIMARY KEY,
    folded TEXT NOT NULL REFERENCES accounts(folded),
    expires DOUBLE PRECISION NOT NULL,
    seq BIGSERIAL NOT NULL
);
"""

_PG_V2 = f"""
ALTER TABLE sessions ADD COLUMN purpose TEXT NOT NULL DEFAULT 'session';
ALTER TABLE sessions ADD COLUMN issued DOUBLE PRECISION NOT NULL DEFAULT 0;
UPDATE sessions SET issued = expires - {TOKEN_TTL_V1!r};
CREATE INDEX IF NOT EXISTS sessions_by_account ON sessions (folded, purpose, issued);
CREATE TABLE IF NOT EXISTS relay_key (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    private_key BYTEA NOT NULL,
    created DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS limit_events (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS limit_events_by_key ON limit_events (kind, key, at);
"""


def redacted(url: str) -> str:
    """``url`` without its password (for messages and logs)."""
    try:
        parts = conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://?"
    host, port = parts.get("host", "localhost"), parts.get("port", "5432")
    return f"postgresql://{parts.get('user', '')}@{host}:{port}/{parts.get('dbname', '')}"


class PostgresDatabase(Database):
    """One psycopg connection (autocommit; ``transaction`` for multi-statement steps)."""

    shared: ClassVar[bool] = True
    newest_first: ClassVar[str] = "issued DESC, seq DESC"
    steps: ClassVar[dict[int, str]] = {1: _PG_V1, 2: _PG_V2}

    def __init__(self, url: str, connect_timeout: float = 3.0) -> None:
        self.url = url
        self.label = redacted(url)
        self.connect_timeout = connect_timeout
        self.round_trips = 0
        """Statements sent (BEGIN and COMMIT included): the bench prints them per request."""
        self._conn: psycopg.Connection[Any] | None = None
        self._depth = 0
        self.outage = Outage(f"the accounts database ({self.label})")
        self._connection()  # a wrong URL or a server that is down is said at once

    def _connection(self) -> psycopg.Connection[Any]:
        if self._conn is None or self._conn.closed:
            try:
                self._conn = psycopg.connect(
                    self.url, autocommit=True, connect_timeout=max(1, round(self.connect_timeout))
                )
            except psycopg.OperationalError as exc:
                self._conn = None
                self.outage.failed(exc)
                raise StoreUnavailable(f"{self.label}: {exc}") from None
        return self._conn

    def _lost(self, exc: BaseException) -> StoreUnavailable:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
        self._conn = None
        self.outage.failed(exc)
        return StoreUnavailable(f"{self.label}: {exc}")

    def _execute(self, sql: str, params: Sequence[Any]) -> psycopg.Cursor[Any]:
        conn = self._connection()
        self.round_trips += 1
        try:
            cursor = conn.execute(sql.replace("?", "%s"), tuple(params))
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            raise self._lost(exc) from None
        except psycopg.DataError as exc:  # e.g. a NUL in a name asked for: nothing matches
            raise StoreUnavailable(f"{self.label}: {exc}") from None
        self.outage.answered()
        return cursor

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row = self._execute(sql, params).fetchone()
        return None if row is None else tuple(row)

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return [tuple(r) for r in self._execute(sql, params).fetchall()]

    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._execute(sql, params).rowcount

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        conn = self._connection()
        self.round_trips += 2
        try:
            with conn.transaction():
                yield
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            raise self._lost(exc) from None

    def lock(self, key: str) -> None:
        self.run("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (key,))

    def version(self) -> int:
        row = self.one("SELECT to_regclass('pointline_schema') IS NOT NULL")
        if row is None or not row[0]:
            return 0
        got = self.one("SELECT version FROM pointline_schema")
        return 0 if got is None else int(got[0])

    def apply(self, step: int) -> None:
        with self.transaction():
            self.run("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
            self._connection().execute(
                "CREATE TABLE IF NOT EXISTS pointline_schema (version INTEGER NOT NULL)"
            )
            if self.version() >= step:  # another relay ran it while we waited
                return
            self._connection().execute(self.steps[step].encode("utf-8"))
            self.run("DELETE FROM pointline_schema")
            self.run("INSERT INTO pointline_schema (version) VALUES (?)", (step,))

    def is_duplicate(self, exc: BaseException) -> bool:
        return isinstance(exc, errors.UniqueViolation)

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
        self._conn = None


@dataclass(frozen=True, slots=True)
class Copied:
    """What ``copy_accounts`` did: rows copied, rows already there, and the relay key."""

    accounts: int
    accounts_present: int
    tokens: int
    key: str  # "copied", "same" (already there) or "different" (PostgreSQL keeps its own)


def copy_accounts(source: str | Path, target: Database) -> Copied:
    """Copy a SQLite relay's accounts, live tokens and relay key into ``target`` (migrated
    first). Names already in ``target`` are kept as they are there; nothing is deleted, so
    running it twice copies nothing twice. The SQLite file is only read."""
    path = Path(source)
    if not path.is_file():
        raise FileNotFoundError(f"no SQLite relay database at {path}")
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version != SCHEMA_VERSION:
            raise RuntimeError(
                f"{path}: schema version {version}; open it with this pointline-relay once "
                "(it migrates) and copy again"
            )
        accounts = db.execute(
            "SELECT name, folded, password_hash, created FROM accounts"
        ).fetchall()
        sessions = db.execute(
            "SELECT token_hash, folded, expires, purpose, issued FROM sessions ORDER BY rowid"
        ).fetchall()
        key_row = db.execute("SELECT private_key, created FROM relay_key WHERE id = 1").fetchone()
    migrate(target)
    tokens = 0
    mine: set[str] = set()  # only the accounts copied now take their tokens along
    with target.transaction():
        for row in accounts:
            if target.run(
                "INSERT INTO accounts (name, folded, password_hash, created) VALUES (?,?,?,?) "
                "ON CONFLICT DO NOTHING",
                row,
            ):
                mine.add(str(row[1]))
        for row in sessions:
            if str(row[1]) in mine:
                tokens += target.run(
                    "INSERT INTO sessions (token_hash, folded, expires, purpose, issued) "
                    "VALUES (?,?,?,?,?) ON CONFLICT DO NOTHING",
                    row,
                )
        key = "none"
        if key_row is not None:
            present = target.one("SELECT private_key FROM relay_key WHERE id = 1")
            if present is None:
                target.run(
                    "INSERT INTO relay_key (id, private_key, created) VALUES (1, ?, ?)",
                    (bytes(key_row[0]), key_row[1]),
                )
                key = "copied"
            else:
                key = "same" if bytes(present[0]) == bytes(key_row[0]) else "different"
    return Copied(len(mine), len(accounts) - len(mine), tokens, key)
