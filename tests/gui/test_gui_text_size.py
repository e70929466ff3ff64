"""The app follows the system's text size (issue 39): the application font Qt takes from the
platform, against the platform's default, is the factor every screen's text is scaled by;
POINTLINE_FONT_SCALE still overrides it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtGui import QFont, QGuiApplication

from pointline.gui import device
from pointline.gui.device import font_scale, platform_font_scale, text_scale


@pytest.fixture
def app_font(qapp: Any) -> Iterator[None]:
    """The application font as a test sets it, restored after."""
    before = QGuiApplication.font()
    yield
    QGuiApplication.setFont(before)


def _font(pixels: int = 0, points: float = 0.0) -> QFont:
    font = QFont("DejaVu Sans")
    if pixels:
        font.setPixelSize(pixels)
    else:
        font.setPointSizeF(points)
    return font


def test_a_size_against_its_default_is_the_factor_within_the_systems_range() -> None:
    assert text_scale(18.2, 14) == 1.3 and text_scale(22, 17) == 1.3  # Android, iOS at 130%
    assert text_scale(14, 14) == 1.0 and text_scale(12, 14) == 0.85
    assert text_scale(100, 14) == 2.0 and text_scale(5, 14) == 0.85  # the range's ends
    assert text_scale(-1, 14) == 1.0 and text_scale(14, 0) == 1.0  # no size: as designed


@pytest.mark.parametrize(
    ("platform", "font", "want"),
    [
        # Android: Qt sets the app font in pixels (dp) from the system's text style, already
        # multiplied by the user's "Font size" (14 sp body text at 1.0)
        ("android", _font(pixels=14), 1.0),
        ("android", _font(pixels=18), 1.3),
        ("android", _font(pixels=28), 2.0),
        # iOS: Dynamic Type's body style, 17 pt at the default size
        ("ios", _font(points=17), 1.0),
        ("ios", _font(points=22), 1.3),
        # desktops: the desktop's own font at its default size
        ("windows", _font(points=9), 1.0),
        ("windows", _font(points=12), 1.35),
        ("cocoa", _font(points=13), 1.0),
        # offscreen (the checks, the screenshots): no system text size
        ("offscreen", _font(points=30), 1.0),
    ],
)
def test_the_platforms_font_gives_the_text_size(
    app_font: None, platform: str, font: QFont, want: float
) -> None:
    QGuiApplication.setFont(font)
    assert platform_font_scale(platform) == want


def test_a_linux_desktop_is_read_against_its_own_default(
    app_font: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    QGuiApplication.setFont(_font(points=13))
    for desktop, want in (("KDE", 1.3), ("ubuntu:GNOME", 1.2), ("", 1.45)):
        monkeypatch.setenv("XDG_CURRENT_DESKTOP", desktop)
        assert platform_font_scale("xcb") == want, desktop
    QGuiApplication.setFont(_font(points=9))  # Qt's own default (Xvfb, no desktop): as designed
    monkeypatch.setenv("XDG_CURRENT_DESKTOP", "")
    assert platform_font_scale("xcb") == 1.0


def test_pointline_font_scale_overrides_the_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(device, "platform_font_scale", lambda: 1.3)
    monkeypatch.delenv("POINTLINE_FONT_SCALE", raising=False)
    assert font_scale() == 1.3  # the system's
    monkeypatch.setenv("POINTLINE_FONT_SCALE", "1")
    assert font_scale() == 1.0  # the override
    for ignored in ("big", "9", "0.5"):  # malformed or out of range: the system's again
        monkeypatch.setenv("POINTLINE_FONT_SCALE", ignored)
        assert font_scale() == 1.3, ignored
