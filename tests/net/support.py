"""What the relay and online tests share: a runner, a private data folder, a real relay on
loopback with real websocket ``RelayClient``s, and a self-signed certificate for TLS.

A plain module (not a conftest): test files import from it by name.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import pytest

from pointline.conformance.online.sim import random_choice
from pointline.kernel import Choice, Table
from pointline.net.client._relay_client import ClientEvent, RelayClient
from pointline.net.client._verify_command import verify_transcript
from pointline.net.protocol._messages import parse, sign, to_frame
from pointline.net.protocol._peer import Peer, RoundOpened, Timeouts
from pointline.net.protocol._wire import RoomJoined
from pointline.net.relay._accounts import FAST_HASH
from pointline.net.relay._server import (
    LOOPBACK_TESTS,
    RelayConfig,
    RunningRelay,
    running_relay,
    tls_context,
)

TIMEOUTS = Timeouts(confirm=1.0, response=0.5, session=60.0, receipts=1.0)
"""Fast deadlines for the fault tests (a fault must end the session within these)."""
RELAXED = Timeouts(confirm=10.0, response=5.0, session=120.0, receipts=5.0)
"""For sessions that must complete: nobody waits on these, but a busy 2-core machine with eight
peers in one process can take longer than 0.5 s for one round."""
PASSWORD = "password-123"
Chooser = Callable[[Table, int], Choice]


def random_chooser(seed: int) -> Chooser:
    """A legal choice at random (seeded): any split at come-out, any reduction later."""
    rng = random.Random(seed)

    def choose(table: Table, seat: int) -> Choice:
        return random_choice(table, seat, rng)

    return choose


def relay_config(**changes: Any) -> RelayConfig:
    """A relay's limits for tests: fast hashing, the per-address limits raised (every client
    is 127.0.0.1), then ``changes``."""
    return RelayConfig(hash_params=FAST_HASH, **{**LOOPBACK_TESTS, **changes})


async def until(predicate: Callable[[], object], timeout: float = 10.0, what: str = "") -> None:
    """Wait until ``predicate()`` holds, checking every few milliseconds (the loop runs between
    checks, so the condition itself ends the wait, never a duration); a ``TimeoutError`` naming
    ``what`` after ``timeout`` seconds."""
    try:
        async with asyncio.timeout(timeout):
            while not predicate():
                await asyncio.sleep(0.005)
    except TimeoutError:
        raise TimeoutError(f"timed out waiting for {what or predicate}") from None


E = TypeVar("E")


async def next_event(client: RelayClient, kind: type[E], timeout: float = 10.0) -> E:
    """The client's next event of type ``kind`` (the events before it are dropped); a
    ``TimeoutError`` after ``timeout`` seconds."""
    async with asyncio.timeout(timeout):
        while not isinstance(event := await client.next_event(), kind):
            pass
    return event


@asynccontextmanager
async def relay(tmp_path: Path, **config: Any) -> AsyncIterator[RunningRelay]:
    async with running_relay(tmp_path / "relay.sqlite3", config=relay_config(**config)) as running:
        yield running


_counter = [0]


async def seated(
    url: str, seats: int, prefix: str = "p", timeouts: Timeouts = TIMEOUTS
) -> list[RelayClient]:
    """``seats`` signed-up clients in one started room (seat i = clients[i])."""
    _counter[0] += 1
    clients = [await RelayClient.connect(url, timeouts=timeouts) for _ in range(seats)]
    for i, c in enumerate(clients):
        await c.signup(f"{prefix}{_counter[0]}_{i}", PASSWORD)
    await one_room(clients)
    await start_room(clients)
    return clients


async def one_room(clients: list[RelayClient]) -> RoomJoined:
    """The first client creates a room and the others join it (not started); the room."""
    room = await clients[0].create_room()
    for c in clients[1:]:
        await c.join_room(room.code)
    return room


async def start_room(clients: list[RelayClient]) -> None:
    """The creator (``clients[0]``) starts the room; every other client sees it start."""
    await clients[0].start()
    for c in clients[1:]:
        await c.wait_started(10.0)


async def play(
    client: RelayClient,
    choose: Chooser,
    log: list[tuple[float, ClientEvent]] | None = None,
    timeout: float = 30.0,
) -> Peer:
    """Commit ``choose``'s choice at every round; every event (with loop time) goes to ``log``."""
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(timeout):
        async for event in client.events():
            if log is not None:
                log.append((loop.time(), event))
            peer = client.peer
            if isinstance(event, RoundOpened) and peer is not None and not peer.is_finished:
                client.commit(choose(peer.table, peer.seat))
    assert client.peer is not None
    return client.peer


async def session(
    url: str, seats: int, seed: int = 1, prefix: str = "p"
) -> tuple[list[RelayClient], list[Peer]]:
    """A whole honest session; every client closed afterwards."""
    clients = await seated(url, seats, prefix, RELAXED)
    try:
        peers = await asyncio.gather(
            *(play(c, random_chooser(seed * 100 + i)) for i, c in enumerate(clients))
        )
    finally:
        for c in clients:
            await c.close()
    return clients, list(peers)


def assert_complete(clients: list[RelayClient], peers: list[Peer]) -> None:
    """Every client has the same result, matched receipts, and a transcript that verifies."""
    results = {p.result for p in peers}
    assert len(results) == 1 and None not in results
    assert len({p.table.hands_resolved for p in peers}) == 1
    assert all(p.receipt_status is not None and p.receipt_status.value == "matched" for p in peers)
    assert_transcripts(clients)


def assert_transcripts(clients: list[RelayClient]) -> None:
    for c in clients:
        assert c.transcript_path is not None and c.transcript_path.exists()
        report = verify_transcript(c.transcript_path)
        assert report.ok, (c.transcript_path, report.problem)


def resign(client: RelayClient, payload: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """``payload`` changed and signed again with the client's own session key."""
    peer, key = client.peer, client.signing_key
    assert peer is not None and key is not None
    message = parse(payload, peer.table_id, {m.seat: m.public_key for m in peer.roster})
    return to_frame(sign(replace(message, **changes), key))  # type: ignore[type-var]


T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
    """Run ``coro`` on a new event loop, failing after ``timeout`` seconds."""

    async def bounded() -> T:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(bounded())


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private ``POINTLINE_DATA_DIR`` for the test (transcripts land there)."""
    folder = tmp_path / "data"
    monkeypatch.setenv("POINTLINE_DATA_DIR", str(folder))
    return folder


def self_signed(tmp_path: Path) -> tuple[Path, Path]:
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def tls_relay(tmp_path: Path, cert: Path, key: Path) -> AbstractAsyncContextManager[RunningRelay]:
    """A relay serving ``wss://`` on localhost with ``cert`` and ``key``."""
    config = RelayConfig(hash_params=FAST_HASH, **LOOPBACK_TESTS)
    return running_relay(
        tmp_path / "tls.sqlite3", "localhost", 0, config, tls_context(str(cert), str(key))
    )
