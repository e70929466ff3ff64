"""Prepared tables for screenshots: each scene is reached by playing real kernel actions.

Nonces come from a fixed counter, so every scene is the same on every machine.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable

from pointline.gui.bridge import TableBridge
from pointline.gui.extras_scenes import EXTRA_SCENES, prepare_extra  # gui-extras
from pointline.kernel import EndReason, Phase

SCENES: tuple[str, ...] = ("come-out-draft", "point-reduction", "result-moment", "help")
SCENES += ("result", "ended", *EXTRA_SCENES)  # gui-extras: stats, guide


def counter_nonces(label: bytes) -> Callable[[], bytes]:
    """A reproducible nonce source: SHA-256 of a label and a counter (tests and scenes only)."""
    count = itertools.count()
    return lambda: hashlib.sha256(label + next(count).to_bytes(8, "big")).digest()


def _draft(bridge: TableBridge, pass_amount: int, dont_pass: int) -> None:
    bridge.selectLine("pass")
    for _ in range(pass_amount // 10):
        bridge.allocate()
    bridge.selectLine("dont_pass")
    for _ in range(dont_pass // 10):
        bridge.allocate()


def _to_point(bridge: TableBridge) -> None:
    """Play hands (Pass 20, Don't Pass 30) until a come-out sets the point."""
    for _ in range(200):
        if bridge.table.phase is Phase.POINT:
            return
        _draft(bridge, 20, 30)
        bridge.confirm()
    raise RuntimeError("no point after 200 come-outs")


def prepare(bridge: TableBridge, scene: str) -> None:
    """Bring a fresh bridge to the named scene."""
    if scene == "come-out-draft":
        _draft(bridge, 30, 20)
        bridge.selectLine("pass")
    elif scene == "point-reduction":
        _to_point(bridge)
        bridge.reduceDontPass()
        bridge.selectLine("dont_pass")
    elif scene == "result-moment":
        # Needs motion on (reduce motion off): stop at the first throw that settles a line.
        for _ in range(300):
            if bridge.table.phase is Phase.POINT:
                bridge.roll()
            else:
                _draft(bridge, 30, 20)
                bridge.confirm()
            if bridge.hold_outcome():
                return
            bridge.finishReveal()
        raise RuntimeError("no settling throw in 300 throws")
    elif scene == "help":
        _draft(bridge, 20, 10)
        bridge.openHelp()
    elif scene == "result":
        while not bridge.table.is_over:
            if bridge.table.phase is Phase.POINT:
                bridge.roll()
            else:
                _draft(bridge, 30, 20)
                bridge.confirm()
    elif scene == "ended":
        _to_point(bridge)
        bridge.roll()
        bridge.end_without_result(EndReason.BACKGROUND)
    elif scene in EXTRA_SCENES:  # gui-extras
        prepare_extra(bridge, scene)
    else:
        raise ValueError(f"unknown scene {scene!r}; scenes: {', '.join(SCENES)}")
