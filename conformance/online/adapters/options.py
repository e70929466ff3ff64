"""The reference adapters' one command-line option: ``--mutant NAME`` (``HARNESS.md``).

Kept apart from ``conformance.online.stdio`` so the mutants, which patch ``stdio``, and the
adapters, which apply them, import no cycle.
"""

from __future__ import annotations

import argparse

__all__ = ["adapter_options"]


def adapter_options(name: str, argv: list[str] | None) -> None:
    """An adapter's command line: ``--mutant NAME`` turns this process into that mutant."""
    parser = argparse.ArgumentParser(prog=f"python -m pointline.conformance.online.adapters.{name}")
    parser.add_argument("--mutant", help="run as this mutant (conformance.online.mutants)")
    args = parser.parse_args(argv)
    if args.mutant:
        from pointline.conformance.online.mutants import apply

        apply(args.mutant)
