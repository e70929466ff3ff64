"""main.py at the repository root: the deploy tools' entry file starts the pointline command."""

from __future__ import annotations

import os
from pathlib import Path

from tests.gui.script_run import run_python


def test_main_py_renders_a_scene_like_the_pointline_command(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = run_python(["main.py", "--screenshot", str(shot), "--size", "844x390"], env)
    assert shot.is_file() and "844x390" in run.stdout
