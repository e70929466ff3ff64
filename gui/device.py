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
    "FONT_SCALES",
    "MOBILE_PLATFORMS",
    "PHONE_INSETS",
    "fake_insets",
    "font_scale",
    "is_mobile",
    "phone_insets",
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


def font_scale() -> float:
    """The text size asked for, a factor of the app's own (1.0: as designed), from
    POINTLINE_FONT_SCALE (e.g. ``1.3``: the layout check runs at it); 1.0 when unset, malformed
    or outside ``FONT_SCALES``. The screens' base text sizes are multiplied by it."""
    raw = os.environ.get("POINTLINE_FONT_SCALE", "")
    try:
        value = float(raw) if raw else 1.0
    except ValueError:
        return 1.0
    return value if FONT_SCALES[0] <= value <= FONT_SCALES[1] else 1.0


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
