"""A stall proxy on loopback: it forwards each client's TCP connection to the relay and can
hold all traffic (both ways, every connection, new ones included), or drop every connection at
once, at a moment the caller chooses (issue 43). ``python -m bench stalls`` and
tests/net/test_net_stalls.py drive it.

A hold is what a Wi-Fi blip does to TCP: nothing moves, nothing is lost; what was sent during
it arrives after it (the kernel's retransmissions, here the proxy's buffers). A drop is an
access point change: every socket dies without a close frame.
"""

from __future__ import annotations

import asyncio
import contextlib

__all__ = ["StallProxy"]

_CHUNK = 64 * 1024


class StallProxy:
    """``url`` reaches the relay at ``host``:``port`` through this proxy (``ws://`` only)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self._open = asyncio.Event()
        self._open.set()
        self._server: asyncio.Server | None = None
        self._links: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self._release: asyncio.TimerHandle | None = None
        self.stalls = 0
        self.drops = 0
        self.accepted = 0

    @classmethod
    async def to(cls, relay_url: str) -> StallProxy:
        """A started proxy to the relay at ``relay_url`` (``ws://host:port``)."""
        host, _, port = relay_url.removeprefix("ws://").rpartition(":")
        proxy = cls(host.strip("[]"), int(port))
        proxy._server = await asyncio.start_server(proxy._accept, "127.0.0.1", 0)
        return proxy

    @property
    def url(self) -> str:
        assert self._server is not None
        port = self._server.sockets[0].getsockname()[1]
        return f"ws://127.0.0.1:{port}"

    @property
    def holding(self) -> bool:
        return not self._open.is_set()

    def stall(self, seconds: float) -> None:
        """Hold all traffic now, for ``seconds`` (a timer lets it go)."""
        self.stalls += 1
        self._open.clear()
        if self._release is not None:
            self._release.cancel()
        self._release = asyncio.get_running_loop().call_later(seconds, self.release)

    def release(self) -> None:
        self._release = None
        self._open.set()

    def drop(self) -> None:
        """Cut every connection now, both sides, with no close frame (a reset)."""
        self.drops += 1
        for client, upstream in list(self._links):
            client.transport.abort()
            upstream.transport.abort()
        self._links.clear()

    async def close(self) -> None:
        self.release()
        self.drop()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        await self._open.wait()  # during a stall a new connection waits too
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        except OSError:
            writer.transport.abort()
            return
        link = (writer, up_writer)
        self._links.add(link)
        try:
            await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))
        finally:
            self._links.discard(link)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(_CHUNK):
                await self._open.wait()
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            with contextlib.suppress(OSError, RuntimeError):
                writer.close()
