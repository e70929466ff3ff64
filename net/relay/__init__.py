"""The relay side: accounts, rooms and forwarding over websockets; it deals nothing.

The public face: the GUI (a hosted table), the benchmarks and the commands import from here;
the modules behind it are private. ``_core`` (``RelayCore``, the sans-IO core: accounts
requests, rooms, seats, limits, deadlines, dispatch and the signed roster; frames and time in,
frames, closes and store/presence calls out), ``_server`` (``Relay``, its thin websockets
driver: one timer for the core's next deadline), ``_conn`` (the connection caps and each
connection's sender, which reports its backlog to the core), ``_frames`` (a ``send``
frame's payload cut out as received), ``_rooms`` (join codes and seats), ``_accounts``
(sign-in, tokens, the relay key) over ``_store`` (the storage interface, SQLite) or
``_store_pg`` (PostgreSQL), ``_cluster`` (routing between relays) over ``_presence`` (the Redis
directory), ``_announce`` (a club relay on the local network) and ``_cli`` (the
``pointline-relay`` command, ``python -m pointline.net.relay``).

It imports ``net.protocol`` and the kernel; never ``net.client``.
"""

from pointline.net.relay._accounts import (
    FAST_HASH,
    MIN_PASSWORD,
    TOKEN_TTL,
    AccountError,
    Accounts,
    HashParams,
)
from pointline.net.relay._cluster import ClusterConfig
from pointline.net.relay._core import RelayCore
from pointline.net.relay._server import (
    LOOPBACK_TESTS,
    Relay,
    RelayConfig,
    RunningRelay,
    running_relay,
    serve_forever,
    sign_roster,
    tls_context,
)

__all__ = [
    "FAST_HASH",
    "LOOPBACK_TESTS",
    "MIN_PASSWORD",
    "TOKEN_TTL",
    "AccountError",
    "Accounts",
    "ClusterConfig",
    "HashParams",
    "Relay",
    "RelayConfig",
    "RelayCore",
    "RunningRelay",
    "running_relay",
    "serve_forever",
    "sign_roster",
    "tls_context",
]
