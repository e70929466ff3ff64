"""A guest device for tests/realinput/test_host_close.py, run in its own network namespace:

    python -m tests.realinput.seated_guest ADDRESS NAME

It finds the hosted table by mDNS on ADDRESS's network (never handed the URL), signs up as NAME
and takes a seat in the host's room, then says on stdout, one line each, what it is told:
``seated CODE`` once in, ``told TEXT`` for the words a player reads when the table closes
(``TableClosed``), ``departed NAME`` for a member who left, ``gone`` when the connection is
over (then it exits 0). Exit 2 when nothing happens for ``WAIT`` seconds.
"""

from __future__ import annotations

import asyncio
import sys

from pointline.net import paths
from pointline.net.client import Disconnected, MemberDeparted, TableClosed
from pointline.net.client._trust import KnownTables
from pointline.net.discovery import TableBrowser
from pointline.net.joining import GuestTokens, connect_table, enter_table
from tests.net.lan_actors import RELAXED, WAIT
from tests.net.support import PASSWORD


def say(line: str) -> None:
    print(line, flush=True)


async def seated(address: str, name: str) -> int:
    folder = paths.data_dir()
    async with TableBrowser([address]) as browser:
        await browser.wait_for(
            lambda tables: any(t.announcement.kind == "table" for t in tables.values()), WAIT
        )
        table = next(t for t in browser.tables.values() if t.announcement.kind == "table")
    client = await connect_table(table, KnownTables(folder), timeouts=RELAXED)
    try:
        joined = await enter_table(client, table, GuestTokens(folder), name, PASSWORD, True)
        say(f"seated {joined.code}")
        async with asyncio.timeout(WAIT):
            async for event in client.events():
                if isinstance(event, TableClosed):
                    say(f"told {event.text}")
                elif isinstance(event, MemberDeparted):
                    say(f"departed {event.name}")
                elif isinstance(event, Disconnected):
                    say("gone")
                    return 0
    except TimeoutError:
        return 2
    finally:
        await client.close()
    say("gone")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(seated(sys.argv[1], sys.argv[2])))
