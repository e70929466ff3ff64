"""A layout check the project keeps: render every scene at every size and list the problems.

    pointline --check-layout --size 390x844 --size 1280x720

Each scene (solo and online, reached by really playing; the replay's, gui/tools/replay_scenes.py)
is rendered offscreen once per size;
the item tree of the window is then read and the rendered image sampled. One line per problem:

- ``overlap``: two enabled interactive items (buttons, tap areas, fields) whose rectangles
  intersect by more than a pixel, neither inside the other;
- ``elided``: a text that Qt truncated (``truncated``: elided or cut at ``maximumLineCount``);
- ``clipped``: a text that does not fit its own box, or lies partly outside the window or
  outside a clipping ancestor (scrolling lists and pages excepted: their content scrolls);
- ``small target``: an enabled interactive item under 48x48 at phone sizes (shorter side under
  500);
- ``contrast``: text whose colour against the background drawn behind it is under 4.5:1
  (3:1 for large text: 24 px, or 18.66 px bold), disabled controls excepted as WCAG does;
- ``text over text``: two texts whose drawn lines overlap (a chart's labels, a message over a
  line's rule), rows of one scrolling list excepted, and texts under a card drawn over them
  for a moment (``designRole`` "cover": a throw's landed dice and its callout);
- ``moved``: a control that moves when the status line grows from one line to three
  (``moved_controls``; buttons must not move under the pointer);
- ``line over text``: a drawn line (an item's ``drawnLine``: x, y pairs in its own
  coordinates, as a chart publishes the line it paints) that runs through a shown text;
- ``uneven``: of two sibling items of one QML type (the two line areas, the buttons of a
  row), one hides a text the other shows, both having its words (a motto left out in one box);
- ``jumped``: a steady area (``STEADY_TYPES``: the felt's line areas) whose geometry changes at
  one size and window mode, between scenes (phases) or when the felt's title or the phase
  changes (``steady_areas``).

Every scene is checked at every size in every window mode (``WINDOW_MODES``: the words and
buttons of each mode; the size checked is the window's own size, whichever the mode).

When a card (Help, a question, the pause card, Stats, the guide) is open, only the card is
checked: the table behind it is inert. The last line reads ``layout: S scenes × Z sizes × M window
modes, P problems``; the command exits 1 when P > 0. With ``--font-scale 1.3`` (or
``POINTLINE_FONT_SCALE``) every screen is checked at that system text size
(``gui.device.font_scale``: a phone's "Font size" or Dynamic Type), and the last line says so.
"""

from __future__ import annotations

import asyncio
import math
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import pairwise
from pathlib import Path
from typing import Any

from pointline.gui.device import FONT_SCALES
from pointline.gui.layoutmath import contrast_ratio, crosses, inside, intersection, overlap
from pointline.gui.tools.phone import (
    NO_INSETS,
    PHONE_MODE,
    PHONE_SIDE,
    insets_of,
    is_phone,
    profile_env,
    safe_rect,
)
from pointline.kernel.words import counted

__all__ = [
    "PHONE_SIDE",
    "SIZES",
    "Design",
    "Problem",
    "check_window",
    "contrast_ratio",
    "in_thumb_zone",
    "main",
    "measure_window",
    "moved_controls",
    "run_check",
    "steady_areas",
]

SIZES: tuple[tuple[int, int], ...] = (
    (360, 640),
    (390, 844),
    (412, 915),
    (640, 360),
    (844, 390),
    (915, 412),
    (1024, 768),
    (1280, 720),
    (1920, 1080),
    (2560, 1440),
)
"""The sizes the project keeps clean: phones both ways, a tablet, desktops to 1440p."""


MIN_TARGET = 48
MIN_TEXT_PT = 11
"""No text on a phone under this many points (logical pixels at device pixel ratio 1)."""
MIN_FELT_SHARE = 0.5
"""A phone held sideways gives the felt at least this share of its safe area."""
DESIGN_ROLE = "designRole"
"""The QML property naming an item's part in the design: "felt" (the felt's share is
measured) or "main" (the one main action of the state: it must be under a thumb)."""
THUMB_ZONE_LANDSCAPE = "the outer 25% of the width, the lower 60% of the height"
THUMB_ZONE_PORTRAIT = "the bottom third"


@dataclass
class Design:
    """What a scene measures as a design (``--check-layout`` prints it per scene, size and
    mode): the felt's share of the safe area, where the main action's centre is (fractions of
    the safe area) and whether a thumb reaches it, the smallest text in points and the lowest
    text contrast. None: the scene has no such part (a card is open, or no felt)."""

    felt_share: float | None = None
    main_where: str = ""
    main_at: tuple[float, float] | None = None
    main_in_zone: bool | None = None
    smallest_pt: float | None = None
    smallest_where: str = ""
    lowest_contrast: float | None = None
    contrast_where: str = ""

    def line(self) -> str:
        felt = "-" if self.felt_share is None else f"{self.felt_share:.0%}"
        if self.main_at is None:
            main = "-"
        else:
            zone = "in the thumb zone" if self.main_in_zone else "OUT of the thumb zone"
            main = f"{self.main_where} at {self.main_at[0]:.0%}, {self.main_at[1]:.0%}, {zone}"
        small = "-" if self.smallest_pt is None else f"{self.smallest_pt:.1f} pt"
        low = "-" if self.lowest_contrast is None else f"{self.lowest_contrast:.2f}:1"
        return f"felt {felt} · main action {main} · smallest text {small} · lowest contrast {low}"


STEADY_TYPES = ("LineArea",)
"""QML types whose geometry holds at one size whatever the phase or the felt's title says."""
_INTERACTIVE = ("QQuickAbstractButton", "QQuickMouseArea", "QQuickTextInput")
_SCROLLERS = ("QQuickFlickable",)  # ListView and Flickable content scrolls: clipping is normal


@dataclass(frozen=True)
class Problem:
    kind: str
    where: str
    detail: str

    def line(self, scene: str, size: tuple[int, int], mode: str = "standard") -> str:
        return f"{scene} {size[0]}x{size[1]} {mode}: {self.kind}: {self.where}: {self.detail}"


# ---------------------------------------------------------------------- the item tree
class _Tree:
    """The item tree under ``root``, read once (parents from the walk, not ``parentItem()``:
    PySide6 6.12 drops a reference to None on each ``parentItem()`` that returns None)."""

    def __init__(self, root: Any) -> None:
        self.items: list[Any] = []
        self._parent: dict[int, Any] = {}
        stack = [root]
        while stack:
            item = stack.pop()
            self.items.append(item)
            for child in reversed(item.childItems()):
                self._parent[id(child)] = item
                stack.append(child)

    def ancestors(self, item: Any) -> Iterator[Any]:
        parent = self._parent.get(id(item))
        while parent is not None:
            yield parent
            parent = self._parent.get(id(parent))


def _name(item: Any) -> str:
    name = item.objectName()
    if name:
        return str(name)
    text = item.property("text")
    kind = (
        type(item).__name__
        if type(item).__name__ != "QQuickItem"
        else item.metaObject().className()
    )
    if isinstance(text, str) and text:
        short = text if len(text) <= 40 else text[:37] + "…"
        return f"{kind} {short!r}"
    return str(kind)


def _is_interactive(item: Any) -> bool:
    if item.objectName().startswith("behind"):
        return False  # a tap area behind the buttons
    return any(
        item.inherits(cls)
        for cls in (
            "QQuickAbstractButton",
            "QQuickMouseArea",
            "QQuickTextInput",
            "QQuickTapHandler",
        )
    )


def _scene_rect(item: Any) -> tuple[float, float, float, float]:
    from PySide6.QtCore import QRectF

    r = item.mapRectToScene(QRectF(0, 0, item.width(), item.height()))
    return (r.x(), r.y(), r.width(), r.height())


def _effectively_shown(tree: _Tree, item: Any) -> bool:
    if not item.isVisible() or item.width() <= 0 or item.height() <= 0:
        return False
    opacity = float(item.opacity())
    for a in tree.ancestors(item):
        opacity *= a.opacity()
    return opacity > 0.05


def _covered(tree: _Tree, item: Any, covers: list[Any]) -> bool:
    """Whether ``item`` lies under one of ``covers`` (and is not part of it)."""
    rect = _drawn_rect(item)
    return any(
        c is not item and c not in tree.ancestors(item) and overlap(rect, _scene_rect(c)) > 0
        for c in covers
    )


def _in_flight(tree: _Tree, item: Any) -> bool:
    """A chip sliding between the balance and a line (ChipFlights.qml) is motion, not layout:
    its amount crosses the texts it flies over."""
    return any(i.objectName().startswith("flyer_") for i in (item, *tree.ancestors(item)))


def _active_layer(content: Any) -> Any:
    """The topmost open card (every card is a modal popup in the window's overlay: Help, the
    questions, Stats, the guide), else the window."""
    from PySide6.QtQuick import QQuickItem

    layer = content
    todo = list(content.childItems())
    while todo:  # every item, in drawing order, down to the window's overlay
        item = todo.pop(0)
        if not isinstance(item, QQuickItem):
            continue  # PySide6 once handed back a QMetaObject here (one --check-layout run crashed)
        if item.inherits("QQuickOverlay"):
            for card in item.childItems():
                if card.inherits("QQuickPopupItem") and card.isVisible():
                    layer = card
        else:
            todo[:0] = item.childItems()
    return layer


def _background(
    image: Any, rect: tuple[float, ...], fg: tuple[int, int, int]
) -> tuple[int, int, int] | None:
    """The colour behind the text: the most common colour in its box once the glyphs' own
    pixels (near the text colour) are set aside; when nearly everything is near the text
    colour, that is the background, and the contrast is low indeed."""
    x0, y0 = max(0, int(rect[0])), max(0, int(rect[1]))
    x1 = min(image.width(), int(rect[0] + rect[2]))
    y1 = min(image.height(), int(rect[1] + rect[3]))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    every: Counter[int] = Counter()
    apart: Counter[int] = Counter()
    # about 2,000 samples at most, evenly spread (a wide line of text has tens of thousands)
    step = max(
        1, int(min(x1 - x0, y1 - y0) // 24), math.ceil(((x1 - x0) * (y1 - y0) / 2000) ** 0.5)
    )
    for y in range(y0, y1, step):
        for x in range(x0, x1, step):
            rgb = image.pixel(x, y) & 0xFFFFFF
            every[rgb] += 1
            r, g, b = (rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255
            if (r - fg[0]) ** 2 + (g - fg[1]) ** 2 + (b - fg[2]) ** 2 > 48**2:
                apart[rgb] += 1
    use = apart if apart.total() >= every.total() * 0.2 else every
    rgb = use.most_common(1)[0][0]
    return ((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255)


def _alignment(item: Any) -> tuple[int, int]:
    """A text's (horizontal, vertical) alignment flags (PySide6 cannot convert the enums, so
    QML evaluates them); left and top when the text has no QML context."""
    from PySide6.QtQml import QQmlEngine, QQmlExpression

    context = QQmlEngine.contextForObject(item)
    if context is None:
        return 1, 32
    out = []
    for name in ("effectiveHorizontalAlignment", "verticalAlignment"):
        value, failed = QQmlExpression(context, item, f"{name} + 0").evaluate()
        out.append(int(value) if not failed and isinstance(value, (int, float)) else 0)
    return out[0] or 1, out[1] or 32


def _qml_number(item: Any, name: str) -> int:
    """An enum property of ``item`` as a number (PySide6 cannot convert QML's enums, so QML
    evaluates them); 0 when the item has no QML context."""
    from PySide6.QtQml import QQmlEngine, QQmlExpression

    context = QQmlEngine.contextForObject(item)
    if context is None:
        return 0
    value, failed = QQmlExpression(context, item, f"{name} + 0").evaluate()
    return int(value) if not failed and isinstance(value, (int, float)) else 0


def _drawn_rect(item: Any) -> tuple[float, float, float, float]:
    """Where a text's lines are drawn: its content box placed by its alignment."""
    x, y, w, h = _scene_rect(item)
    cw = min(w, float(item.property("contentWidth")))
    ch = min(h, float(item.property("contentHeight")))
    halign, valign = _alignment(item)
    dx = w - cw if halign & 0x2 else (w - cw) / 2 if halign & 0x4 else 0.0
    dy = h - ch if valign & 0x40 else (h - ch) / 2 if valign & 0x80 else 0.0
    return (x + dx, y + dy, cw, ch)


def _texts_over_texts(tree: _Tree, texts: list[Any]) -> list[Problem]:
    problems = []
    rects = []
    for t in texts:
        rect = _drawn_rect(t)
        for a in tree.ancestors(t):
            if a.clip():
                rect = intersection(rect, _scene_rect(a))
        if rect[2] >= 1 and rect[3] >= 1:  # scrolled out of sight otherwise
            rects.append((t, rect))
    for n, (a, ra) in enumerate(rects):
        scroller_a = next((s for s in tree.ancestors(a) if s.inherits(_SCROLLERS[0])), None)
        for b, rb in rects[n + 1 :]:
            if a in tree.ancestors(b) or b in tree.ancestors(a):
                continue
            scroller_b = next((s for s in tree.ancestors(b) if s.inherits(_SCROLLERS[0])), None)
            if scroller_a is not None and scroller_a is scroller_b:
                continue  # rows of one list scroll under its pinned heading
            if overlap(ra, rb) > 4.0:
                problems.append(Problem("text over text", _name(a), f"drawn over {_name(b)}"))
    return problems


def _lines_over_texts(tree: _Tree, shown: list[Any], texts: list[Any]) -> list[Problem]:
    """Every drawn line (``drawnLine``) that runs through a shown text's drawn lines."""
    from PySide6.QtCore import QPointF

    problems = []
    for item in shown:
        flat = item.property("drawnLine")
        if hasattr(flat, "toVariant"):  # a QML ``var`` arrives as a QJSValue
            flat = flat.toVariant()
        if not isinstance(flat, list) or len(flat) < 4:
            continue
        points = []
        for x, y in zip(flat[0::2], flat[1::2], strict=True):
            p = item.mapToScene(QPointF(float(x), float(y)))
            points.append((p.x(), p.y()))
        seen = _scene_rect(item)  # the part of the line in sight (a list scrolls it away)
        for a in tree.ancestors(item):
            if a.clip():
                seen = intersection(seen, _scene_rect(a))
        for text in texts:
            rect = intersection(_drawn_rect(text), seen)
            if rect[2] < 1 or rect[3] < 1:
                continue
            if any(crosses(rect, a, b) for a, b in pairwise(points)):
                problems.append(
                    Problem(
                        "line over text", _name(text), f"{_name(item)} draws its line through it"
                    )
                )
    return problems


def _qml_type(item: Any) -> str:
    """The QML component an item is an instance of ("LineArea"), or "" for Qt's own types."""
    base = str(item.metaObject().className()).split("_QML")[0]
    return "" if base.startswith(("QQuick", "QObject")) else base


def _texts_of(item: Any) -> dict[tuple[int, ...], Any]:
    """The texts inside ``item`` by their place in its tree (child indices): the same place in
    two instances of one component is the same text."""
    out: dict[tuple[int, ...], Any] = {}
    todo: list[tuple[tuple[int, ...], Any]] = [((), item)]
    while todo:
        path, it = todo.pop()
        for n, child in enumerate(it.childItems()):
            if child.inherits("QQuickText"):
                out[(*path, n)] = child
            todo.append(((*path, n), child))
    return out


def _uneven_siblings(tree: _Tree, shown: list[Any]) -> list[Problem]:
    """Two shown siblings of one QML type where one hides a text the other shows (both with
    words to show): a line left out for want of room in one of a pair."""
    groups: dict[tuple[int, str], list[Any]] = {}
    for item in shown:
        kind = _qml_type(item)
        parent = next(tree.ancestors(item), None)
        if kind and parent is not None:
            groups.setdefault((id(parent), kind), []).append(item)
    problems = []
    for group in groups.values():
        for n, a in enumerate(group):
            texts_a = _texts_of(a)
            for b in group[n + 1 :]:
                texts_b = _texts_of(b)
                for place in texts_a.keys() & texts_b.keys():
                    ta, tb = texts_a[place], texts_b[place]
                    if not (str(ta.property("text")).strip() and str(tb.property("text")).strip()):
                        continue  # nothing to say in one of them
                    if not (ta.parentItem().isVisible() and tb.parentItem().isVisible()):
                        continue  # a part of one that its state leaves out (a badge)
                    if ta.isVisible() != tb.isVisible():
                        hidden, other = (tb, a) if ta.isVisible() else (ta, b)
                        problems.append(
                            Problem(
                                "uneven", _name(hidden), f"hidden where {_name(other)} shows it"
                            )
                        )
    return problems


def _steady_rects(window: Any) -> dict[str, tuple[Any, tuple[float, ...]]]:
    from PySide6.QtGui import QGuiApplication

    QGuiApplication.processEvents()
    tree = _Tree(window.contentItem())
    return {
        _name(i): (i, _scene_rect(i))
        for i in tree.items
        if _qml_type(i) in STEADY_TYPES and _effectively_shown(tree, i)
    }


def _moved(
    before: dict[str, tuple[Any, tuple[float, ...]]],
    after: dict[str, tuple[Any, tuple[float, ...]]],
) -> list[tuple[str, tuple[float, ...], tuple[float, ...]]]:
    return [
        (name, rect, after[name][1])
        for name, (_, rect) in before.items()
        if name in after
        and any(abs(p - q) > 0.5 for p, q in zip(rect, after[name][1], strict=True))
    ]


def _geometry(rect: tuple[float, ...]) -> str:
    return f"{rect[2]:.0f}x{rect[3]:.0f} at {rect[0]:.0f},{rect[1]:.0f}"


def steady_areas(
    window: Any, changes: Sequence[tuple[str, Callable[[], None], Callable[[], None]]]
) -> list[Problem]:
    """Steady areas (``STEADY_TYPES``) whose geometry changes under one of ``changes``
    (what it is, apply it, undo it)."""
    problems = []
    _settle(window, 30)  # laid out as it is now
    for what, change, undo in changes:
        before = _steady_rects(window)
        change()
        _settle(window, 30)
        after = _steady_rects(window)
        undo()
        _settle(window, 30)
        for name, was, now in _moved(before, after):
            problems.append(
                Problem("jumped", name, f"{_geometry(was)} becomes {_geometry(now)} when {what}")
            )
    return problems


def moved_controls(
    window: Any, change: Callable[[], None], undo: Callable[[], None]
) -> list[Problem]:
    """Controls that move when ``change`` is applied (``undo`` puts it back)."""
    from PySide6.QtGui import QGuiApplication

    def where() -> dict[int, tuple[Any, tuple[float, ...]]]:
        QGuiApplication.processEvents()
        tree = _Tree(window.contentItem())
        shown = [i for i in tree.items if _effectively_shown(tree, i)]
        return {
            id(i): (i, _scene_rect(i))
            for i in shown
            if _is_interactive(i) and i.isEnabled() and i.inherits("QQuickAbstractButton")
        }

    before = where()
    change()
    _settle(window, 30)
    after = where()
    undo()
    _settle(window, 30)
    problems = []
    for key, (item, rect) in before.items():
        if key in after and any(abs(p - q) > 0.5 for p, q in zip(rect, after[key][1], strict=True)):
            problems.append(Problem("moved", _name(item), "moves when the status line grows"))
    return problems


def _scrolls_into_sight(tree: Any, item: Any, safe: tuple[float, float, float, float]) -> bool:
    """``item`` lies in a page that scrolls (a Flickable whose content is larger than itself)
    and that page is itself whole in the safe area: scrolled to, the item comes into sight (a
    form on a small phone at a large text size). A page that cannot scroll excuses nothing."""
    page = next((s for s in tree.ancestors(item) if s.inherits(_SCROLLERS[0])), None)
    if page is None or not inside(_scene_rect(page), safe):
        return False
    tall = float(page.property("contentHeight")) > page.height() + 0.5
    wide = float(page.property("contentWidth")) > page.width() + 0.5
    return bool(tall or wide)


def check_window(
    window: Any,
    image: Any | None = None,
    insets: dict[str, int] | None = None,
    goals: bool | None = None,
) -> list[Problem]:
    """Every layout problem of ``window`` as it is laid out now (``image``: its grab;
    ``insets``: a phone's safe-area insets; ``goals``: see ``measure_window``)."""
    return measure_window(window, image, insets, goals)[0]


def measure_window(
    window: Any,
    image: Any | None = None,
    insets: dict[str, int] | None = None,
    goals: bool | None = None,
) -> tuple[list[Problem], Design]:
    """Every layout problem of ``window`` as it is laid out now, and its design figures
    (``Design``). At a phone's size (shorter side under ``PHONE_SIDE``) targets are 48x48, and
    with ``goals`` (by default at a phone's size) the design goals hold: the felt's share
    sideways, the main action under a thumb, no text under 11 pt; nothing may lie under the
    ``insets`` (the notch, the bars)."""
    if image is None:
        image = window.grabWindow()
    w, h = window.width(), window.height()
    phone = min(w, h) < PHONE_SIDE
    goals = phone if goals is None else goals
    win = (0.0, 0.0, float(w), float(h))
    safe = safe_rect((w, h), insets or NO_INSETS)
    layer = _active_layer(window.contentItem())
    problems: list[Problem] = []
    design = Design()
    tree = _Tree(window.contentItem())
    under = _Tree(layer)
    shown = [i for i in under.items if _effectively_shown(tree, i) and not _in_flight(tree, i)]
    targets = [i for i in shown if _is_interactive(i) and i.isEnabled()]

    rects = {id(i): _scene_rect(i) for i in targets}
    for n, a in enumerate(targets):
        ra = rects[id(a)]
        if phone and (ra[2] < MIN_TARGET - 0.5 or ra[3] < MIN_TARGET - 0.5):
            problems.append(
                Problem("small target", _name(a), f"{ra[2]:.0f}x{ra[3]:.0f}, under 48x48")
            )
        if _scrolls_into_sight(tree, a, safe):
            pass  # a form that scrolls: the control comes into sight as it is scrolled to
        elif not inside(ra, win):
            problems.append(Problem("clipped", _name(a), "partly outside the window"))
        elif not inside(ra, safe):
            problems.append(Problem("under a bar", _name(a), "partly outside the safe area"))
        for b in targets[n + 1 :]:
            if a in tree.ancestors(b) or b in tree.ancestors(a):
                continue
            if overlap(ra, rects[id(b)]) > 1.0:
                problems.append(Problem("overlap", _name(a), f"overlaps {_name(b)}"))

    # dice in flight (an item whose ``flying`` is true) are motion: what they pass over is
    # not read for contrast while they do
    flying = [_scene_rect(i) for i in shown if i.property("flying") is True]
    # a card drawn over the felt for a moment (``designRole`` "cover": a throw's landed dice and
    # its callout) covers what lies under it: those texts are not read as drawn over
    covers = [i for i in shown if i.property(DESIGN_ROLE) == "cover"]
    written = [
        i
        for i in shown
        if i.inherits("QQuickText")
        and isinstance(i.property("text"), str)
        and i.property("text").strip()
        and not _covered(tree, i, covers)
    ]
    problems.extend(_texts_over_texts(tree, written))
    problems.extend(_lines_over_texts(tree, shown, written))
    problems.extend(_uneven_siblings(tree, shown))
    for item in shown:
        if not item.inherits("QQuickText"):
            continue
        text = item.property("text")
        if not isinstance(text, str) or not text.strip():
            continue
        where = _name(item)
        if item.property("truncated"):
            problems.append(Problem("elided", where, "the text is cut short"))
        rect = _scene_rect(item)
        scrolled = any(a.inherits(_SCROLLERS[0]) for a in tree.ancestors(item))
        content_w = float(item.property("contentWidth"))
        content_h = float(item.property("contentHeight"))
        if not scrolled:
            if content_w > item.width() + 1.5 or content_h > item.height() + 1.5:
                problems.append(
                    Problem(
                        "clipped",
                        where,
                        f"text needs {content_w:.0f}x{content_h:.0f}, "
                        f"has {item.width():.0f}x{item.height():.0f}",
                    )
                )
            elif not inside(rect, win):
                problems.append(Problem("clipped", where, "partly outside the window"))
            elif not inside(intersection(_drawn_rect(item), rect), safe):
                problems.append(Problem("under a bar", where, "partly outside the safe area"))
            else:
                for a in tree.ancestors(item):
                    if a.clip() and not inside(rect, _scene_rect(a)):
                        problems.append(Problem("clipped", where, f"cut by {_name(a)}"))
                        break
        pt = _smallest_px(item)
        if design.smallest_pt is None or pt < design.smallest_pt:
            design.smallest_pt, design.smallest_where = pt, where
        if goals and pt < MIN_TEXT_PT - 0.005:
            problems.append(Problem("small text", where, f"{pt:.1f} pt, under {MIN_TEXT_PT} pt"))
        if not item.isEnabled():
            continue  # WCAG exempts inactive controls
        for a in tree.ancestors(item):
            if a.clip():
                rect = intersection(rect, _scene_rect(a))
        rect = intersection(rect, win)
        if rect[2] < 2 or rect[3] < 2:
            continue  # scrolled out of sight
        if any(overlap(rect, f) > 0 for f in flying) or _covered(tree, item, covers):
            continue  # under the dice in flight, or under a card drawn over it
        colour = item.property("color")
        fg = (colour.red(), colour.green(), colour.blue())
        background = _background(image, rect, fg)
        if background is None:
            continue
        font = item.property("font")
        px = font.pixelSize() if font.pixelSize() > 0 else font.pointSizeF() * 4 / 3
        large = px >= 24 or (font.bold() and px >= 18.66)
        need = 3.0 if large else 4.5
        ratio = contrast_ratio(fg, background)
        if design.lowest_contrast is None or ratio < design.lowest_contrast:
            design.lowest_contrast, design.contrast_where = ratio, where
        if ratio < need - 0.005:
            problems.append(
                Problem(
                    "contrast",
                    where,
                    f"{ratio:.2f}:1 (needs {need:g}:1), text #{colour.name()[1:]} "
                    f"on #{background[0]:02x}{background[1]:02x}{background[2]:02x}",
                )
            )
    if layer is window.contentItem():  # a card open: the table behind it is not measured
        problems.extend(_design_goals(shown, safe, goals, design))
    return problems, design


def _smallest_px(text: Any) -> float:
    """A text's size in points (logical pixels at device pixel ratio 1: an iOS point, an
    Android dp), the smallest it may shrink to when it fits itself to its box."""
    font = text.property("font")
    px = float(font.pixelSize()) if font.pixelSize() > 0 else float(font.pointSizeF()) * 4 / 3
    if _qml_number(text, "fontSizeMode") != 0:  # Text.FixedSize is 0
        px = min(px, float(text.property("minimumPixelSize") or px))
    return px


def _design_goals(
    shown: list[Any], safe: tuple[float, float, float, float], phone: bool, design: Design
) -> list[Problem]:
    """The felt's share of the safe area and the main action's place (``DESIGN_ROLE``),
    recorded in ``design``; on a phone, a problem for each goal missed."""
    problems = []
    landscape = safe[2] > safe[3]
    area = safe[2] * safe[3]
    felts = [i for i in shown if i.property(DESIGN_ROLE) == "felt"]
    if felts and area > 0:
        design.felt_share = (
            sum((lambda r: r[2] * r[3])(intersection(_scene_rect(f), safe)) for f in felts) / area
        )
        if phone and landscape and design.felt_share < MIN_FELT_SHARE - 0.0005:
            problems.append(
                Problem(
                    "felt",
                    _name(felts[0]),
                    f"{design.felt_share:.0%} of the safe area, under {MIN_FELT_SHARE:.0%}",
                )
            )
    mains = [i for i in shown if i.property(DESIGN_ROLE) == "main"]
    if mains:
        x, y, w, h = _scene_rect(mains[0])
        fx = (x + w / 2 - safe[0]) / safe[2]
        fy = (y + h / 2 - safe[1]) / safe[3]
        design.main_where, design.main_at = _name(mains[0]), (fx, fy)
        design.main_in_zone = in_thumb_zone(fx, fy, landscape)
        if phone and not design.main_in_zone:
            zone = THUMB_ZONE_LANDSCAPE if landscape else THUMB_ZONE_PORTRAIT
            problems.append(
                Problem("thumb", _name(mains[0]), f"centre at {fx:.0%}, {fy:.0%}: outside {zone}")
            )
        if len(mains) > 1:
            others = ", ".join(_name(m) for m in mains[1:])
            problems.append(Problem("two main actions", _name(mains[0]), f"and {others}"))
    return problems


def in_thumb_zone(fx: float, fy: float, landscape: bool) -> bool:
    """Whether a control centred at (``fx``, ``fy``), fractions of the safe area's width and
    height from its top left, is under a thumb: sideways in the outer 25% of the width and
    the lower 60% of the height, in portrait in the bottom third."""
    if landscape:
        return (fx <= 0.25 or fx >= 0.75) and fy >= 0.4
    return fy >= 2 / 3


# ---------------------------------------------------------------------- driving scenes
def _settle(window: Any, ms: int = 60) -> Any:
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtGui import QGuiApplication

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()
    QGuiApplication.processEvents()
    return window.grabWindow()


Report = Callable[[str, tuple[int, int], str, list[Problem], "Design | None"], None]
LONG_STATUS = "A status three lines long: " + "the buttons below it stay where they are. " * 3


def _set_mode(bridge: Any, mode: str) -> bool:
    """The bridge's window mode (it decides the words and buttons); whether it changed (a
    phone's one mode is the bridge's standard one)."""
    mode = "standard" if mode == PHONE_MODE else mode
    if bridge is None or bridge.windowMode == mode:
        return False
    bridge.setWindowMode(mode)
    return True


def _keep_size(window: Any, size: tuple[int, int]) -> None:
    """The window at the size checked, whichever the mode (a full screen is one more size)."""
    from PySide6.QtGui import QWindow

    if window.visibility() != QWindow.Visibility.Windowed:
        window.setVisibility(QWindow.Visibility.Windowed)
    window.resize(*size)


def _show_in(window: Any, bridge: Any, mode: str, size: tuple[int, int]) -> None:
    """The window at ``size`` in window mode ``mode`` (the mode's visibility is set at once,
    as the bridge notifies: it is undone at once too)."""
    _set_mode(bridge, mode)
    _keep_size(window, size)


def _felt_changes(bridge: Any) -> list[tuple[str, Callable[[], None], Callable[[], None]]]:
    """What may change on the felt at one size: its title (a message two lines long after a
    hand) and the phase (Come-out or a point, with its box on)."""
    title, phase, point = str(bridge.feltMessage), str(bridge.phase), int(bridge.point)
    other = ("point", 10) if phase == "come_out" else ("come_out", 0)
    return [
        (
            "the felt's title is two lines long",
            partial(bridge.publish, feltMessage=LONG_STATUS[: len(LONG_STATUS) // 2]),
            partial(bridge.publish, feltMessage=title),
        ),
        (
            f"the phase becomes {other[0]}",
            partial(bridge.publish, phase=other[0], point=other[1]),
            partial(bridge.publish, phase=phase, point=point),
        ),
    ]


class _Steady:
    """The steady areas' geometry per size and mode, as the first scene that shows them has
    it: every later scene (another phase, a card, a result) must have the same."""

    def __init__(self) -> None:
        self._first: dict[tuple[tuple[int, int], str], tuple[str, dict[str, Any]]] = {}

    def compare(self, scene: str, size: tuple[int, int], mode: str, window: Any) -> list[Problem]:
        now = _steady_rects(window)
        if not now:
            return []
        first = self._first.setdefault((size, mode), (scene, now))
        return [
            Problem("jumped", name, f"{_geometry(now_)} here, {_geometry(was)} in {first[0]}")
            for name, was, now_ in _moved(first[1], now)
        ]


def _check_sizes(
    scene: str,
    window: Any,
    sizes: Sequence[tuple[int, int]],
    modes: Sequence[str],
    report: Report,
    bridge: Any = None,
    steady: _Steady | None = None,
    phone: bool = False,
) -> None:
    window.show()
    for size in sizes:
        insets = insets_of(size) if phone else dict(NO_INSETS)
        if phone and bridge is not None:
            bridge.set_insets(insets)
        for mode in modes:
            _show_in(window, bridge, mode, size)
            _settle(window)
            image = _settle(window, 30)
            problems, design = measure_window(window, image, insets, goals=phone)
            # what changes under the player (the status, the felt's title, the phase) is
            # checked in the first mode; every mode's own layout is compared across scenes
            if bridge is not None and not bridge.isOver and mode == modes[0]:
                status = str(bridge.status)

                def grow() -> None:
                    bridge.publish(status=LONG_STATUS[: len(LONG_STATUS) * 2 // 3])

                problems += moved_controls(window, grow, partial(bridge.publish, status=status))
                problems += steady_areas(window, _felt_changes(bridge))
            if steady is not None:
                problems += steady.compare(scene, size, mode, window)
            report(scene, size, mode, problems, design)


Profile = tuple[list[tuple[int, int]], tuple[str, ...], bool]
"""Sizes, their window modes, and whether they are checked as a phone."""


def _profiles(
    sizes: Sequence[tuple[int, int]], modes: Sequence[str], phone_mode: bool = True
) -> list[Profile]:
    """The sizes in their profiles: the phones (one mode, ``PHONE_MODE``) and the desktops
    (``modes``); without ``phone_mode`` every size is checked as a desktop window."""
    if not phone_mode:
        return [(list(sizes), tuple(modes), False)] if sizes else []
    phones = [s for s in sizes if is_phone(s)]
    desktops = [s for s in sizes if not is_phone(s)]
    plan = [(phones, (PHONE_MODE,), True), (desktops, tuple(modes), False)]
    return [p for p in plan if p[0]]


def _solo(scenes: Sequence[str], profiles: list[Profile], report: Report) -> None:
    for group, group_modes, phone in profiles:
        with profile_env(group[0], phone):
            _solo_profile(scenes, group, group_modes, report, phone)


def _solo_profile(
    scenes: Sequence[str],
    sizes: Sequence[tuple[int, int]],
    modes: Sequence[str],
    report: Report,
    phone: bool,
) -> None:
    steady = _Steady()
    with tempfile.TemporaryDirectory(prefix="pointline-layout-") as folder:
        previous = os.environ.get("POINTLINE_DATA_DIR")
        os.environ["POINTLINE_DATA_DIR"] = str(Path(folder) / "data")  # a private data folder
        try:
            _solo_scenes(scenes, sizes, modes, report, steady, folder, phone)
        finally:
            os.environ.pop("POINTLINE_DATA_DIR", None)
            os.environ.update({} if previous is None else {"POINTLINE_DATA_DIR": previous})


def _solo_scenes(
    scenes: Sequence[str],
    sizes: Sequence[tuple[int, int]],
    modes: Sequence[str],
    report: Report,
    steady: _Steady,
    folder: str,
    phone: bool,
) -> None:
    from PySide6.QtCore import QSettings

    from pointline.gui.app import load
    from pointline.gui.bridge import TableBridge
    from pointline.gui.sound import Sounds
    from pointline.gui.tools.scenes import MOTION_SCENES, counter_nonces, pose, prepare

    for scene in scenes:
        settings = QSettings(str(Path(folder) / "s.ini"), QSettings.Format.IniFormat)
        settings.setValue("reduceMotion", scene not in MOTION_SCENES)
        sounds = Sounds()
        sounds.muted = True
        bridge = TableBridge(counter_nonces(scene.encode()), settings=settings, sounds=sounds)
        prepare(bridge, scene)
        loaded = load(bridge, sizes[0])
        loaded.window.show()
        _settle(loaded.window)
        pose(loaded.window, bridge, scene)
        _check_sizes(scene, loaded.window, sizes, modes, report, bridge, steady, phone)
        loaded.window.close()
        loaded.engine.deleteLater()
        del loaded


def _online(scenes: Sequence[str], profiles: list[Profile], report: Report) -> None:
    import qasync

    from pointline.gui.online.app import load_online
    from pointline.gui.online.bridge import OnlineBridge
    from pointline.gui.tools.moves import counter_nonces
    from pointline.gui.tools.online_scenes import (
        close_held,
        held_still,
        in_motion,
        prepare_online,
    )
    from pointline.gui.windows import gui_application
    from pointline.net.protocol import Timeouts
    from pointline.net.relay import FAST_HASH, RelayConfig, running_relay

    app = gui_application()
    app.setQuitOnLastWindowClosed(False)
    folder = tempfile.TemporaryDirectory(prefix="pointline-layout-online-")
    previous = os.environ.get("POINTLINE_DATA_DIR")
    os.environ["POINTLINE_DATA_DIR"] = str(Path(folder.name) / "data")  # transcripts go here
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)

    async def one(
        scene: str, n: int, sizes: Sequence[tuple[int, int]], modes: Sequence[str], phone: bool
    ) -> None:
        config = RelayConfig(hash_params=FAST_HASH)
        db = Path(folder.name) / f"relay-{n}.sqlite3"
        async with running_relay(db, config=config) as relay:
            with profile_env(sizes[0], phone):  # a phone's bridge (touch) or a desktop's
                bridge = OnlineBridge(
                    relay.url, timeouts=Timeouts(), nonce_source=counter_nonces(b"alice")
                )
            loaded = load_online(bridge, sizes[0])
            loaded.window.show()
            peers = await prepare_online(bridge, relay.url, scene)
            for _ in range(250):  # dice and chips land first (5 s at most): motion, not layout
                if not in_motion(loaded.window.contentItem()):
                    break
                await asyncio.sleep(0.02)
            for size in sizes:
                insets = insets_of(size) if phone else dict(NO_INSETS)
                bridge.set_insets(insets)
                for mode in modes:
                    if _set_mode(bridge, mode):
                        await held_still(loaded.window)  # the loop runs Qt's events (qasync)
                    _keep_size(loaded.window, size)
                    await held_still(loaded.window)
                    image = loaded.window.grabWindow()
                    problems, design = measure_window(loaded.window, image, insets, phone)
                    report(scene, size, mode, problems, design)
            for c in peers:
                await c.close()
            await bridge.shutdown()
            await close_held()  # the hosted tables of online-nearby
            loaded.window.close()

    async def everything() -> None:
        n = 0
        for group, group_modes, phone in profiles:
            for scene in scenes:
                n += 1
                try:
                    await asyncio.wait_for(one(scene, n, group, group_modes, phone), 90)
                finally:
                    await close_held()  # a scene that failed leaves no hosted table running

    with loop:
        try:
            loop.run_until_complete(everything())
        finally:
            pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
            for task in pending:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    os.environ.pop("POINTLINE_DATA_DIR", None)
    os.environ.update({} if previous is None else {"POINTLINE_DATA_DIR": previous})
    folder.cleanup()


def _replay(scenes: Sequence[str], profiles: list[Profile], report: Report) -> None:
    from pointline.gui.tools.replay_scenes import load_scene

    with tempfile.TemporaryDirectory(prefix="pointline-layout-replay-") as folder:
        for group, _, phone in profiles:
            mode = PHONE_MODE if phone else "standard"
            for scene in scenes:
                loaded = load_scene(scene, group[0], Path(folder), mobile=phone)
                for size in group:
                    insets = insets_of(size) if phone else dict(NO_INSETS)
                    loaded.bridge.set_insets(insets)
                    loaded.window.resize(*size)
                    _settle(loaded.window, 120)
                    image = _settle(loaded.window, 30)
                    problems, design = measure_window(loaded.window, image, insets, phone)
                    report(scene, size, mode, problems, design)
                loaded.window.close()
                loaded.engine.deleteLater()


def run_check(
    sizes: Sequence[tuple[int, int]] = SIZES,
    solo_scenes: Sequence[str] | None = None,
    online_scenes: Sequence[str] | None = None,
    out: Callable[[str], None] = print,
    modes: Sequence[str] | None = None,
    replay_scenes: Sequence[str] = (),
    phone_mode: bool = True,
    font_scale: float | None = None,
) -> int:
    """Check the scenes at the sizes: a phone's size in phone mode (``gui.tools.phone``: touch,
    its own insets, one window mode; ``phone_mode=False``: as a desktop window), the others in
    the window modes (all three unless ``modes``); print each check's design figures, one line
    per problem and a summary; P. ``font_scale``: the system's text size every screen is
    checked at (``gui.device.FONT_SCALES``; None: POINTLINE_FONT_SCALE's, else the platform's)."""
    if font_scale is None:
        return _run_check(sizes, solo_scenes, online_scenes, out, modes, replay_scenes, phone_mode)
    low, high = FONT_SCALES
    if not low <= font_scale <= high:
        raise ValueError(f"a text size from {low:.0%} to {high:.0%}, not {font_scale:.0%}")
    previous = os.environ.get("POINTLINE_FONT_SCALE")
    os.environ["POINTLINE_FONT_SCALE"] = repr(font_scale)  # each bridge reads it when made
    try:
        return _run_check(sizes, solo_scenes, online_scenes, out, modes, replay_scenes, phone_mode)
    finally:
        if previous is None:
            os.environ.pop("POINTLINE_FONT_SCALE", None)
        else:
            os.environ["POINTLINE_FONT_SCALE"] = previous


def _run_check(
    sizes: Sequence[tuple[int, int]],
    solo_scenes: Sequence[str] | None,
    online_scenes: Sequence[str] | None,
    out: Callable[[str], None],
    modes: Sequence[str] | None,
    replay_scenes: Sequence[str],
    phone_mode: bool,
) -> int:
    from pointline.gui.windows import prepare_environment

    prepare_environment(offscreen=True)
    from PySide6.QtGui import QGuiApplication

    from pointline.gui.bridge import WINDOW_MODES
    from pointline.gui.online.texts import ONLINE_SCENES
    from pointline.gui.tools.scenes import SCENES

    QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    solo = SCENES if solo_scenes is None else solo_scenes
    online = ONLINE_SCENES if online_scenes is None else online_scenes
    total = 0

    every_mode = WINDOW_MODES if modes is None else modes

    def report(
        scene: str,
        size: tuple[int, int],
        mode: str,
        problems: list[Problem],
        design: Design | None = None,
    ) -> None:
        nonlocal total
        if design is not None:
            out(f"{scene} {size[0]}x{size[1]} {mode}: design: {design.line()}")
        for problem in problems:
            out(problem.line(scene, size, mode))
        total += len(problems)

    if solo:
        _solo(solo, _profiles(sizes, every_mode, phone_mode), report)
    if online:
        _online(online, _profiles(sizes, every_mode, phone_mode), report)
    if replay_scenes:
        _replay(replay_scenes, _profiles(sizes, ("standard",), phone_mode), report)
    out(summary(len(solo) + len(online) + len(replay_scenes), sizes, every_mode, total, phone_mode))
    return total


def summary(
    scenes: int,
    sizes: Sequence[tuple[int, int]],
    modes: Sequence[str],
    problems: int,
    phone_mode: bool = True,
) -> str:
    """The check's last line: what was checked, in which profiles, and how many problems."""
    phones = sum(1 for s in sizes if is_phone(s)) if phone_mode else 0
    parts = []
    if phones:
        parts.append(f"{counted(phones, 'phone size')} in phone mode")
    if len(sizes) - phones:
        parts.append(
            f"{counted(len(sizes) - phones, 'desktop size')} × {counted(len(modes), 'window mode')}"
        )
    from pointline.gui.device import font_scale

    scale = font_scale()  # POINTLINE_FONT_SCALE: the system's text size the check runs at
    at = "" if scale == 1.0 else f" at {scale:.0%} text"
    return (
        f"layout: {counted(scenes, 'scene')} × ({' + '.join(parts)}){at}, "
        f"{counted(problems, 'problem')}"
    )


def main(sizes: Sequence[tuple[int, int]], font_scale: float | None = None) -> int:
    from pointline.gui.tools.replay_scenes import REPLAY_SCENES

    problems = run_check(sizes or SIZES, replay_scenes=REPLAY_SCENES, font_scale=font_scale)
    return 1 if problems else 0
