"""Online play, in three folders by role over the kernel, each a public face:

    net.client  (RelayClient, trust, transcript     net.relay  (Relay, RelayConfig, Accounts,
         |       files, the verify command)              |       running_relay, cli)
         +-------------> net.protocol <-----------------+
                         the sans-IO core both sides share: Peer, messages, keys, roster,
                         ordering, events, transcript records, verify_text, the relay frame
                         codec; no socket, no file, no command line
                                |
                                v
                         pointline.kernel    (net.errors and net.paths: leaves, no networking)

Each folder exports its API from its ``__init__``; the modules behind it are private
(``_peer``, ``_server``, ...), and the GUI and the benchmarks import only the faces and the
leaves (an import-linter contract). ``net._ws`` is the one websockets framing the client and
the relay share.

A table on the local network sits beside the three folders, at the top level: ``net.discovery``
(DNS-SD/mDNS: announce and browse ``_pointline._tcp``) and ``net.hostcert`` (a hosted table's
certificate, its fingerprint and four words) are leaves both sides use; ``net.hosting`` (a relay
inside the app, the host in seat 1) and ``net.joining`` (a guest finding and entering that
table) are the two modules that put a client and a relay together, and nothing in the three
folders imports them.

The client and the relay import the protocol core, never each other; net never imports the
GUI. Every error is in one tree under the kernel's ``PointlineError`` (``net.errors`` draws
it); the names below are that tree, importable from here without loading a socket library.
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
