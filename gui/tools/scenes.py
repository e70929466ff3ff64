"""Prepared tables for screenshots: each scene is reached by playing real kernel actions.

Nonces come from a fixed counter, so every scene is the same on every machine.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable
from typing import Any

from pointline.gui.bridge import TableBridge
from pointline.gui.extras_scenes import EXTRA_SCENES, prepare_extra  # gui-extras
from pointline.kernel import EndReason, Phase

__all__ = ["MOTION_SCENES", "SCENES", "THROW_POSE", "counter_nonces", "pose", "prepare"]

SCENES = (
    "come-out-draft",
    "betting",
    "throw",
    "point-reduction",
    "result-moment",
    "help",
    "result",
    "ended",
    *EXTRA_SCENES,  # gui-extras: stats, guide
)
MOTION_SCENES = frozenset({"result-moment", "throw"})
"""Scenes shown with motion on (the rest with Reduce motion: every result at once)."""
THROW_POSE = 0.3
"""How far through their flight the dice are in the "throw" scene."""


def counter_nonces(label: bytes) -> Callable[[], bytes]:
    """A reproducible nonce source: SHA-256 of a label and a counter (tests and scenes only)."""
    count = itertools.count()
    return lambda: hashlib.sha256(label + next(count).to_bytes(8, "big")).digest()


def _draft(bridge: TableBridge, pass_amount: int, dont_pass: int) -> None:
    bridge.selectLine("pass")
    for _ in range(pass_amount // 10):
        bridge.act("allocate")
    bridge.selectLine("dont_pass")
    for _ in range(dont_pass // 10):
        bridge.act("allocate")


def _to_point(bridge: TableBridge) -> None:
    """Play hands (Pass 20, Don't Pass 30) until a come-out sets the point."""
    for _ in range(200):
        if bridge.table.phase is Phase.POINT:
            return
        _draft(bridge, 20, 30)
        bridge.act("confirm")
    raise RuntimeError("no point after 200 come-outs")


def prepare(bridge: TableBridge, scene: str) -> None:
    """Bring a fresh bridge to the named scene (every throw's result shown, but in the scenes
    of the result moment itself)."""
    _play(bridge, scene)
    if scene not in MOTION_SCENES:
        bridge.finishReveal()


def pose(window: Any, bridge: TableBridge, scene: str) -> None:
    """After the scene's window is shown: stop its animations at the moment the scene shows."""
    if scene != "throw":
        return
    from PySide6.QtCore import QObject

    bridge.hold()
    animation = window.findChild(QObject, "throwAnimation")
    dice = window.findChild(QObject, "dice")
    if animation is None or dice is None:
        raise RuntimeError("the table has no dice to throw")
    animation.stop()
    dice.setProperty("flight", THROW_POSE)


def _play(bridge: TableBridge, scene: str) -> None:
    if scene == "come-out-draft":
        _draft(bridge, 30, 20)
        bridge.selectLine("pass")
    elif scene == "betting":
        # Hand 1 played to its end, then hand 2 bet in two moves: a 50 chip, a 10 chip.
        _draft(bridge, 30, 20)
        bridge.act("confirm")
        bridge.finishReveal()
        while bridge.table.hand == 1:
            bridge.act("roll")
            bridge.finishReveal()
        bridge.selectChip(50)
        bridge.placeChip("pass")
        bridge.selectChip(10)
        bridge.placeChip("dont_pass")
        bridge.selectChip(10)
        bridge.selectLine("pass")
    elif scene == "throw":
        bridge.selectChip(50)
        bridge.placeChip("pass")
        bridge.selectChip(10)
        bridge.placeChip("dont_pass")
        bridge.act("confirm")
    elif scene == "point-reduction":
        _to_point(bridge)
        bridge.act("reduce")
        bridge.selectLine("dont_pass")
    elif scene == "result-moment":
        # Needs motion on (reduce motion off): stop at the first throw that settles a line.
        for _ in range(300):
            if bridge.table.phase is Phase.POINT:
                bridge.act("roll")
            else:
                _draft(bridge, 30, 20)
                bridge.act("confirm")
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
                bridge.act("roll")
            else:
                _draft(bridge, 30, 20)
                bridge.act("confirm")
    elif scene == "ended":
        _to_point(bridge)
        bridge.act("roll")
        bridge.end_without_result(EndReason.BACKGROUND)
    elif scene in EXTRA_SCENES:  # gui-extras
        prepare_extra(bridge, scene)
    else:
        raise ValueError(f"unknown scene {scene!r}; scenes: {', '.join(SCENES)}")
