"""main.py at the repository root: the deploy tools' entry file starts the pointline command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_main_py_renders_a_scene_like_the_pointline_command(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run(
        [sys.executable, "main.py", "--screenshot", str(shot), "--size", "844x390"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert shot.is_file() and "844x390" in run.stdout
