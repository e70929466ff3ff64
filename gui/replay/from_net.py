"""Everything a replay uses of ``pointline.net``, imported here once (and only when a replay
is opened: solo play never imports this package)."""

from __future__ import annotations

from pointline.net.errors import NetError
from pointline.net.protocol.keys import verification_words
from pointline.net.protocol.peer import seat_label
from pointline.net.protocol.transcript import RecordKind, read_records
from pointline.net.protocol.verify import (
    HOST_VOUCHES,
    Report,
    parse_unsigned,
    printable,
    verify_transcript,
)

__all__ = [
    "HOST_VOUCHES",
    "NetError",
    "RecordKind",
    "Report",
    "parse_unsigned",
    "printable",
    "read_records",
    "seat_label",
    "verification_words",
    "verify_transcript",
]
