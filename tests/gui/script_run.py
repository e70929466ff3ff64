"""Run a Python script in a fresh interpreter from the repository root; read its JSON report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def run_json(script: str, args: list[str], env: dict[str, str], timeout: float = 90) -> Any:
    """Run ``script`` with ``args``; it must exit 0 and print a JSON report as its last line."""
    run = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])
