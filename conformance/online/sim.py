"""A deterministic in-memory session: sans-IO ``Peer``s, a FIFO router and a fake clock.

The vector generator makes its transcripts with it, and the harness's socket-free checks use it:
no sockets, no clock reads, no randomness except what a seed gives, so the same call gives the
same transcript bytes on every machine.
"""

from __future__ import annotations

import hashlib
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pointline.kernel import HAND_LIMIT, UNIT, Choice, Phase, Table
from pointline.net.protocol._keys import SigningKey
from pointline.net.protocol._peer import Member, Peer, Timeouts, roster_signing_bytes

__all__ = [
    "RELAY_SEED",
    "START",
    "STEP",
    "TIMEOUTS",
    "Frame",
    "Rewrite",
    "Session",
    "legal_choice",
    "nonces",
    "random_choice",
    "seat_key",
    "tick_to_next_deadline",
]

Frame = dict[str, Any]
Rewrite = Callable[[Frame], list[Any]]
"""What a misbehaving seat sends instead of one of its frames (a list: nothing, one, several)."""

RELAY_SEED = b"\x52" * 32
"""The relay's Ed25519 key in every generated case (private bytes 0x52 x 32)."""
START = 1000.0
STEP = 0.03125
"""Seconds the fake clock moves for each delivered frame."""
TIMEOUTS = Timeouts(confirm=45.0, response=10.0, session=600.0, receipts=8.0)


def seat_key(seat: int, family: str = "seat") -> SigningKey:
    """Seat ``seat``'s session key: private bytes ``seat + 1`` repeated 32 times (family
    ``seat``), or SHA-256 of ``family/seat`` for any other family."""
    if family == "seat":
        return SigningKey.from_bytes(bytes([seat + 1]) * 32)
    return SigningKey.from_bytes(hashlib.sha256(f"{family}/{seat}".encode()).digest())


def nonces(label: str) -> Callable[[], bytes]:
    """Nonce k (k = 1, 2, ...) is SHA-256(``label/k``)."""
    counter = [0]

    def source() -> bytes:
        counter[0] += 1
        return hashlib.sha256(f"{label}/{counter[0]}".encode()).digest()

    return source


def tick_to_next_deadline(peers: list[Peer], now: float) -> float | None:
    """Move the clock to the earliest deadline of a live peer and tick every peer there: the
    new time, or None when no peer waits for a deadline."""
    deadlines = [d for p in peers if (d := p.next_deadline()) is not None]
    if not deadlines:
        return None
    now = max(now, min(deadlines))
    for p in peers:
        p.tick(now)
    return now


def legal_choice(
    come_out: bool, balance: int, pass_amount: int, dont_pass: int, rng: random.Random
) -> Choice:
    """A legal choice drawn from ``rng``: any split of at most the hand limit and the balance at
    come-out; in the point phase the same Pass and any reduction of Don't Pass."""
    if come_out:
        budget = min(HAND_LIMIT, balance) // UNIT
        p = rng.randint(0, budget)
        return Choice(p * UNIT, rng.randint(0, budget - p) * UNIT)
    return Choice(pass_amount, UNIT * rng.randint(0, dont_pass // UNIT))


def random_choice(table: Table, seat: int, rng: random.Random) -> Choice:
    """A legal choice for ``seat`` now, drawn from ``rng``."""
    c = table.contracts(seat)
    come_out = table.phase is Phase.COME_OUT
    return legal_choice(come_out, table.balance(seat), c.pass_amount, c.dont_pass_amount, rng)


@dataclass
class Session:
    """``seats`` peers of table ``table_id``; ``rewrite[seat]`` changes that seat's frames,
    ``silent`` seats never commit, ``stop_after[seat] = n`` stops a seat committing after n."""

    seats: int
    table_id: str = "t0"
    seed: int = 0
    family: str = "seat"
    timeouts: Timeouts = TIMEOUTS
    names: tuple[str, ...] = ()
    rewrite: dict[int, Rewrite] = field(default_factory=dict)
    silent: set[int] = field(default_factory=set)
    stop_after: dict[int, int] = field(default_factory=dict)
    relay_signs: bool = True
    host: str | None = None
    """A hosted table: the relay signs its host's name with the roster (ONLINE.md §2)."""
    leave_at: dict[int, int] = field(default_factory=dict)
    """seat -> throw: that seat leaves when the round of that throw opens (the relay tells
    the others)."""
    background_at: dict[int, int] = field(default_factory=dict)
    leave_in_receipts: set[int] = field(default_factory=set)
    """Seats that leave once they have sent their receipt, during the receipt exchange (the
    relay tells the others)."""
    relay_lost_at: int | None = None
    """throw: the relay is lost when the round of that throw opens (every seat's connection
    ends at once: each peer records its own departure with no notice, and nothing more reaches
    anyone)."""
    hold: dict[int, tuple[int, str]] = field(default_factory=dict)
    """recipient -> (sender, kind): a relay that holds that sender's frames for the recipient,
    from the first of that kind on, until a frame of another sender has reached it (each
    sender's own order kept)."""
    misname: dict[int, int] = field(default_factory=dict)
    """seat -> the ``from_seat`` a lying relay names for that seat's frames."""
    nonce_sources: dict[int, Callable[[], bytes]] = field(default_factory=dict)
    """Seat -> its nonce source (default: ``nonces`` of the table, seed and seat)."""

    def __post_init__(self) -> None:
        self.now = START
        self.rng = random.Random(self.seed)
        self.keys = [seat_key(s, self.family) for s in range(self.seats)]
        names = self.names or tuple(f"player{s + 1}" for s in range(self.seats))
        self.roster = tuple(Member(s, names[s], k.public_key) for s, k in enumerate(self.keys))
        self.relay = SigningKey.from_bytes(RELAY_SEED)
        sig = self.relay.sign(roster_signing_bytes(self.table_id, self.roster, self.host))
        self.peers = [
            Peer(
                self.table_id,
                self.roster,
                s,
                self.keys[s],
                self.timeouts,
                self.now,
                self.nonce_sources.get(s) or nonces(self.default_label(s)),
                roster_sig=sig if self.relay_signs else None,
                host=self.host,
            )
            for s in range(self.seats)
        ]
        self.queue: deque[tuple[int, int, Any]] = deque()
        self._holding: dict[int, list[tuple[int, int, Any]]] = {}

    def default_label(self, seat: int) -> str:
        return f"{self.table_id}/{self.seed}/{seat}"

    def _commit_all(self) -> bool:
        lost = self.relay_lost_at
        if lost is not None and min(p.throw_index for p in self.peers) == lost:
            for p in self.peers:
                p.lose_connection(self.now)  # no notice: nothing can reach anyone
            self.queue.clear()  # nor do the frames in flight
            return True
        moved = False
        for p in self.peers:
            s = p.seat
            if s in self.leave_in_receipts and p.state.value == "receipts":
                self.leave_in_receipts.discard(s)
                p.depart(s, self.now)  # its notice, then the exchange ends incomplete
                for q in self.peers:
                    if q.seat != s:
                        q.depart(s, self.now)
                return True
            if p.is_finished or not p.is_live or p.has_committed or s in self.silent:
                continue
            if p.state.value != "commit":
                continue
            if s in self.stop_after and p.throw_index > self.stop_after[s]:
                continue
            if self.leave_at.get(s) == p.throw_index:
                p.depart(s, self.now)
                for q in self.peers:
                    if q.seat != s:
                        q.depart(s, self.now)
                return True
            if self.background_at.get(s) == p.throw_index:
                p.background(self.now)
                return True
            p.commit(random_choice(p.table, s, self.rng), self.now)
            moved = True
        return moved

    def _gather(self) -> None:
        for p in self.peers:
            for frame in p.outgoing():
                rewrite = self.rewrite.get(p.seat)
                for out in rewrite(frame) if rewrite else [frame]:
                    for q in self.peers:
                        if q.seat != p.seat:
                            self.queue.append((q.seat, self.misname.get(p.seat, p.seat), out))

    def run(self, limit: int = 20000) -> Session:
        """Play until every peer has finished (commit, deliver, then let deadlines pass)."""
        for _ in range(limit):
            if all(p.is_finished for p in self.peers):
                return self
            moved = self._commit_all()
            self._gather()
            if self.queue:
                to, sender, frame = self.queue.popleft()
                if self._held(to, sender, frame):
                    continue
                self.now += STEP
                self.peers[to].receive(frame, sender, self.now)
                continue
            if moved:
                continue
            now = tick_to_next_deadline(self.peers, self.now)
            if now is None:
                return self
            self.now = now
        raise RuntimeError("the simulated session did not finish")

    def _held(self, to: int, sender: int, frame: Any) -> bool:
        """Whether this delivery waits (``hold``); a delivery from another sender releases the
        held ones, which go next, in their order."""
        rule = self.hold.get(to)
        if rule is None:
            return False
        held = self._holding.setdefault(to, [])
        kind = frame.get("kind") if isinstance(frame, dict) else None
        if sender == rule[0] and (held or kind == rule[1]):
            held.append((to, sender, frame))
            return True
        if held:  # this one is delivered now, the held ones right after it
            self.queue.extendleft(reversed(held))
            del self.hold[to]  # once
            held.clear()
        return False

    def lines(self, seat: int) -> list[str]:
        return self.peers[seat].transcript.lines()

    def text(self, seat: int) -> str:
        return "".join(line + "\n" for line in self.lines(seat))
