"""Everything the online window uses of ``pointline.net``, imported here once.

The online window's modules (the bridge and its small objects) import these names from this
module only, so where net keeps them (its client, its protocol core) is written in one place.
"""

from __future__ import annotations

from pointline.net.client import (
    RECONNECTING,
    CertificateNotTrusted,
    Disconnected,
    KnownRelays,
    MemberDeparted,
    Reconnected,
    Reconnecting,
    RelayClient,
    RelayError,
    RelayKeyChanged,
    RosterChanged,
    SessionStarted,
    TableClosed,
    TranscriptFailed,
    TranscriptSaved,
    connect_trusted,
    connection_warning,
    verify_transcript,
)
from pointline.net.errors import ClientError, NetError
from pointline.net.paths import data_dir
from pointline.net.protocol import (
    DeadlineKind,
    ReceiptsIncomplete,
    ReceiptsMatched,
    ReceiptsMismatch,
    Report,
    RosterEntry,
    RoundOpened,
    SessionComplete,
    SessionEnded,
    Step,
    ThrowCommitted,
    Thrown,
    Timeouts,
    ending_text,
    verification_words,
)

__all__ = [
    "RECONNECTING",
    "CertificateNotTrusted",
    "ClientError",
    "DeadlineKind",
    "Disconnected",
    "KnownRelays",
    "MemberDeparted",
    "NetError",
    "ReceiptsIncomplete",
    "ReceiptsMatched",
    "ReceiptsMismatch",
    "Reconnected",
    "Reconnecting",
    "RelayClient",
    "RelayError",
    "RelayKeyChanged",
    "Report",
    "RosterChanged",
    "RosterEntry",
    "RoundOpened",
    "SessionComplete",
    "SessionEnded",
    "SessionStarted",
    "Step",
    "TableClosed",
    "ThrowCommitted",
    "Thrown",
    "Timeouts",
    "TranscriptFailed",
    "TranscriptSaved",
    "connect_trusted",
    "connection_warning",
    "data_dir",
    "ending_text",
    "verification_words",
    "verify_transcript",
]
