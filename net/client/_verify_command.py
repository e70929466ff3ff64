"""``pointline verify FILE``: the file side of the offline verifier.

The replay itself is ``net.protocol``'s ``verify_text``, which opens no file; this module reads
the file (every ``OSError`` in plain words, as a FAIL report) and is the command line.

Without ``--relay-key`` the command tries every relay key this app has pinned (``known`` folder:
the app's data folder, ``known-relays.json``; ``net.client._trust.pinned_keys``) and names the
one whose signature the roster carries: "the names are vouched for by hostana's table, whose
key this app pinned on 2026-12-06: …" (issue 41).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from pointline.net import paths
from pointline.net.client._transcript_file import read_text
from pointline.net.client._trust import PinnedKey, pinned_keys
from pointline.net.errors import ClientError, NetError, RosterError
from pointline.net.protocol._keys import public_key_from_hex
from pointline.net.protocol._peer import seat_label
from pointline.net.protocol._report import NO_PINNED_KEY_SIGNED, NO_RELAY_KEY, pinned_players
from pointline.net.protocol._verify import Report, printable, verify_text

__all__ = ["main", "verify_transcript"]


def verify_transcript(
    path: str | Path,
    relay_key: bytes | None = None,
    known: str | os.PathLike[str] | None = None,
) -> Report:
    """Re-check the transcript at ``path``; the report holds OK or the first discrepancy.

    With ``known`` (a data folder) and no ``relay_key``, every relay key pinned there is tried
    and the report's players line names the one that signed the roster. Never raises for any
    file: a file that cannot be read is a FAIL report in plain words.
    """
    try:
        text = read_text(path)
    except NetError as error:
        return Report(False, "", error.text)
    report = verify_text(text, relay_key)
    if relay_key is not None or known is None or not report.ok or report.players != NO_RELAY_KEY:
        return report
    try:
        keys = pinned_keys(known)
    except ClientError:  # a damaged known-relays.json: verify as without keys
        return report
    for pinned in keys:
        keyed = verify_text(text, pinned.key)
        if keyed.ok:
            return dataclasses.replace(keyed, players=_named(keyed, pinned))
    return dataclasses.replace(report, players=NO_PINNED_KEY_SIGNED) if keys else report


def _named(report: Report, pinned: PinnedKey) -> str:
    names = ", ".join(f"{seat_label(seat)} {name}" for seat, name, _ in report.roster)
    hosted = report.players.startswith("the names are vouched for")
    return pinned_players(pinned.owner, pinned.pinned_on, pinned.current, hosted, names)


def main(argv: Sequence[str] | None = None) -> int:
    """``pointline verify FILE``: print OK and a summary, or FAIL and the first discrepancy."""
    parser = argparse.ArgumentParser(
        prog="pointline verify",
        description="Re-check a saved online transcript: signatures, commitments, dice, "
        "contracts, payments, final points, ranks and receipts. A solo session saved by Stats "
        "is checked too: every throw's dice derived again from its nonce and commitment, and "
        "the rules replayed.",
    )
    parser.add_argument(
        "file",
        type=Path,
        help="a transcript (.jsonl) saved by an online session, or a solo session from Stats",
    )
    parser.add_argument(
        "--show", action="store_true", help="also print every replayed throw and the points"
    )
    parser.add_argument(
        "--relay-key",
        metavar="HEX",
        help="the relay's public key (64 hex digits): check who played against its signature "
        "(without it, every key this app has pinned is tried: known-relays.json in the app's "
        "data folder)",
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    relay_key = None
    if args.relay_key is not None:
        try:
            relay_key = public_key_from_hex(args.relay_key)
        except RosterError as error:
            print(f"FAIL: --relay-key: {error.message}")
            return 1
    report = verify_transcript(args.file, relay_key, known=paths.data_dir(create=False))
    if args.show and report.ok:
        for line in report.throw_lines:
            print(printable(line))
    print(report.text())
    if not report.ok:
        return 1
    return 0 if report.complete else 2


if __name__ == "__main__":
    sys.exit(main())
