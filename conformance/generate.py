"""Rebuild ``conformance/fixtures/`` from the reference kernel, deterministically.

``python -m pointline.conformance.generate [--out DIR] [--only TOPIC ...]``. Every random
choice comes from a seeded ``random.Random``; hypothesis runs derandomized; z3 runs with fixed
seeds. Running it twice gives byte-identical files.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pointline.conformance import sessions, topics
from pointline.conformance.casebook import COVERAGE, render_file
from pointline.kernel import TRANSITIONS, Code

__all__ = [
    "FIXTURES",
    "UNREACHABLE_CODES",
    "Maker",
    "build",
    "check_coverage",
    "main",
    "write",
]

FIXTURES = Path(__file__).parent / "fixtures"
UNREACHABLE_CODES = {Code.OVER_BALANCE.code}
"""Under the standard 1,000-point session a seat never has less than 600 at a come-out, so the
balance guard never binds before the 100-point hand limit (PROTOCOL.md, "Coverage")."""


def build(only: set[str] | None = None) -> dict[str, bytes]:
    """Every fixture file's name and bytes."""
    files: dict[str, bytes] = {}
    if only is None or "21_hypothesis" in only:
        sessions.hypothesis_params()  # first: see sessions.hypothesis_params
    for name, description, make in topics.TOPICS:
        if only and name not in only:
            continue
        # Each topic starts from the same global random state, whatever ran before it in this
        # process (hypothesis draws from it): ``--only`` and a full run give the same bytes.
        random.seed(f"pointline-conformance/{name}")
        cases: list[dict[str, Any]] = [c.document() for c in make()]
        protocol = topics.TOPIC_PROTOCOL.get(name, 1)
        files[f"{name}.json"] = render_file(name, description, cases, protocol)
    return files


def check_coverage() -> list[str]:
    problems = []
    for i, row in enumerate(TRANSITIONS):
        if i not in COVERAGE.rows:
            problems.append(f"row {i} ({row.phase.value} {row.kind.value} {row.when.value})")
    for code in Code:
        if code.code not in COVERAGE.codes and code.code not in UNREACHABLE_CODES:
            problems.append(f"code {code.code}")
    return problems


def write(files: dict[str, bytes], out: Path, prune: bool = True) -> None:
    out.mkdir(parents=True, exist_ok=True)
    if prune:
        for old in out.glob("*.json"):
            if old.name not in files:
                old.unlink()
    for name, data in files.items():
        (out / name).write_bytes(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pointline.conformance.generate")
    parser.add_argument("--out", type=Path, default=FIXTURES)
    parser.add_argument("--only", nargs="*", help="topics to build (default: all)")
    args = parser.parse_args(argv)
    random.seed(0)
    only = set(args.only) if args.only else None
    files = build(only)
    write(files, args.out, prune=only is None)
    total = sum(len(d) for d in files.values())
    print(f"{len(files)} files, {total / 1e6:.2f} MB in {args.out}")
    if only is None:
        problems = check_coverage()
        for p in problems:
            print(f"not covered: {p}", file=sys.stderr)
        if problems:
            return 1
    return 0


Maker = Callable[[], list[Any]]

if __name__ == "__main__":
    raise SystemExit(main())
