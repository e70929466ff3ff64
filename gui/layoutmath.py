"""The layout check's arithmetic: WCAG contrast of two colours, and rectangles (x, y, w, h).

Plain functions of numbers, no Qt (``gui.tools.layoutcheck`` reads the windows).
"""

from __future__ import annotations

__all__ = ["contrast_ratio", "crosses", "inside", "intersection", "overlap"]


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio of two sRGB colours (1 to 21)."""
    la, lb = _luminance(a), _luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The area two rectangles (x, y, width, height) share."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return 0.0 if w <= 0 or h <= 0 else w * h


def intersection(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float, float, float]:
    """The rectangle two rectangles share (empty: zero width or height)."""
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    return (x0, y0, max(0.0, x1 - x0), max(0.0, y1 - y0))


def inside(a: tuple[float, ...], b: tuple[float, ...], slack: float = 1.0) -> bool:
    """Whether rectangle ``a`` lies within ``b``, give or take ``slack`` pixels."""
    return (
        a[0] >= b[0] - slack
        and a[1] >= b[1] - slack
        and a[0] + a[2] <= b[0] + b[2] + slack
        and a[1] + a[3] <= b[1] + b[3] + slack
    )


def crosses(
    rect: tuple[float, ...], a: tuple[float, float], b: tuple[float, float], margin: float = 0.0
) -> bool:
    """Whether the segment from ``a`` to ``b`` passes through ``rect`` (x, y, width, height)
    grown by ``margin`` on every side (Liang-Barsky clipping)."""
    x0, y0 = rect[0] - margin, rect[1] - margin
    x1, y1 = rect[0] + rect[2] + margin, rect[1] + rect[3] + margin
    dx, dy = b[0] - a[0], b[1] - a[1]
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0:
                return False  # parallel to this edge and outside it
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True
