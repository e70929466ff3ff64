"""The desktop build's plan check (``tools/desktop_build.py``, ``tox -e desktop-check``) fails on
a plan that drops something the app uses, or lets back in what the build leaves out (issue 42).

Each planted fault is one of ``MUTANTS`` applied to the committed spec's Nuitka words; the check
must name the fault, not merely fail. ``desktop-check`` runs the same faults against the real
``pyside6-deploy --dry-run`` command. Also here: the ICU scan of the app's code, and qasync on a
QGuiApplication where QtWidgets is absent (as in the build).
"""

from __future__ import annotations

import fnmatch
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.paths import ROOT


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "desktop_build", ROOT / "tools" / "desktop_build.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["desktop_build"] = module
    spec.loader.exec_module(module)
    return module


build = _load()


@pytest.fixture(scope="module")
def command() -> list[str]:
    return list(build.spec_command())


def test_the_committed_plan_passes(command: list[str]) -> None:
    assert build.check_plan(build.plan(command)) == []


@pytest.mark.parametrize("label", sorted(build.MUTANTS))
def test_a_planted_fault_is_named(command: list[str], label: str) -> None:
    changed, problems = build.mutant_problems(command, label)
    assert changed, f"the fault {label!r} changes nothing in the spec's command"
    expected = build.MUTANTS[label][1]
    assert any(expected in problem for problem in problems), (label, problems)


def test_each_family_the_app_needs_is_kept(command: list[str]) -> None:
    for family in build.MUST_KEEP_FAMILIES:
        problems = build.check_plan(build.plan([*command, f"--noinclude-qt-plugins={family}"]))
        assert any(f"{family!r} is dropped" in problem for problem in problems), family


def test_each_library_the_app_needs_is_kept(command: list[str]) -> None:
    for dest in build.MUST_SHIP:
        problems = build.check_plan(build.plan([*command, f"--noinclude-dlls={dest}"]))
        assert any(dest in problem and "left out" in problem for problem in problems), dest


def test_each_dropped_library_stays_dropped(command: list[str]) -> None:
    patterns = [w for w in command if w.startswith("--noinclude-dlls=")]
    for dest in build.MUST_NOT_SHIP:
        matching = [w for w in patterns if fnmatch.fnmatch(dest, w.split("=", 1)[1])]
        variant = [w for w in command if w not in matching]
        problems = build.check_plan(build.plan(variant))
        assert any(dest in problem and "would ship" in problem for problem in problems), dest


def test_the_icu_scan_finds_a_collator_in_qml_and_python(tmp_path: Path) -> None:
    (tmp_path / "List.qml").write_text("Text { text: a.localeCompare(b) }\n", encoding="utf-8")
    (tmp_path / "sort.py").write_text("from PySide6.QtCore import QCollator\n", encoding="utf-8")
    (tmp_path / "fine.qml").write_text(
        'Text { text: n.toLocaleString(Qt.locale("en_US"), "f", 0) }\n', encoding="utf-8"
    )
    problems = build.icu_problems([tmp_path])
    assert len(problems) == 2
    assert any("localeCompare" in p for p in problems)
    assert any("QCollator" in p for p in problems)
    assert build.icu_problems() == []  # the app's own code needs no ICU data


def test_the_icu_stub_is_icus_empty_common_data(tmp_path: Path) -> None:
    """The stub compiles to a library exporting icudt73_dat: ICU's 'CmnD' header, no item."""
    import shutil

    if shutil.which("gcc") is None:
        if os.environ.get("CI"):
            pytest.fail("needs gcc (the desktop build needs it too)")
        pytest.skip("needs gcc")
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "libicudata.so.73").write_bytes(b"\0" * 4096)
    library, before, after = build.icu_stub(dist, tmp_path)
    assert (before, library.name) == (4096, "libicudata.so.73")
    assert after < 20_000
    symbols = subprocess.run(
        ["nm", "-D", str(library)], capture_output=True, text=True, check=True
    ).stdout
    assert " R icudt73_dat" in symbols
    soname = subprocess.run(
        ["readelf", "-d", str(library)], capture_output=True, text=True, check=True
    ).stdout
    assert "[libicudata.so.73]" in soname


QASYNC_WITHOUT_WIDGETS = """
import asyncio, json, sys
sys.modules["PySide6.QtWidgets"] = None  # as in the build: the module cannot be imported
from pointline.gui._qasync_core import install
installed = install()
from PySide6.QtGui import QGuiApplication
app = QGuiApplication(sys.argv)
import qasync
loop = qasync.QEventLoop(app)
asyncio.set_event_loop(loop)
async def main():
    await asyncio.sleep(0.01)
    return qasync.QApplication.instance() is app
with loop:
    same = loop.run_until_complete(main())
print(json.dumps({"installed": installed, "same": same,
                  "stand_in": qasync.QApplication is QGuiApplication}))
"""

QASYNC_WITH_WIDGETS = """
import json, sys
from pointline.gui._qasync_core import install
installed = install()
import qasync
from PySide6 import QtWidgets
print(json.dumps({"installed": installed, "real": qasync.QApplication is QtWidgets.QApplication}))
"""


def _run(script: str) -> dict[str, object]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QT_API="pyside6")
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return dict(json.loads(out.stdout.splitlines()[-1]))


def test_qasync_runs_on_a_gui_application_without_qtwidgets() -> None:
    assert _run(QASYNC_WITHOUT_WIDGETS) == {"installed": True, "same": True, "stand_in": True}


def test_where_qtwidgets_is_installed_qasync_is_left_as_it_is() -> None:
    assert _run(QASYNC_WITH_WIDGETS) == {"installed": False, "real": True}


COLLATING_APP = """#!{python}
import sys
from PySide6.QtCore import QCoreApplication, QCollator, QLocale
app = QCoreApplication(sys.argv)
if "collate" in sys.argv:
    QCollator(QLocale("en_US")).compare("a2", "a10")
"""


@pytest.mark.parametrize("collate", [False, True])
def test_the_icu_probe_sees_a_look_up_of_icu_data(tmp_path: Path, collate: bool) -> None:
    """The smoke test's ICU probe (ICU_DATA and strace) reports an app that collates, and
    nothing for one that does not: its silence about the built app means something."""
    import shutil

    if shutil.which("strace") is None:
        if os.environ.get("CI"):
            pytest.fail("needs the Debian package strace (the desktop build's smoke test too)")
        pytest.skip("needs the Debian package strace")
    app = tmp_path / "app"
    app.write_text(COLLATING_APP.format(python=sys.executable), encoding="utf-8")
    app.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    smoke = build.Smoke(app, work)
    run = smoke.run(["collate"] if collate else [])
    assert run.returncode == 0, run.stderr
    smoke.icu()
    looked_up = [p for p in smoke.problems if "looked up ICU data" in p]
    if collate:
        assert looked_up and "coll" in looked_up[0], smoke.problems
    else:
        assert smoke.problems == []


SCREENSHOT_APP = """#!{python}
import struct, sys
args = sys.argv[1:]
path = args[args.index("--screenshot") + 1]
width, height = map(int, args[args.index("--size") + 1].split("x"))
words = args[args.index("--scene") + 1] + {fault!r}  # the planted fault: a word drawn differently
with open(path, "wb") as f:
    f.write(b"\\x89PNG\\r\\n\\x1a\\n" + struct.pack(">I", 13) + b"IHDR")
    f.write(struct.pack(">II", width, height) + words.encode())
"""


def test_the_smoke_test_draws_every_still_solo_scene() -> None:
    from pointline.gui.tools.scenes import MOTION_SCENES, SCENES

    drawn = build.smoke_scenes()
    assert {scene for size, scene in drawn if size == "844x390"} == set(SCENES) - MOTION_SCENES
    assert ("390x844", "point-reduction") in drawn


@pytest.mark.parametrize("fault", ["", " (no ICU data)"])
def test_the_smoke_screenshots_fail_a_build_that_draws_differently(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    """A built app whose screen differs from the source app's is named; one that draws the
    same passes (stand-ins for both apps that write the scene's words into a PNG)."""
    import shutil

    if shutil.which("strace") is None:
        if os.environ.get("CI"):
            pytest.fail("needs the Debian package strace (the desktop build's smoke test too)")
        pytest.skip("needs the Debian package strace")
    built, source = tmp_path / "built", tmp_path / "source"
    for app, planted in ((built, fault), (source, "")):
        app.write_text(
            SCREENSHOT_APP.format(python=sys.executable, fault=planted), encoding="utf-8"
        )
        app.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.setattr(build, "smoke_scenes", lambda: [("844x390", "help"), ("390x844", "ended")])
    smoke = build.Smoke(built, work)
    smoke.source_app = [str(source)]
    smoke.screenshots()
    if fault:
        assert smoke.problems == [
            "screenshot help-844x390.png differs from the source app's",
            "screenshot ended-390x844.png differs from the source app's",
        ]
    else:
        assert smoke.problems == []
