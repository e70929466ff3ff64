"""``python -m pointline.conformance.mutants.adapter NAME``: serve the protocol as one mutant."""

from __future__ import annotations

import sys

from pointline.conformance.adapter import main as serve
from pointline.conformance.mutants import MUTANTS

__all__ = [
    "main",
]


def main() -> None:
    if len(sys.argv) != 2 or sys.argv[1] not in MUTANTS:
        print(
            f"usage: python -m pointline.conformance.mutants.adapter {{{','.join(MUTANTS)}}}",
            file=sys.stderr,
        )
        raise SystemExit(2)
    name = sys.argv[1]
    serve(MUTANTS[name][1](name=f"mutant-{name}"))


if __name__ == "__main__":
    main()
