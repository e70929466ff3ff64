"""Before Qt starts: say plainly what is missing, instead of Qt's "no Qt platform plugin could
be initialized… Reinstalling the application may fix this problem" abort.

``problems()`` looks at the platform Qt is about to use and returns one plain sentence per
missing piece: no display at all, or the system libraries that Qt's X11 (xcb) platform plugin
and its multimedia module load. Standard library only, so it runs before PySide6 is imported.
"""

from __future__ import annotations

import ctypes.util
import os
import sys
from collections.abc import Callable, Mapping

__all__ = ["DEBIAN_PACKAGES", "XCB_LIBRARIES", "check", "problems"]

XCB_LIBRARIES: dict[str, str] = {
    # library name (as ctypes.util.find_library takes it) -> Debian/Ubuntu package
    "xcb-icccm": "libxcb-icccm4",
    "xcb-keysyms": "libxcb-keysyms1",
    "xcb-cursor": "libxcb-cursor0",
    "xcb-image": "libxcb-image0",
    "xcb-render-util": "libxcb-render-util0",
    "xcb-randr": "libxcb-randr0",
    "xcb-shape": "libxcb-shape0",
    "xcb-xfixes": "libxcb-xfixes0",
    "xcb-xkb": "libxcb-xkb1",
    "xcb-sync": "libxcb-sync1",
    "xkbcommon-x11": "libxkbcommon-x11-0",
    "X11-xcb": "libx11-xcb1",
}
"""What Qt's xcb platform plugin loads beyond the basics (checked with ``ldd`` on PySide6 6.12)."""

COMMON_LIBRARIES: dict[str, str] = {
    "EGL": "libegl1",
    "GL": "libgl1",
    "fontconfig": "libfontconfig1",
    "xkbcommon": "libxkbcommon0",
    "dbus-1": "libdbus-1-3",
    "pulse": "libpulse0",
}
"""Every platform, offscreen included: OpenGL/EGL, fonts, keyboard maps, D-Bus, audio."""

DEBIAN_PACKAGES: tuple[str, ...] = (
    "python3-venv",
    *COMMON_LIBRARIES.values(),
    *XCB_LIBRARIES.values(),
    "fonts-dejavu-core",
)
"""The README's set-up line and ``.ci/run`` install exactly these (a test keeps them equal)."""


def problems(
    environ: Mapping[str, str] | None = None,
    find_library: Callable[[str], str | None] = ctypes.util.find_library,
    platform: str = sys.platform,
) -> list[str]:
    """One plain sentence per thing Qt will miss on this machine (empty: nothing known)."""
    if not platform.startswith("linux"):
        return []
    env = os.environ if environ is None else environ
    qpa = env.get("QT_QPA_PLATFORM", "").split(":")[0].strip()
    found: list[str] = []
    if not qpa and not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        found.append(
            "No display was found (neither DISPLAY nor WAYLAND_DISPLAY is set). Start Pointline "
            "from a desktop session, or set QT_QPA_PLATFORM=offscreen for screenshots."
        )
        return found
    wanted = dict(COMMON_LIBRARIES)
    if qpa in ("", "xcb") and not (qpa == "" and env.get("WAYLAND_DISPLAY")):
        wanted.update(XCB_LIBRARIES)
    missing = sorted({package for lib, package in wanted.items() if not find_library(lib)})
    if missing:
        found.append(
            "Qt needs system libraries that this machine lacks. Install them with: "
            f"sudo apt-get install -y {' '.join(missing)}"
        )
    return found


def check() -> bool:
    """Print each problem to stderr; True when Qt may start."""
    found = problems()
    for line in found:
        print(f"pointline: {line}", file=sys.stderr)
    return not found
