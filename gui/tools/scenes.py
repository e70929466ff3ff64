"""Prepared tables for screenshots: each scene is reached by playing real kernel actions.

Nonces come from a fixed counter, so every scene is the same on every machine.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from pointline.gui.bridge import TableBridge
from pointline.gui.tools.extras_scenes import EXTRA_SCENES, prepare_extra  # gui-extras
from pointline.gui.tools.moves import counter_nonces, draft
from pointline.gui.tools.phone import black_bars, insets_of, profile_env
from pointline.kernel import EndReason, Phase

__all__ = [
    "MOTION_SCENES",
    "SCENES",
    "THROW_POSE",
    "counter_nonces",
    "pose",
    "prepare",
    "screenshot",
]

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


def _to_point(bridge: TableBridge) -> None:
    """Play hands (Pass 20, Don't Pass 30) until a come-out sets the point."""
    for _ in range(200):
        if bridge.table.phase is Phase.POINT:
            return
        draft(bridge, 20, 30)
        bridge.act("confirm")
    raise RuntimeError("no point after 200 come-outs")


def prepare(bridge: TableBridge, scene: str) -> None:
    """Bring a fresh bridge to the named scene (every throw's result shown, but in the scenes
    of the result moment itself)."""
    _play(bridge, scene)
    if scene not in MOTION_SCENES:
        bridge.skipMoment()


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
        draft(bridge, 30, 20)
        bridge.selectLine("pass")
    elif scene == "betting":
        # Hand 1 played to its end, then hand 2 bet in two moves: a 50 chip, a 10 chip.
        draft(bridge, 30, 20)
        bridge.act("confirm")
        bridge.skipMoment()
        while bridge.table.hand == 1:
            bridge.act("roll")
            bridge.skipMoment()
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
                draft(bridge, 30, 20)
                bridge.act("confirm")
            if bridge.hold_outcome():
                return
            bridge.skipMoment()
        raise RuntimeError("no settling throw in 300 throws")
    elif scene == "help":
        draft(bridge, 20, 10)
        bridge.openHelp()
    elif scene == "result":
        while not bridge.table.is_over:
            if bridge.table.phase is Phase.POINT:
                bridge.act("roll")
            else:
                draft(bridge, 30, 20)
                bridge.act("confirm")
    elif scene == "ended":
        _to_point(bridge)
        bridge.act("roll")
        bridge.end_without_result(EndReason.BACKGROUND)
    elif scene in EXTRA_SCENES:  # gui-extras
        prepare_extra(bridge, scene)
    else:
        raise ValueError(f"unknown scene {scene!r}; scenes: {', '.join(SCENES)}")


def screenshot(path: str, size: tuple[int, int], scene: str) -> int:
    """Render a scene offscreen at ``size`` to a PNG file."""
    from pointline.gui.windows import prepare_environment

    prepare_environment(offscreen=True)
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtGui import QGuiApplication

    from pointline.gui.app import load
    from pointline.gui.sound import Sounds

    app = QGuiApplication.instance() or QGuiApplication(sys.argv)
    import tempfile

    shot_dir = tempfile.TemporaryDirectory(prefix="pointline-shot-")
    settings = QSettings(str(Path(shot_dir.name) / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("reduceMotion", scene not in MOTION_SCENES)
    sounds = Sounds()
    sounds.muted = True
    with profile_env(size):  # a phone size is pictured as a phone shows it
        bridge = TableBridge(counter_nonces(scene.encode()), settings=settings, sounds=sounds)
    bridge.sounds.muted = True
    prepare(bridge, scene)
    loaded = load(bridge, size)
    loaded.window.show()
    wait = QEventLoop()
    QTimer.singleShot(100, wait.quit)
    wait.exec()
    pose(loaded.window, bridge, scene)
    QTimer.singleShot(300, wait.quit)
    wait.exec()
    app.processEvents()
    image = black_bars(loaded.window.grabWindow(), insets_of(size))
    ok = image.save(path)
    del loaded
    if not ok:
        print(f"could not write {path}", file=sys.stderr)
        return 1
    print(f"wrote {path} ({size[0]}x{size[1]}, scene {scene})")
    return 0
