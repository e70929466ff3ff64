"""Run every benchmark in bench/ and print its figures: `tox -e bench` or `python -m bench`.

`python -m bench NAME ... [OPTIONS]` runs only those modules (the options go to their ``main``,
e.g. `python -m bench host --cpu-quota 0.25`), e.g. `python -m bench relay_cluster` (a
relay cluster on real Redis and PostgreSQL servers it starts itself; it says "skipped" when
`redis-server` or PostgreSQL is not installed)."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main() -> None:
    args = sys.argv[1:]
    flags = next((i for i, a in enumerate(args) if a.startswith("-")), len(args))
    only, options = set(args[:flags]), args[flags:]  # `python -m bench host --cpu-quota 0.25`
    here = Path(__file__).parent
    for info in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name):
        if info.name.startswith("_") or (only and info.name not in only):
            continue
        module = importlib.import_module(f"bench.{info.name}")
        if hasattr(module, "main"):
            print(f"== bench/{info.name}.py")
            if options:
                module.main(options)
            else:
                module.main()
            print()


if __name__ == "__main__":
    main()
