"""The Android build's own steps: stage the phone's project folder, patch its buildozer.spec.

    python tools/android_patch.py stage build/android     # main.py + pointline/ for the phone
    cd build/android
    pyside6-android-deploy --init --keep-deployment-files --wheel-pyside=... --wheel-shiboken=...
    python ../../tools/android_patch.py buildozer.spec    # this file
    python -m buildozer android debug

The checkout has no ``pointline/`` folder (setuptools maps kernel/, net/, gui/ onto
``pointline.*``), but buildozer ships a folder of sources as they lie: ``stage`` lays one out,
``main.py``, ``pysidedeploy.spec``, the icon and ``pointline/kernel``, ``pointline/net`` and
``pointline/gui`` copied from the checkout.

pyside6-android-deploy writes ``requirements = python3,shiboken6,PySide6``, one portrait
orientation, Qt's permissions and the whole checkout as sources. The patch adds the pure-Python
and recipe-built packages online play and hosting need (``qasync``, ``websockets``, ``pynacl``,
``cryptography`` for a hosted table's certificate, ``argon2-cffi`` for the hosted relay's
password hashes, ``zeroconf`` for tables nearby), copies this checkout's own recipes
(``tools/android/recipes/``: argon2-cffi and zeroconf at the releases pyproject.toml pins, and
argon2-cffi-bindings under them, where p4a's own build argon2-cffi 20.1.0 and zeroconf 0.24.5)
into the spec's ``p4a.local_recipes`` folder, where python-for-android looks first,
the INTERNET permission and the two Wi-Fi ones multicast discovery needs (and drops the camera
and microphone ones QtMultimedia declares: the app only plays short sounds), both orientations,
the app's title, version and icon, and limits the sources to the app (``main.py`` and
``pointline/`` with the relay a player hosts, but without a relay cluster's PostgreSQL and
Redis parts, the relay's command line, the spec proofs or the conformance suite). It checks that
the python-for-android pin is the one the installed PySide6's deploy tool pins.

``python tools/android_patch.py check`` (``tox -e android-check``) checks every requirement
against the pinned python-for-android release installed from PyPI. Standard library only
(the check also reads the installed PySide6 and python-for-android); not part of the wheel.
"""

from __future__ import annotations

import argparse
import ast
import configparser
import io
import re
import shutil
import sys
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TITLE = "Pointline Table"
ICON = "docs/icon/pointline.png"


@dataclass(frozen=True)
class Requirement:
    name: str
    kind: str
    """``p4a``: a python-for-android recipe builds it; ``local``: pyside6-android-deploy writes
    its recipe (p4a.local_recipes); ``repo``: this checkout's recipe (``RECIPES``), copied into
    p4a.local_recipes; ``pure``: pure Python, pip installs it as is."""
    why: str


REQUIREMENTS = (
    Requirement("python3", "p4a", "the interpreter"),
    Requirement("shiboken6", "local", "from Qt's Android wheel"),
    Requirement("PySide6", "local", "from Qt's Android wheel"),
    Requirement("qasync", "pure", "asyncio inside Qt's event loop"),
    Requirement(
        "websockets",
        "pure",
        "the relay connection; its optional C speedups fall back to pure Python",
    ),
    Requirement("pynacl", "p4a", "Ed25519 session keys (libsodium)"),
    Requirement("cryptography", "p4a", "the hosted table's TLS certificate (x509, Rust-built)"),
    Requirement("argon2-cffi", "repo", "the hosted relay's Argon2id password hashes"),
    Requirement("zeroconf", "repo", "tables nearby: mDNS browsing and announcing (asyncio API)"),
)
RECIPES = ROOT / "tools" / "android" / "recipes"
"""This checkout's python-for-android recipes, one folder each (p4a's layout)."""
PINNED_BY_RECIPE = ("pynacl", "cryptography", "argon2-cffi", "zeroconf")
"""Requirements whose recipe's version must lie inside pyproject.toml's pin."""
PURE_DEPENDENCIES = ("six",)
"""Names a recipe depends on that have no recipe: python-for-android installs them with pip."""
PERMISSIONS_ADDED = (
    "android.permission.INTERNET",
    # tables nearby: Android drops multicast unless the app holds Wi-Fi's multicast lock
    # (net.discovery.set_multicast_lock), which needs these two
    "android.permission.CHANGE_WIFI_MULTICAST_STATE",
    "android.permission.ACCESS_WIFI_STATE",
)
PERMISSIONS_DROPPED = ("android.permission.CAMERA", "android.permission.RECORD_AUDIO")
ORIENTATIONS = ("landscape", "portrait", "landscape-reverse", "portrait-reverse")
INCLUDE_EXTS = ("py", "qml", "js", "png")
STAGED_PACKAGES = ("kernel", "net", "gui")
"""The checkout's folders the phone needs, staged as ``pointline/<name>``."""
STAGED_FILES = ("main.py", "pysidedeploy.spec", ICON)
EXCLUDE_DIRS = (
    # a stage holds only main.py, the spec, the icon and pointline/; the rest guards a source.dir
    # pointed at a checkout by mistake
    "kernel",
    "net",
    "gui",
    "spec",
    "conformance",
    "pointline/spec",
    "pointline/conformance",
    "tests",
    "bench",
    "docs",
    "tools",
    "deployment",
    "dist",
    "build",
    "bin",
)
EXCLUDE_PATTERNS = (
    # the relay a player hosts ships (net/hosting.py loads it); a relay cluster's PostgreSQL
    # store and Redis presence, and the relay's command line, do not; nor the screenshot scenes
    # and layout check (gui/tools/)
    "pointline/net/relay/__main__.py",
    "pointline/net/relay/_cli.py",
    "pointline/net/relay/_store_pg.py",
    "pointline/net/relay/_presence.py",
    "pointline/gui/tools/*",
    "*/__pycache__/*",
    "*.egg-info/",
)
P4A_RELEASES = {"58d21141f17c889bf8585f5665921d72028f8831": "2026.5.9"}
DEVELOP_RELEASE = "58d21141f17c889bf8585f5665921d72028f8831"
"""What to pin when the deploy tool names only p4a's develop branch (PySide6 6.11)."""
"""python-for-android commits PySide6's deploy tool pins -> the PyPI release of that commit."""


class PatchError(Exception):
    """The spec cannot be patched safely (the message says why)."""


def new_parser() -> configparser.ConfigParser:
    # As pyside6-android-deploy reads and writes buildozer.spec (values kept verbatim).
    parser = configparser.ConfigParser(
        comment_prefixes="#", strict=False, allow_no_value=True, interpolation=None
    )
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    return parser


def split(value: str | None) -> list[str]:
    return [item.strip() for item in (value or "").split(",") if item.strip()]


def merged(existing: Iterable[str], wanted: Iterable[str], dropped: Iterable[str] = ()) -> str:
    out: list[str] = []
    gone = {item.lower() for item in dropped}
    for item in [*existing, *wanted]:
        if item.lower() not in gone and item.lower() not in {o.lower() for o in out}:
            out.append(item)
    return ",".join(out)


def deploy_tool_p4a_commit() -> str:
    """The python-for-android commit the installed PySide6's pyside6-android-deploy pins."""
    import PySide6

    buildozer_py = (
        Path(next(iter(PySide6.__path__))) / "scripts" / "deploy_lib" / "android" / "buildozer.py"
    )
    source = buildozer_py.read_text()
    match = re.search(r'^P4A_COMMIT\s*=\s*"([0-9a-f]+)"', source, re.MULTILINE)
    if match:
        return match.group(1)
    if re.search(r'"p4a\.branch",\s*"develop"', source):
        # PySide6 6.11's tool follows python-for-android's develop branch, a moving target.
        # Pin the release PySide6 6.12's tool pins (it has the qt bootstrap 6.11 waits for),
        # so that every build takes the same python-for-android.
        return DEVELOP_RELEASE
    raise PatchError(f"no P4A_COMMIT and no p4a.branch in {buildozer_py}")


def stage(dest: Path, root: Path = ROOT) -> list[str]:
    """Lay out the phone's project folder in ``dest`` (emptied first); the files it holds."""
    if dest.exists():
        shutil.rmtree(dest)
    for name in STAGED_FILES:
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, dest / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in STAGED_PACKAGES:
        shutil.copytree(root / package, dest / "pointline" / package, ignore=ignore)
    return sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())


def project_version() -> str:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return str(data["project"]["version"])


def patch(text: str, p4a_commit: str | None = None) -> str:
    """``text`` (a buildozer.spec as pyside6-android-deploy wrote it) patched for Pointline."""
    parser = new_parser()
    parser.read_string(text)
    if not parser.has_section("app"):
        raise PatchError("no [app] section: is this a buildozer.spec?")
    app = parser["app"]
    requirements = split(app.get("requirements"))
    if "PySide6" not in requirements or "shiboken6" not in requirements:
        raise PatchError(
            "requirements lack PySide6/shiboken6: run pyside6-android-deploy --init first"
        )
    if not app.get("p4a.local_recipes"):
        raise PatchError("no p4a.local_recipes: run pyside6-android-deploy --init first")
    app["requirements"] = merged(requirements, [r.name for r in REQUIREMENTS])
    app["android.permissions"] = merged(
        split(app.get("android.permissions")), PERMISSIONS_ADDED, dropped=PERMISSIONS_DROPPED
    )
    app["orientation"] = ",".join(ORIENTATIONS)
    app["title"] = TITLE
    app["version"] = project_version()
    app["icon.filename"] = f"%(source.dir)s/{ICON}"
    app["source.dir"] = "."
    app["source.include_exts"] = merged(split(app.get("source.include_exts")), INCLUDE_EXTS)
    app["source.exclude_dirs"] = ",".join(EXCLUDE_DIRS)
    app["source.exclude_patterns"] = ",".join(EXCLUDE_PATTERNS)
    wanted = p4a_commit or deploy_tool_p4a_commit()
    if wanted not in P4A_RELEASES:
        raise PatchError(
            f"PySide6's deploy tool pins python-for-android {wanted}, which this script does not "
            "know: add its PyPI release to P4A_RELEASES (and the tox android-check pin)"
        )
    got = app.get("p4a.commit")
    if got and got != wanted:
        raise PatchError(f"p4a.commit is {got}, but the installed PySide6 expects {wanted}")
    app["p4a.commit"] = wanted
    out = io.StringIO()
    parser.write(out, space_around_delimiters=True)
    return out.getvalue()


def copy_recipes(spec: Path, text: str) -> list[str]:
    """Copy this checkout's recipes into the (patched) spec's p4a.local_recipes folder, where
    python-for-android looks before its own; the recipes copied."""
    parser = new_parser()
    parser.read_string(text)
    folder = Path(parser["app"]["p4a.local_recipes"])
    if not folder.is_absolute():  # buildozer runs in the spec's folder
        folder = spec.parent / folder
    names = []
    for recipe in sorted(RECIPES.iterdir()):
        if (recipe / "__init__.py").is_file():
            dest = folder / recipe.name
            if dest.exists():
                shutil.rmtree(dest)
            shutil.copytree(recipe, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            names.append(recipe.name)
    return names


def recipe_depends(recipe_file: Path) -> list[str]:
    """The ``depends`` list of a python-for-android recipe, read without importing it."""
    for node in ast.walk(ast.parse(recipe_file.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "depends" for t in node.targets
        ):
            names = []
            for item in ast.literal_eval(node.value):
                # ('a', 'b') in a depends list means either will do; the first is p4a's default
                names.append(item[0] if isinstance(item, tuple | list) else item)
            return names
    return []


def recipe_version(recipe_file: Path) -> str | None:
    match = re.search(r"^\s+version\s*=\s*['\"]([^'\"]+)['\"]", recipe_file.read_text(), re.M)
    return match.group(1) if match else None


def check_recipes(spec_text: str) -> list[str]:
    """Every requirement of the patched spec is buildable with the pinned python-for-android."""
    import importlib.metadata

    import pythonforandroid

    problems = []
    parser = new_parser()
    parser.read_string(spec_text)
    requirements = split(parser["app"].get("requirements"))
    recipes = Path(next(iter(pythonforandroid.__path__))) / "recipes"
    p4a_version = importlib.metadata.version("python-for-android")
    commit = parser["app"].get("p4a.commit", "")
    if P4A_RELEASES.get(commit) != p4a_version:
        problems.append(
            f"p4a.commit {commit} is release {P4A_RELEASES.get(commit)}, "
            f"but python-for-android {p4a_version} is installed"
        )
    import PySide6

    local = Path(next(iter(PySide6.__path__))) / "scripts" / "deploy_lib" / "android" / "recipes"
    if not parser["app"].get("p4a.local_recipes"):
        problems.append("no p4a.local_recipes: this checkout's recipes have nowhere to go")
    python_recipe = recipe_version(recipes / "python3" / "__init__.py")
    from packaging.markers import Marker

    python_minor = ".".join((python_recipe or "3").split(".")[:2])
    kinds = {r.name: r.kind for r in REQUIREMENTS} | dict.fromkeys(PURE_DEPENDENCIES, "pure")
    seen: set[str] = set()
    todo = list(requirements)
    while todo:
        name, _, marker = todo.pop().partition(";")
        if marker and not Marker(marker).evaluate({"python_version": python_minor}):
            continue  # a recipe's dependency for older Pythons ('typing;python_version<"3.5"')
        if name in seen:
            continue
        seen.add(name)
        kind = kinds.get(name, "p4a")
        own = RECIPES / name / "__init__.py"
        if kind == "local":
            if not (local / name / "__init__.tmpl.py").is_file():
                problems.append(f"{name}: no recipe template in PySide6's deploy tool ({local})")
        elif kind == "repo" or own.is_file():
            # python-for-android takes p4a.local_recipes' recipe before its own of that name
            if not own.is_file():
                problems.append(f"{name} needs a recipe in {RECIPES}; there is none")
                continue
            todo.extend(recipe_depends(own))
        elif kind == "p4a":
            recipe = recipes / name / "__init__.py"
            if not recipe.is_file():
                problems.append(f"{name} needs a python-for-android recipe; {p4a_version} has none")
                continue
            todo.extend(recipe_depends(recipe))
        elif (recipes / name).is_dir():
            problems.append(f"{name} is listed as pure Python but p4a has a recipe for it")
    from importlib import import_module

    sys.path.insert(0, str(Path(next(iter(PySide6.__path__))) / "scripts"))
    utilities = import_module("deploy_lib.android.android_utilities")
    # PySide6 6.12's tool names the Python its Android wheels target; 6.11's does not (there the
    # wheels' own cpXY tag must match, which only a build with the wheels can check).
    target = getattr(utilities, "ANDROID_TARGET_PYTHON_FULL_VERSION", None)
    if target is not None and python_recipe != target:
        problems.append(
            f"p4a builds Python {python_recipe}; PySide6's Android wheels target {target}"
        )
    versions = {}
    for name in PINNED_BY_RECIPE:
        own = RECIPES / name / "__init__.py"
        versions[name] = recipe_version(own if own.is_file() else recipes / name / "__init__.py")
    from packaging.requirements import Requirement as Spec

    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pinned = {
        Spec(line).name.lower(): Spec(line).specifier for line in data["project"]["dependencies"]
    }
    for name, version in versions.items():
        if name not in pinned:
            problems.append(f"{name} is not among pyproject.toml's dependencies")
        elif version is None or version not in pinned[name]:
            problems.append(f"the phone's recipe builds {name} {version}, outside {pinned[name]}")
    ours = sorted(name for name in seen if (RECIPES / name / "__init__.py").is_file())
    pure = sorted(name for name in seen if kinds.get(name) == "pure")
    local_names = sorted(name for name in seen if kinds.get(name) == "local")
    built = sorted(seen - set(pure) - set(local_names) - set(ours))
    print(
        f"android-check: python-for-android {p4a_version} (commit {commit[:7]}) has recipes for "
        f"{', '.join(built)}; this checkout's recipes build {', '.join(ours)}; PySide6's "
        f"deploy tool writes {', '.join(local_names)}; pip installs {', '.join(pure)} (pure "
        f"Python); Python {python_recipe}, "
        + ", ".join(f"{name} {version}" for name, version in versions.items())
    )
    return problems


def main(argv: Iterable[str] | None = None) -> int:
    args_in = None if argv is None else list(argv)
    given = sys.argv[1:] if args_in is None else args_in
    if given[:1] == ["stage"]:
        stager = argparse.ArgumentParser(prog="android_patch.py stage")
        stager.add_argument("dest", type=Path, help="the folder to lay out (emptied first)")
        where = stager.parse_args(given[1:]).dest
        files = stage(where)
        print(f"android_patch: staged {len(files)} files in {where}")
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("spec", nargs="?", default="buildozer.spec", help="patched in place")
    parser.add_argument(
        "--check", action="store_true", help="check the (patched) spec's recipes and pins"
    )
    args = parser.parse_args(given)
    path = Path(args.spec)
    text = path.read_text(encoding="utf-8")
    if args.check:
        problems = check_recipes(text)
        for problem in problems:
            print(f"android-check: {problem}", file=sys.stderr)
        if problems:
            return 1
        print("android-check: ok")
        return 0
    try:
        patched = patch(text)
    except PatchError as error:
        print(f"android_patch: {error}", file=sys.stderr)
        return 1
    path.write_text(patched, encoding="utf-8")
    copied = copy_recipes(path, patched)
    print(f"android_patch: patched {path}; recipes {', '.join(copied)} in p4a.local_recipes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
