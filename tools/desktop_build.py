"""Check and build the desktop app with pyside6-deploy (Nuitka), from the repository root.

    python tools/desktop_build.py check   # tox -e desktop-check: dry run, checks the plan
    python tools/desktop_build.py build   # tox -e desktop: real build, then a smoke test
    python tools/desktop_build.py smoke   # the smoke test again on the folder a build left

``check`` runs ``pyside6-deploy -c pysidedeploy.spec --dry-run``, reads the Nuitka command it
would run and works out which data files that command ships (the same walk Nuitka does for
``--include-data-dir``, ``--include-data-files`` and ``--include-package-data``, less the
``--noinclude-data-files`` patterns). It fails unless exactly the QML module ships (every .qml
file and every ``qmldir`` file, at ``pointline/gui/qml``), nothing from the fixtures, tests,
bench, docs, spec proofs or tools does, the qml Qt plugins are in, every QML module the app
imports survives the exclusions and WebEngine, PDF and 3D do not, the hosting modules are
compiled in (the relay, argon2, zeroconf and cryptography with them: the relay loads only when
a player hosts, and then it must be there), and the spec holds no absolute path. Issue 42 (at
most 150 MB): what must stay stays (``MUST_KEEP_FAMILIES``, ``MUST_SHIP``, ``MUST_FOLLOW``),
what goes goes (``DROPPED_FAMILIES``, ``MUST_NOT_SHIP``, QtWidgets, docstrings), the app's code
names nothing that needs ICU's data (``ICU_SERVICES``), and each planted fault of ``MUTANTS``
is named.

``build`` runs the real build, strips the copied libraries, replaces ICU's data with an empty
library, packs ``dist/pointline.tar.gz`` and smoke-tests ``dist/pointline.dist`` (``Smoke``):
screenshots, the sound heard, the online window over wss, a hosted table, the file dialog, and
no ICU data looked up by any run of the built app.

Standard library only (plus the installed PySide6 for its deploy tool, and for the smoke test
the source install it compares with); not part of the wheel.
"""

from __future__ import annotations

import argparse
import configparser
import fnmatch
import functools
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
from collections.abc import Callable, Iterable, Iterator, Sequence
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
ICU_SERVICES = re.compile(
    r"\b(QCollator|localeAwareCompare|localeCompare|QTimeZone|QStringConverter|QStringDecoder"
    r"|QStringEncoder|QTextCodec|toLocaleDateString|toLocaleTimeString|timeZone)\b"
)
"""What reaches ICU's data from the app's code (Qt Core alone links ICU, and calls only
``ucol_*``: QCollator, QML's ``localeCompare``; ``ucnv_*``: encodings beyond UTF and Latin-1;
``ucal_*``: time-zone names). The build replaces ICU's data library with an empty one (see
``icu_stub``), so no Python or QML file of the app may name one of these; the smoke test checks
that the built app looks up no ICU data at all. ``Number.toLocaleString``, ``QLocale`` and
case mapping use Qt's own locale data and ICU's code, not ICU's data."""
ICU_STUB_C = """/* ICU's stubdata (icu4c/source/stubdata/stubdata.cpp): common data with no item */
#include <stdint.h>
__attribute__((visibility("default"), aligned(16))) const struct {
    uint16_t headerSize; uint8_t magic1, magic2;
    uint16_t size, reservedWord;
    uint8_t isBigEndian, charsetFamily, sizeofUChar, reservedByte;
    uint8_t dataFormat[4], formatVersion[4], dataVersion[4];
    char padding[8];
    uint32_t count, reserved;
    uintptr_t fakeNameAndData[4];
} ICU_DATA_SYMBOL = {32, 0xda, 0x27, 20, 0, 0, 0, 2, 0, {0x43, 0x6d, 0x6e, 0x44},
                     {1, 0, 0, 0}, {0, 0, 0, 0}, {0}, 0, 0, {0, 0, 0, 0}};
"""
"""The data library ICU falls back on when built without data (little-endian, ASCII, 2-byte
UChar: the header every x86-64 and arm64 ICU checks); ``ICU_DATA_SYMBOL`` becomes
``icudt<major>_dat``."""
STRIP = ("strip", "--strip-unneeded")
PLATFORMS_KEPT = ("libqxcb.so", "libqwayland.so", "libqoffscreen.so")
"""X11, Wayland and offscreen (``--screenshot``, the smoke test): every other platform plugin
(eglfs, linuxfb, minimal, minimalegl, vkkhrdisplay, vnc) is for devices the app is not built
for."""
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

# Issue 42: what the build must keep (a plan without it fails desktop-check) ...
MUST_KEEP_FAMILIES = {
    "platforms": "the windows open through a platform plugin (X11, Wayland, offscreen)",
    "platforminputcontexts": "the sign-in text fields take composed keys and input methods",
    "wayland-shell-integration": "a Wayland session's windows need it",
    "wayland-decoration-client": "a Wayland session's window frames need it",
    "wayland-graphics-integration-client": "Qt Quick's OpenGL under Wayland needs it",
    "xcbglintegrations": "Qt Quick's OpenGL under X11 needs it",
}
MUST_SHIP = {
    "libQt6Multimedia.so.6": "QSoundEffect plays the table sounds through it",
    "PySide6/QtMultimedia.so": "QSoundEffect reaches Python through it",
    "libQt6Quick.so.6": "every window is Qt Quick",
    "libQt6QuickDialogs2QuickImpl.so.6": "the replay's file dialog is Qt Quick's own",
    "libQt6LabsFolderListModel.so.6": "the replay's file dialog lists files with it",
    "libicuuc.so.73": "Qt Core links ICU's code (its data is replaced, the code stays)",
    "libicui18n.so.73": "Qt Core links ICU's code (its data is replaced, the code stays)",
    "PySide6/qt-plugins/platforms/libqxcb.so": "X11 desktops open the windows through it",
    "PySide6/qt-plugins/platforms/libqwayland.so": "Wayland desktops open the windows through it",
    "PySide6/qt-plugins/platforms/libqoffscreen.so": "--screenshot renders through it",
}
MUST_FOLLOW = {
    "PySide6.QtMultimedia": "QSoundEffect plays the table sounds (gui/sound.py)",
    "PySide6.QtQuick": "the windows reach Python as QQuickWindow (and --screenshot grabs them)",
    "qasync": "the online layer runs asyncio inside Qt's loop",
    "websockets": "online play and hosted tables speak WebSocket",
}
# ... and what it leaves out (a plan with it fails too)
DROPPED_FAMILIES = {
    "multimedia": "its one plugin is the FFmpeg media backend; QSoundEffect needs none",
    "imageformats": "the QML shows no image (Qt's PNGs need no plugin)",
    "iconengines": "no icon theme is drawn",
    "platformthemes": "GTK's theme links QtWidgets; the file dialog is Qt Quick's own",
    "printsupport": "nothing prints",
    "egldeviceintegrations": "eglfs (a kiosk framebuffer) is not a platform of the build",
    "tls": "wss:// is Python's ssl in websockets; Qt opens no network connection",
}
MUST_NOT_SHIP = {
    "libavcodec.so.61": "FFmpeg (20.4 MB with the plugin): QSoundEffect plays without it",
    "libavformat.so.61": "FFmpeg: QSoundEffect plays without it",
    "libavutil.so.59": "FFmpeg: QSoundEffect plays without it",
    "libswscale.so.8": "FFmpeg: QSoundEffect plays without it",
    "libswresample.so.5": "FFmpeg: QSoundEffect plays without it",
    "PySide6/qt-plugins/multimedia/libffmpegmediaplugin.so": "the FFmpeg media backend",
    "libQt6Widgets.so.6": "only qasync names QtWidgets (gui/_qasync_core.py)",
    "PySide6/qt-plugins/platforminputcontexts/libqtvirtualkeyboardplugin.so": (
        "Qt's virtual keyboard: its libraries are left out, so the plugin could not load"
    ),
    **{
        f"PySide6/qt-plugins/platforms/{name}": "a platform the build is not for"
        for name in (
            "libqeglfs.so",
            "libqlinuxfb.so",
            "libqminimal.so",
            "libqminimalegl.so",
            "libqvkkhrdisplay.so",
            "libqvnc.so",
        )
    },
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


DEPLOY_IGNORES = frozenset(
    {"site-packages", "deployment", ".git", ".qtcreator", "build", "dist", "tests", "doc", "docs"}
    | {"examples", ".vscode", "__pycache__"}
)
"""The folders pyside6-deploy 6.11.3 never adds as data (its DEFAULT_IGNORE_DIRS)."""


def spec_command(parser: configparser.ConfigParser | None = None) -> list[str]:
    """The Nuitka words the committed spec gives, without running pyside6-deploy: its
    ``extra_args``, the folders it adds and its plugins with ``qml``, as the dry run passes them
    (the tests plant faults in this; ``check`` checks the real dry run's command)."""
    parser = parser or read_spec()
    plugins = [p for p in spec_value(parser, "qt", "plugins").split(",") if p] + ["qml"]
    return [
        "python",
        "-m",
        "nuitka",
        str(ROOT / "main.py"),
        "--follow-imports",
        "--enable-plugin=pyside6",
        "--standalone",
        *shlex.split(spec_value(parser, "nuitka", "extra_args")),
        # with QML present, pyside6-deploy adds the top-level folders as data, all but its
        # DEFAULT_IGNORE_DIRS (deploy_lib/__init__.py)
        *(
            f"--include-data-dir={folder}=./{folder.name}"
            for folder in sorted(ROOT.iterdir())
            if folder.is_dir() and folder.name not in DEPLOY_IGNORES
        ),
        "--include-qt-plugins=" + ",".join(plugins),
    ]


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


@functools.cache
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
    if "qml" not in plugins:
        problems.append("Qt plugin family 'qml' is not included")
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
    problems += check_trim(result)
    return problems


def words_of(result: Plan, option: str) -> list[str]:
    """The comma-separated values of every ``option`` on the command line."""
    return [word for value in result.values(option) for word in value.split(",") if word]


def check_trim(result: Plan) -> list[str]:
    """Issue 42: what the build drops (Widgets, FFmpeg, unused plugins) and what must stay."""
    problems = []
    plugins = set(words_of(result, "--include-qt-plugins"))
    # Nuitka splits --include-qt-plugins at commas, but not --noinclude-qt-plugins: one each
    dropped_families = set(result.values("--noinclude-qt-plugins"))
    for value in sorted(dropped_families):
        if "," in value:
            problems.append(
                f"--noinclude-qt-plugins={value} drops nothing: Nuitka takes one family each"
            )
    dll_patterns = result.values("--noinclude-dlls")
    nofollow = set(words_of(result, "--nofollow-import-to"))
    # what must stay: the families, libraries and bindings the app loads
    for family in MUST_KEEP_FAMILIES:
        if family in dropped_families:
            problems.append(f"Qt plugin family {family!r} is dropped: {MUST_KEEP_FAMILIES[family]}")
    if "platforminputcontexts" not in plugins:
        problems.append(
            "Qt plugin family 'platforminputcontexts' is not included: "
            + MUST_KEEP_FAMILIES["platforminputcontexts"]
        )
    for dest, why in MUST_SHIP.items():
        hits = [pattern for pattern in dll_patterns if fnmatch.fnmatch(dest, pattern)]
        if hits:
            problems.append(f"{dest} is left out by --noinclude-dlls={hits[0]}: {why}")
    for module, why in MUST_FOLLOW.items():
        if any(module == out or module.startswith(out + ".") for out in nofollow):
            problems.append(f"{module} is not followed (--nofollow-import-to): {why}")
    # what goes
    for family, why in DROPPED_FAMILIES.items():
        if family in plugins or family not in dropped_families:
            problems.append(f"Qt plugin family {family!r} would ship: {why}")
    for dest, why in MUST_NOT_SHIP.items():
        if not any(fnmatch.fnmatch(dest, pattern) for pattern in dll_patterns):
            problems.append(f"{dest} would ship (no --noinclude-dlls matches it): {why}")
    if "PySide6.QtWidgets" not in nofollow:
        problems.append("PySide6.QtWidgets is followed: qasync's import would ship QtWidgets")
    if "no_docstrings" not in words_of(result, "--python-flag"):
        problems.append("--python-flag=no_docstrings is not set")
    problems += icu_problems()
    return problems


APP_CODE = (ROOT / "gui", ROOT / "net", ROOT / "kernel")


def icu_problems(folders: Sequence[Path] = APP_CODE) -> list[str]:
    """Where the app's own code names something that needs ICU's data (``ICU_SERVICES``)."""
    return list(_icu_scan(tuple(folders)))


@functools.cache
def _icu_scan(folders: tuple[Path, ...]) -> tuple[str, ...]:
    """The scan, once a run: every planted fault's plan is checked with the same code
    (desktop-check checks 20 plans; a scan reads some 160 files)."""
    problems = []
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix not in (".py", ".qml"):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                found = ICU_SERVICES.search(line)
                if found:
                    problems.append(
                        f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:"
                        f"{number} uses {found.group(1)}, which needs ICU's data: the build "
                        "ships none (ICU_SERVICES)"
                    )
    return tuple(problems)


def _dropping(test: Callable[[str], bool]) -> Callable[[list[str]], list[str]]:
    return lambda command: [word for word in command if not test(word)]


def _adding(*words: str) -> Callable[[list[str]], list[str]]:
    return lambda command: [*command, *words]


def _without_plugin(family: str) -> Callable[[list[str]], list[str]]:
    def edit(command: list[str]) -> list[str]:
        out = []
        for word in command:
            if word.startswith("--include-qt-plugins="):
                kept = [f for f in word.partition("=")[2].split(",") if f != family]
                word = "--include-qt-plugins=" + ",".join(kept)
            out.append(word)
        return out

    return edit


MUTANTS: dict[str, tuple[Callable[[list[str]], list[str]], str]] = {
    "the fixtures ship": (
        _dropping(lambda word: word == "--noinclude-data-files=conformance"),
        "comes from",
    ),
    "the QML module is left out": (
        _dropping(lambda word: word == "--include-data-dir=gui/qml=qml"),
        "is not in the planned build",
    ),
    "WebEngine ships": (_dropping(lambda word: "libQt6WebEngine" in word), "WebEngine"),
    "hosting is left out": (
        _dropping(lambda word: word == "--include-module=pointline.net.hosting"),
        "hosting needs it",
    ),
    # issue 42: a plan that drops something the app uses
    "the sound's QtMultimedia is left out": (
        _adding("--noinclude-dlls=*libQt6Multimedia*"),
        "QSoundEffect",
    ),
    "the QtMultimedia binding is not followed": (
        _adding("--nofollow-import-to=PySide6.QtMultimedia"),
        "QSoundEffect",
    ),
    "the X11 platform is left out": (
        _adding("--noinclude-dlls=PySide6/qt-plugins/platforms/libqxcb.so"),
        "X11",
    ),
    "the platform plugins are left out": (
        _adding("--noinclude-qt-plugins=platforms"),
        "'platforms' is dropped",
    ),
    "the input methods are left out": (_without_plugin("platforminputcontexts"), "sign-in"),
    "the QML plugins are left out": (_without_plugin("qml"), "'qml' is not included"),
    "the file dialog is left out": (
        _adding("--noinclude-data-files=PySide6/qml/QtQuick/Dialogs"),
        "QtQuick.Dialogs",
    ),
    "the folder model of the file dialog is left out": (
        _adding("--noinclude-dlls=*libQt6LabsFolderListModel*"),
        "file dialog",
    ),
    "ICU's code is left out": (_adding("--noinclude-dlls=*libicuuc*"), "Qt Core"),
    "cryptography is kept out": (
        _adding("--nofollow-import-to=cryptography"),
        "a hosted table needs it",
    ),
    "qasync is kept out": (_adding("--nofollow-import-to=qasync"), "asyncio"),
    # ... and one that lets back in what the build drops
    "FFmpeg ships": (
        _dropping(lambda word: word.startswith("--noinclude-qt-plugins=") and "multimedia" in word),
        "'multimedia' would ship",
    ),
    "QtWidgets ships": (
        _dropping(lambda word: word == "--nofollow-import-to=PySide6.QtWidgets"),
        "QtWidgets",
    ),
    "the dropped plugin families are one comma list": (
        _adding("--noinclude-qt-plugins=imageformats,tls"),
        "drops nothing",
    ),
    "docstrings ship": (
        _dropping(lambda word: word == "--python-flag=no_docstrings"),
        "no_docstrings",
    ),
}
"""Broken variants of the real command and a word each of the problem the check must report:
it must reject every one (``desktop-check`` runs them all; tests/packaging checks each)."""


def mutant_problems(command: Sequence[str], label: str) -> tuple[bool, list[str]]:
    """(whether the mutant changed the command, the check's problems with it)."""
    edit, _ = MUTANTS[label]
    variant = edit(list(command))
    return variant != list(command), check_plan(plan(variant))


def self_test(command: Sequence[str]) -> list[str]:
    """The check must fail each broken variant of the command, for the right reason."""
    problems = []
    for label, (_, expected) in MUTANTS.items():
        changed, found = mutant_problems(command, label)
        if not changed:
            problems.append(f"self-test: nothing to change for {label!r} (spec changed?)")
        elif not any(expected in problem for problem in found):
            problems.append(
                f"self-test: the check does not say {expected!r} for a plan where {label}"
                f" ({found[:3]})"
            )
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


SMOKE_TOOLS = {
    "strace": "strace",
    "pulseaudio": "pulseaudio",
    "pactl": "pulseaudio-utils",
    "parecord": "pulseaudio-utils",
    "sox": "sox",
    "openssl": "openssl",
}
"""Tool -> Debian package: the smoke test sees ICU's look-ups (strace), hears the sound (a
private PulseAudio daemon with a null sink, recorded and measured with sox) and serves wss://
with a certificate for 127.0.0.1 (openssl)."""
QT_TROUBLE = (
    "Could not create collator",
    "is not installed",
    "Cannot load library",
    "Could not load the Qt platform plugin",
    "Unsupported image format",
    "Error decoding",
    "failed to load component",
    'module "',
)
"""Words in the built app's stderr that mean something it needs was left out."""
PULSE_SINK = "pointline_smoke"
PULSE_RATE = 44100
SOUND_FLOOR_DB = -40.0
"""The throw sound peaks near -10 dBFS; the null sink's silence is -inf."""
PICKER_FILES = (
    "session-2.jsonl",
    "session-10.jsonl",
    "Zeta.jsonl",
    "alpha.jsonl",
    "Émile.jsonl",
    "émile 2.json",
    "notes.txt",
)
"""The replay's file dialog lists these (the .txt is filtered out): numbers, case and accents,
where a collator's order and a plain comparison of code points differ."""


def smoke_scenes() -> list[tuple[str, str]]:
    """(size, scene) of the smoke test's screenshots: every solo scene sideways (844x390, the
    main layout) and the point phase upright, each compared byte for byte with the source
    app's. Not the motion scenes (the throw and the result moment caught mid-animation differ
    from run to run). The replay's and the online scenes need a source checkout (fixtures, a
    relay process): the smoke test checks the replay's file dialog and the online window on
    its own."""
    from pointline.gui.tools.scenes import MOTION_SCENES, SCENES

    still = [scene for scene in SCENES if scene not in MOTION_SCENES]
    return [("390x844", "point-reduction"), *(("844x390", scene) for scene in still)]


def _wait(condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise CheckFailed(f"timed out after {timeout} s waiting until {what}")
        time.sleep(0.05)  # the polling interval of a wait on a condition


class Smoke:
    """Runs the built binary (and, to compare, the source app) and collects problems."""

    def __init__(self, binary: Path, workdir: Path) -> None:
        self.binary = binary
        self.workdir = workdir
        self.problems: list[str] = []
        self.probe = workdir / "icu-probe"
        self.probe.mkdir()
        self.traces: list[Path] = []
        self.source_app = [sys.executable, "-m", "pointline.gui.cli"]
        """The same app from the source install, to compare with (full ICU data)."""
        self.env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")
        }
        self.env.update(
            QT_QPA_PLATFORM="offscreen",
            POINTLINE_DATA_DIR=str(workdir / "data"),
            XDG_CONFIG_HOME=str(workdir / "config"),
            # ICU looks for every data item here first (its files-first rule): a built app that
            # needs ICU's data tries to open a file below this folder, and strace sees it
            ICU_DATA=str(self.probe),
        )

    def traced(self, command: list[str]) -> list[str]:
        """``command`` under strace, its file look-ups logged (the ICU probe)."""
        log = self.workdir / f"trace-{len(self.traces)}.txt"
        self.traces.append(log)
        calls = "trace=open,openat,stat,newfstatat,statx,access,faccessat,faccessat2"
        return ["strace", "-f", "-qq", "-e", calls, "-o", str(log), *command]

    def run(
        self, args: list[str], env: dict[str, str] | None = None, timeout: float = 120
    ) -> subprocess.CompletedProcess[str]:
        run = subprocess.run(
            self.traced([str(self.binary), *args]),
            env=env or self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        for line in run.stderr.splitlines():
            if any(word in line for word in QT_TROUBLE):
                self.problems.append(f"`pointline {' '.join(args[:2])}` said: {line.strip()}")
        return run

    def report(self, args: list[str], env: dict[str, str] | None = None) -> dict[str, object]:
        """Run ``pointline buildcheck ...`` and return its JSON report (a problem if not ok)."""
        run = self.run(["buildcheck", *args], env)
        lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
        report: dict[str, object] = json.loads(lines[-1]) if lines else {}
        if run.returncode != 0 or not report.get("ok"):
            self.problems.append(
                f"buildcheck {args[0]} failed ({run.returncode}): {report or run.stdout[-1500:]}"
                f" {run.stderr[-1500:]}"
            )
        return report

    def source(self, args: list[str]) -> dict[str, object]:
        """The same buildcheck from the source install (full ICU data, every Qt module)."""
        env = dict(self.env)
        env.pop("ICU_DATA")
        run = subprocess.run(
            [*self.source_app, "buildcheck", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
        if run.returncode != 0 or not lines:
            self.problems.append(f"the source app's buildcheck {args[0]} failed: {run.stderr}")
            return {}
        return dict(json.loads(lines[-1]))

    # -- the checks ------------------------------------------------------------------------
    def shoot(self, size: str, scene: str) -> tuple[Path | None, Path | None]:
        """``scene`` at ``size`` from the built app and from the source app (ICU's full
        data); the two PNGs, None where a run failed."""
        shot = self.workdir / f"{scene}-{size}.png"
        twin = self.workdir / f"{scene}-{size}-source.png"
        for path in (shot, twin):
            path.unlink(missing_ok=True)
        args = ["--screenshot", str(shot), "--size", size, "--scene", scene]
        run = self.run(args)
        if run.returncode != 0 or not shot.is_file():
            self.problems.append(
                f"screenshot {scene} {size} failed ({run.returncode}): {run.stderr}"
            )
            return None, None
        env = dict(self.env)
        env.pop("ICU_DATA")
        args[1] = str(twin)
        subprocess.run(
            [*self.source_app, *args],
            env=env,
            capture_output=True,
            timeout=120,
            check=False,
        )
        return shot, twin if twin.is_file() else None

    def screenshots(self) -> None:
        """Every still solo scene, its words and numbers, drawn by the built app exactly as
        the source app draws it with ICU's full data (``smoke_scenes``)."""
        same = []
        for size, scene in smoke_scenes():
            for _ in range(2):
                minute = time.gmtime().tm_min
                shot, twin = self.shoot(size, scene)
                # Stats shows when each session finished (to the minute): once more if the
                # minute turned between the two runs
                if shot is None or twin is None or time.gmtime().tm_min == minute:
                    break
            if shot is None:
                continue
            got = "x".join(str(n) for n in png_size(shot))
            if got != size:
                self.problems.append(f"screenshot {shot.name} is {got}, not {size}")
            elif twin is None or twin.read_bytes() != shot.read_bytes():
                self.problems.append(f"screenshot {shot.name} differs from the source app's")
            else:
                same.append(f"{scene} {size}")
        print(
            f"desktop: {len(same)} screenshots byte-identical to the source app's "
            f"({', '.join(same)}) in {self.workdir}"
        )

    def first_frame(self) -> None:
        first = self.run(["--exit-after-first-frame"])
        if first.returncode != 0:
            self.problems.append(f"--exit-after-first-frame exited {first.returncode}")
        else:
            print("desktop: --exit-after-first-frame exited 0")

    def sound(self) -> None:
        """The throw sound through QSoundEffect into a PulseAudio null sink, measured."""
        base = self.workdir / "pulse"
        runtime = base / "run"
        runtime.mkdir(parents=True, mode=0o700)
        (base / "home").mkdir()
        socket = runtime / "native"
        env = dict(self.env)
        env.update(
            HOME=str(base / "home"),
            XDG_RUNTIME_DIR=str(runtime),
            PULSE_SERVER=f"unix:{socket}",
        )
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        daemon = subprocess.Popen(
            [
                "pulseaudio",
                "--daemonize=no",
                "-n",
                "--exit-idle-time=-1",
                "--use-pid-file=false",
                "--disable-shm=true",
                f"--load=module-null-sink sink_name={PULSE_SINK} rate={PULSE_RATE} channels=1",
                f"--load=module-native-protocol-unix socket={socket} auth-anonymous=1",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        raw = base / "sink.raw"
        recorder = None
        try:

            def answers() -> bool:
                if daemon.poll() is not None:
                    raise CheckFailed(f"pulseaudio exited ({daemon.returncode})")
                sinks = subprocess.run(
                    ["pactl", "list", "short", "sinks"],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=False,
                )
                return PULSE_SINK in sinks.stdout

            _wait(answers, "the private pulseaudio daemon answers")
            recorder = subprocess.Popen(
                [
                    "parecord",
                    "--raw",
                    f"--device={PULSE_SINK}.monitor",
                    f"--rate={PULSE_RATE}",
                    "--channels=1",
                    "--format=s16le",
                    "--latency-msec=20",
                    str(raw),
                ],
                env=env,
                stderr=subprocess.DEVNULL,
            )

            def recorded() -> float:
                return raw.stat().st_size / 2 / PULSE_RATE if raw.exists() else 0.0

            _wait(lambda: recorded() > 0.1, "the recording has started")
            report = self.report(["sound"], env)
            target = recorded() + 0.8  # the throw sound is 0.28 s; the server's buffers
            _wait(lambda: recorded() >= target, "the recording reaches past the sound")
        finally:
            if recorder is not None:
                recorder.terminate()
                recorder.wait(timeout=10)
            daemon.terminate()
            daemon.wait(timeout=10)
        stats = subprocess.run(
            [
                "sox",
                "-t",
                "raw",
                "-r",
                str(PULSE_RATE),
                "-e",
                "signed-integer",
                "-b",
                "16",
                "-c",
                "1",
                str(raw),
                "-n",
                "stats",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        ).stderr
        peaks = [line.split()[-1] for line in stats.splitlines() if line.startswith("Pk lev dB")]
        peak = float(peaks[0]) if peaks and peaks[0] != "-inf" else float("-inf")
        if peak <= SOUND_FLOOR_DB:
            self.problems.append(f"the throw sound was not heard: peak {peak} dBFS ({report})")
        else:
            print(f"desktop: the throw sound was heard through QSoundEffect ({peak} dBFS peak)")

    def relay(self) -> tuple[subprocess.Popen[bytes], str, Path]:
        """A relay from the source install serving wss:// on loopback, and its certificate."""
        cert, key = self.workdir / "relay-cert.pem", self.workdir / "relay-key.pem"
        subprocess.run(
            [
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
                "-nodes",
                "-keyout",
                str(key),
                "-out",
                str(cert),
                "-days",
                "2",
                "-subj",
                "/CN=127.0.0.1",
                "-addext",
                "subjectAltName=IP:127.0.0.1",
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        import socket as sockets

        with sockets.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        relay = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pointline.net.relay",
                "--port",
                str(port),
                "--db",
                str(self.workdir / "relay.sqlite3"),
                "--cert",
                str(cert),
                "--key",
                str(key),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

        def listening() -> bool:
            if relay.poll() is not None:
                raise CheckFailed(f"the wss relay exited ({relay.returncode})")
            with sockets.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0

        _wait(listening, "the wss relay listens")
        return relay, f"wss://127.0.0.1:{port}", cert

    def online(self) -> None:
        relay, url, cert = self.relay()
        try:
            shot, twin = self.workdir / "signin.png", self.workdir / "signin-source.png"
            report = self.report(["online", url, "--ca", str(cert), "--shot", str(shot)])
            if report.get("ok"):
                print(f"desktop: the online window signed up over {url} and made a room")
            # its sign-in screen first, as the source app draws it (the online words)
            self.source(["online", url, "--ca", str(cert), "--shot", str(twin), "--no-sign-up"])
            if not (shot.is_file() and twin.is_file() and shot.read_bytes() == twin.read_bytes()):
                self.problems.append("the online sign-in screen differs from the source app's")
            else:
                print("desktop: the online sign-in screen is byte-identical to the source app's")
            # the real --online start against the same relay: up until stopped. Its own
            # process group: SIGTERM reaches the app itself, not only strace
            log = self.workdir / "online-stderr.txt"
            with open(log, "w") as err:
                online = subprocess.Popen(
                    self.traced([str(self.binary), "--online", "--relay", url, "--ca", str(cert)]),
                    env=self.env,
                    stdout=subprocess.DEVNULL,
                    stderr=err,
                    start_new_session=True,
                )
                try:
                    online.wait(timeout=8)
                except subprocess.TimeoutExpired:
                    print(f"desktop: --online --relay {url} still running after 8 s")
                    os.killpg(online.pid, signal.SIGTERM)
                    try:
                        online.wait(timeout=15)
                    except subprocess.TimeoutExpired:
                        os.killpg(online.pid, signal.SIGKILL)
                        online.wait()
                        self.problems.append("--online did not stop within 15 s of SIGTERM")
                else:
                    self.problems.append(
                        f"--online exited {online.returncode} within 8 s: {log.read_text()}"
                    )
        finally:
            relay.terminate()
            relay.wait(timeout=10)

    def host(self) -> None:
        report = self.report(["host"])
        if report.get("ok"):
            print(
                f"desktop: a hosted table made its certificate ({report.get('words')}) and "
                f"two guests joined it over {report.get('url')}"
            )

    def picker(self) -> None:
        folder = self.workdir / "sessions"
        folder.mkdir()
        for name in PICKER_FILES:
            (folder / name).write_text("{}\n", encoding="utf-8")
        shot, twin = self.workdir / "picker.png", self.workdir / "picker-source.png"
        built = self.report(["picker", str(folder), "--shot", str(shot)])
        source = self.source(["picker", str(folder), "--shot", str(twin)])
        if not built.get("ok"):
            return
        if built.get("listed") != source.get("listed"):
            self.problems.append(
                f"the file dialog lists {built.get('listed')} in the build, "
                f"{source.get('listed')} from the source app (ICU's full data)"
            )
        elif not (shot.is_file() and twin.is_file() and shot.read_bytes() == twin.read_bytes()):
            # its words, icons (Qt's own images) and order, as the source app draws them
            self.problems.append("the file dialog looks different from the source app's")
        else:
            print(
                f"desktop: the replay's file dialog lists {built['listed']} and looks as the "
                "source app's does (byte-identical)"
            )

    def icu(self) -> None:
        """No run of the built app looked up ICU data (every look-up would show below the
        probe folder: the stub has none)."""
        seen = sorted(
            {
                line.split('"')[1]
                for log in self.traces
                if log.exists()
                for line in log.read_text(errors="replace").splitlines()
                if str(self.probe) in line and '"' in line
            }
        )
        if not self.traces or not all(log.exists() for log in self.traces):
            self.problems.append("strace wrote no trace: the ICU probe saw nothing")
        elif seen:
            self.problems.append(f"the built app looked up ICU data the build lacks: {seen}")
        else:
            print(f"desktop: no ICU data looked up in {len(self.traces)} runs of the built app")


def smoke(binary: Path, workdir: Path) -> list[str]:
    """Run the built binary: screenshots (compared with the source app's), the first frame,
    the sound heard, the online window over wss, a hosted table, the file dialog, and no ICU
    data looked up in any of it."""
    missing = sorted({pkg for tool, pkg in SMOKE_TOOLS.items() if shutil.which(tool) is None})
    if missing:
        return [f"the smoke test needs the Debian packages {' '.join(missing)}"]
    test = Smoke(binary, workdir)
    for step in (
        test.screenshots,
        test.first_frame,
        test.sound,
        test.online,
        test.host,
        test.picker,
    ):
        try:
            step()
        except (CheckFailed, subprocess.SubprocessError, OSError) as error:
            test.problems.append(f"{step.__name__}: {error}")
    test.icu()
    return test.problems


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
    names = {path.rsplit("/", 1)[-1] for path in files}
    for dest, why in MUST_NOT_SHIP.items():
        if dest.rsplit("/", 1)[-1] in names:
            problems.append(f"{dest} shipped: {why}")
    for family, why in DROPPED_FAMILIES.items():
        if any(path.startswith(f"PySide6/qt-plugins/{family}/") for path in files):
            problems.append(f"Qt plugin family {family} shipped: {why}")
    if any(name.startswith("QtWidgets.") for name in names):
        problems.append("the QtWidgets binding shipped: only qasync names it")
    for dest, why in MUST_SHIP.items():
        if dest.rsplit("/", 1)[-1] not in names:
            problems.append(f"{dest} did not ship: {why}")
    platforms = sorted(
        name
        for name in names
        if name.startswith("libq")
        and "platforms" in " ".join(p for p in files if p.endswith("/" + name))
    )
    for name in platforms:
        if name not in PLATFORMS_KEPT:
            problems.append(f"platform plugin {name} shipped")
    return problems


def is_elf(path: Path) -> bool:
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def strip_libraries(dist: Path) -> tuple[int, int]:
    """``strip --strip-unneeded`` every copied shared library; (bytes before, bytes after).

    The wheels' libraries carry their symbol tables and debug information (libpython alone
    16.6 of its 23.1 MB): nothing reads them at run time, and --strip-unneeded keeps every
    symbol a dynamic link needs (measured: cryptography still makes a certificate, PyNaCl signs
    and verifies, argon2 verifies a password; the smoke test does all three). The binary is
    left as Nuitka made it."""
    before = after = 0
    for path in sorted(dist.rglob("*.so*")):
        if path.is_symlink() or not path.is_file() or not is_elf(path):
            continue
        before += path.stat().st_size
        subprocess.run([*STRIP, str(path)], check=True, timeout=120)
        after += path.stat().st_size
    return before, after


def icu_stub(dist: Path, workdir: Path) -> tuple[Path, int, int]:
    """Replace ICU's data library (32 MB) by an empty one; (the library, bytes before, after).

    Only Qt Core links ICU, for collation (``ucol_*``), encodings beyond UTF and Latin-1
    (``ucnv_*``) and time-zone names (``ucal_*``): the app uses none of them (``ICU_SERVICES``,
    checked in its code by desktop-check, and in the built app by the smoke test, which sees
    every ICU data look-up). What a player would lose if one were added: QCollator's order
    (Qt falls back to comparing code points), other encodings, time-zone display names. A
    filtered data file would keep some of that at several MB; nothing needs it."""
    (library,) = [p for p in dist.rglob("libicudata.so.*") if not p.is_symlink()]
    major = library.name.rsplit(".", 1)[-1]
    source = workdir / "icudata_stub.c"
    source.write_text(ICU_STUB_C.replace("ICU_DATA_SYMBOL", f"icudt{major}_dat"))
    built = workdir / library.name
    subprocess.run(
        [
            "gcc",
            "-shared",
            "-fPIC",
            "-O2",
            "-s",
            f"-Wl,-soname,{library.name}",
            "-o",
            str(built),
            str(source),
        ],
        check=True,
        timeout=120,
    )
    before = library.stat().st_size
    shutil.copyfile(built, library)
    return library, before, library.stat().st_size


def tarball(dist: Path) -> Path:
    """``dist/pointline.tar.gz``, the folder as people download it (gzip's default level)."""
    out = dist.parent / f"{TITLE}.tar.gz"
    subprocess.run(
        ["tar", "-czf", str(out), "-C", str(dist.parent), dist.name], check=True, timeout=600
    )
    return out


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
    print(f"desktop: built {binary} in {elapsed / 60:.1f} min ({elapsed:.0f} s)")
    print(f"desktop: Nuitka's folder holds {folder_size(DIST) / 1e6:.1f} MB")
    before, after = strip_libraries(DIST)
    print(f"desktop: strip --strip-unneeded: {before / 1e6:.1f} -> {after / 1e6:.1f} MB")
    with tempfile.TemporaryDirectory(prefix="pointline-icu-") as tmp:
        library, before, after = icu_stub(DIST, Path(tmp))
    print(f"desktop: {library.name}: {before / 1e6:.1f} MB of ICU data -> {after} bytes (empty)")
    size = folder_size(DIST)
    packed = tarball(DIST).stat().st_size
    print(
        f"desktop: {DIST} holds {size / 1e6:.1f} MB ({size / 2**20:.1f} MiB); "
        f"{TITLE}.tar.gz {packed / 1e6:.1f} MB"
    )
    problems = check_dist(DIST)
    with tempfile.TemporaryDirectory(prefix="pointline-smoke-") as tmp:
        problems += smoke(binary, Path(tmp))
    if size > SIZE_GOAL_MB * 1e6:
        problems.append(f"{size / 1e6:.1f} MB is above the {SIZE_GOAL_MB} MB limit")
    for problem in problems:
        print(f"desktop: {problem}", file=sys.stderr)
    if problems:
        return 1
    total = time.monotonic() - started
    print(
        f"desktop: ok ({elapsed:.0f} s build, {total:.0f} s with the smoke test; "
        f"{size / 1e6:.1f} MB, {packed / 1e6:.1f} MB as .tar.gz)"
    )
    return 0


def smoke_only(_: argparse.Namespace) -> int:
    """Smoke-test the folder a ``build`` left (no new build)."""
    binary = DIST / TITLE
    if not binary.is_file():
        print(f"desktop: no {binary}: run build first", file=sys.stderr)
        return 1
    problems = check_dist(DIST)
    with tempfile.TemporaryDirectory(prefix="pointline-smoke-") as tmp:
        problems += smoke(binary, Path(tmp))
    for problem in problems:
        print(f"desktop: {problem}", file=sys.stderr)
    print("desktop: smoke test " + ("failed" if problems else "ok"))
    return 1 if problems else 0


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("check", help="dry run: check the planned build").set_defaults(func=check)
    run = sub.add_parser("build", help="build dist/pointline.dist and smoke-test it")
    run.add_argument("deploy_args", nargs="*", help="more pyside6-deploy options")
    run.set_defaults(func=build)
    again = sub.add_parser("smoke", help="smoke-test the dist/pointline.dist a build left")
    again.set_defaults(func=smoke_only)
    args = parser.parse_args(None if argv is None else list(argv))
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
