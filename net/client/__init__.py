"""The client side: a connection to the relay that runs a protocol ``Peer``.

The public face: the GUI, the benchmarks and the commands import from here; the modules
behind it are private. ``_relay_client`` (``RelayClient``: sign-in, rooms, the session loop
feeding the peer; its connection in ``_connection``, its own events in ``_events``),
``_trust`` (the relay's key and certificate pinned on first use), ``_transcript_file`` (a
session's transcript on disk: written as it happens, saved, read back), ``_verify_command``
(``pointline verify FILE``: the file read, then ``net.protocol``'s ``verify_text``) and
``_headless`` (the ``pointline-client`` command, ``python -m pointline.net.client``).

It imports ``net.protocol`` and the kernel; never ``net.relay``.
"""

from pointline.net.client._relay_client import (
    REQUEST_TIMEOUT,
    ClientEvent,
    Disconnected,
    MemberDeparted,
    RelayClient,
    RelayError,
    RosterChanged,
    SessionStarted,
    TableClosed,
    TranscriptFailed,
    TranscriptSaved,
    connect_trusted,
    play,
    steady_choice,
    tls_client_context,
)
from pointline.net.client._transcript_file import (
    TranscriptWriteError,
    TranscriptWriter,
    load_transcript,
    read_records,
    read_text,
    save_transcript,
    write_atomically,
)
from pointline.net.client._trust import (
    KNOWN_RELAYS_FILE,
    KNOWN_TABLES_FILE,
    UNENCRYPTED,
    AnnouncementMismatch,
    CertificateNotTrusted,
    KnownRelays,
    KnownTables,
    RelayKeyChanged,
    TableCertificateChanged,
    TableCheck,
    TableTrust,
    certificate_fingerprint,
    connection_warning,
    fetch_certificate,
    pinned_tls_context,
    relay_address,
    spaced,
    table_relay_address,
)
from pointline.net.client._verify_command import main as verify_main
from pointline.net.client._verify_command import verify_transcript

__all__ = [
    "KNOWN_RELAYS_FILE",
    "KNOWN_TABLES_FILE",
    "REQUEST_TIMEOUT",
    "UNENCRYPTED",
    "AnnouncementMismatch",
    "CertificateNotTrusted",
    "ClientEvent",
    "Disconnected",
    "KnownRelays",
    "KnownTables",
    "MemberDeparted",
    "RelayClient",
    "RelayError",
    "RelayKeyChanged",
    "RosterChanged",
    "SessionStarted",
    "TableCertificateChanged",
    "TableCheck",
    "TableClosed",
    "TableTrust",
    "TranscriptFailed",
    "TranscriptSaved",
    "TranscriptWriteError",
    "TranscriptWriter",
    "certificate_fingerprint",
    "connect_trusted",
    "connection_warning",
    "fetch_certificate",
    "load_transcript",
    "pinned_tls_context",
    "play",
    "read_records",
    "read_text",
    "relay_address",
    "save_transcript",
    "spaced",
    "steady_choice",
    "table_relay_address",
    "tls_client_context",
    "verify_main",
    "verify_transcript",
    "write_atomically",
]
