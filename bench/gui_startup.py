"""Cold start of the Qt app to its first frame, and its resident memory.

Each run spawns `python -m pointline.gui.cli --exit-after-first-frame` (offscreen unless a
display is set), which quits on the window's first frameSwapped; the time is measured from spawn
to exit and the memory is the child's max RSS. Goals: ≤ 1.5 s and ≤ 250 MB.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 5
ROOT = Path(__file__).resolve().parent.parent


def one_run() -> tuple[float, float]:
    """(seconds from spawn to exit after the first frame, max RSS in MB) of one cold start."""
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pointline.gui.cli", "--exit-after-first-frame"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"the app exited with status {proc.returncode}")
    return elapsed, usage.ru_maxrss / 1024


def main() -> None:
    times, rss = [], []
    for _ in range(RUNS):
        t, m = one_run()
        times.append(t)
        rss.append(m)
    print(
        f"cold start to first frame: median {statistics.median(times):.3f} s, "
        f"min {min(times):.3f} s, max {max(times):.3f} s over {RUNS} runs (goal ≤ 1.5 s)"
    )
    print(f"resident memory (max RSS): {max(rss):.0f} MB (goal ≤ 250 MB)")


if __name__ == "__main__":
    main()
