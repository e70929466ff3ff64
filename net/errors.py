"""The net layer's errors: a small family, each with a stable ``code`` and the session reason.

A message that fails ``net.messages.parse`` raises one of these; the protocol core turns it into
the end of the session (kernel ``Abort``) with ``reason`` and the seat the relay delivered it from.
"""

from __future__ import annotations

from typing import ClassVar

from pointline.kernel import EndReason
from pointline.kernel.errors import PointlineError


class NetError(PointlineError):
    """Base of every error the net layer raises: ``code`` is the class's stable code string,
    ``text`` (also ``message``) the plain words; ``str(error)`` is ``"code: text"``."""

    code: str = "net_error"
    reason: ClassVar[EndReason | None] = None

    def __init__(self, message: str) -> None:
        super().__init__(type(self).code, message)


class MessageError(NetError):
    """A received message that cannot be accepted; ``reason`` ends the session."""

    code: str = "message_error"
    reason: ClassVar[EndReason | None] = EndReason.MALFORMED


class MalformedMessage(MessageError):
    """Not a well-formed protocol message: bad JSON, unknown kind, missing or extra fields."""

    code: str = "malformed"
    reason: ClassVar[EndReason | None] = EndReason.MALFORMED


class BadSignature(MessageError):
    """The Ed25519 signature does not verify against the claimed seat's roster key."""

    code: str = "bad_signature"
    reason: ClassVar[EndReason | None] = EndReason.BAD_SIGNATURE


class WrongTable(MessageError):
    """A message for another table (another room or session): not a member's message here."""

    code: str = "wrong_table"
    reason: ClassVar[EndReason | None] = EndReason.NON_MEMBER


class NonMemberSeat(MessageError):
    """A message claiming a seat that is not in this table's roster."""

    code: str = "non_member"
    reason: ClassVar[EndReason | None] = EndReason.NON_MEMBER


class Replay(MessageError):
    """A replayed or out-of-order message: wrong sequence number, or another seat's message."""

    code: str = "replay"
    reason: ClassVar[EndReason | None] = EndReason.REPLAY


class WrongThrow(MessageError):
    """A commit or reveal for a throw index other than the one the sender is at."""

    code: str = "wrong_throw"
    reason: ClassVar[EndReason | None] = EndReason.REPLAY


class BadReveal(MessageError):
    """A reveal whose nonce or choice does not match its commitment, or an illegal choice."""

    code: str = "bad_reveal"
    reason: ClassVar[EndReason | None] = EndReason.BAD_REVEAL


class RosterError(NetError):
    """A roster, seat or key that a peer cannot start with (a caller error, not a fault)."""

    code: str = "bad_roster"


class NotNow(NetError):
    """A local command that the protocol cannot take in its current state (e.g. commit twice)."""

    code: str = "not_now"


class TranscriptError(NetError):
    """A transcript file that cannot be read or does not hold together."""

    code: str = "bad_transcript"
