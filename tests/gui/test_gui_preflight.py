"""Before Qt starts, the app names what is missing; README, .ci/run and the code list the same
system packages."""

from __future__ import annotations

import re
from pathlib import Path

from pointline.gui import preflight

ROOT = Path(__file__).resolve().parents[2]


def everything(name: str) -> str | None:
    return f"lib{name}.so"


def test_no_display_is_said_plainly() -> None:
    found = preflight.problems({}, everything, "linux")
    assert len(found) == 1 and "No display was found" in found[0]
    assert "QT_QPA_PLATFORM=offscreen" in found[0]


def test_missing_xcb_libraries_name_their_packages() -> None:
    gone = {"xcb-icccm", "xcb-keysyms"}
    found = preflight.problems(
        {"DISPLAY": ":0"}, lambda n: None if n in gone else everything(n), "linux"
    )
    assert found == [
        "Qt needs system libraries that this machine lacks. Install them with: "
        "sudo apt-get install -y libxcb-icccm4 libxcb-keysyms1"
    ]


def test_offscreen_and_wayland_do_not_need_xcb() -> None:
    no_xcb = lambda n: None if n.startswith("xcb") else everything(n)  # noqa: E731
    assert preflight.problems({"QT_QPA_PLATFORM": "offscreen"}, no_xcb, "linux") == []
    assert preflight.problems({"WAYLAND_DISPLAY": "wayland-0"}, no_xcb, "linux") == []
    assert preflight.problems({"DISPLAY": ":0"}, no_xcb, "linux") != []


def test_audio_and_gl_are_checked_on_every_platform_plugin() -> None:
    found = preflight.problems(
        {"QT_QPA_PLATFORM": "offscreen"}, lambda n: None if n == "pulse" else "x", "linux"
    )
    assert len(found) == 1 and found[0].endswith("libpulse0")


def test_other_systems_are_left_to_qt() -> None:
    assert preflight.problems({}, lambda n: None, "darwin") == []


def test_readme_ci_and_code_list_the_same_packages() -> None:
    readme = (ROOT / "README.md").read_text()
    line = re.search(r"^sudo apt-get install -y (.+)$", readme, re.M)
    assert line is not None
    ci = re.search(r'^packages="(.+)"$', (ROOT / ".ci" / "run").read_text(), re.M)
    assert ci is not None
    assert line.group(1).split() == ci.group(1).split() == list(preflight.DEBIAN_PACKAGES)


def test_readme_and_ci_list_the_same_test_packages() -> None:
    readme = (ROOT / "README.md").read_text()
    start = readme.index("A few tests need Debian packages")
    sentence = readme[start : readme.index("\n\n", start)]
    named = {pkg for group in re.findall(r"`([a-z0-9 .+-]+)`", sentence) for pkg in group.split()}
    ci = re.search(r'^test_packages="(.+)"$', (ROOT / ".ci" / "run").read_text(), re.M)
    assert ci is not None
    assert named == set(ci.group(1).split())
