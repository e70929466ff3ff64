"""The two processes of tests/net/test_net_lan.py, each run inside its own network namespace:

    python -m tests.net.lan_actors host ADDRESS    # hosts "Kitchen table" as alice, plays
    python -m tests.net.lan_actors guest ADDRESS   # browses, finds it, signs up as bob, plays
    python -m tests.net.lan_actors crash ADDRESS   # hosts, and is killed at the first throw

The guest is never handed the URL: it finds the table by mDNS on ADDRESS's network. Each
prints ``transcript PATH`` at the end (and ``fingerprint``/``words`` lines), exit 0 on a
complete session, 3 for one that ended without a result. Data (transcripts, certificate,
tokens) go to ``$POINTLINE_DATA_DIR``.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

from pointline.net import paths
from pointline.net.client._relay_client import play, steady_choice
from pointline.net.client._trust import KnownTables
from pointline.net.discovery import TableBrowser
from pointline.net.hosting import HostedTable
from pointline.net.joining import GuestTokens, connect_table, enter_table
from pointline.net.protocol._peer import Thrown, Timeouts
from pointline.net.relay._accounts import FAST_HASH
from pointline.net.relay._server import RelayConfig

WAIT = 60.0
RELAXED = Timeouts(confirm=10.0, response=5.0, session=120.0, receipts=5.0)


def _killed_at_first_throw(event: object) -> None:
    if isinstance(event, Thrown):
        os.kill(os.getpid(), signal.SIGKILL)  # a host that crashes: no goodbye of any kind


async def crash(address: str) -> int:
    return await host(address, _killed_at_first_throw)


async def host(address: str, on_event: Callable[[Any], None] | None = None) -> int:
    config = RelayConfig(hash_params=FAST_HASH)  # every other limit as a real relay has it
    seated = asyncio.Event()
    table = HostedTable(
        "Kitchen table", "alice", address, on_seats=lambda n: (n >= 2 and seated.set()) or None
    )
    table.config = config
    await table.open()
    try:
        print(f"fingerprint {table.fingerprint}", flush=True)
        print(f"words {' '.join(table.words)}", flush=True)
        async with asyncio.timeout(WAIT):
            await seated.wait()
        client = table.client
        assert client is not None
        client.timeouts = RELAXED
        await table.start()
        peer = await play(client, steady_choice, on_event, timeout=WAIT)
        print(f"transcript {client.transcript_path}", flush=True)
        return 0 if peer.result is not None else 3
    finally:
        await table.close()


async def guest(address: str) -> int:
    folder = paths.data_dir()
    async with TableBrowser([address]) as browser:
        await browser.wait_for(
            lambda tables: any(t.announcement.kind == "table" for t in tables.values()), WAIT
        )
        table = next(t for t in browser.tables.values() if t.announcement.kind == "table")
    print(f"found {table.announcement.name} of {table.announcement.host} at {table.url}")
    assert table.announcement.fingerprint is not None
    print(f"fingerprint {table.announcement.fingerprint}", flush=True)
    client = await connect_table(table, KnownTables(folder), timeouts=RELAXED)
    try:
        await enter_table(client, table, GuestTokens(folder), "bob", "password-123", signup=True)
        await client.wait_started(WAIT)
        peer = await play(client, steady_choice, timeout=WAIT)
    finally:
        await client.close()
    print(f"transcript {client.transcript_path}", flush=True)
    return 0 if peer.result is not None else 3


async def browse(address: str) -> int:
    """Print the first relay announced nearby (for ``--announce``)."""
    async with TableBrowser([address]) as browser:
        await browser.wait_for(
            lambda tables: any(t.announcement.kind == "relay" for t in tables.values()), WAIT
        )
        found = next(t for t in browser.tables.values() if t.announcement.kind == "relay")
    ann = found.announcement
    print(f"relay {ann.name} rooms={ann.rooms} url={found.url}", flush=True)
    return 0


def main() -> int:
    role, address = sys.argv[1], sys.argv[2]
    actor = {"host": host, "guest": guest, "browse": browse, "crash": crash}[role]
    return asyncio.run(actor(address))


if __name__ == "__main__":
    sys.exit(main())
