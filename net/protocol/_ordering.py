"""The one ordering checker shared by the protocol core (``Peer``) and ``pointline verify``.

Each sender's messages come in one order: ``seq`` 0, 1, 2, … and, by kind, C1 R1 C2 R2 … then
at most one Receipt (after its last reveal, naming that many throws); an AbortNotice may come
at any point (also after a receipt). A reveal from another seat may not come before this seat's
own commit for that throw. ``OrderChecker.accept`` checks a parsed, signed message against
that and records it, or raises the ``MessageError`` that ends the session; ``Peer`` calls it
for each received message and ``verify`` for each recorded one (sent ones included), so the
two cannot drift apart.
"""

from __future__ import annotations

from pointline.kernel import EndReason
from pointline.net.errors import MalformedMessage, Replay, WrongThrow
from pointline.net.protocol._events import seat_label
from pointline.net.protocol._messages import AbortNotice, Commit, Message, Receipt, Reveal

__all__ = ["OrderChecker"]


class OrderChecker:
    """Per-sender sequence and kind order of one session, seen by seat ``me``."""

    __slots__ = ("_commits", "_me", "_n", "_next_seq", "_receipt", "_reveals")

    def __init__(self, seats: int, me: int) -> None:
        self._n = seats
        self._me = me
        self._next_seq = [0] * seats
        self._commits = [0] * seats
        self._reveals = [0] * seats
        self._receipt = [False] * seats

    def commits(self, seat: int) -> int:
        """How many commits of ``seat`` were accepted."""
        return self._commits[seat]

    def accept(self, message: Message, from_seat: int) -> None:
        """Check ``message`` (signed by its seat, delivered from ``from_seat``) and record it."""
        s = message.seat
        if s != from_seat:
            raise Replay(f"{seat_label(from_seat)} sent a message signed by {seat_label(s)}")
        if message.seq != self._next_seq[s]:
            due = self._next_seq[s]
            raise Replay(f"{seat_label(s)} sent sequence number {message.seq} where {due} was due")
        commits, reveals = self._commits[s], self._reveals[s]
        if isinstance(message, AbortNotice):
            if message.reason is EndReason.THROW_CAP or (
                message.blame is not None and not 0 <= message.blame < self._n
            ):
                raise MalformedMessage("an abort notice names a reason and a member seat")
        elif self._receipt[s]:
            raise Replay(f"{seat_label(s)} sent a message after its receipt")
        elif isinstance(message, Commit):
            if commits != reveals or message.throw != reveals + 1:
                raise WrongThrow(
                    f"{seat_label(s)} committed for throw {message.throw} "
                    f"where throw {reveals + 1} was due"
                )
            self._commits[s] += 1
        elif isinstance(message, Reveal):
            if commits != reveals + 1 or message.throw != commits:
                raise WrongThrow(f"{seat_label(s)} revealed throw {message.throw} out of turn")
            if s != self._me and self._commits[self._me] < message.throw:
                raise Replay(f"{seat_label(s)} revealed before this seat's commitment was in")
            self._reveals[s] += 1
        elif isinstance(message, Receipt):
            if commits != reveals or message.throws != reveals:
                raise WrongThrow(f"{seat_label(s)} sent a receipt out of turn")
            self._receipt[s] = True
        self._next_seq[s] += 1
