"""The ``pointline-relay`` command line: flags for every limit and the cluster, ``--print-key``,
and ``pointline-relay migrate`` (bring a store's schema up to date; copy a SQLite relay's
accounts into PostgreSQL with ``--from-sqlite``)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sqlite3
import sys
from dataclasses import fields, replace
from pathlib import Path
from typing import Any, Final

from pointline.net.protocol._wire import WireError
from pointline.net.relay._accounts import FAST_HASH, Accounts, HashParams
from pointline.net.relay._cluster import DEFAULT_TTL, ClusterConfig
from pointline.net.relay._conn import LOOPBACK_TESTS, RelayConfig, tls_context

__all__ = [
    "DEFAULT_DB",
    "build_parser",
    "cluster_from_args",
    "config_from_args",
    "main",
    "migrate_main",
    "print_key",
]

DEFAULT_DB: Final = "pointline-relay.sqlite3"
TEST_PROFILE: Final[dict[str, Any]] = {
    "signin_deadline": 2.0,
    "send_timeout": 1.0,
    "max_connections": 64,
    "hash_params": FAST_HASH,
    **LOOPBACK_TESTS,
}
"""``--test-profile``: what HARNESS.md's relay command line fixes (short deadlines, cheap
password hashing, loopback-friendly per-address limits); every other limit keeps its default."""
TEST_PROFILE_TEXT: Final = (
    "sign-in deadline 2 s, send timeout 1 s, at most 64 sockets, cheap password hashing, "
    "per-address limits raised for loopback"
)
CLUSTER_EXTRA: Final = "a relay cluster needs pip install 'pointline-table[cluster]'"


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: at least 1")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: a positive number of seconds")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pointline-relay",
        description="Relay for Pointline Table online rooms (free fictional points only).",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="port to bind (8765; 0 = any)")
    parser.add_argument(
        "--db",
        default=DEFAULT_DB,
        help=f"accounts database file, created if missing ({DEFAULT_DB} in the current folder)",
    )
    parser.add_argument(
        "--data",
        metavar="FOLDER",
        help="keep the accounts database in this folder (created if missing), instead of --db",
    )
    parser.add_argument(
        "--test-profile",
        action="store_true",
        help="the conformance harness's relay (HARNESS.md, 'The relay cases'): "
        f"{TEST_PROFILE_TEXT}; prints the relay's public key as the first line",
    )
    parser.add_argument("--cert", help="TLS certificate chain (PEM); serves wss://")
    parser.add_argument("--key", help="TLS private key (PEM), with --cert")
    d = RelayConfig()
    parser.add_argument(
        "--max-size", type=_positive_int, default=d.max_size, help="frame cap in bytes"
    )
    limits = parser.add_argument_group("abuse limits")
    limits.add_argument(
        "--max-connections",
        type=_positive_int,
        default=d.max_connections,
        help=f"open sockets in total ({d.max_connections})",
    )
    limits.add_argument(
        "--connections-per-address",
        type=_positive_int,
        default=d.connections_per_address,
        help=f"open sockets per source address ({d.connections_per_address})",
    )
    limits.add_argument(
        "--signin-deadline",
        type=_positive_float,
        default=d.signin_deadline,
        help=f"seconds to sign in after connecting, else closed ({d.signin_deadline:g})",
    )
    limits.add_argument(
        "--tls-handshake-deadline",
        type=_positive_float,
        default=d.tls_handshake_deadline,
        help=f"seconds to finish the TLS handshake after connecting, with --cert, else dropped "
        f"({d.tls_handshake_deadline:g})",
    )
    limits.add_argument(
        "--auth-per-address",
        type=_positive_int,
        default=d.auth_per_address,
        help=f"sign-ins and sign-ups per source address per window ({d.auth_per_address})",
    )
    limits.add_argument(
        "--auth-per-connection",
        type=_positive_int,
        default=d.auth_attempts,
        help=f"sign-ins and sign-ups per connection per window ({d.auth_attempts})",
    )
    limits.add_argument(
        "--failures-per-name",
        type=_positive_int,
        default=d.failures_per_name,
        help=f"failed sign-ins per name and address per window ({d.failures_per_name})",
    )
    limits.add_argument(
        "--auth-window",
        type=_positive_float,
        default=d.auth_window,
        help=f"the sliding window of the sign-in limits, seconds ({d.auth_window:g})",
    )
    limits.add_argument(
        "--hash-workers",
        type=_positive_int,
        default=d.hash_workers,
        help=f"password hashes computed at once ({d.hash_workers})",
    )
    limits.add_argument(
        "--hash-queue",
        type=_positive_int,
        default=d.hash_queue,
        help=f"sign-ins waiting for a hashing slot; more are told 'busy' ({d.hash_queue})",
    )
    limits.add_argument(
        "--message-rate",
        type=_positive_float,
        default=d.message_rate,
        help=f"frames per second per connection ({d.message_rate:g})",
    )
    limits.add_argument(
        "--outbox-frames",
        type=_positive_int,
        default=d.outbox_frames,
        help=f"frames waiting for one slow reader before it is cut ({d.outbox_frames})",
    )
    limits.add_argument(
        "--send-timeout",
        type=_positive_float,
        default=d.send_timeout,
        help=f"seconds one frame may wait for a reader before it is cut ({d.send_timeout:g})",
    )
    limits.add_argument(
        "--token-ttl",
        type=_positive_float,
        default=d.token_ttl,
        help=f"seconds a sign-in token lives ({d.token_ttl:g})",
    )
    limits.add_argument(
        "--tokens-per-account",
        type=_positive_int,
        default=d.tokens_per_account,
        help=f"live tokens per account; a new sign-in revokes the oldest ({d.tokens_per_account})",
    )
    limits.add_argument(
        "--accept-log-interval",
        type=_positive_float,
        default=d.accept_log_interval,
        help=f"seconds between 'out of descriptors' log lines ({d.accept_log_interval:g})",
    )
    limits.add_argument(
        "--hash-time-cost",
        type=_positive_int,
        default=d.hash_params.time_cost,
        help=f"argon2id passes per password hash ({d.hash_params.time_cost})",
    )
    limits.add_argument(
        "--hash-memory",
        type=_positive_int,
        default=d.hash_params.memory_cost,
        help=f"argon2id memory per password hash, KiB ({d.hash_params.memory_cost})",
    )
    cluster = parser.add_argument_group(
        "cluster (README: Running a relay cluster; needs pip install 'pointline-table[cluster]')"
    )
    cluster.add_argument(
        "--store",
        metavar="URL",
        help="postgresql://... : accounts, tokens, relay key and sign-in limits shared by every "
        "relay (instead of --db)",
    )
    cluster.add_argument(
        "--presence", metavar="URL", help="redis://... : the room directory every relay shares"
    )
    cluster.add_argument(
        "--public-url",
        metavar="URL",
        help="how players reach this relay, e.g. wss://relay2.example.org:8765 (default: the "
        "address it listens on)",
    )
    cluster.add_argument(
        "--presence-ttl",
        type=_positive_float,
        default=DEFAULT_TTL,
        help=f"seconds a relay that stopped is still listed, its rooms too ({DEFAULT_TTL:g})",
    )
    nearby = parser.add_argument_group("tables nearby (mDNS, on named addresses only)")
    nearby.add_argument(
        "--announce",
        metavar="NAME",
        help="announce this relay nearby by mDNS as NAME with its open rooms (joining still "
        "takes a code)",
    )
    nearby.add_argument(
        "--announce-on",
        metavar="ADDRESS",
        action="append",
        default=[],
        help="an IPv4 address of this machine to announce on (repeat for several; default: "
        "--host when it names one address)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log every room event")
    parser.add_argument(
        "--print-key",
        action="store_true",
        help="print the relay's public key (for pointline verify --relay-key) and exit",
    )
    return parser


def _open_store(db: str, store: str | None = None) -> Accounts | None:
    """The accounts at ``store`` (PostgreSQL) or ``db`` (SQLite), migrated; None (said on
    stderr in plain words) when they cannot be opened."""
    where = db
    try:
        if store:
            from pointline.net.relay._store_pg import PostgresDatabase, redacted

            where = redacted(store)
            return Accounts(PostgresDatabase(store))
        return Accounts(db)
    except ImportError as exc:
        print(f"pointline-relay: {exc.name} is missing: {CLUSTER_EXTRA}", file=sys.stderr)
    except WireError as exc:
        print(f"pointline-relay: cannot open {where}: {_detail(exc)}", file=sys.stderr)
    except (OSError, sqlite3.Error, RuntimeError) as exc:
        print(f"pointline-relay: cannot open {where}: {exc}", file=sys.stderr)
    return None


def _detail(exc: WireError) -> str:
    return str(getattr(exc, "detail", exc.message)).strip().splitlines()[-1]


def print_key(db: str, store: str | None = None) -> int:
    """``--print-key``: the relay's public key, made (and kept in the store) if it has none."""
    accounts = _open_store(db, store)
    if accounts is None:
        return 2
    try:
        print(accounts.relay_key().public_hex)
    finally:
        accounts.close()
    return 0


_NOT_FLAGS: Final = frozenset({"hash_params", "auth_attempts", "message_burst", "token_slides"})
"""``RelayConfig`` fields not set by a flag of their own name (the rest are, one for one).
``token_slides`` is a hosted table's (``net.hosting``): a club relay's tokens live exactly
``--token-ttl``, its operator's setting."""


def config_from_args(args: argparse.Namespace) -> RelayConfig:
    same = {f.name: getattr(args, f.name) for f in fields(RelayConfig) if f.name not in _NOT_FLAGS}
    if getattr(args, "test_profile", False):
        return replace(RelayConfig(**same, auth_attempts=args.auth_per_connection), **TEST_PROFILE)
    return RelayConfig(
        **same,
        auth_attempts=args.auth_per_connection,
        message_burst=2 * args.message_rate,
        hash_params=HashParams(
            time_cost=args.hash_time_cost,
            memory_cost=args.hash_memory,
            parallelism=HashParams().parallelism,
        ),
    )


def cluster_from_args(args: argparse.Namespace) -> ClusterConfig:
    return ClusterConfig(args.store, args.presence, args.public_url, args.presence_ttl)


def migrate_main(argv: list[str]) -> int:
    """``pointline-relay migrate``: bring the store's schema up to date, and with
    ``--from-sqlite FILE`` copy that relay's accounts, live tokens and key into ``--store``."""
    parser = argparse.ArgumentParser(
        prog="pointline-relay migrate",
        description="Bring a relay store's schema up to date (SQLite --db or PostgreSQL "
        "--store); with --from-sqlite, copy a SQLite relay's accounts into --store once.",
    )
    parser.add_argument("--db", default=DEFAULT_DB, help=f"SQLite file ({DEFAULT_DB})")
    parser.add_argument("--store", metavar="URL", help="postgresql://... (instead of --db)")
    parser.add_argument(
        "--from-sqlite", metavar="FILE", help="copy this SQLite relay's accounts into --store"
    )
    args = parser.parse_args(argv)
    if args.from_sqlite and not args.store:
        parser.error("--from-sqlite copies into a --store postgresql://... database")
    accounts = _open_store(args.db, args.store)  # opening migrates
    if accounts is None:
        return 2
    try:
        print(f"{accounts.label}: schema version {accounts.schema_version}", flush=True)
        if args.from_sqlite:
            from pointline.net.relay._store_pg import copy_accounts

            try:
                done = copy_accounts(args.from_sqlite, accounts.database)
            except (OSError, sqlite3.Error, RuntimeError, WireError) as exc:
                text = _detail(exc) if isinstance(exc, WireError) else str(exc)
                print(f"pointline-relay: cannot copy {args.from_sqlite}: {text}", file=sys.stderr)
                return 2
            keys = {
                "copied": "the relay key was copied (old transcripts keep verifying)",
                "same": "the relay key was there already",
                "different": "PostgreSQL keeps its own relay key (rosters signed before "
                "show the old one)",
                "none": "the file had no relay key",
            }
            print(
                f"copied {done.accounts} accounts ({done.accounts_present} names were there "
                f"already and kept) and {done.tokens} live tokens; {keys[done.key]}",
                flush=True,
            )
    finally:
        accounts.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["migrate"]:
        return migrate_main(argv[1:])
    args = build_parser().parse_args(argv)
    if args.data is not None:
        try:
            Path(args.data).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"pointline-relay: cannot use {args.data}: {exc.strerror}", file=sys.stderr)
            return 2
        args.db = str(Path(args.data) / DEFAULT_DB)
    if args.print_key:
        return print_key(args.db, args.store)
    if bool(args.cert) != bool(args.key):
        print("pointline-relay: --cert and --key go together", file=sys.stderr)
        return 2
    if args.presence and not args.store:
        print(
            "pointline-relay: --presence needs --store: the relays of a cluster share their "
            "accounts, so that a sign-in on one works on the others",
            file=sys.stderr,
        )
        return 2
    if args.public_url and not args.presence:
        print("pointline-relay: --public-url goes with --presence", file=sys.stderr)
        return 2
    if args.public_url and not args.public_url.startswith(("ws://", "wss://")):
        print("pointline-relay: --public-url is a ws:// or wss:// address", file=sys.stderr)
        return 2
    around = None
    if args.announce is not None:
        from pointline.net.relay._announce import announcing, check_announce  # zeroconf

        problem = check_announce(args)
        if problem:
            print(f"pointline-relay: {problem}", file=sys.stderr)
            return 2
        around = announcing(args)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(name)s %(message)s",
    )
    from pointline.net.relay._server import serve_forever  # the server imports this module

    context = tls_context(args.cert, args.key) if args.cert else None
    config = config_from_args(args)
    cluster = cluster_from_args(args)
    try:
        asyncio.run(
            serve_forever(
                args.db,
                args.host,
                args.port,
                context,
                config,
                cluster,
                around,
                key_first=args.test_profile,
            )
        )
    except KeyboardInterrupt:
        return 0
    except ImportError as exc:
        print(f"pointline-relay: {exc.name} is missing: {CLUSTER_EXTRA}", file=sys.stderr)
        return 2
    except WireError as exc:  # the store cannot be reached at the start
        print(f"pointline-relay: {exc.message} ({_detail(exc)})", file=sys.stderr)
        return 2
    return 0
