"""Start Debian 12's Orca 43 for tests/realinput/test_orca.py, run by Debian's own Python.

    python3 tests/realinput/orca_run.py --debug-file FILE [orca options]

It is Orca's own launcher (/usr/bin/orca) with three changes a test needs:

* the debug file is line-buffered (the launcher opens it with an 8 KB buffer, so the test would
  wait on lines still in the buffer, and a stopped Orca would lose the end of its log);
* it does not look for, nor refuse to start beside, other Orcas of the same user (the launcher
  asks ``pgrep -x orca``: another test run, or someone's own Orca, would stop this one);
* it keeps its own process name (the launcher renames itself ``orca``, which would make it one
  of those other Orcas for someone else).
"""

from __future__ import annotations

import builtins
import runpy
import sys
from typing import Any

LAUNCHER = "/usr/bin/orca"


def main() -> int:
    debug_file = sys.argv[sys.argv.index("--debug-file") + 1]
    real_open = builtins.open

    def line_buffered(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if file == debug_file and "w" in mode:
            return real_open(file, mode, buffering=1, encoding="utf-8")
        return real_open(file, mode, *args, **kwargs)

    builtins.open = line_buffered
    launcher = runpy.run_path(LAUNCHER, run_name="orca_launcher")
    names = launcher["main"].__globals__  # the launcher's own globals (run_path returns a copy)
    names["otherOrcas"] = list
    names["setProcessName"] = lambda name: True
    result: int = names["main"]()
    return result


if __name__ == "__main__":
    sys.exit(main())
