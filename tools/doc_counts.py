"""The counts the documents state (cases, steps, mutants), taken from the suite itself.

``python tools/doc_counts.py`` checks every count below against the live suite and prints each
one that differs (exit status 1); ``--write`` rewrites those numbers in place. Each count is
found by the words around it, exactly once in its file (a count whose words changed is an
error too, so a rewritten sentence cannot drop out of the check). tests/test_doc_counts.py runs
the check; after cases or mutants are added, ``python tools/doc_counts.py --write`` brings the
documents up to date.

The numbers come from where the suite keeps them: the fixture files' headers (``case_count``,
``step_count``: the runner checks them against the cases), the case ids for a family of cases,
and ``pointline.conformance.mutants.MUTANTS`` for the kernel's mutants.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "conformance" / "fixtures"


@cache
def _headers() -> tuple[dict[str, Any], ...]:
    """Every fixture file's header (its first line, up to the cases)."""
    found = []
    for path in sorted(FIXTURES.glob("*.json")):
        with path.open("rb") as f:
            head = f.readline().decode("utf-8")
        found.append(json.loads(head.rsplit(', "cases": [', 1)[0] + "}"))
    if not found:
        raise SystemExit(f"doc_counts: no fixture files in {FIXTURES}")
    return tuple(found)


def cases() -> int:
    return sum(int(h["case_count"]) for h in _headers())


def steps() -> int:
    return sum(int(h["step_count"]) for h in _headers())


def cases_named(topic: str, prefix: str) -> Callable[[], int]:
    """How many cases of the fixture ``topic`` have an id starting with ``prefix``."""

    def count() -> int:
        doc = json.loads((FIXTURES / f"{topic}.json").read_bytes())
        return sum(1 for case in doc["cases"] if case["id"].startswith(prefix))

    return count


def mutants() -> int:
    from pointline.conformance.mutants import MUTANTS

    return len(MUTANTS)


def thousands(n: int) -> str:
    return f"{n:,}"


def in_thousands(n: int) -> str:
    return str(round(n / 1000))


@dataclass(frozen=True)
class Count:
    """One number a document states: where (file, and a pattern whose group ``n`` is the
    number), what it is (``compute``) and how it is written (``render``)."""

    file: str
    pattern: str
    compute: Callable[[], int]
    render: Callable[[int], str] = str


COUNTS: tuple[Count, ...] = (
    Count("README.md", r"generated fixtures \((?P<n>[\d,]+) cases, ", cases, thousands),
    Count("README.md", r" cases, (?P<n>\d+)k steps;", steps, in_thousands),
    Count("README.md", r"the runner and (?P<n>\d+) mutant implementations", mutants),
    Count(
        "conformance/PROTOCOL.md",
        r"`malformed\.duplicate\.\*` cases \((?P<n>\d+), protocol 1\)",
        cases_named("05_malformed", "malformed.duplicate."),
    ),
    Count(
        "conformance/PROTOCOL.md",
        r"`loading\.invalid\.duplicate\.\*` cases \((?P<n>\d+), protocol 2\)",
        cases_named("15_loading", "loading.invalid.duplicate."),
    ),
)
"""Every count of cases, steps or mutants in README.md, conformance/PROTOCOL.md and
conformance/online/HARNESS.md (which states none today)."""


def stale(docs: Path, write: bool) -> list[str]:
    """What differs between the documents under ``docs`` and the suite, one line each; with
    ``write``, the numbers are rewritten in place (a missing or repeated pattern still counts)."""
    problems: list[str] = []
    texts: dict[str, str] = {}
    for count in COUNTS:
        text = texts.setdefault(count.file, (docs / count.file).read_text(encoding="utf-8"))
        found = list(re.finditer(count.pattern, text))
        if len(found) != 1:
            problems.append(
                f"{count.file}: the words of a count are found {len(found)} times, not once:"
                f" {count.pattern}"
            )
            continue
        match = found[0]
        want = count.render(count.compute())
        if match.group("n") != want:
            line = text.count("\n", 0, match.start()) + 1
            problems.append(f"{count.file}:{line}: says {match.group('n')}, the suite has {want}")
            if write:
                start, end = match.span("n")
                texts[count.file] = text[:start] + want + text[end:]
    if write:
        for name, text in texts.items():
            path = docs / name
            if path.read_text(encoding="utf-8") != text:
                path.write_text(text, encoding="utf-8")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/doc_counts.py", description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite the stale numbers")
    parser.add_argument(
        "--docs", type=Path, default=ROOT, help="the folder holding the documents (the checkout)"
    )
    args = parser.parse_args(argv)
    problems = stale(args.docs, args.write)
    for problem in problems:
        print(("rewritten: " if args.write else "") + problem)
    if args.write:
        return 1 if any("not once" in p for p in problems) else 0
    if problems:
        print("run `python tools/doc_counts.py --write` to bring the documents up to date")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
