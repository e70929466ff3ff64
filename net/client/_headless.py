"""The headless player: ``python -m pointline.net.client`` (or ``pointline-client``).

It signs in (or up), creates or joins a room, plays ``net.client._relay_client.steady_choice`` at
every round and prints what happens in plain words, seats counted from 1 as people count them
(``Seat 1`` is the protocol's seat 0). A relay's key and a ``wss://`` relay's certificate are
pinned in the user data folder (``net.client._trust``, ``net.paths.data_dir()``): a certificate this
device does not know is refused with its fingerprint, trusted once with
``--trust-certificate FINGERPRINT``; a relay key that changed stops the player unless
``--accept-relay-key`` is given.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable

from websockets.exceptions import ConnectionClosed

from pointline.kernel import EndReason, Phase
from pointline.net import paths
from pointline.net.client._connection import RECONNECTING, RELAY_LOST
from pointline.net.client._events import Reconnecting
from pointline.net.client._relay_client import (
    REQUEST_TIMEOUT,
    ClientEvent,
    Disconnected,
    MemberDeparted,
    RelayClient,
    RelayError,
    RosterChanged,
    SessionStarted,
    TranscriptFailed,
    TranscriptSaved,
    connect_trusted,
    play,
)
from pointline.net.client._trust import CertificateNotTrusted, KnownRelays, RelayKeyChanged
from pointline.net.errors import ClientCode, ClientError, NetError
from pointline.net.protocol._peer import (
    HandResolved,
    ReceiptsIncomplete,
    ReceiptsMatched,
    ReceiptsMismatch,
    SessionComplete,
    SessionEnded,
    Thrown,
    seat_label,
)
from pointline.net.protocol._split import MAY_HAVE_COMPLETED, MAY_HAVE_ENDED

__all__ = ["NOBODY_JOINED", "NOT_STARTED", "describe", "main"]

NOBODY_JOINED = "Nobody else joined within {wait:g} s; the room is closed."
"""The creator's words when ``--wait`` runs out before the room is full."""
NOT_STARTED = "The session did not start within {wait:g} s; you left the room."
"""A joiner's words when ``--wait`` runs out before the creator starts the room."""

_NOT_REFUSALS = frozenset(
    {
        ClientCode.TIMEOUT,
        ClientCode.CLOSED,
        ClientCode.UNREACHABLE,
        ClientCode.CERTIFICATE,
        ClientCode.BAD_CA,
        ClientCode.NOT_TLS,
        ClientCode.RELAY_KEY_CHANGED,
        ClientCode.BAD_TRUST_FILE,
    }
)


def _seats(seats: tuple[int, ...]) -> str:
    return ", ".join(seat_label(s) for s in seats)


_LOST_BEFORE_START = f"{RELAY_LOST[0].upper()}{RELAY_LOST[1:]} before the session started."


def describe(event: ClientEvent, lost: bool = False) -> str | None:
    """Plain words for an event, seats counted from 1; None for the steps nobody needs to
    read (a round opening, each commit and reveal). ``lost``: this client's relay connection
    dropped under it, so an ending at its own departure is said as the lost connection."""
    match event:
        case SessionStarted(code, _table, seat, roster, _path):
            return f"room {code} started: you are {seat_label(seat)} of {len(roster)}"
        case Thrown(throw, die1, die2, total, phase, point):
            after = f"the point is {point}" if phase is Phase.POINT else "next is a come-out"
            if phase in (Phase.COMPLETE, Phase.ENDED):
                after = "the session is over"
            return f"throw {throw}: {die1} and {die2}, {total}; {after}"
        case HandResolved(hands):
            return f"hand {hands} resolved"
        case SessionComplete(result):
            standings = "; ".join(
                f"{seat_label(s)} {result.final[s]:,} points, rank {result.ranks[s]}"
                for s in range(len(result.final))
            )
            return f"session complete: {standings}"
        case SessionEnded() if lost:
            return f"session ended without a result: {RELAY_LOST}"
        case SessionEnded():
            late = event.reason is EndReason.DEADLINE  # a late message may have reached others
            return f"session ended without a result: {event.text}" + (
                f"; {MAY_HAVE_COMPLETED}" if late else ""
            )
        case ReceiptsMatched(count):
            return f"receipts matched: all {count} signed receipts agree"
        case ReceiptsMismatch(seats):
            return f"receipts differ from yours: {_seats(seats)}"
        case ReceiptsIncomplete():
            return (
                f"the receipt exchange stopped ({event.text}); the result stands; {MAY_HAVE_ENDED}"
            )
        case MemberDeparted(seat, name):
            return f"{name} ({seat_label(seat)}) left"
        case RelayError(_code, message):
            return f"the relay says: {message}"
        case Reconnecting():
            return RECONNECTING
        case Disconnected():
            return RELAY_LOST if lost else "the connection to the relay is closed"
        case TranscriptSaved(path):
            return f"transcript saved: {path}  (check: pointline verify {path})"
        case TranscriptFailed(path, reason):
            return f"the session ended: {reason}; what was written before is kept in {path}"
    return None


def _sayer(client: RelayClient) -> Callable[[ClientEvent], None]:
    """Print each event in plain words, knowing whether ``client``'s connection was lost."""

    def say(event: ClientEvent) -> None:
        lost = client.connection_lost and _own_departure(client, event)
        words = describe(event, lost)
        if words is not None:
            print(words, flush=True)

    return say


def _own_departure(client: RelayClient, event: ClientEvent) -> bool:
    if isinstance(event, Disconnected):
        return True
    peer = client.peer
    return (
        isinstance(event, SessionEnded)
        and peer is not None
        and event.reason is EndReason.DEPARTURE
        and event.seat == peer.seat
    )


async def _next_in_room(client: RelayClient) -> ClientEvent:
    """The next event while waiting for people: a lost connection ends the wait at once."""
    event = await client.next_event()
    if isinstance(event, Disconnected):
        raise ClientError(ClientCode.CLOSED, _LOST_BEFORE_START)
    return event


async def _connect(args: argparse.Namespace) -> RelayClient:
    if args.ca:
        return await RelayClient.connect(args.url, ca=args.ca)
    known = KnownRelays(paths.data_dir())
    try:
        return await connect_trusted(args.url, known)
    except CertificateNotTrusted as refused:
        if args.trust_certificate != refused.fingerprint:
            raise ClientError(
                ClientCode.CERTIFICATE,
                f"The relay's certificate was refused: {refused.text} To trust it, run again "
                f"with --trust-certificate {refused.fingerprint}",
            ) from None
        known.pin_certificate(refused.address, refused.pem)
        print(f"trusting the certificate of {refused.address} from now on", flush=True)
        return await connect_trusted(args.url, known)


async def _sign_in(client: RelayClient, args: argparse.Namespace) -> None:
    client.busy_patience = min(client.busy_patience, args.wait)  # within the room's wait
    try:
        try:
            await client.signin(args.name, args.password)
        except ClientError as exc:
            if exc.code != "bad_credentials" or not args.signup:
                raise
            await client.signup(args.name, args.password)
    except RelayKeyChanged as changed:
        if not args.accept_relay_key:
            raise ClientError(
                changed.code, f"{changed.text} To play on, run again with --accept-relay-key."
            ) from None
        client.accept_relay_key()
        print(f"accepted the new key of the relay at {changed.address}", flush=True)


def _say_error(words: str) -> None:
    """A line on standard error: every one the headless player writes there says who it is."""
    print(f"pointline-client: {words}", file=sys.stderr, flush=True)


async def _headless(args: argparse.Namespace) -> int:
    try:
        client = await _connect(args)
    except ClientError as exc:
        _say_error(exc.text)
        return 2
    client.request_timeout = args.timeout
    try:
        await _sign_in(client, args)
        if args.join:
            room = await client.join_room(args.join)
            print(
                f"joined room {room.code} as {seat_label(room.seat)}; waiting for the start",
                flush=True,
            )
            try:
                await client.wait_started(args.wait)
            except TimeoutError:  # the joiner's own words: it waited for the start
                _say_error(NOT_STARTED.format(wait=args.wait))
                return 1
            except ClientError as exc:
                if exc.code == ClientCode.CLOSED and client.connection_lost:
                    raise ClientError(ClientCode.CLOSED, _LOST_BEFORE_START) from None
                raise
        else:
            room = await client.create_room()
            print(f"room code: {room.code}  (waiting for {args.seats} people)", flush=True)
            async with asyncio.timeout(args.wait):
                while len(client.roster) < args.seats:
                    event = await _next_in_room(client)
                    if isinstance(event, RosterChanged):
                        print(f"  {len(event.roster)} in the room", flush=True)
            await client.start()
        print("started; free fictional points only, casual results, unverified", flush=True)
        peer = await play(client, on_event=_sayer(client))
        return 0 if peer.result is not None else 1
    except ClientError as exc:
        said = exc.text if exc.code in _NOT_REFUSALS else f"refused: {exc.text}"
        _say_error(said)
        return 2
    except TimeoutError:  # (an OSError: before that clause)
        _say_error(NOBODY_JOINED.format(wait=args.wait))
        return 1
    except NetError as exc:
        _say_error(f"the session stopped: {exc.text}")
        return 2
    except (OSError, ConnectionClosed):
        _say_error(f"the session stopped: {RELAY_LOST}")
        return 2
    finally:
        await client.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pointline.net.client", description="A headless Pointline online player."
    )
    parser.add_argument("--url", default="ws://127.0.0.1:8765")
    parser.add_argument(
        "--ca", metavar="FILE", help="trust this certificate (PEM) for a self-signed wss:// relay"
    )
    parser.add_argument(
        "--trust-certificate",
        metavar="FINGERPRINT",
        help="trust the wss:// relay's certificate with this SHA-256 fingerprint from now on",
    )
    parser.add_argument(
        "--accept-relay-key",
        action="store_true",
        help="play on although the relay signs with another key than the first time",
    )
    parser.add_argument("--name", required=True)
    parser.add_argument(
        "--password",
        default=os.environ.get("POINTLINE_PASSWORD"),
        help="the account's password (default: $POINTLINE_PASSWORD, kept out of ps)",
    )
    parser.add_argument("--signup", action="store_true", help="create the account if needed")
    parser.add_argument("--join", metavar="CODE", help="join this room (else create one)")
    parser.add_argument("--seats", type=int, default=2, help="start when this many are in")
    parser.add_argument("--wait", type=float, default=600.0, help="seconds to wait for people")
    parser.add_argument(
        "--timeout",
        type=float,
        default=REQUEST_TIMEOUT,
        help=f"seconds to wait for each answer of the relay ({REQUEST_TIMEOUT:g})",
    )
    args = parser.parse_args(argv)
    if not args.password:
        parser.error("give --password or set POINTLINE_PASSWORD")
    try:
        return asyncio.run(_headless(args))
    except KeyboardInterrupt:
        return 130
