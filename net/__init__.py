"""Online play: the signed commit-reveal protocol core (sans-IO), transcripts, verify, relay.

Protocol side: ``net.keys`` (Ed25519 session keys, verification words), ``net.messages``
(signed canonical messages), ``net.roster`` and ``net.events`` (what a peer starts from and
reports), ``net.protocol`` (the ``Peer``; its endings and receipts in ``net._endings``),
``net.transcript`` (the hash-chained log) and ``net.verify`` (``pointline verify FILE``).
Client side: ``net.client`` (``RelayClient``; its connection in ``net._connection``, its
events in ``net._client_events``), ``net.trust`` (the relay's key and certificate pinned on
first use) and ``net.headless``. Relay side: ``net.relay`` and friends. The net layer imports
the kernel; the GUI may import net. Every error is in one tree under the kernel's
``PointlineError`` (``net.errors`` draws it); the names below are that tree, importable from
here without loading a socket library.
"""

from pointline.net.errors import (
    BadReveal,
    BadSignature,
    ClientCode,
    ClientError,
    MalformedMessage,
    MessageError,
    NetCode,
    NetError,
    NonMemberSeat,
    NotNow,
    Replay,
    RosterError,
    TranscriptError,
    WrongTable,
    WrongThrow,
)

__all__ = [
    "BadReveal",
    "BadSignature",
    "ClientCode",
    "ClientError",
    "MalformedMessage",
    "MessageError",
    "NetCode",
    "NetError",
    "NonMemberSeat",
    "NotNow",
    "Replay",
    "RosterError",
    "TranscriptError",
    "WrongTable",
    "WrongThrow",
]
