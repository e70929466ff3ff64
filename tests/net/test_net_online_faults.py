"""Faults injected by a misbehaving client over a real relay: every honest peer ends without a
result, with the right reason and seat, within its deadline; the relay keeps serving another
room meanwhile; every transcript is written and the honest ones verify."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pointline.kernel import Choice, EndReason
from pointline.net.client._relay_client import ClientEvent, RelayClient, RelayError
from pointline.net.protocol._peer import SessionEnded
from tests.net.support import (
    TIMEOUTS,
    assert_complete,
    assert_transcripts,
    play,
    random_chooser,
    relay,
    resign,
    run,
    seated,
    session,
)

CHEATER = 1
SEATS = 3
AT_THROW = 2  # the fault happens in the second throw round
SLACK = 1.5  # seconds of scheduling slack on a busy 2-core machine

Payload = dict[str, Any]
Hook = Callable[[RelayClient, Payload], list[Payload]]


@dataclass(frozen=True)
class Fault:
    name: str
    reason: EndReason
    within: float  # seconds from the injection to every honest peer's end
    hook: Hook
    when: str = "commit"  # the cheater's frame of throw AT_THROW where the fault happens


def _at(kind: str, payload: Payload) -> bool:
    return payload.get("kind") == kind and payload.get("throw") == AT_THROW


_silent: set[int] = set()


def _silent_from(kind: str) -> Hook:
    """Send nothing at all from the ``kind`` of throw AT_THROW on (a seat that stops answering)."""

    def hook(c: RelayClient, p: Payload) -> list[Payload]:
        if _at(kind, p):
            _silent.add(id(c))
        return [] if id(c) in _silent else [p]

    return hook


silent_commit = _silent_from("commit")
silent_reveal = _silent_from("reveal")


def socket_loss(c: RelayClient, p: Payload) -> list[Payload]:
    if _at("commit", p):
        c.resume_patience = (
            0.0  # this device does not come back (a blip that heals: test_net_stalls)
        )
        c.ws.transport.abort()  # the socket dies mid-hand, no close handshake
        return []
    return [p]


def other_nonce(c: RelayClient, p: Payload) -> list[Payload]:
    if _at("reveal", p):
        return [resign(c, p, nonce=hashlib.sha256(b"another nonce").digest())]
    return [p]


def other_choice(c: RelayClient, p: Payload) -> list[Payload]:
    if _at("reveal", p):
        choice = Choice.from_bytes(p["choice"].encode("ascii"))
        other = Choice(choice.pass_amount, choice.dont_pass_amount + 10)
        return [resign(c, p, choice=other.to_bytes())]
    return [p]


def forged_signature(c: RelayClient, p: Payload) -> list[Payload]:
    if _at("commit", p):
        sig = p["sig"]
        return [{**p, "sig": ("0" if sig[0] != "0" else "1") + sig[1:]}]
    return [p]


_first: dict[int, Payload] = {}


def replay_old(c: RelayClient, p: Payload) -> list[Payload]:
    _first.setdefault(id(c), p)
    if _at("commit", p):
        return [_first[id(c)], p]
    return [p]


def another_table(c: RelayClient, p: Payload) -> list[Payload]:
    return [resign(c, p, table="another-room-table")] if _at("commit", p) else [p]


def garbage_payload(c: RelayClient, p: Payload) -> list[Payload]:
    return [{"kind": "commit", "garbage": ["\u0000", 1e308, None]}] if _at("commit", p) else [p]


def oversized(c: RelayClient, p: Payload) -> list[Payload]:
    if _at("commit", p):
        c.send_text(json.dumps({"op": "send", "payload": {"pad": "x" * (70 * 1024)}}))
        return []
    return [p]


def just_under_the_cap(c: RelayClient, p: Payload) -> list[Payload]:
    if _at("commit", p):  # the relay forwards it (64 KiB cap); the peers refuse it
        empty = json.dumps({"op": "send", "payload": {**p, "pad": ""}}, separators=(",", ":"))
        return [{**p, "pad": "x" * (64 * 1024 - len(empty) - 8)}]
    return [p]


def background(c: RelayClient, p: Payload) -> list[Payload]:
    if _at("commit", p):
        asyncio.get_running_loop().call_soon(c.background)  # right after this commit
        return [p]
    return [p]


FAULTS = [
    Fault("stop answering (no commit)", EndReason.DEADLINE, TIMEOUTS.confirm, silent_commit),
    Fault(
        "stop answering (no reveal)", EndReason.DEADLINE, TIMEOUTS.response, silent_reveal, "reveal"
    ),
    # the relay holds a dropped seat for its resume: the others end at the commit's deadline
    Fault("socket closed mid-hand", EndReason.DEADLINE, TIMEOUTS.confirm, socket_loss),
    Fault("reveal another nonce", EndReason.BAD_REVEAL, TIMEOUTS.response, other_nonce, "reveal"),
    Fault("reveal another choice", EndReason.BAD_REVEAL, TIMEOUTS.response, other_choice, "reveal"),
    Fault("forged signature", EndReason.BAD_SIGNATURE, TIMEOUTS.response, forged_signature),
    Fault("replayed old message", EndReason.REPLAY, TIMEOUTS.response, replay_old),
    Fault("message for another table", EndReason.NON_MEMBER, TIMEOUTS.response, another_table),
    Fault("garbage payload", EndReason.MALFORMED, TIMEOUTS.response, garbage_payload),
    Fault("oversized frame", EndReason.DEPARTURE, TIMEOUTS.response, oversized),
    Fault("frame just under the cap", EndReason.MALFORMED, TIMEOUTS.response, just_under_the_cap),
    Fault("went to the background", EndReason.BACKGROUND, TIMEOUTS.response, background),
]


def _ended_at(log: list[tuple[float, ClientEvent]]) -> tuple[float, SessionEnded]:
    for at, event in log:
        if isinstance(event, SessionEnded):
            return at, event
    raise AssertionError(f"no SessionEnded among {[e for _, e in log]}")


@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
def test_a_fault_ends_the_session_for_every_honest_peer(tmp_path: Path, fault: Fault) -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        async with relay(tmp_path, max_size=64 * 1024) as running:
            clients = await seated(running.url, SEATS, prefix="f")
            cheater = clients[CHEATER]
            injected: list[float] = []

            def hook(payload: Payload) -> list[Payload]:
                if _at(fault.when, payload) and not injected:
                    injected.append(loop.time())
                return fault.hook(cheater, payload)

            cheater.outbound = hook  # type: ignore[method-assign]
            logs: list[list[tuple[float, ClientEvent]]] = [[] for _ in clients]
            other_room = asyncio.ensure_future(session(running.url, 2, seed=9, prefix="o"))
            peers = await asyncio.gather(
                *(
                    play(c, random_chooser(40 + i), logs[i], timeout=20)
                    for i, c in enumerate(clients)
                )
            )
            for c in clients:
                await c.close()
            assert injected, "the fault was never injected"
            honest = [s for s in range(SEATS) if s != CHEATER]
            for s in honest:
                at, ended = _ended_at(logs[s])
                assert ended == SessionEnded(fault.reason, CHEATER), (s, ended)
                assert at - injected[0] <= fault.within + SLACK, (s, at - injected[0])
                peer = peers[s]
                assert peer.result is None and peer.table.result is None
                assert peer.table.ending is not None
                assert peer.table.ending.reason is fault.reason
            # the honest peers agree on every balance (the hand in flight voided the same way)
            balances = {tuple(peers[s].table.balance(i) for i in range(SEATS)) for s in honest}
            assert len(balances) == 1
            assert_transcripts([clients[s] for s in honest])
            assert cheater.transcript_path is not None and cheater.transcript_path.exists()
            # the relay kept serving: the other room completed meanwhile, and still serves
            other_clients, other_peers = await other_room
            assert_complete(other_clients, other_peers)
            probe = await RelayClient.connect(running.url)
            await probe.signup("probe_after", "password-123")
            await probe.close()

    run(scenario(), timeout=45)


def test_garbage_text_frames_are_refused_by_the_relay_and_the_session_goes_on(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            clients = await seated(running.url, 2, prefix="g")
            noisy = clients[1]

            def hook(payload: Payload) -> list[Payload]:
                if _at("commit", payload):
                    noisy.send_text("{not json at all")
                    noisy.send_text('{"op": "send", "payload": "not an object"}')
                return [payload]

            noisy.outbound = hook  # type: ignore[method-assign]
            logs: list[list[tuple[float, ClientEvent]]] = [[], []]
            peers = await asyncio.gather(
                *(play(c, random_chooser(70 + i), logs[i]) for i, c in enumerate(clients))
            )
            for c in clients:
                await c.close()
            assert_complete(clients, list(peers))
            errors = [e for _, e in logs[1] if isinstance(e, RelayError)]
            assert [e.code for e in errors] == ["bad_frame", "bad_frame"]
            assert not any(isinstance(e, RelayError) for _, e in logs[0])

    run(scenario(), timeout=45)
