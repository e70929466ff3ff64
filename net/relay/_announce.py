"""``pointline-relay --announce NAME``: a standalone relay (a club's) announced nearby.

The relay is announced by mDNS (``net.discovery``, ``kind=relay``) with its name, its open rooms
(created, not started) and, with ``--cert``, its certificate's fingerprint; only on the addresses
named by ``--announce-on`` (or ``--host`` when it names one address), never on every interface.
Joining there still takes a room's code: the announcement names how many rooms are open, not
their codes. The count is refreshed every few seconds while the relay runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ssl
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Final

from pointline.net.discovery import Announcement, Announcer, check_addresses
from pointline.net.hostcert import certificate_fingerprint

if TYPE_CHECKING:
    from pointline.net.relay._server import Relay, RunningRelay

__all__ = ["REFRESH", "announcing", "check_announce", "open_rooms"]

REFRESH: Final = 5.0
"""Seconds between two looks at the open rooms (the announcement changes only if they did)."""


def _addresses(args: argparse.Namespace) -> list[str]:
    return list(args.announce_on) or [args.host]


def check_announce(args: argparse.Namespace) -> str | None:
    """What is wrong with the ``--announce`` flags, in plain words, or None."""
    try:
        Announcement("relay", args.announce, None)
    except ValueError as exc:
        return f"--announce: {exc}"
    try:
        check_addresses(_addresses(args))
    except ValueError as exc:
        how = "" if args.announce_on else " (name them with --announce-on ADDRESS)"
        return f"--announce needs this machine's addresses to announce on: {exc}{how}"
    if args.cert:
        try:
            _fingerprint(args.cert)
        except (OSError, ValueError) as exc:
            return f"--cert: cannot read the certificate ({exc})"
    return None


def _fingerprint(cert: str) -> str:
    """The SHA-256 of the first certificate in the PEM chain ``cert``."""
    text = Path(cert).read_text(encoding="ascii")
    end = "-----END CERTIFICATE-----"
    first = text[: text.index(end) + len(end)] + "\n"
    return certificate_fingerprint(ssl.PEM_cert_to_DER_cert(first[first.index("-----BEGIN") :]))


def open_rooms(relay: Relay) -> int:
    """Rooms created and not started (people can still join them with the code)."""
    rooms = (relay.rooms.get(code) for code in relay.rooms.codes())
    return sum(1 for room in rooms if room is not None and not room.started)


def announcing(
    args: argparse.Namespace,
) -> Callable[[RunningRelay], AbstractAsyncContextManager[None]]:
    """The ``around`` hook of ``serve_forever``: announce while the relay serves."""
    fingerprint = _fingerprint(args.cert) if args.cert else None

    @contextlib.asynccontextmanager
    async def around(running: RunningRelay) -> AsyncIterator[None]:
        announcement = Announcement("relay", args.announce, fingerprint)
        announcer = Announcer(_addresses(args), running.port, announcement)
        await announcer.start()
        print(
            f"announced nearby as {announcer.service_name} on {', '.join(announcer.addresses)}",
            flush=True,
        )

        async def refresh() -> None:
            while True:
                await asyncio.sleep(REFRESH)
                count = open_rooms(running.relay)
                if count != announcer.announcement.rooms:
                    current = announcer.announcement
                    await announcer.update(
                        Announcement("relay", current.name, current.fingerprint, rooms=count)
                    )

        task = asyncio.get_running_loop().create_task(refresh())
        try:
            yield
        finally:
            task.cancel()
            await announcer.stop()

    return around
