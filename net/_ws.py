"""One text frame framed at once by websockets' sans-I/O protocol, for the relay's senders and
the client: the common case of a send, without waking a writer task (``ws.send``, with its flow
control, stays for the rest)."""

from __future__ import annotations

from typing import Final

from websockets.asyncio.connection import Connection
from websockets.protocol import State

__all__ = ["PING_INTERVAL", "PING_TIMEOUT", "WRITE_NOW_LIMIT", "frame_now"]

PING_INTERVAL: Final = 2.0
"""Seconds between two websocket pings, from the client and from the relay alike."""
PING_TIMEOUT: Final = 3.0
"""Seconds a ping may wait for its pong: a connection silent longer is closed, so either side
notices a stall within ``PING_INTERVAL + PING_TIMEOUT`` (5 s; spec/ONLINE.md §9 "Limits")."""

WRITE_NOW_LIMIT: Final = 64 * 1024
"""Bytes a connection's transport may hold unsent and still take a frame at once."""


def frame_now(ws: Connection, data: str | bytes, held: int = 0) -> list[bytes] | None:
    """The bytes to write for the text frame ``data`` (``bytes``: already UTF-8), framed by the
    connection's own protocol (``ws.protocol``: it masks a client's frames, as it must), or
    None when the frame cannot go at once: the connection is not open, or its transport (with
    ``held`` bytes the caller keeps for it) holds more than ``WRITE_NOW_LIMIT`` unsent. The
    caller hands the bytes to ``ws.transport`` in order with everything else it sends."""
    if ws.protocol.state is not State.OPEN or ws.transport.is_closing():
        return None
    if ws.transport.get_write_buffer_size() + held > WRITE_NOW_LIMIT:
        return None
    ws.protocol.send_text(data.encode() if isinstance(data, str) else data)
    return ws.protocol.data_to_send()
