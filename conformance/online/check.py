"""Check the committed vectors against the reference code: ``python -m
pointline.conformance.online.check`` prints one line per failing case and ``N passed, N
failed``; exit 0 when none failed. ``--topic NAME`` limits it to one topic."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pointline.conformance.online import basic, hashes, transcripts
from pointline.conformance.online.sim import seat_key
from pointline.kernel import dice as kdice
from pointline.net.protocol import _keys as nkeys
from pointline.net.protocol import _messages as nmsg
from pointline.net.protocol import _peer as nproto
from pointline.net.protocol import _transcript as ntr

__all__ = ["COMPUTE", "TOPICS", "VECTORS", "Verifier", "load", "main", "run"]

VECTORS = Path(
    os.environ.get("POINTLINE_ONLINE_VECTORS") or Path(__file__).resolve().parent / "vectors"
)
"""The committed vectors (``$POINTLINE_ONLINE_VECTORS`` names another folder, e.g. a checkout's
when the installed package does not carry them)."""
TOPICS = (
    "messages",
    "signatures",
    "parsing",
    "choices",
    "commitments",
    "dice",
    "digests",
    "chain",
    "rosters",
    "transcripts",
)


def load(topic: str, folder: Path = VECTORS) -> list[dict[str, Any]]:
    doc = json.loads((folder / f"{topic}.json").read_text(encoding="utf-8"))
    cases: list[dict[str, Any]] = doc["cases"]
    return cases


def _signatures(inp: dict[str, Any]) -> dict[str, Any]:
    if inp["op"] == "verify":
        valid = nkeys.verify_signature(
            bytes.fromhex(inp["public_key"]),
            bytes.fromhex(inp["sig"]),
            bytes.fromhex(inp["message"]),
        )
        return {"valid": valid}
    key = nkeys.SigningKey.from_bytes(bytes.fromhex(inp["seed"]))
    if inp["op"] == "sign":
        return {"public_key": key.public_hex, "sig": key.sign(bytes.fromhex(inp["message"])).hex()}
    words = nkeys.verification_words(key.public_key, inp.get("count", nkeys.WORD_COUNT))
    return {"public_key": key.public_hex, "words": list(words)}


def _commitments(inp: dict[str, Any]) -> dict[str, Any]:
    nonce, choice = bytes.fromhex(inp["nonce"]), inp["choice"].encode()
    if "commitment" in inp:
        match = kdice.verify_commitment(
            bytes.fromhex(inp["commitment"]), inp["table"], inp["throw"], inp["seat"], nonce, choice
        )
        return {"matches": match}
    return {
        "commitment": kdice.commitment(inp["table"], inp["throw"], inp["seat"], nonce, choice).hex()
    }


def _digests(inp: dict[str, Any]) -> dict[str, Any]:
    roster = {s: seat_key(s).public_key for s in range(8)}
    parsed = [nmsg.parse(text, "t0", roster) for text in inp["frames"]]
    return {"digest": nmsg.session_digest(parsed).hex()}  # type: ignore[arg-type]


def _chain(inp: dict[str, Any]) -> dict[str, Any]:
    digest = ntr.record_hash(inp["index"], inp["prev"], inp["kind"], inp["body"])
    record = ntr.Record(inp["index"], inp["prev"], ntr.RecordKind(inp["kind"]), inp["body"], digest)
    return {"hash": digest, "line": record.to_line()}


def _rosters(inp: dict[str, Any]) -> dict[str, Any]:
    roster = tuple(
        nproto.Member(m["seat"], m["name"], bytes.fromhex(m["public_key"])) for m in inp["roster"]
    )
    data = nproto.roster_signing_bytes(inp["table"], roster)
    relay = nkeys.SigningKey.from_bytes(bytes.fromhex(inp["relay_seed"]))
    return {
        "signing_bytes": data.hex(),
        "relay_key": relay.public_hex,
        "roster_sig": relay.sign(data).hex(),
    }


Verifier = Callable[[str, "str | None"], str]

COMPUTE: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "messages": lambda i: basic.message_expect(i["body"], i["seed"]),
    "signatures": _signatures,
    "parsing": lambda i: basic.parse_expect(i["frame"]),
    "choices": lambda i: basic.choice_expect(i["choice"]),
    "commitments": _commitments,
    "dice": lambda i: hashes.dice_expect(i["table"], i["throw"], i["nonces"]),
    "digests": _digests,
    "chain": _chain,
    "rosters": _rosters,
    "transcripts": lambda i: {"verdict": transcripts.verdict(i["transcript"], i["relay_key"])},
}


def run(
    topics: Sequence[str] = TOPICS, folder: Path = VECTORS, fail_fast: bool = False
) -> tuple[int, list[str]]:
    """(passed, one line per failed case); ``fail_fast`` stops at the first failure."""
    passed, failed = 0, []
    for topic in topics:
        for case in load(topic, folder):
            try:
                got = COMPUTE[topic](case["input"])
            except Exception as error:
                got = {"raised": f"{type(error).__name__}: {error}"}
            if got == case["expect"]:
                passed += 1
            else:
                failed.append(
                    f"{topic}.{case['name']}: expected {case['expect']!r:.200}, got {got!r:.200}"
                )
                if fail_fast:
                    return passed, failed
    return passed, failed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pointline.conformance.online.check")
    parser.add_argument("--topic", action="append", choices=TOPICS)
    parser.add_argument("--quiet", action="store_true", help="print only the count line")
    args = parser.parse_args(argv)
    passed, failed = run(args.topic or TOPICS)
    if not args.quiet:
        for line in failed:
            print(f"FAIL {line}")
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
