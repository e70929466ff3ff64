"""Raw relay frames for the relay tests: a websocket speaking the relay's JSON by hand, a relay
with ``n`` of them connected, and the steps to a room.

A plain module (not a test file): the relay and strict-JSON tests import it by name.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from pointline.net.protocol._keys import SigningKey
from pointline.net.relay._server import RunningRelay, running_relay
from tests.net.support import PASSWORD, relay_config

__all__ = ["PASSWORD", "WAIT", "Raw", "drain", "relay_and_clients", "room_of", "started_room"]

WAIT = 5.0
_NOT_JSON = "a round trip"


class Raw:
    """A websocket speaking raw relay frames."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.key = SigningKey.generate().public_hex
        self.token = ""

    async def send(self, doc: dict[str, Any] | str | bytes) -> None:
        await self.ws.send(doc if isinstance(doc, str | bytes) else json.dumps(doc))

    async def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        doc = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        assert isinstance(doc, dict)
        return doc

    async def ask(self, doc: dict[str, Any] | str | bytes) -> dict[str, Any]:
        await self.send(doc)
        return await self.recv()

    async def signup(self, name: str, password: str = PASSWORD) -> dict[str, Any]:
        reply = await self.ask({"op": "signup", "name": name, "password": password})
        if reply["op"] == "signed_in":
            self.token = reply["token"]
        return reply

    async def create(self) -> dict[str, Any]:
        return await self.ask({"op": "create_room", "token": self.token, "session_key": self.key})

    async def join(self, code: str) -> dict[str, Any]:
        return await self.ask(
            {"op": "join_room", "token": self.token, "code": code, "session_key": self.key}
        )

    async def start(self) -> dict[str, Any]:
        return await self.ask({"op": "start", "token": self.token})

    async def nothing_waiting(self) -> bool:
        """True when the relay has sent this socket nothing it has not read yet: a round trip,
        not a wait for a duration. The relay answers a frame that is not JSON with
        ``bad_frame``, through the same queue as everything else this socket gets, so anything
        sent to it before would arrive ahead of that answer.

        What the relay was handling for another socket is done once that socket has had an
        answer of its own (``ask``): only then does this check cover it."""
        reply = await self.ask(_NOT_JSON)
        return reply.get("op") == "error" and reply.get("code") == "bad_frame"


@asynccontextmanager
async def relay_and_clients(
    tmp_path: Path, n: int, **config: Any
) -> AsyncIterator[tuple[RunningRelay, list[Raw]]]:
    async with running_relay(tmp_path / "relay.sqlite3", config=relay_config(**config)) as relay:
        sockets = [await connect(relay.url) for _ in range(n)]
        try:
            yield relay, [Raw(ws) for ws in sockets]
        finally:
            for ws in sockets:
                await ws.close()


async def room_of(clients: list[Raw]) -> str:
    """Sign everyone up, the first creates a room, the rest join; returns the code."""
    for i, c in enumerate(clients):
        assert (await c.signup(f"player{i}"))["op"] == "signed_in"
    room = await clients[0].create()
    assert room["op"] == "room", room
    for c in clients[1:]:
        assert (await c.join(room["code"]))["op"] == "room"
    return str(room["code"])


async def started_room(clients: list[Raw]) -> list[Raw]:
    """Everyone in one room, started by the first (every ``started`` read)."""
    await room_of(clients)
    await clients[0].send({"op": "start", "token": clients[0].token})
    for c in clients:
        await drain(c, "started")
    return clients


async def drain(c: Raw, op: str) -> dict[str, Any]:
    """Frames until one with ``op``."""
    while True:
        doc = await c.recv()
        if doc["op"] == op:
            return doc
