"""The reference client behind the stdio interface: ``net.client._relay_client.RelayClient`` over a
real websocket to the relay the harness names (``"transport": "socket"``).

    python -m pointline.conformance.online.adapters.client [--mutant NAME]
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from typing import Any

from pointline.conformance.online import stdio
from pointline.conformance.online.adapters.options import adapter_options
from pointline.kernel import Choice
from pointline.net.client._relay_client import (
    RelayClient,
    RelayError,
    SessionStarted,
    TranscriptSaved,
)
from pointline.net.errors import ClientError
from pointline.net.protocol._peer import Timeouts

__all__ = ["main", "run"]


def _stdin_lines(
    loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[dict[str, Any] | None]
) -> None:
    for line in sys.stdin:
        if line.strip():
            loop.call_soon_threadsafe(queue.put_nowait, json.loads(line))
    loop.call_soon_threadsafe(queue.put_nowait, None)


async def run() -> int:
    loop = asyncio.get_running_loop()
    commands: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
    threading.Thread(target=_stdin_lines, args=(loop, commands), daemon=True).start()
    hello = await commands.get()
    assert hello is not None and hello.get("op") == "hello"
    stdio.emit({"op": "hello", "interface": stdio.INTERFACE, "transport": "socket"})
    play = await commands.get()
    if play is None or play.get("op") != "play":
        return 0  # the harness closed: a case this client cannot play (HARNESS.md)
    if play.get("transcript_dir"):
        os.environ["POINTLINE_DATA_DIR"] = play["transcript_dir"]
    t = play.get("timeouts") or {}
    client = await RelayClient.connect(play["relay"], timeouts=Timeouts(**t) if t else None)
    try:
        try:
            await client.signup(play["name"], play["password"])
            room = await client.join_room(play["code"])
        except ClientError as error:
            stdio.emit({"op": "error", "code": error.code, "message": error.text})
            return 1
        stdio.emit({"op": "joined", "seat": room.seat})
        final: list[dict[str, Any]] = []
        async for event in client.events():
            peer = client.peer
            if isinstance(event, SessionStarted):
                stdio.emit({"op": "started", "table_id": event.table_id, "seat": event.seat})
                continue
            if peer is None:
                if isinstance(event, RelayError) and event.code == "bad_roster":
                    # the roster fails ONLINE.md §2's check: no session, the room is left
                    stdio.emit({"op": "error", "code": event.code, "message": event.message})
                    return 0
                continue
            if isinstance(event, TranscriptSaved):
                for line in final:
                    line["transcript"] = str(event.path)
                    stdio.emit(line)
                final.clear()
                break
            for line in stdio.lines_for(peer, event, None):
                if line["op"] in ("complete", "ended"):
                    final.append(line)
                    continue
                stdio.emit(line)
                if line["op"] == "round":
                    choose = await commands.get()
                    if choose is None:
                        return 1
                    if choose.get("op") == "leave":
                        await client.leave()  # the notice and the ending, then the leave
                    elif not peer.is_finished:
                        client.commit(Choice(choose["pass"], choose["dont_pass"]))
        for line in final:
            stdio.emit(line)
        return 0
    finally:
        await client.close()


def main(argv: list[str] | None = None) -> int:
    adapter_options("client", argv)
    return asyncio.run(run())


if __name__ == "__main__":
    sys.exit(main())
