"""What kind of device the app runs on: phone or desktop, and the safe-area insets to respect.

QML reads these through the bridges (``bridge.mobile``, ``bridge.insets``), never through its
own ``Qt.platform.os`` checks, so one place decides and tests can pretend to be a phone:

- ``POINTLINE_FORCE_MOBILE=1`` (or ``0``) overrides the platform check;
- ``POINTLINE_FAKE_INSETS=TOP,RIGHT,BOTTOM,LEFT`` (pixels) adds safe-area insets on top of what
  Qt's ``SafeArea`` reports, e.g. ``47,0,34,0`` for a phone with a notch and a home indicator.
"""

from __future__ import annotations

import os
import sys

from pointline.net.paths import MOBILE_PLATFORMS

__all__ = [
    "DESKTOP_TEXT_PT",
    "FONT_SCALES",
    "MOBILE_PLATFORMS",
    "PHONE_INSETS",
    "PLATFORM_TEXT_SIZE",
    "fake_insets",
    "font_scale",
    "is_mobile",
    "phone_insets",
    "platform_font_scale",
    "text_scale",
]

PHONE_INSETS: dict[tuple[int, int], tuple[int, int, int, int]] = {
    # iPhone 12-15 (1 px = 1 pt): the notch and the home indicator; sideways the notch may be
    # on either side, so both sides keep it clear, and the home indicator stays at the bottom.
    (390, 844): (47, 0, 34, 0),
    (844, 390): (0, 47, 21, 47),
    # Android (dp at font scale 1.0): the status bar on top and the 3-button navigation bar at
    # the bottom; sideways the status bar stays on top and the navigation bar may be on either
    # side, so both sides keep its 48 clear.
    (360, 640): (24, 0, 48, 0),
    (640, 360): (24, 48, 0, 48),
    (412, 915): (24, 0, 48, 0),
    (915, 412): (24, 48, 0, 48),
}
"""Each phone size's own safe-area insets (top, right, bottom, left), portrait and sideways:
the layout check and the screenshots run phones with these (``phone_insets``)."""


def is_mobile() -> bool:
    """True on Android and iOS, ``net.paths.MOBILE_PLATFORMS`` (desktop-only controls and key
    hints are hidden there)."""
    forced = os.environ.get("POINTLINE_FORCE_MOBILE", "")
    if forced in ("0", "1"):
        return forced == "1"
    return sys.platform in MOBILE_PLATFORMS


FONT_SCALES = (0.85, 2.0)
"""The text sizes a system may ask for, as factors of the app's own (Android's and iOS's
largest accessibility sizes are about 2x)."""

PLATFORM_TEXT_SIZE: dict[str, tuple[str, float]] = {
    # Qt's Android theme sets the application font from the system's text style, in pixels
    # (logical: dp): the body text's 14 sp, which Android has already multiplied by the
    # user's font size (Settings > Display > Font size: 0.85 to 1.3, up to 2.0 on Android 14)
    "android": ("px", 14.0),
    # Qt's iOS theme takes the application font from Dynamic Type's body style: 17 pt at the
    # default size ("Large"), up to 23 pt at the largest, more with the accessibility sizes
    "ios": ("pt", 17.0),
    # a desktop: the desktop's own user-interface font at its own default size
    "windows": ("pt", 9.0),
    "cocoa": ("pt", 13.0),
}
"""Per Qt platform (``QGuiApplication.platformName()``): the unit and the size of the
application font at the system's default text size. The font Qt hands the app, relative to
this, is the text size the system asks for."""

DESKTOP_TEXT_PT: dict[str, float] = {"GNOME": 11.0, "KDE": 10.0}
"""A Linux desktop's default user-interface font (points) by ``XDG_CURRENT_DESKTOP``; any
other (or none, as under Xvfb) has Qt's own default, 9 pt."""
QT_DEFAULT_PT = 9.0
UNSCALED_PLATFORMS = frozenset({"offscreen", "minimal"})
"""Platforms with no system text size (offscreen rendering: the checks and screenshots)."""


def text_scale(size: float, base: float) -> float:
    """The factor a font of ``size`` is of ``base`` (same unit), to 0.05, within
    ``FONT_SCALES``; 1.0 when either is not a size."""
    if not (size > 0 and base > 0):
        return 1.0
    value = round(size / base * 20) / 20
    return min(max(value, FONT_SCALES[0]), FONT_SCALES[1])


def platform_font_scale(platform: str | None = None) -> float:
    """The text size the platform asks for: the application font Qt took from the system
    (``PLATFORM_TEXT_SIZE``) relative to the platform's default; 1.0 before the application
    exists, offscreen, or where the platform gives no size. ``platform``: read the font as
    that Qt platform gives it (tests; default: the one running)."""
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance()
    if not isinstance(app, QGuiApplication):
        return 1.0
    name = platform or QGuiApplication.platformName()
    if name in UNSCALED_PLATFORMS:
        return 1.0
    font = QGuiApplication.font()
    unit, base = PLATFORM_TEXT_SIZE.get(name, ("pt", _desktop_pt()))
    size = float(font.pixelSize()) if unit == "px" else font.pointSizeF()
    if unit == "px" and size <= 0:  # a point size after all: at 1 px = 1 pt (dp)
        size = font.pointSizeF()
    return text_scale(size, base)


def _desktop_pt() -> float:
    desktop = os.environ.get("XDG_CURRENT_DESKTOP", "").upper()
    for name, size in DESKTOP_TEXT_PT.items():
        if name in desktop.split(":"):
            return size
    return QT_DEFAULT_PT


def font_scale() -> float:
    """The text size asked for, a factor of the app's own (1.0: as designed): the platform's
    (``platform_font_scale``: the font Qt hands the app on Android, iOS and a desktop), unless
    POINTLINE_FONT_SCALE says otherwise (e.g. ``1.3``: the layout check runs at it; a value
    malformed or outside ``FONT_SCALES`` is ignored). The screens' base text sizes are
    multiplied by it."""
    raw = os.environ.get("POINTLINE_FONT_SCALE", "")
    try:
        value = float(raw) if raw else None
    except ValueError:
        value = None
    if value is not None and FONT_SCALES[0] <= value <= FONT_SCALES[1]:
        return value
    return platform_font_scale()


def fake_insets() -> dict[str, int]:
    """Safe-area insets from POINTLINE_FAKE_INSETS (all 0 when unset or malformed)."""
    names = ("top", "right", "bottom", "left")
    raw = os.environ.get("POINTLINE_FAKE_INSETS", "")
    try:
        values = [int(v) for v in raw.split(",")] if raw else []
    except ValueError:
        values = []
    if len(values) != 4 or any(v < 0 or v > 400 for v in values):
        values = [0, 0, 0, 0]
    return dict(zip(names, values, strict=True))


def phone_insets(size: tuple[int, int]) -> dict[str, int]:
    """The safe-area insets of a phone of ``size`` held that way (``PHONE_INSETS``); a size
    not in the table takes the insets of the listed phone nearest to it in the same
    orientation."""
    names = ("top", "right", "bottom", "left")
    values = PHONE_INSETS.get(size)
    if values is None:
        same_way = [s for s in PHONE_INSETS if (s[0] > s[1]) == (size[0] > size[1])]
        nearest = min(same_way, key=lambda s: abs(s[0] - size[0]) + abs(s[1] - size[1]))
        values = PHONE_INSETS[nearest]
    return dict(zip(names, values, strict=True))
