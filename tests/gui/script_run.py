"""Run Python in a fresh interpreter from the repository root: it must exit 0; read its output
or its JSON report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def run_python(
    args: list[str], env: dict[str, str] | None = None, timeout: float = 90
) -> subprocess.CompletedProcess[str]:
    """``python *args`` from the repository root; it must exit 0 (else its stderr's tail is the
    failure)."""
    run = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return run


def run_json(script: str, args: list[str], env: dict[str, str], timeout: float = 90) -> Any:
    """Run ``script`` with ``args``; it must exit 0 and print a JSON report as its last line."""
    run = run_python(["-c", script, *args], env, timeout)
    return json.loads(run.stdout.strip().splitlines()[-1])
