"""The app on a phone: its data folder comes from Qt, and it starts without loading argon2."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QStandardPaths
from PySide6.QtGui import QGuiApplication

from pointline.gui import cli
from pointline.net import paths
from tests.gui.script_run import run_python


def test_without_home_transcripts_go_to_qts_app_data_folder(
    qapp: QGuiApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    QStandardPaths.setTestModeEnabled(True)
    try:
        monkeypatch.delenv(paths.ENV_DATA_DIR, raising=False)
        monkeypatch.delenv("HOME", raising=False)
        monkeypatch.setattr(sys, "platform", "android")
        cli.use_qt_data_dir()
        expected = cli.qt_app_data_dir()
        assert expected
        assert paths.data_dir(create=False) == Path(expected)
    finally:
        paths.set_app_data_dir(None)
        QStandardPaths.setTestModeEnabled(False)


BLOCK_ARGON2 = """
import importlib, pkgutil, sys

class NoArgon2:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("argon2", "_argon2_cffi_bindings"):
            raise ImportError(f"{name} is not installed on the phone")

sys.meta_path.insert(0, NoArgon2())
import pointline.gui
# every gui module, the online scenes' harness included (it runs the relay as its own process)
names = [m.name for m in pkgutil.walk_packages(pointline.gui.__path__, "pointline.gui.")]
for name in names + ["pointline.net.client", "pointline.net.protocol"]:
    importlib.import_module(name)
from pointline.gui.cli import main
code = main(["--screenshot", sys.argv[1], "--size", "390x844", "--scene", "come-out-draft"])
assert "argon2" not in sys.modules, "argon2 was imported"
print("imported", len(names), "gui modules without argon2")
sys.exit(code)
"""


def test_the_app_needs_no_argon2(tmp_path: Path) -> None:
    """Only the relay hashes passwords, and it loads only when a player hosts (issue 32)."""
    run = run_python(["-c", BLOCK_ARGON2, str(tmp_path / "shot.png")])
    assert "without argon2" in run.stdout
    assert (tmp_path / "shot.png").is_file()
