"""Check and build the desktop app with pyside6-deploy (Nuitka), from the repository root.

    python tools/desktop_build.py check   # tox -e desktop-check: dry run, checks the plan
    python tools/desktop_build.py build   # tox -e desktop: real build, then a smoke test

``check`` runs ``pyside6-deploy -c pysidedeploy.spec --dry-run``, reads the Nuitka command it
would run and works out which data files that command ships (the same walk Nuitka does for
``--include-data-dir``, ``--include-data-files`` and ``--include-package-data``, less the
``--noinclude-data-files`` patterns). It fails unless exactly the QML module ships (every .qml
file and every ``qmldir`` file, at ``pointline/gui/qml``), nothing from the fixtures, tests,
bench, docs, spec proofs or tools does, the multimedia and qml Qt plugins are in, every QML
module the app imports survives the exclusions and WebEngine, PDF and 3D do not, the hosting
modules are compiled in (the relay, argon2, zeroconf and cryptography with them: the relay loads
only when a player hosts, and then it must be there), and the spec holds no absolute path.
``build`` runs the real build and smoke-tests ``dist/pointline.dist``.

Standard library only (plus the installed PySide6 for its deploy tool); not part of the wheel.
"""

from __future__ import annotations

import argparse
import configparser
import fnmatch
import json
import os
import re
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "pysidedeploy.spec"
TITLE = "pointline"
DIST = ROOT / "dist" / f"{TITLE}.dist"
QML_SOURCE = ROOT / "gui" / "qml"
QML_TARGET = "qml"
"""Where the QML module ships, next to the binary (main.py points the app there)."""
QMLDIRS = (
    f"{QML_TARGET}/Pointline/qmldir",
    f"{QML_TARGET}/Pointline/Online/qmldir",
    f"{QML_TARGET}/Pointline/Replay/qmldir",
)
SIZE_GOAL_MB = 150
KEPT_OUT = ("pointline.conformance", "pointline.spec", "pointline.net.relay._store_pg")
"""Never in the app: the conformance suite, the proofs, a relay cluster's PostgreSQL store."""
HOSTING = ("pointline.net.hosting", "pointline.net.joining")
"""Loaded when a player hosts or joins a table nearby (never at start: the app's import path
test), so Nuitka is told to compile them in."""
HOSTED_RELAY = (
    "pointline.net.relay",
    "pointline.net.relay._accounts",
    "pointline.net.hostcert",
    "argon2",
    "zeroconf",
    "cryptography",
)
"""What a hosted table runs: these must not be kept out (cryptography makes its certificate)."""
BUILD_LOCK = ROOT / "dist" / ".pointline-build.pid"
"""Held while ``build`` runs: pyside6-deploy, even with --dry-run, deletes deployment/ first."""

# What Nuitka never copies from a data directory (nuitka/freezer/IncludedDataFiles.py).
CODE_SUFFIXES = (".py", ".pyw", ".pyc", ".pyo", ".pyi", ".so", ".pyd", ".pyx", ".dll")
CODE_SUFFIXES += (".dylib", ".exe", ".bin")
IGNORED_DIRS = ("__pycache__", "site-packages", "dist-packages", "vendor-packages")
IGNORED_NAMES = ("py.typed", ".DS_Store")

# No shipped file may come from these folders of the checkout.
FORBIDDEN_PARTS = (
    "fixtures",
    "tests",
    "bench",
    "docs",
    "spec",
    "conformance",
    "tools",
    ".tox",
    ".ci",
    ".git",
    "deployment",
)
# Qt families that must stay out: (a file Nuitka would otherwise ship, as its dist path).
HEAVY_QT = {
    "WebEngine library": "libQt6WebEngineCore.so.6",
    "WebEngine QML": "PySide6/qml/QtWebEngine/libqtwebenginequickplugin.so",
    "PDF library": "libQt6Pdf.so.6",
    "PDF QML": "PySide6/qml/QtQuick/Pdf/libpdfquickplugin.so",
    "Quick3D library": "libQt6Quick3D.so.6",
    "Quick3D QML": "PySide6/qml/QtQuick3D/libqquick3dplugin.so",
    "Qt3D library": "libQt63DCore.so.6",
    "Qt3D QML": "PySide6/qml/Qt3D/Core/libquick3dcoreplugin.so",
    "Charts QML": "PySide6/qml/QtCharts/libqtchartsqml2plugin.so",
    "Location QML": "PySide6/qml/QtLocation/libdeclarative_locationplugin.so",
    "VirtualKeyboard QML": "PySide6/qml/QtQuick/VirtualKeyboard/libqtvkbplugin.so",
}


STYLE_ONLY = frozenset(
    {
        f"QtQuick.Controls.{style}{impl}"
        for style in ("Fusion", "Imagine", "Material", "Universal", "FluentWinUI3")
        for impl in ("", ".impl")
    }
    | {"QtQuick.Effects"}
)
"""QML modules the scanner lists only because Qt's FileDialog (QtQuick.Dialogs.quickimpl, the
replay's file picker) imports plain ``QtQuick.Controls``, which may select any style: the app
fixes the Basic style (gui/windows.py), so these never load and stay out of the build."""


class CheckFailed(Exception):
    """One or more planned-build checks failed (the message lists them)."""


def quiet_flags(tool: str) -> list[str]:
    """``--no-warn`` where the deploy tool has it (PySide6 6.12 does, 6.11 does not)."""
    shown = subprocess.run([tool, "--help"], capture_output=True, text=True, check=False)
    return ["--no-warn"] if "--no-warn" in shown.stdout else []


def read_spec(path: Path = SPEC) -> configparser.ConfigParser:
    """The spec parsed the way pyside6-deploy parses it ('#' lines are keys without values)."""
    parser = configparser.ConfigParser(comment_prefixes="/", strict=False, allow_no_value=True)
    parser.read(path, encoding="utf-8")
    return parser


def spec_value(parser: configparser.ConfigParser, section: str, key: str) -> str:
    return (parser.get(section, key, fallback="") or "").strip()


def absolute_paths(text: str) -> list[str]:
    """Words of ``text`` (after an optional ``NAME=``) that are absolute paths."""
    found = []
    for word in re.split(r"[\s,]+", text):
        candidate = word.split("=", 1)[-1] if word.startswith("--") else word
        if candidate.startswith(("/", "~", "\\")) or re.match(r"^[A-Za-z]:[\\/]", candidate):
            found.append(word)
    return found


def pins() -> dict[str, str]:
    """``name -> version`` of the exact pins in the ``deploy`` extra of pyproject.toml."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    result = {}
    for requirement in data["project"]["optional-dependencies"]["deploy"]:
        name, _, version = requirement.partition("==")
        result[name.strip().lower().replace("_", "-")] = version.strip()
    return result


def deploy_lib() -> Path:
    import PySide6

    return Path(PySide6.__file__).parent / "scripts" / "deploy_lib"


def check_spec(parser: configparser.ConfigParser) -> list[str]:
    """Problems with the committed spec itself (empty: none)."""
    problems = []
    for section in parser.sections():
        for key, value in parser.items(section):
            if key.startswith("#") or not value:
                continue
            for word in absolute_paths(value):
                problems.append(f"[{section}] {key} holds an absolute path: {word}")
    expected = {
        ("app", "title"): TITLE,
        ("app", "input_file"): "main.py",
        ("app", "exec_directory"): "dist",
        ("app", "project_dir"): ".",
        ("nuitka", "mode"): "standalone",
    }
    for (section, key), want in expected.items():
        got = spec_value(parser, section, key)
        if got != want:
            problems.append(f"[{section}] {key} is {got!r}, not {want!r}")
    extra = shlex.split(spec_value(parser, "nuitka", "extra_args"))
    if f"--output-filename={TITLE}" not in extra:
        problems.append(f"[nuitka] extra_args lacks --output-filename={TITLE}")
    icon = spec_value(parser, "app", "icon")
    if not icon or not (ROOT / icon).is_file():
        problems.append(f"[app] icon {icon!r} is not a file of the checkout")
    # The Nuitka the spec installs, the one the deploy extra pins and the one this PySide6's
    # deploy tool was made for must be the same.
    tool_default = read_spec(deploy_lib() / "default.spec")
    wanted = spec_value(tool_default, "python", "packages")
    ours = spec_value(parser, "python", "packages")
    if ours != wanted:
        problems.append(f"[python] packages is {ours!r}; this pyside6-deploy expects {wanted!r}")
    pinned = pins()
    nuitka = wanted.partition("==")[2]
    if pinned.get("nuitka") != nuitka:
        problems.append(f"the deploy extra pins Nuitka {pinned.get('nuitka')}, not {nuitka}")
    from importlib.metadata import version

    essentials = version("PySide6_Essentials")
    if pinned.get("pyside6-essentials") != essentials:
        problems.append(
            f"the deploy extra pins PySide6_Essentials {pinned.get('pyside6-essentials')} "
            f"but {essentials} is installed (its deploy tool expects Nuitka {nuitka})"
        )
    return problems


def dry_run_command() -> list[str]:
    """The Nuitka command line ``pyside6-deploy --dry-run`` prints for the committed spec."""
    tool = shutil.which("pyside6-deploy")
    if tool is None or shutil.which("pyside6-qmlimportscanner") is None:
        raise CheckFailed(
            "pyside6-deploy or pyside6-qmlimportscanner is not on PATH (activate the venv)"
        )
    before = SPEC.read_bytes()
    result = subprocess.run(
        [tool, "-c", str(SPEC), "--dry-run", *quiet_flags(tool)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if SPEC.read_bytes() != before:
        SPEC.write_bytes(before)
        raise CheckFailed("pyside6-deploy --dry-run changed pysidedeploy.spec (restored)")
    lines = [line for line in result.stdout.splitlines() if " -m nuitka " in line]
    if result.returncode != 0 or len(lines) != 1:
        raise CheckFailed(
            f"pyside6-deploy --dry-run failed (exit {result.returncode}):\n"
            f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
        )
    return shlex.split(lines[0])


@dataclass
class Plan:
    """What a Nuitka command line ships, as far as this project's own files go."""

    options: dict[str, list[str]] = field(default_factory=dict)
    data: dict[str, Path] = field(default_factory=dict)
    """dist path -> source file, after the --noinclude-data-files patterns."""
    dropped: dict[str, Path] = field(default_factory=dict)

    def values(self, option: str) -> list[str]:
        return self.options.get(option, [])


def parse_options(command: Sequence[str]) -> dict[str, list[str]]:
    options: dict[str, list[str]] = {}
    for word in command:
        if word.startswith("--"):
            name, _, value = word.partition("=")
            options.setdefault(name, []).append(value)
    return options


def below(path: str, pattern: str) -> bool:
    """Nuitka's test for a --noinclude pattern: a match, or ``path`` inside folder ``pattern``."""
    return fnmatch.fnmatch(path, pattern) or path.startswith(pattern.rstrip("/") + "/")


def walk_data(source: Path) -> Iterator[Path]:
    """The files Nuitka takes from a data folder (symlinked folders are not followed)."""
    for root, dirs, files in os.walk(source):
        dirs[:] = sorted(d for d in dirs if d not in IGNORED_DIRS)
        for name in sorted(files):
            if name in IGNORED_NAMES or name.endswith(CODE_SUFFIXES):
                continue
            yield Path(root) / name


def package_dir(name: str) -> Path:
    import importlib.util

    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise CheckFailed(f"--include-package-data={name}: no such package")
    return Path(next(iter(spec.submodule_search_locations)))


def plan(command: Sequence[str]) -> Plan:
    """The project data files ``command`` would ship (Nuitka's own rules, re-done here)."""
    result = Plan(options=parse_options(command))
    candidates: list[tuple[str, Path]] = []
    for value in result.values("--include-data-dir"):
        source, _, dest = value.partition("=")
        folder = ROOT / source  # relative paths are relative to the checkout (pyside6-deploy's cwd)
        for file in walk_data(folder):
            target = Path(dest) / file.relative_to(folder)
            candidates.append((os.path.normpath(target).replace(os.sep, "/"), file))
    for value in result.values("--include-data-files"):
        source, _, dest = value.partition("=")
        candidates.append((os.path.normpath(dest).replace(os.sep, "/"), ROOT / source))
    for value in result.values("--include-package-data"):
        name = value.split(":", 1)[0]
        folder = package_dir(name)
        for file in walk_data(folder):
            target = Path(*name.split(".")) / file.relative_to(folder)
            candidates.append((target.as_posix(), file))
    patterns = result.values("--noinclude-data-files")
    for dest, source in candidates:
        if any(below(dest, pattern) for pattern in patterns):
            result.dropped[dest] = source
        else:
            result.data.setdefault(dest, source)
    return result


def qml_imports() -> dict[str, Path]:
    """QML module name -> folder under PySide6's Qt/qml for every module the app imports."""
    import PySide6

    qt_qml = Path(PySide6.__file__).parent / "Qt" / "qml"
    scanner = shutil.which("pyside6-qmlimportscanner")
    assert scanner is not None
    output = subprocess.run(
        [scanner, "-rootPath", str(QML_SOURCE), "-importPath", str(qt_qml)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    found = {}
    for item in json.loads(output):
        path = item.get("path")
        if item.get("type") == "module" and path and Path(path).is_relative_to(qt_qml):
            found[item["name"]] = Path(path)
    return found


def check_plan(result: Plan) -> list[str]:
    problems = []
    expected = {
        f"{QML_TARGET}/{file.relative_to(QML_SOURCE).as_posix()}" for file in walk_data(QML_SOURCE)
    }
    shipped = set(result.data)
    for path in QMLDIRS:
        if path not in shipped:
            problems.append(f"{path} is not in the planned build")
    if not any(path.endswith(".qml") for path in expected):
        problems.append(f"no .qml files found under {QML_SOURCE}")
    for path in sorted(expected - shipped):
        problems.append(f"QML module file missing from the plan: {path}")
    for path in sorted(shipped):
        if path == TITLE or path.startswith(f"{TITLE}/"):
            problems.append(f"{path} would collide with the binary {TITLE}")
    for path in sorted(shipped - expected):
        problems.append(f"unexpected file in the plan: {path} (from {result.data[path]})")
    for path, source in result.data.items():
        relative = (
            source.resolve().relative_to(ROOT) if source.resolve().is_relative_to(ROOT) else None
        )
        parts = set(relative.parts) if relative else set()
        if relative is None or parts & set(FORBIDDEN_PARTS):
            problems.append(f"{path} comes from {source}: only the app may ship")
    plugins = ",".join(result.values("--include-qt-plugins")).split(",")
    for plugin in ("qml", "multimedia"):
        if plugin not in plugins:
            problems.append(f"Qt plugin family {plugin!r} is not included")
    if "pyside6" not in ",".join(result.values("--enable-plugin")).split(","):
        problems.append("Nuitka's pyside6 plugin is not enabled")
    dll_patterns = result.values("--noinclude-dlls")
    data_patterns = result.values("--noinclude-data-files")
    for label, dest in HEAVY_QT.items():
        if not any(fnmatch.fnmatch(dest, pattern) for pattern in dll_patterns):
            problems.append(f"{label} would ship ({dest} matches no --noinclude-dlls)")
    for name, folder in sorted(qml_imports().items()):
        if name in STYLE_ONLY:
            continue
        dest = "PySide6/qml/" + folder.as_posix().split("/Qt/qml/", 1)[1]
        probe = f"{dest}/qmldir"
        if any(below(probe, pattern) for pattern in data_patterns) or any(
            fnmatch.fnmatch(f"{dest}/plugin.so", pattern) for pattern in dll_patterns
        ):
            problems.append(f"QML module {name} is imported by the app but excluded ({dest})")
    nofollow = ",".join(result.values("--nofollow-import-to")).split(",")
    for module in KEPT_OUT:
        if module not in nofollow:
            problems.append(f"{module} is not kept out (--nofollow-import-to)")
    # the relay loads only when a player hosts: it ships, reached from these two
    included = ",".join(result.values("--include-module")).split(",")
    for module in HOSTING:
        if module not in included:
            problems.append(f"{module} is not in the build (--include-module): hosting needs it")
    for module in HOSTED_RELAY:
        if any(module == out or module.startswith(out + ".") for out in nofollow):
            problems.append(f"{module} is kept out, but a hosted table needs it")
    for word in result.values("--linux-icon") + result.values("--macos-app-icon"):
        if not Path(word).resolve().is_relative_to(ROOT):
            problems.append(f"the icon {word} is outside the project")
    return problems


MUTANTS = {
    "the fixtures ship": lambda word: word == "--noinclude-data-files=conformance",
    "the QML module is left out": lambda word: word == "--include-data-dir=gui/qml=qml",
    "WebEngine ships": lambda word: "libQt6WebEngine" in word,
    "hosting is left out": lambda word: word == "--include-module=pointline.net.hosting",
}
"""Broken variants of the real command (these words dropped) that the check must reject."""


def self_test(command: Sequence[str]) -> list[str]:
    """The check must fail each broken variant of the command: it is not vacuous."""
    problems = []
    for label, drop in MUTANTS.items():
        variant = [word for word in command if not drop(word)]
        if len(variant) == len(command):
            problems.append(f"self-test: nothing to drop for {label!r} (spec changed?)")
        elif not check_plan(plan(variant)):
            problems.append(f"self-test: the check passes a plan where {label}")
    return problems


def build_running() -> int | None:
    """The pid of a ``build`` still running in this checkout, if any."""
    try:
        pid = int(BUILD_LOCK.read_text())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return None
    return pid


def check(_: argparse.Namespace) -> int:
    started = time.monotonic()
    pid = build_running()
    if pid is not None:
        print(
            f"desktop-check: a desktop build (pid {pid}) is running here; pyside6-deploy would "
            "delete its deployment/ folder. Run the check when it is done.",
            file=sys.stderr,
        )
        return 1
    parser = read_spec()
    problems = check_spec(parser)
    try:
        command = dry_run_command()
        result = plan(command)
        problems += check_plan(result)
        problems += self_test(command)
    except CheckFailed as error:
        problems.append(str(error))
        result = Plan()
    for problem in problems:
        print(f"desktop-check: {problem}", file=sys.stderr)
    if problems:
        print(f"desktop-check: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    qml = sorted(path for path in result.data if path.endswith(".qml"))
    print(
        f"desktop-check: {len(result.data)} data files planned ({len(qml)} .qml, "
        f"{len(QMLDIRS)} qmldir), {len(result.dropped)} auto-added files dropped; Qt plugins "
        f"{','.join(result.values('--include-qt-plugins'))}; "
        f"{len(result.values('--noinclude-dlls'))} library exclusions "
        f"({time.monotonic() - started:.1f} s)"
    )
    print(f"desktop-check: it rejects all {len(MUTANTS)} broken variants ({', '.join(MUTANTS)})")
    print("desktop-check: ok")
    return 0


def folder_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    if header[:8] != b"\x89PNG\r\n\x1a\n":
        raise CheckFailed(f"{path} is not a PNG")
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def smoke(binary: Path, workdir: Path) -> list[str]:
    """Run the built binary: two screenshots, first frame, and --online staying up for 8 s."""
    problems = []
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")
    }
    env.update(
        QT_QPA_PLATFORM="offscreen",
        POINTLINE_DATA_DIR=str(workdir / "data"),
        XDG_CONFIG_HOME=str(workdir / "config"),
    )
    for size, scene in (("390x844", "point-reduction"), ("844x390", "come-out-draft")):
        shot = workdir / f"{scene}-{size}.png"
        run = subprocess.run(
            [str(binary), "--screenshot", str(shot), "--size", size, "--scene", scene],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if run.returncode != 0 or not shot.is_file():
            problems.append(f"screenshot {size} failed ({run.returncode}): {run.stderr[-2000:]}")
            continue
        got = "x".join(str(n) for n in png_size(shot))
        if got != size:
            problems.append(f"screenshot {shot.name} is {got}, not {size}")
        else:
            print(f"desktop: screenshot {shot} ({got}, {shot.stat().st_size} bytes)")
    first = subprocess.run(
        [str(binary), "--exit-after-first-frame"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if first.returncode != 0:
        problems.append(f"--exit-after-first-frame exited {first.returncode}: {first.stderr}")
    else:
        print("desktop: --exit-after-first-frame exited 0")
    # Nothing listens on the discard port: the app must keep its window up and say so.
    online = subprocess.Popen(
        [str(binary), "--online", "--relay", "ws://127.0.0.1:9"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline and online.poll() is None:
        time.sleep(0.25)
    if online.poll() is not None:
        _, err = online.communicate()
        problems.append(f"--online exited {online.returncode} within 8 s: {err[-2000:]}")
    else:
        print("desktop: --online still running after 8 s")
        online.send_signal(signal.SIGTERM)
        try:
            online.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            online.kill()
            online.communicate()
    return problems


def check_dist(dist: Path) -> list[str]:
    """The real build ships the QML module and none of the excluded files."""
    problems = []
    files = [f.relative_to(dist).as_posix() for f in dist.rglob("*") if f.is_file()]
    for path in QMLDIRS:
        if not (dist / path).is_file():
            problems.append(f"{path} is missing from {dist}")
    for path in files:
        parts = set(path.split("/"))
        if parts & {"fixtures", "tests", "bench", "docs", "conformance", "tools"}:
            problems.append(f"{path} shipped")
        if re.search(r"WebEngine|Qt6Pdf|Quick3D|Qt63D", path):
            problems.append(f"{path} shipped")
    if not any("_argon2_cffi_bindings" in path for path in files):
        problems.append("argon2's binding did not ship: a hosted table cannot make accounts")
    if not any("cryptography" in path and "_rust" in path for path in files):
        problems.append("cryptography's core did not ship: a table cannot make its certificate")
    if not any("ffmpegmediaplugin" in path for path in files):
        problems.append("the multimedia plugin (ffmpeg backend) did not ship")
    return problems


def build(args: argparse.Namespace) -> int:
    tool = shutil.which("pyside6-deploy")
    if tool is None or shutil.which("pyside6-qmlimportscanner") is None:
        print("desktop: pyside6-deploy is not on PATH (activate the venv)", file=sys.stderr)
        return 1
    saved = SPEC.read_bytes()
    if DIST.exists():
        shutil.rmtree(DIST)
    started = time.monotonic()
    BUILD_LOCK.parent.mkdir(exist_ok=True)
    BUILD_LOCK.write_text(str(os.getpid()))
    try:
        deploy = subprocess.run(
            [tool, "-c", str(SPEC), *quiet_flags(tool), "-f", *args.deploy_args],
            cwd=ROOT,
            check=False,
        )
    finally:
        BUILD_LOCK.unlink(missing_ok=True)
        if SPEC.read_bytes() != saved:
            print("desktop: pyside6-deploy rewrote pysidedeploy.spec; the committed one is back")
            SPEC.write_bytes(saved)
    elapsed = time.monotonic() - started
    binary = DIST / TITLE
    if deploy.returncode != 0 or not binary.is_file():
        print(f"desktop: pyside6-deploy failed (exit {deploy.returncode})", file=sys.stderr)
        return 1
    size = folder_size(DIST)
    print(f"desktop: built {binary} in {elapsed / 60:.1f} min ({elapsed:.0f} s)")
    print(f"desktop: {DIST} holds {size / 1e6:.0f} MB ({size / 2**20:.0f} MiB)")
    problems = check_dist(DIST)
    with tempfile.TemporaryDirectory(prefix="pointline-smoke-") as tmp:
        problems += smoke(binary, Path(tmp))
    if size > SIZE_GOAL_MB * 1e6:
        print(f"desktop: note: {size / 1e6:.0f} MB is above the {SIZE_GOAL_MB} MB goal")
    for problem in problems:
        print(f"desktop: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"desktop: ok ({elapsed:.0f} s build, {size / 1e6:.0f} MB)")
    return 0


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("check", help="dry run: check the planned build").set_defaults(func=check)
    run = sub.add_parser("build", help="build dist/pointline.dist and smoke-test it")
    run.add_argument("deploy_args", nargs="*", help="more pyside6-deploy options")
    run.set_defaults(func=build)
    args = parser.parse_args(None if argv is None else list(argv))
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
