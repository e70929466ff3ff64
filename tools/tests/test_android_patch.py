"""tools/android_patch.py against a buildozer.spec made the way pyside6-android-deploy makes it.

The fixture runs ``buildozer init`` (buildozer's own template, the pinned release) and then
PySide6's own ``BuildozerConfig`` from the installed deploy tool, with a stand-in for the
Android wheel's data: Qt's dependency files for the app's modules and the bindings jar.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import android_patch  # noqa: E402

MULTIMEDIA_DEPENDENCIES = """<rules><dependencies><lib name="Qt6Multimedia"><depends>
<jar file="jar/Qt6AndroidMultimedia.jar"
 initClass="org.qtproject.qt.android.multimedia.QtMultimediaUtils"/>
<permission name="android.permission.CAMERA"/>
<permission name="android.permission.RECORD_AUDIO"/>
<lib file="plugins/multimedia/libplugins_multimedia_ffmpegmediaplugin_arm64-v8a.so"/>
</depends></lib></dependencies></rules>"""


def deploy_lib() -> Path:
    import PySide6

    return Path(next(iter(PySide6.__path__))) / "scripts"


@pytest.fixture(scope="module")
def generated_spec(tmp_path_factory: pytest.TempPathFactory) -> str:
    """buildozer.spec as `pyside6-android-deploy --init` leaves it for this project."""
    work = tmp_path_factory.mktemp("android")
    # buildozer asks "are you sure" when run as root (CI containers): answer it
    subprocess.run(
        [sys.executable, "-m", "buildozer", "init"], cwd=work, input="y\n", text=True, check=True
    )
    sys.path.insert(0, str(deploy_lib()))
    from deploy_lib.android.buildozer import BuildozerConfig

    jars = work / "deployment" / "jar" / "PySide6" / "jar"
    jars.mkdir(parents=True)
    for jar in ("Qt6AndroidBindings.jar", "Qt6AndroidMultimedia.jar"):
        (jars / jar).write_bytes(b"PK")
    wheel = work / "fake-android-wheel.zip"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(
            "PySide6/Qt/lib/Qt6Multimedia_arm64-v8a-android-dependencies.xml",
            MULTIMEDIA_DEPENDENCIES,
        )
    dependency = zipfile.Path(
        wheel, "PySide6/Qt/lib/Qt6Multimedia_arm64-v8a-android-dependencies.xml"
    )
    config = SimpleNamespace(
        title="pointline",
        ndk_path=work / "android-ndk-r28c",
        sdk_path=None,
        arch="arm64-v8a",
        recipe_dir=work / "deployment" / "recipes",
        dependency_files=[dependency],
        jars_dir=jars,
        modules=["Core", "Gui", "Multimedia", "Qml", "Quick", "QuickControls2"],
        local_libs=["plugins_multimedia_ffmpegmediaplugin", "plugins_platforms_qtforandroid"],
        exe_dir=work,
        icon=str(deploy_lib() / "deploy_lib" / "pyside_icon.jpg"),
    )
    BuildozerConfig(work / "buildozer.spec", config)
    text = (work / "buildozer.spec").read_text(encoding="utf-8")
    keep = os.environ.get("ANDROID_CHECK_SPEC")
    if keep:  # tox -e android-check then runs `android_patch.py --check` on the patched spec
        Path(keep).write_text(android_patch.patch(text), encoding="utf-8")
    return text


def app_section(text: str) -> dict[str, str]:
    parser = android_patch.new_parser()
    parser.read_string(text)
    return dict(parser["app"])


def test_the_fixture_is_what_the_deploy_tool_writes(generated_spec: str) -> None:
    app = app_section(generated_spec)
    assert app["requirements"] == "python3,shiboken6,PySide6"
    assert app["p4a.bootstrap"] == "qt"
    assert "android.permission.CAMERA" in app["android.permissions"]
    assert app["orientation"] == "portrait"


def test_patch_adds_what_online_play_and_hosting_need(generated_spec: str) -> None:
    app = app_section(android_patch.patch(generated_spec))
    requirements = app["requirements"].split(",")
    assert requirements == [
        "python3",
        "shiboken6",
        "PySide6",
        "qasync",
        "websockets",
        "pynacl",
        "cryptography",
        "argon2-cffi",
        "zeroconf",
    ]
    permissions = android_patch.split(app["android.permissions"])
    assert "android.permission.INTERNET" in permissions
    # tables nearby: the multicast lock (net.discovery.set_multicast_lock) needs both
    assert "android.permission.CHANGE_WIFI_MULTICAST_STATE" in permissions
    assert "android.permission.ACCESS_WIFI_STATE" in permissions
    assert "android.permission.CAMERA" not in permissions
    assert "android.permission.RECORD_AUDIO" not in permissions
    assert set(app["orientation"].split(",")) >= {"landscape", "portrait"}
    assert app["title"] == "Pointline Table"
    assert app["icon.filename"] == "%(source.dir)s/docs/icon/pointline.png"
    assert app["p4a.commit"] == android_patch.deploy_tool_p4a_commit()
    assert app["p4a.bootstrap"] == "qt"  # the deploy tool's settings stay
    assert app["p4a.extra_args"].startswith("--qt-libs=")


def test_patch_is_idempotent_and_needs_the_deploy_tools_recipe_folder(
    generated_spec: str,
) -> None:
    spec = generated_spec.replace(
        "requirements = python3,shiboken6,PySide6",
        "requirements = python3,shiboken6,PySide6,argon2-cffi",
    )
    once = android_patch.patch(spec)
    assert app_section(once)["requirements"].count("argon2-cffi") == 1
    assert android_patch.patch(once) == once
    without = "\n".join(
        line for line in generated_spec.splitlines() if not line.startswith("p4a.local_recipes")
    )
    with pytest.raises(android_patch.PatchError, match=r"p4a\.local_recipes"):
        android_patch.patch(without)


def test_the_patch_puts_the_checkouts_recipes_where_p4a_looks_first(
    generated_spec: str, tmp_path: Path
) -> None:
    """`android_patch.py buildozer.spec` copies tools/android/recipes/ into p4a.local_recipes,
    beside the deploy tool's own shiboken6 and PySide6 recipes, replacing older copies."""
    recipes = tmp_path / "deployment" / "recipes"
    (recipes / "PySide6").mkdir(parents=True)
    (recipes / "PySide6" / "__init__.py").write_text("# the deploy tool's\n")
    (recipes / "zeroconf").mkdir()
    (recipes / "zeroconf" / "__init__.py").write_text("version = '0.24.5'\n")
    spec = tmp_path / "buildozer.spec"
    app = app_section(generated_spec)
    spec.write_text(
        generated_spec.replace(f"p4a.local_recipes = {app['p4a.local_recipes']}", "").replace(
            "[app]\n", f"[app]\np4a.local_recipes = {recipes}\n", 1
        ),
        encoding="utf-8",
    )
    assert android_patch.main([str(spec)]) == 0
    for name in ("argon2-cffi", "argon2-cffi-bindings", "zeroconf"):
        ours = android_patch.RECIPES / name / "__init__.py"
        assert (recipes / name / "__init__.py").read_text() == ours.read_text(), name
    assert (recipes / "PySide6" / "__init__.py").read_text() == "# the deploy tool's\n"
    assert android_patch.check_recipes(spec.read_text(encoding="utf-8")) == []


def test_the_check_refuses_a_recipe_outside_the_projects_pin(
    generated_spec: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the check would say about p4a's own zeroconf recipe (0.24.5, no asyncio API), and
    about a requirement nobody has a recipe for."""
    stale = tmp_path / "recipes"
    shutil.copytree(android_patch.RECIPES, stale)
    own = stale / "zeroconf" / "__init__.py"
    own.write_text(own.read_text().replace('version = "0.154.0"', 'version = "0.24.5"'))
    shutil.rmtree(stale / "argon2-cffi-bindings")
    monkeypatch.setattr(android_patch, "RECIPES", stale)
    problems = android_patch.check_recipes(android_patch.patch(generated_spec))
    assert any(p.startswith("the phone's recipe builds zeroconf 0.24.5, outside") for p in problems)
    assert any("argon2-cffi-bindings needs a python-for-android recipe" in p for p in problems)


def test_patch_refuses_a_foreign_spec_and_a_wrong_p4a_pin(generated_spec: str) -> None:
    with pytest.raises(android_patch.PatchError, match="pyside6-android-deploy --init"):
        android_patch.patch("[app]\nrequirements = python3,kivy\n")
    foreign = "0123456789abcdef0123456789abcdef01234567"
    pinned = android_patch.deploy_tool_p4a_commit()
    if pinned in generated_spec:  # PySide6 6.12 writes its pin; 6.11 follows a branch
        wrong = generated_spec.replace(pinned, foreign)
    else:
        wrong = generated_spec.replace("[app]\n", f"[app]\np4a.commit = {foreign}\n", 1)
    with pytest.raises(android_patch.PatchError, match=r"p4a\.commit"):
        android_patch.patch(wrong)


def test_buildozer_copies_only_the_app(generated_spec: str, tmp_path: Path) -> None:
    """Run buildozer's own source copy with the patched spec over this checkout."""
    from buildozer import Buildozer

    spec = tmp_path / "buildozer.spec"
    text = android_patch.patch(generated_spec)
    spec.write_text(text.replace("[buildozer]", f"[buildozer]\nbuild_dir = {tmp_path / 'b'}"))
    buildozer = Buildozer(filename=str(spec))
    buildozer.targetname = "android"
    staged = android_patch.stage(tmp_path / "stage")
    assert "pointline/kernel/__init__.py" in staged and "main.py" in staged
    buildozer.config.set("app", "source.dir", str(tmp_path / "stage"))
    buildozer._copy_application_sources()
    app = Path(buildozer.app_dir)
    files = sorted(p.relative_to(app).as_posix() for p in app.rglob("*") if p.is_file())
    assert "main.py" in files
    assert "pointline/gui/qml/Pointline/qmldir" in files
    assert "pointline/gui/qml/Pointline/Online/qmldir" in files
    qml = {f for f in files if f.endswith(".qml")}
    assert qml == {
        "pointline/" + p.relative_to(ROOT).as_posix() for p in (ROOT / "gui").rglob("*.qml")
    }
    for package in ("kernel", "net", "gui"):
        assert f"pointline/{package}/__init__.py" in files
    # the client, the protocol core, discovery and the relay a player hosts ship; a relay
    # cluster's PostgreSQL and Redis parts and the relay's command line do not
    assert "pointline/net/client/_relay_client.py" in files
    assert "pointline/net/protocol/_peer.py" in files
    for hosted in ("hosting", "discovery", "hostcert", "relay/server", "relay/accounts"):
        assert f"pointline/net/{hosted}.py" in files, hosted
    assert "pointline/net/relay/_announce.py" in files
    relay = {f.removeprefix("pointline/net/relay/") for f in files if "/net/relay/" in f}
    assert not relay & {"store_pg.py", "presence.py", "cli.py", "__main__.py"}, relay
    top = {f.split("/")[0] for f in files}
    assert top <= {"main.py", "pointline"}, top
    for forbidden in ("fixtures", "tests", "bench", "docs", "spec", "conformance", "tools"):
        assert not [f for f in files if forbidden in f.split("/")], forbidden
    assert not [f for f in files if f.endswith((".json", ".md", ".pyc"))]
    shutil.rmtree(tmp_path / "b")


def test_hosting_imports_from_what_the_phone_ships(tmp_path: Path) -> None:
    """The staged sources less what buildozer leaves out import hosting, discovery and the
    app, with no PostgreSQL or Redis client (neither is on the phone)."""
    import fnmatch

    stage = tmp_path / "stage"
    for name in android_patch.stage(stage):
        if any(fnmatch.fnmatch(name, pattern) for pattern in android_patch.EXCLUDE_PATTERNS):
            (stage / name).unlink()
    assert not (stage / "pointline" / "net" / "relay" / "store_pg.py").exists()
    check = (
        "import sys\n"
        "for name in ('psycopg', 'psycopg_pool', 'redis', 'asyncpg'):\n"
        "    sys.modules[name] = None\n"
        "import pointline.gui.cli, pointline.gui.online.bridge\n"
        "import pointline.net.client._relay_client\n"
        "import pointline.net.hosting, pointline.net.discovery, pointline.net.relay._announce\n"
        "from argon2 import PasswordHasher\n"
        "from zeroconf.asyncio import AsyncZeroconf\n"
        "print('ok')\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", check],
        cwd=stage,
        capture_output=True,
        text=True,
        check=False,
    )
    if "No module named 'PySide6.QtQml'" in run.stderr:
        pytest.skip("this environment has only PySide6_Essentials' deploy tool")
    assert run.returncode == 0, run.stderr


def test_websockets_works_without_its_c_speedups() -> None:
    """p4a has no websockets recipe: pip installs it, and it must run as pure Python."""
    check = (
        "import sys\n"
        "sys.modules['websockets.speedups'] = None\n"
        "from websockets.frames import Frame, Opcode\n"
        "from websockets.utils import apply_mask\n"
        "assert apply_mask(b'abcd', b'\\x01\\x02\\x03\\x04') == b'````'\n"
        "import qasync\n"
        "print('ok')\n"
    )
    run = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def _calls(path: Path) -> dict[str, set[str]]:
    """For each function in ``path``: the names of the attributes and functions it calls."""
    import ast

    found: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names = found.setdefault(node.name, set())
            for call in ast.walk(node):
                if isinstance(call, ast.Call):
                    func = call.func
                    names.add(
                        func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                    )
                if isinstance(call, ast.Constant) and isinstance(call.value, str):
                    names.add(call.value)
    return found


def test_the_phone_takes_the_multicast_lock_while_discovering(tmp_path: Path) -> None:
    """Tables nearby on a phone: the staged code makes Wi-Fi's multicast lock through the JNI
    bridge, takes and gives it back, and discovery takes it around browsing and announcing."""
    stage = tmp_path / "stage"
    android_patch.stage(stage)
    lock = _calls(stage / "pointline" / "gui" / "multicast.py")
    assert {"getSystemService", "createMulticastLock", "callObjectMethod"} <= lock["_make"]
    assert {"_make", "callMethod", "acquire"} <= lock["acquire"]
    assert {"callMethod", "release"} <= lock["release"]
    assert "set_multicast_lock" in lock["install_multicast_lock"]
    discovery = _calls(stage / "pointline" / "net" / "discovery.py")
    assert "take" in discovery["start"] and "give_back" in discovery["stop"]
    assert "acquire" in discovery["take"] and "release" in discovery["give_back"]
