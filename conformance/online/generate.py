"""Write the online vectors: ``python -m pointline.conformance.online.generate`` (``--check``
compares with the committed files instead of writing). Deterministic and self-contained:
every key, nonce and choice comes from fixed seeds, so the files reproduce byte for byte."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pointline.conformance.online import basic, hashes, transcripts
from pointline.conformance.online.check import TOPICS, VECTORS

__all__ = ["BUILDERS", "main", "render"]

BUILDERS: dict[str, Callable[[], list[dict[str, Any]]]] = {
    "messages": basic.messages,
    "signatures": basic.signatures,
    "parsing": basic.parsing,
    "choices": basic.choices,
    "commitments": hashes.commitments,
    "dice": hashes.dice,
    "digests": hashes.digests,
    "chain": hashes.chain,
    "rosters": hashes.rosters,
    "transcripts": transcripts.cases,
}
assert tuple(BUILDERS) == TOPICS


def render(topic: str) -> str:
    cases = BUILDERS[topic]()
    names = [c["name"] for c in cases]
    if len(set(names)) != len(names):
        raise ValueError(f"{topic}: two cases share a name")
    doc = {"topic": topic, "count": len(cases), "cases": cases}
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pointline.conformance.online.generate")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--out", type=Path, default=VECTORS)
    args = parser.parse_args(argv)
    if transcripts.MISMATCHES:
        transcripts.MISMATCHES.clear()
    stale = []
    for topic in TOPICS:
        text = render(topic)
        path = args.out / f"{topic}.json"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(topic)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="\n")
        print(f"{topic}: {json.loads(text)['count']} cases")
    if transcripts.MISMATCHES:
        for name, got, expected in transcripts.MISMATCHES:
            print(f"verdict of {name}: {got}, the generator expects {expected}", file=sys.stderr)
        return 1
    if stale:
        print(f"stale vectors: {', '.join(stale)} (run the generator)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
