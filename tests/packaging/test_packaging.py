"""The distribution as a contributor, a packager and a porter meet it.

No links in the checkout (a clone with ``core.symlinks=false`` imports every package), every
package folder listed in pyproject, the sdist carries the whole project, the wheel only the app,
and the conformance runner installed from the wheel says where the fixtures are.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = {"kernel": "kernel", "net": "net", "gui": "gui", "conformance": "conformance"}
FOLDERS["spec"] = "spec"
GIT = shutil.which("git")


def _pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _tracked() -> list[str]:
    assert GIT is not None
    out = subprocess.run(
        [GIT, "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return out.stdout.splitlines()


@pytest.mark.skipif(GIT is None or not (ROOT / ".git").exists(), reason="needs a git checkout")
def test_the_checkout_holds_no_symbolic_link() -> None:
    links = [line.split("\t", 1)[1] for line in _tracked() if line.startswith("120000")]
    assert links == []


def test_every_package_folder_is_listed_in_pyproject() -> None:
    setuptools = _pyproject()["tool"]["setuptools"]  # type: ignore[index]
    listed = set(setuptools["packages"])  # type: ignore[index]
    mapping = setuptools["package-dir"]  # type: ignore[index]
    assert mapping == {f"pointline.{name}": folder for name, folder in FOLDERS.items()}
    found = set()
    for name, folder in FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join(("pointline", name, *parts)))
    assert found == listed
    for name in FOLDERS:
        assert (ROOT / FOLDERS[name] / "py.typed").is_file(), name


def _build(kind: str, out: Path) -> Path:
    if kind == "wheel":
        # From the sdist, as pip installs a release: never from the checkout's stale build/.
        sdist = next(out.glob("*.tar.gz"))
        # -v: pip shows the build backend's output, kept for the warnings test below.
        cmd = [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(out), str(sdist)]
        run = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=600)
        (out / "wheel-build.log").write_text(run.stdout + run.stderr, encoding="utf-8")
        return next(out.glob("*.whl"))
    from setuptools import build_meta  # the backend pyproject names

    here = Path.cwd()
    os.chdir(ROOT)
    try:
        name = build_meta.build_sdist(str(out))
    finally:
        os.chdir(here)
    return out / name


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    return {"sdist": _build("sdist", out), "wheel": _build("wheel", out)}


def test_the_sdist_carries_the_whole_project(dists: dict[str, Path]) -> None:
    with tarfile.open(dists["sdist"]) as archive:
        names = {"/".join(n.split("/")[1:]) for n in archive.getnames()}
    for needed in (
        "tox.ini",
        "README.md",
        "pyproject.toml",
        "MANIFEST.in",
        "spec/RULES.md",
        "spec/ONLINE.md",
        "spec/proofs.py",
        "conformance/PROTOCOL.md",
        "conformance/fixtures/01_dice.json",
        "tests/conftest.py",
        "tests/packaging/test_packaging.py",
        "kernel/table.py",
        "net/protocol/_peer.py",
        "gui/qml/Pointline/Main.qml",
        "docs/screenshots/result-1280x720.png",
        ".ci/run",
    ):
        assert needed in names, needed
    fixtures = {n for n in names if n.startswith("conformance/fixtures/") and n.endswith(".json")}
    assert fixtures == {
        p.relative_to(ROOT).as_posix() for p in (ROOT / "conformance" / "fixtures").glob("*.json")
    }
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_building_the_wheel_prints_no_package_would_be_ignored(dists: dict[str, Path]) -> None:
    """Every data file of the wheel is named in pyproject's package-data: setuptools finds no
    data folder inside a package it was not told about (it said "Package would be ignored" for
    the conformance fixtures, the online vectors and the two QML modules)."""
    log = (dists["wheel"].parent / "wheel-build.log").read_text(encoding="utf-8")
    assert "pointline_table" in log  # the backend's own output is there to read
    ignored = [line.strip() for line in log.splitlines() if "is absent from the `packages`" in line]
    assert "Package would be ignored" not in log, ignored


def test_the_wheel_holds_one_top_level_name_and_no_fixtures(dists: dict[str, Path]) -> None:
    with zipfile.ZipFile(dists["wheel"]) as archive:
        names = archive.namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"pointline"}
    assert "pointline/kernel/py.typed" in names
    qml = {n for n in names if n.endswith((".qml", "qmldir"))}
    assert qml == {
        "pointline/" + p.relative_to(ROOT).as_posix()
        for p in (ROOT / "gui" / "qml").rglob("*")
        if p.suffix == ".qml" or p.name == "qmldir"
    }
    assert "pointline/spec/RULES.md" in names
    vectors = ROOT / "conformance" / "online" / "vectors"
    assert {n for n in names if "/online/vectors/" in n} == {
        "pointline/" + p.relative_to(ROOT).as_posix() for p in vectors.glob("*.json")
    }
    assert not [n for n in names if "/fixtures/" in n]
    assert not [n for n in names if n.startswith("pointline/__init__")]


def test_conformance_from_the_wheel_says_where_the_fixtures_are(
    dists: dict[str, Path], tmp_path: Path
) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", str(dists["wheel"])],
        check=True,
        capture_output=True,
        timeout=600,
    )
    for module in ("pointline.conformance.runner", "pointline.conformance.mutants"):
        run = subprocess.run(
            [str(python), "-m", module],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert run.returncode != 0, (module, run.stdout)
        assert "Traceback" not in run.stderr, run.stderr
        assert "killed" not in run.stdout
        assert "fixtures" in run.stderr and "sdist" in run.stderr, (module, run.stderr)


@pytest.mark.skipif(GIT is None or not (ROOT / ".git").exists(), reason="needs a git checkout")
def test_a_clone_without_symlinks_imports_every_package(tmp_path: Path) -> None:
    """Git for Windows' default: ``core.symlinks=false``. Installed from that clone, all import."""
    assert GIT is not None
    clone = tmp_path / "clone"
    subprocess.run(
        [GIT, "-c", "core.symlinks=false", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "-t", str(target), str(clone)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    packages = _pyproject()["tool"]["setuptools"]["packages"]  # type: ignore[index]
    code = (
        "import importlib, sys\n"
        "for name in sys.argv[1:]:\n"
        "    print(name, importlib.import_module(name).__file__)\n"
        "import pointline.kernel\n"
        "pointline.kernel.Table(seats=1)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(target), "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run(
        [sys.executable, "-c", code, *packages],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    imported = dict(line.split(" ", 1) for line in run.stdout.splitlines())
    assert sorted(imported) == sorted(packages)  # every package, the GUI's and QML's included
    for name, file in imported.items():
        assert file.startswith(str(target)), (name, file)
