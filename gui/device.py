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

__all__ = ["MOBILE_PLATFORMS", "fake_insets", "is_mobile"]


def is_mobile() -> bool:
    """True on Android and iOS, ``net.paths.MOBILE_PLATFORMS`` (desktop-only controls and key
    hints are hidden there)."""
    forced = os.environ.get("POINTLINE_FORCE_MOBILE", "")
    if forced in ("0", "1"):
        return forced == "1"
    return sys.platform in MOBILE_PLATFORMS


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
