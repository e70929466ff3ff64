"""``pointline verify FILE``: the file side of the offline verifier.

The replay itself is ``net.protocol``'s ``verify_text``, which opens no file; this module reads
the file (every ``OSError`` in plain words, as a FAIL report) and is the command line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from pointline.net.client._transcript_file import read_text
from pointline.net.errors import NetError, RosterError
from pointline.net.protocol._keys import public_key_from_hex
from pointline.net.protocol._verify import Report, printable, verify_text

__all__ = ["main", "verify_transcript"]


def verify_transcript(path: str | Path, relay_key: bytes | None = None) -> Report:
    """Re-check the transcript at ``path``; the report holds OK or the first discrepancy.

    Never raises for any file: a file that cannot be read is a FAIL report in plain words.
    """
    try:
        text = read_text(path)
    except NetError as error:
        return Report(False, "", error.text)
    return verify_text(text, relay_key)


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
        help="the relay's public key (64 hex digits): check who played against its signature",
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    relay_key = None
    if args.relay_key is not None:
        try:
            relay_key = public_key_from_hex(args.relay_key)
        except RosterError as error:
            print(f"FAIL: --relay-key: {error.message}")
            return 1
    report = verify_transcript(args.file, relay_key)
    if args.show and report.ok:
        for line in report.throw_lines:
            print(printable(line))
    print(report.text())
    if not report.ok:
        return 1
    return 0 if report.complete else 2


if __name__ == "__main__":
    sys.exit(main())
