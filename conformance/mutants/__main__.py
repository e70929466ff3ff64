"""``python -m pointline.conformance.mutants [NAME ...] [--jobs N]``: run the suite on every mutant.

Each mutant is run through the real runner with ``--max-failures 1`` (one failure kills it);
prints one line per mutant and the kill rate. Exits 1 if any mutant survives.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pointline.conformance.errors import FixturesMissing
from pointline.conformance.mutants import MUTANTS
from pointline.conformance.runner import find_fixtures, parse_summary

__all__ = ["main", "run_mutant"]


def run_mutant(
    name: str,
    timeout: float = 300.0,
    extra: list[str] | None = None,
    fixtures: Path | None = None,
) -> tuple[str, bool, float, str]:
    """Run the suite against mutant ``name``: (name, killed, seconds, the runner's last lines)."""
    impl = shlex.join([sys.executable, "-m", "pointline.conformance.mutants.adapter", name])
    argv = [
        sys.executable,
        "-m",
        "pointline.conformance.runner",
        "--impl",
        impl,
        "--max-failures",
        "1",
        "--show",
        "1",
        "-q",
        "--timeout",
        "5",
        *(["--fixtures", str(fixtures)] if fixtures is not None else []),
        *(extra or []),
    ]
    started = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    lines = proc.stdout.strip().splitlines()
    fail = next((line for line in lines if line.startswith("FAIL ")), "")
    counts = parse_summary(lines[-1]) if lines else None
    killed = proc.returncode != 0 and counts is not None and counts[1] > 0
    return name, killed, time.monotonic() - started, fail


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pointline.conformance.mutants")
    parser.add_argument("names", nargs="*", help="mutants to run (default: all)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--fixtures", type=Path, metavar="DIR", help="the folder of fixture files")
    args = parser.parse_args(argv)
    try:
        # Without fixtures every run fails to start and no mutant is killed: say why instead.
        fixtures = find_fixtures(args.fixtures).resolve()
    except FixturesMissing as error:
        print(f"pointline mutants: {error.text}", file=sys.stderr)
        return 2
    names = args.names or list(MUTANTS)
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda n: run_mutant(n, fixtures=fixtures), names))
    for name, killed, seconds, fail in results:
        verdict = "killed  " if killed else "SURVIVED"
        print(f"{verdict} {name:<30} {seconds:5.1f} s  {MUTANTS[name][0]}")
        if fail:
            print(f"         by {fail[5:]}")
    killed_count = sum(r[1] for r in results)
    rate = 100.0 * killed_count / len(results) if results else 0.0
    print(
        f"kill rate: {killed_count}/{len(results)} mutants killed ({rate:.0f}%)"
        f" in {time.monotonic() - started:.1f} s"
    )
    return 0 if killed_count == len(results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
