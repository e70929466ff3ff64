"""Deliberately wrong reference peers, each applied at run time by monkeypatching (never by
editing a file) in a subprocess, and each killed by the vectors, the client harness or the
verifier harness.

    python -m pointline.conformance.online.mutants            # run every mutant, print kills
    python -m pointline.conformance.online.mutants --vectors NAME   # (internal) one vector run
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Final

from pointline.conformance.online import patches_code, patches_peer
from pointline.conformance.online.registry import MUTANTS, Mutant

__all__ = ["MUTANTS", "Mutant", "apply", "run_mutant"]
PYTHON = [sys.executable, "-m"]
BROKEN_PATCH: Final = re.compile(
    r"TypeError: \S*<locals>\.\S+\(\) (?:got an unexpected|got multiple|takes|missing) [^\n]*"
)
"""A mutant's wrapper whose signature no longer fits what it wraps, as Python says it."""
assert patches_code and patches_peer  # imported for their registrations


def apply(name: str) -> None:
    """Turn this process's reference code into mutant ``name``."""
    import pointline.conformance.online.check
    import pointline.net.protocol._peer
    import pointline.net.protocol._verify  # noqa: F401

    MUTANTS[name].patch()


# ---------------------------------------------------------------------------- running


def _command(name: str) -> list[str]:
    m = MUTANTS[name]
    if m.killer == "vectors":
        return [*PYTHON, "pointline.conformance.online.mutants", "--vectors", name]
    if m.killer == "verifier":
        verifier = (
            f"{sys.executable} -m pointline.conformance.online.adapters.verifier --mutant {name}"
        )
        return [
            *PYTHON,
            "pointline.conformance.online.harness",
            "--verifier",
            verifier,
            "--fail-fast",
        ]
    client = f"{sys.executable} -m pointline.conformance.online.adapters.peer --mutant {name}"
    case = m.killer.split(":", 1)[1]
    return [
        *PYTHON,
        "pointline.conformance.online.harness",
        "--client",
        client,
        "--case",
        case,
        "--fail-fast",
    ]


def run_mutant(name: str) -> tuple[str, bool, str]:
    """(name, killed, the last lines of what killed it)."""
    done = subprocess.run(_command(name), capture_output=True, text=True, timeout=170, check=False)
    lines = done.stdout.strip().split("\n")
    # killed means a failing case reported as such, never a crash of the run itself
    count = re.fullmatch(r"(\d+) passed, (\d+) failed", lines[-1]) if lines else None
    killed = done.returncode == 1 and count is not None and int(count.group(2)) > 0
    tail = "\n".join((done.stdout + done.stderr).strip().split("\n")[-4:])
    # the mutant's own wrapper called with arguments it no longer takes (the function it wraps
    # changed): the client or verifier crashed, which fails a case without the other answer
    broken = BROKEN_PATCH.search(done.stdout + done.stderr)
    if broken:
        return name, False, f"the mutant's own patch raised: {broken.group(0)}"
    return name, killed, tail


def _vectors(name: str) -> int:
    apply(name)
    from pointline.conformance.online import check

    passed, failed = check.run(fail_fast=True)  # one failing vector kills it
    for line in failed[:3]:
        print(f"FAIL {line}")
    # A mutant's own patch that raises (a wrapper whose signature no longer fits the function it
    # wraps: ``TypeError: _name.<locals>.wrapper() got an unexpected keyword argument``) fails
    # every vector without taking the other answer: that is a broken mutant, not a kill.
    broken = [line for line in failed if "'raised'" in line and ".<locals>." in line]
    if broken:
        print(f"the mutant's own patch raised: {broken[0]}")
        return 2
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pointline.conformance.online.mutants")
    parser.add_argument("--vectors", metavar="NAME", help=argparse.SUPPRESS)
    parser.add_argument("names", nargs="*", help="only these mutants")
    args = parser.parse_args(argv)
    if args.vectors:
        return _vectors(args.vectors)
    names = args.names or list(MUTANTS)
    with ThreadPoolExecutor(max_workers=3) as pool:  # the harness runs mostly wait
        results = list(pool.map(run_mutant, names))
    for name, killed, _ in results:
        print(
            f"{'killed' if killed else 'SURVIVED'} {name} ({MUTANTS[name].killer}): "
            f"{MUTANTS[name].text}"
        )
    survivors = [name for name, killed, _ in results if not killed]
    print(f"{len(names) - len(survivors)}/{len(names)} killed")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
