"""The protocol core both sides share, sans-IO: no socket, no clock, no file, no command line.

The public face: everything a client, a relay, the GUI or a benchmark uses is imported from
here; the modules behind it are private.

``_keys`` (Ed25519 session keys, verification words), ``_messages`` (signed canonical messages
and their strict parsing), ``_roster`` (who sits where), ``_ordering`` (each seat's sequence and
kinds in order), ``_events`` (what a peer reports), ``_peer`` (the ``Peer``: one seat's session,
its round, endings and receipts), ``_split`` (the words for two seats that ended differently),
``_transcript`` (the hash-chained log, its records and text)
and ``_verify`` (``verify_text``: a transcript's text replayed through ``Peer``). ``_wire`` is
the relay frame codec the client and the relay both speak (its strict JSON reading in
``_relay_json`` and ``_strictjson``).

Files and sockets are the sides' own: ``net.client`` writes and reads transcript files and is
the ``pointline verify`` command; the websockets framing both sides use is ``net._ws``.

It imports the kernel and ``net.errors``; never ``net.client`` or ``net.relay``.
"""

from pointline.net.protocol._events import late_move_text
from pointline.net.protocol._keys import (
    PUBLIC_KEY_BYTES,
    SIGNATURE_BYTES,
    SigningKey,
    public_key_from_hex,
    verification_words,
    verify_signature,
)
from pointline.net.protocol._messages import canonical_json
from pointline.net.protocol._peer import (
    AllCommitted,
    DeadlineKind,
    Event,
    HandResolved,
    Member,
    Peer,
    ReceiptsIncomplete,
    ReceiptsMatched,
    ReceiptsMismatch,
    ReceiptStatus,
    Revealed,
    RoundOpened,
    SessionComplete,
    SessionEnded,
    Step,
    ThrowCommitted,
    Thrown,
    Timeouts,
    ending_text,
    roster_signing_bytes,
    seat_label,
)
from pointline.net.protocol._split import (
    MAY_HAVE_COMPLETED,
    MAY_HAVE_ENDED,
    explain_pair,
    note_for,
)
from pointline.net.protocol._transcript import (
    Record,
    RecordKind,
    Transcript,
    check_chain,
    lines_text,
    parse_records,
)
from pointline.net.protocol._verify import (
    HOST_VOUCHES,
    NO_RELAY_KEY,
    Report,
    parse_unsigned,
    printable,
    verify_text,
)
from pointline.net.protocol._wire import MAX_PASSWORD, NAME_RULE, RosterEntry

__all__ = [
    "HOST_VOUCHES",
    "MAX_PASSWORD",
    "MAY_HAVE_COMPLETED",
    "MAY_HAVE_ENDED",
    "NAME_RULE",
    "NO_RELAY_KEY",
    "PUBLIC_KEY_BYTES",
    "SIGNATURE_BYTES",
    "AllCommitted",
    "DeadlineKind",
    "Event",
    "HandResolved",
    "Member",
    "Peer",
    "ReceiptStatus",
    "ReceiptsIncomplete",
    "ReceiptsMatched",
    "ReceiptsMismatch",
    "Record",
    "RecordKind",
    "Report",
    "Revealed",
    "RosterEntry",
    "RoundOpened",
    "SessionComplete",
    "SessionEnded",
    "SigningKey",
    "Step",
    "ThrowCommitted",
    "Thrown",
    "Timeouts",
    "Transcript",
    "canonical_json",
    "check_chain",
    "ending_text",
    "explain_pair",
    "late_move_text",
    "lines_text",
    "note_for",
    "parse_records",
    "parse_unsigned",
    "printable",
    "public_key_from_hex",
    "roster_signing_bytes",
    "seat_label",
    "verification_words",
    "verify_signature",
    "verify_text",
]
