"""The net layer's errors: one tree under the kernel's ``PointlineError``, codes as StrEnums.

Every error carries a stable ``code`` (a ``StrEnum`` member, so it also equals its string) and
``text``, plain words a person may read (``str(error)`` is ``"code: text"`` for logs)::

    PointlineError                      pointline.kernel.errors (the root in every layer)
    └── NetError                        NetCode.NET_ERROR
        ├── MessageError                a received message that ends the session (``reason``)
        │   ├── MalformedMessage        NetCode.MALFORMED       -> EndReason.MALFORMED
        │   ├── BadSignature            NetCode.BAD_SIGNATURE   -> EndReason.BAD_SIGNATURE
        │   ├── WrongTable              NetCode.WRONG_TABLE     -> EndReason.NON_MEMBER
        │   ├── NonMemberSeat           NetCode.NON_MEMBER      -> EndReason.NON_MEMBER
        │   ├── Replay                  NetCode.REPLAY          -> EndReason.REPLAY
        │   ├── WrongThrow              NetCode.WRONG_THROW     -> EndReason.REPLAY
        │   └── BadReveal               NetCode.BAD_REVEAL      -> EndReason.BAD_REVEAL
        │                               (also the kernel's BadReveal, which solo raises)
        ├── RosterError                 NetCode.BAD_ROSTER      (a caller error, not a fault)
        ├── NotNow                      NetCode.NOT_NOW         (a command out of turn)
        ├── TranscriptError             NetCode.BAD_TRANSCRIPT  (a file that does not hold)
        │   └── TranscriptWriteError    NetCode.TRANSCRIPT_WRITE  (net.client._transcript_file)
        ├── WireError                   net.protocol._wire.ErrorCode (a frame or a refused request)
        │   ├── AccountError            net.relay._accounts (a refused sign-up or sign-in)
        │   ├── RoomError               net.relay._rooms (a refused room request)
        │   └── Unavailable             ErrorCode.BUSY (net.relay._store: a server the relay needs)
        │       ├── StoreUnavailable    the accounts database (net.relay._store)
        │       └── PresenceUnavailable the cluster's room directory (net.relay._cluster)
        ├── BadAnnouncement             NetCode.BAD_ANNOUNCEMENT (net.discovery; also a ValueError)
        ├── HostCertificateError        NetCode.HOST_CERTIFICATE (net.hostcert: not made or kept)
        ├── HostingError                NetCode.HOSTING (net.hosting: the table cannot be hosted)
        └── ClientError                 ClientCode, or the relay's ErrorCode it passes on
            ├── RelayKeyChanged         ClientCode.RELAY_KEY_CHANGED (net.client._trust)
            ├── CertificateNotTrusted   ClientCode.CERTIFICATE (net.client._trust)
            ├── TableCertificateChanged ClientCode.TABLE_CERTIFICATE_CHANGED (net.client._trust)
            ├── AnnouncementMismatch    ClientCode.ANNOUNCEMENT_MISMATCH (net.client._trust)
            └── SignInNeeded            ErrorCode.BAD_TOKEN (net.joining: sign in once more)

Every class of the tree is reachable here: those defined in this module, and the ones defined
beside the code that raises them (named in brackets above) re-exported by name
(``from pointline.net.errors import AccountError``). The re-exports are lazy (PEP 562: the
module's ``__getattr__`` imports the defining module on first use, ``_ELSEWHERE`` names it), so
importing this leaf loads no socket library and no part of net above it, and those modules,
which import this one, make no cycle.

Errors raised and caught inside one module never leave it and are private by name
(``net.protocol._peer._Fault``, ``net.protocol._verify._Discrepancy``,
``net.protocol._relay_json._Repeated``).

A message that fails ``net.protocol._messages.parse`` raises a ``MessageError``; the protocol core
turns it into the end of the session (kernel ``Abort``) with ``reason`` and the seat the relay
delivered it from.
"""

from __future__ import annotations

import importlib
from enum import StrEnum
from typing import ClassVar

from pointline.kernel import BadReveal as KernelBadReveal
from pointline.kernel import EndReason, PointlineError

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


class NetCode(StrEnum):
    """The codes of the net layer's own errors (``WireError`` uses
    ``net.protocol._wire.ErrorCode``)."""

    NET_ERROR = "net_error"
    MESSAGE_ERROR = "message_error"
    MALFORMED = "malformed"
    BAD_SIGNATURE = "bad_signature"
    WRONG_TABLE = "wrong_table"
    NON_MEMBER = "non_member"
    REPLAY = "replay"
    WRONG_THROW = "wrong_throw"
    BAD_REVEAL = "bad_reveal"
    BAD_ROSTER = "bad_roster"
    NOT_NOW = "not_now"
    BAD_TRANSCRIPT = "bad_transcript"
    TRANSCRIPT_WRITE = "transcript_write"
    BAD_ANNOUNCEMENT = "bad_announcement"
    HOST_CERTIFICATE = "host_certificate"
    HOSTING = "hosting"


class ClientCode(StrEnum):
    """Why the client could not do what was asked (besides the relay's own ``ErrorCode``)."""

    CERTIFICATE = "certificate"
    UNREACHABLE = "unreachable"
    REFUSED = "refused"
    BAD_CA = "bad_ca"
    NOT_TLS = "not_tls"
    TIMEOUT = "timeout"
    CLOSED = "closed"
    NOT_SIGNED_IN = "not_signed_in"
    BAD_TOKEN = "bad_token"
    BAD_REPLY = "bad_reply"
    NOT_STARTED = "not_started"
    RELAY_KEY_CHANGED = "relay_key_changed"
    BAD_ROSTER_SIGNATURE = "bad_roster_signature"
    BAD_TRUST_FILE = "bad_trust_file"
    TABLE_CERTIFICATE_CHANGED = "table_certificate_changed"
    ANNOUNCEMENT_MISMATCH = "announcement_mismatch"


class NetError(PointlineError):
    """Base of every error the net layer raises: ``code`` is the class's stable code string,
    ``text`` (also ``message``) the plain words; ``str(error)`` is ``"code: text"``.

    A subclass names its code (and, for a message, the ``EndReason`` it ends the session
    with) in its class line: ``class Replay(MessageError, code=NetCode.REPLAY,
    reason=EndReason.REPLAY)``; without them it keeps its base's.
    """

    code: str = NetCode.NET_ERROR
    reason: ClassVar[EndReason | None] = None

    def __init_subclass__(
        cls, code: str | None = None, reason: EndReason | None = None, **kwargs: object
    ) -> None:
        super().__init_subclass__(**kwargs)
        if code is not None:
            cls.code = code
        if reason is not None:
            cls.reason = reason

    def __init__(self, message: str) -> None:
        super().__init__(type(self).code, message)


class MessageError(NetError, code=NetCode.MESSAGE_ERROR, reason=EndReason.MALFORMED):
    """A received message that cannot be accepted; ``reason`` ends the session."""


class MalformedMessage(MessageError, code=NetCode.MALFORMED, reason=EndReason.MALFORMED):
    """Not a well-formed protocol message: bad JSON, unknown kind, missing or extra fields."""


class BadSignature(MessageError, code=NetCode.BAD_SIGNATURE, reason=EndReason.BAD_SIGNATURE):
    """The Ed25519 signature does not verify against the claimed seat's roster key."""


class WrongTable(MessageError, code=NetCode.WRONG_TABLE, reason=EndReason.NON_MEMBER):
    """A message for another table (another room or session): not a member's message here."""


class NonMemberSeat(MessageError, code=NetCode.NON_MEMBER, reason=EndReason.NON_MEMBER):
    """A message claiming a seat that is not in this table's roster."""


class Replay(MessageError, code=NetCode.REPLAY, reason=EndReason.REPLAY):
    """A replayed or out-of-order message: wrong sequence number, or another seat's message."""


class WrongThrow(MessageError, code=NetCode.WRONG_THROW, reason=EndReason.REPLAY):
    """A commit or reveal for a throw index other than the one the sender is at."""


class BadReveal(
    KernelBadReveal, MessageError, code=NetCode.BAD_REVEAL, reason=EndReason.BAD_REVEAL
):
    """A reveal whose nonce or choice does not match its commitment, or an illegal choice: the
    kernel's ``BadReveal`` (which solo raises) as a message error of online play."""


class RosterError(NetError, code=NetCode.BAD_ROSTER):
    """A roster, seat or key that a peer cannot start with (a caller error, not a fault)."""


class NotNow(NetError, code=NetCode.NOT_NOW):
    """A local command that the protocol cannot take in its current state (e.g. commit twice)."""


class TranscriptError(NetError, code=NetCode.BAD_TRANSCRIPT):
    """A transcript file that cannot be read or does not hold together."""


class ClientError(NetError):
    """The relay refused a request or cannot be reached: ``code`` is a ``ClientCode`` or the
    relay's ``net.protocol._wire.ErrorCode`` value it passed on; ``text`` the plain words."""

    def __init__(self, code: str, text: str) -> None:
        if code in _CLIENT_CODES:
            code = ClientCode(code)  # a StrEnum whether a caller wrote the member or its value
        PointlineError.__init__(self, code, text)
        self.retry_after: int | None = None
        """A ``busy`` refusal's ``retry_after``: the seconds the relay said to wait."""


_CLIENT_CODES = frozenset(c.value for c in ClientCode)


_ELSEWHERE: dict[str, str] = {
    # the tree's classes defined beside the code that raises them: name -> defining module
    "TranscriptWriteError": "pointline.net.client._transcript_file",
    "WireError": "pointline.net.protocol._wire",
    "AccountError": "pointline.net.relay._accounts",
    "RoomError": "pointline.net.relay._rooms",
    "Unavailable": "pointline.net.relay._store",
    "StoreUnavailable": "pointline.net.relay._store",
    "PresenceUnavailable": "pointline.net.relay._cluster",
    "BadAnnouncement": "pointline.net.discovery",
    "HostCertificateError": "pointline.net.hostcert",
    "HostingError": "pointline.net.hosting",
    "RelayKeyChanged": "pointline.net.client._trust",
    "CertificateNotTrusted": "pointline.net.client._trust",
    "TableCertificateChanged": "pointline.net.client._trust",
    "AnnouncementMismatch": "pointline.net.client._trust",
    "SignInNeeded": "pointline.net.joining",
}
"""Where each error of the tree not defined in this module lives (``__getattr__`` loads it)."""
__all__ += sorted(_ELSEWHERE)  # public here too (a star import loads their modules)


def __getattr__(name: str) -> type[NetError]:
    """PEP 562: an error of the tree defined in another module of net, loaded on first use."""
    module = _ELSEWHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    cls: type[NetError] = getattr(importlib.import_module(module), name)
    globals()[name] = cls  # found once: the next use is a plain global
    return cls


def __dir__() -> list[str]:
    return sorted({*globals(), *_ELSEWHERE})
