"""In-memory harness for the protocol tests: N peers, a tiny router and a fake clock, and the
checks the protocol tests share (how a session ended, what was voided, a transcript's verdict).

A plain module (not a test file): the ``test_net_protocol*``, ``test_net_verify`` and other
files import it by name; ``test_net_protocol_harness.py`` checks the harness itself.
"""

from __future__ import annotations

import hashlib
import random
import tempfile
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pointline.conformance.online.sim import nonces as seeded_nonces
from pointline.conformance.online.sim import random_choice as random_choice
from pointline.conformance.online.sim import tick_to_next_deadline
from pointline.kernel import Choice, Ending, EndReason, Phase, Table, Voided
from pointline.net.client._transcript_file import save_transcript
from pointline.net.client._verify_command import verify_transcript
from pointline.net.protocol._keys import SigningKey
from pointline.net.protocol._messages import Message, parse, sign, to_frame
from pointline.net.protocol._peer import Event, Member, Peer, SessionEnded, Step, Timeouts
from pointline.net.protocol._verify import Report

Frame = dict[str, Any]
Filter = Callable[[Frame], list[Any]]


def steady_choice(table: Table, seat: int, rng: random.Random) -> Choice:
    """Pass 10 and Don't Pass 10 at come-out, keep everything in the point phase."""
    del rng
    if table.phase is Phase.COME_OUT:
        return Choice(10, 10) if table.balance(seat) >= 20 else Choice(0, 0)
    c = table.contracts(seat)
    return Choice(c.pass_amount, c.dont_pass_amount)


@dataclass
class Net:
    """``n`` peers wired through a router; ``filters[seat]`` rewrites that seat's frames."""

    n: int
    table_id: str = "table-1"
    timeouts: Timeouts = field(default_factory=Timeouts)
    seed: int = 0
    choose: Callable[[Table, int, random.Random], Choice] = steady_choice
    nonce_sources: dict[int, Callable[[], bytes]] = field(default_factory=dict)
    chaos: bool = False

    def __post_init__(self) -> None:
        self.now = 1000.0
        self.rng = random.Random(self.seed)
        self.keys = [
            SigningKey.from_bytes(hashlib.sha256(f"key/{self.seed}/{i}".encode()).digest())
            for i in range(self.n)
        ]
        self.roster = tuple(Member(i, f"player{i}", k.public_key) for i, k in enumerate(self.keys))
        self.peers = [
            Peer(
                self.table_id,
                self.roster,
                i,
                self.keys[i],
                self.timeouts,
                self.now,
                nonce_source=self.nonce_sources.get(i, seeded_nonces(f"{self.seed}/{i}")),
            )
            for i in range(self.n)
        ]
        self.filters: dict[int, Filter] = {}
        self.silent: set[int] = set()  # seats that neither commit nor send anything
        self.log: dict[int, list[Event]] = {i: [] for i in range(self.n)}
        self.sent: dict[int, list[Frame]] = {i: [] for i in range(self.n)}
        self.queues: dict[tuple[int, int], deque[tuple[int, Any]]] = {}
        self._stamp = 0

    # ------------------------------------------------------------------ helpers
    def honest(self, exclude: int | None = None) -> list[Peer]:
        return [p for p in self.peers if p.seat != exclude and p.seat not in self.silent]

    def signed(self, seat: int, message: Message) -> Frame:
        """A frame signed with ``seat``'s key (a misbehaving peer lying on its own behalf)."""
        return to_frame(sign(message, self.keys[seat]))

    def inject(self, from_seat: int, frame: Any, to: list[int] | None = None) -> None:
        """Deliver ``frame`` as if the relay forwarded it from ``from_seat``."""
        for q in self.peers:
            if q.seat != from_seat and (to is None or q.seat in to):
                q.receive(frame, from_seat, self.now)
        self.collect()

    def collect(self) -> None:
        for p in self.peers:
            self.log[p.seat].extend(p.events())

    def _gather(self) -> None:
        for p in self.peers:
            for frame in p.outgoing():
                if p.seat in self.silent:
                    continue
                self.sent[p.seat].append(frame)
                rewrite = self.filters.get(p.seat)
                for out in rewrite(frame) if rewrite else [frame]:
                    for q in self.peers:
                        if q.seat != p.seat:
                            self._stamp += 1
                            queue = self.queues.setdefault((q.seat, p.seat), deque())
                            queue.append((self._stamp, out))

    def deliver(self) -> bool:
        """Route every pending frame until quiet; whether anything moved.

        Each (recipient, sender) pair is a FIFO queue, as over one relay connection, and
        frames go out in the order they were sent, as one relay forwards them (so a frame sent
        in answer to another never overtakes it); with ``chaos`` the next frame comes from a
        random pair, so frames from different senders arrive in any interleaving.
        """
        moved = False
        self._gather()
        while True:
            ready = [pair for pair, queue in self.queues.items() if queue]
            if not ready:
                break
            if self.chaos:
                pair = self.rng.choice(ready)
            else:
                pair = min(ready, key=lambda k: self.queues[k][0][0])
            to, sender = pair
            self.peers[to].receive(self.queues[pair].popleft()[1], sender, self.now)
            moved = True
            self._gather()
        self.collect()
        return moved

    def commit_all(self) -> bool:
        acted = False
        for p in self.peers:
            if p.seat in self.silent:
                continue
            if p.state is Step.COMMIT and not p.has_committed:
                p.commit(self.choose(p.table, p.seat, self.rng), self.now)
                acted = True
        self.collect()
        return acted

    def advance(self) -> bool:
        """Move the clock to the earliest deadline of a live peer and tick everyone."""
        now = tick_to_next_deadline(self.peers, self.now)
        if now is None:
            return False
        self.now = now
        self.collect()
        return True

    def round(self) -> None:
        """One commit step and everything it leads to (no clock movement)."""
        self.commit_all()
        self.deliver()

    def run(self, max_steps: int = 2000) -> None:
        """Play until every non-silent peer is finished (the clock moves only when stuck)."""
        for _ in range(max_steps):
            if all(p.is_finished for p in self.honest()):
                return
            progressed = self.commit_all()
            progressed = self.deliver() or progressed
            if not progressed and not self.advance():
                return
        raise AssertionError("the session did not finish")

    def run_until(self, predicate: Callable[[Net], bool], max_rounds: int = 200) -> None:
        for _ in range(max_rounds):
            if predicate(self):
                return
            self.round()
        raise AssertionError("the predicate never held")

    def endings(self, exclude: int | None = None) -> set[SessionEnded | None]:
        return {p.ending for p in self.honest(exclude)}


def in_point_phase_with_contracts(net: Net) -> bool:
    table = net.peers[0].table
    return table.phase is Phase.POINT and any(
        table.contracts(s).total for s in range(table.seat_count)
    )


def saved_report(peer: Peer) -> Report:
    """``verify_transcript``'s report on ``peer``'s transcript, saved to a scratch folder."""
    with tempfile.TemporaryDirectory() as folder:
        return verify_transcript(save_transcript(peer.transcript, Path(folder) / "t.jsonl"))


def assert_ended(net: Net, reason: EndReason, seat: int | None, exclude: int | None) -> None:
    """Every honest peer ended without a result, with ``reason`` and ``seat``."""
    for p in net.honest(exclude):
        assert p.state is Step.ENDED, p.seat
        assert p.ending == SessionEnded(reason, seat), (p.seat, p.ending)
        assert p.table.ending == Ending(reason, seat)
        assert p.result is None
        assert SessionEnded(reason, seat) in net.log[p.seat]
        report = saved_report(p)
        assert report.ok, (p.seat, report.text())
        assert (report.reason, report.seat) == (reason, seat)


def point_phase_net(seats: int = 3, seed: int = 11) -> tuple[Net, list[int]]:
    """A session in the point phase with contracts on; returns it and balances+contracts."""
    net = Net(seats, seed=seed)
    net.run_until(in_point_phase_with_contracts)
    table = net.peers[0].table
    restored = [table.balance(s) + table.contracts(s).total for s in range(seats)]
    return net, restored


def assert_voided(net: Net, restored: list[int], exclude: int | None) -> None:
    """Every honest peer voided the hand in flight: each balance is back to ``restored``."""
    for p in net.honest(exclude):
        table = p.table
        for s in range(table.seat_count):
            assert table.balance(s) == restored[s]
            assert any(isinstance(e, Voided) for e in table.seat(s).ledger)


def assert_voided_ending(
    net: Net, restored: list[int], reason: EndReason, seat: int | None, exclude: int | None
) -> None:
    """``assert_ended`` and ``assert_voided`` together: the fault ended every honest peer's
    session with ``reason`` and ``seat``, and the hand in flight was voided."""
    assert_ended(net, reason, seat, exclude)
    assert_voided(net, restored, exclude)


def resign(net: Net, seat: int, frame: Frame, **changes: Any) -> Frame:
    """``frame`` with ``changes``, signed again with ``seat``'s own key."""
    message = parse(frame, net.table_id, {m.seat: m.public_key for m in net.roster})
    return net.signed(seat, replace(message, **changes))


def forge_signature(frame: Frame) -> list[Any]:
    """A filter: the frame with its signature's first digit changed."""
    sig = frame["sig"]
    return [{**frame, "sig": ("0" if sig[0] != "0" else "1") + sig[1:]}]
