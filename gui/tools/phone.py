"""The phone profile of the layout check and the screenshots (a tool: the playing app never
imports it).

A phone size (shorter side under ``PHONE_SIDE``) is checked and pictured as a phone shows it:
touch (``POINTLINE_FORCE_MOBILE=1``: no key hints, no Window button), one window mode, and the
size's own safe-area insets (``gui.device.PHONE_INSETS``: portrait and sideways each their own,
in one run); a picture draws the insets as the black bars a notch, a status bar and a home
indicator are. Every other size is a desktop: pointer and keys, three window modes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pointline.gui.device import phone_insets

__all__ = [
    "NO_INSETS",
    "PHONE_MODE",
    "PHONE_SIDE",
    "black_bars",
    "insets_of",
    "is_phone",
    "profile_env",
    "safe_rect",
]

PHONE_SIDE = 500
"""A window whose shorter side is under this is a phone."""
PHONE_MODE = "phone"
"""The one window mode a phone has, as the layout check's lines name it."""
NO_INSETS = {"top": 0, "right": 0, "bottom": 0, "left": 0}


def is_phone(size: tuple[int, int]) -> bool:
    return min(size) < PHONE_SIDE


def insets_of(size: tuple[int, int]) -> dict[str, int]:
    """The safe-area insets a window of ``size`` is checked with (none on a desktop)."""
    return phone_insets(size) if is_phone(size) else dict(NO_INSETS)


def safe_rect(size: tuple[int, int], insets: dict[str, int]) -> tuple[float, float, float, float]:
    """The safe area (x, y, width, height) of a window of ``size`` inside ``insets``."""
    return (
        float(insets["left"]),
        float(insets["top"]),
        float(size[0] - insets["left"] - insets["right"]),
        float(size[1] - insets["top"] - insets["bottom"]),
    )


@contextmanager
def profile_env(size: tuple[int, int], phone: bool | None = None) -> Iterator[None]:
    """While inside: a bridge made now is a phone's (touch, the size's insets) when ``size`` is
    a phone's (or ``phone`` says so), else a desktop's; the environment is restored after."""
    names = ("POINTLINE_FORCE_MOBILE", "POINTLINE_FAKE_INSETS")
    before = {name: os.environ.get(name) for name in names}
    phone = is_phone(size) if phone is None else phone
    insets = insets_of(size) if phone else dict(NO_INSETS)
    os.environ["POINTLINE_FORCE_MOBILE"] = "1" if phone else "0"
    os.environ["POINTLINE_FAKE_INSETS"] = ",".join(
        str(insets[k]) for k in ("top", "right", "bottom", "left")
    )
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def black_bars(image: Any, insets: dict[str, int]) -> Any:
    """``image`` (a QImage of the whole window) with its inset areas painted black, as the
    phone's notch, status bar and home indicator cover them."""
    from PySide6.QtGui import QColor, QImage, QPainter

    out = image.convertToFormat(QImage.Format.Format_RGB32)
    w, h = out.width(), out.height()
    painter = QPainter(out)
    black = QColor(0, 0, 0)
    painter.fillRect(0, 0, w, insets["top"], black)
    painter.fillRect(0, h - insets["bottom"], w, insets["bottom"], black)
    painter.fillRect(0, 0, insets["left"], h, black)
    painter.fillRect(w - insets["right"], 0, insets["right"], h, black)
    painter.end()
    return out
