"""``python -m pointline.spec``: run every proof, one line each; exit 1 if any fails."""

from __future__ import annotations

import sys
import time

from pointline.spec.proofs import run

__all__ = [
    "main",
]


def main(argv: list[str] | None = None) -> int:
    start = time.perf_counter()
    failed = 0
    for proof in run():
        print(proof.line(), flush=True)
        failed += not proof.ok
    took = time.perf_counter() - start
    if failed:
        print(f"{failed} proof(s) failed in {took:.1f} s")
        return 1
    print(f"all proofs hold ({took:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
