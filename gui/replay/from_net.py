"""Everything a replay uses of ``pointline.net``, imported here once (and only when a replay
is opened: solo play never imports this package)."""

from __future__ import annotations

from pointline.net.client import read_records, verify_transcript
from pointline.net.errors import NetError
from pointline.net.protocol import (
    HOST_VOUCHES,
    RecordKind,
    Report,
    parse_unsigned,
    printable,
    seat_label,
    verification_words,
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
