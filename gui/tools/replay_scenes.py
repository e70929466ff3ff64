"""Scenes of the replay screen for screenshots and the layout check (a tool: the playing app
never imports it).

    pointline --screenshot shot.png --scene replay-mid-hand --size 390x844

The session is the genuine three-seat transcript of the conformance vectors
(``conformance/online/vectors/transcripts.json``, "genuine.complete.seats_3": Don't Pass
reductions and refunds, three seats with their verification words), watched at a fixed step;
"replay-fail" is a throw of the same vectors whose recorded dice were changed (a FAIL shown at
the failing throw: the derived dice, and the file's beside them).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["REPLAY_SCENES", "load_scene", "screenshot_replay"]

REPLAY_SCENES = ("replay-verdict", "replay-mid-hand", "replay-dice", "replay-fail")
"""The verdict before the first throw, a throw in the point phase mid-hand, the "How were
these dice made?" panel of a throw with a rejected byte, and a FAIL."""

_VECTORS = Path(__file__).parents[2] / "conformance" / "online" / "vectors" / "transcripts.json"
_CASES = {
    "replay-verdict": ("genuine.complete.seats_3", 0, False),
    "replay-mid-hand": ("genuine.complete.seats_2", 6, False),
    "replay-dice": ("genuine.ended.throw_cap", 2, True),
    "replay-fail": ("tampered.throw.dice_changed", -1, False),
}
"""Each scene's vector, the step it shows (-1: the last one, a FAIL's failing throw), and
whether the dice panel is open."""


def _transcript(name: str, folder: Path) -> Path:
    if not _VECTORS.is_file():
        raise FileNotFoundError(f"the replay scenes read {_VECTORS} (a checkout's vectors)")
    cases = json.loads(_VECTORS.read_text(encoding="utf-8"))["cases"]
    (case,) = [c for c in cases if c["name"] == name]
    path = folder / f"{name}.jsonl"
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write(case["input"]["transcript"])
    return path


def load_scene(scene: str, size: tuple[int, int], folder: Path, mobile: bool = False) -> Any:
    """The replay window posed as ``scene`` (motion reduced: nothing moves; ``mobile``: as a
    phone shows it)."""
    from PySide6.QtCore import QObject

    from pointline.gui.replay.app import load_replay
    from pointline.gui.replay.bridge import bridge_for

    name, step, panel = _CASES[scene]
    bridge = bridge_for(_transcript(name, folder), reduce_motion=True, mobile=mobile)
    loaded = load_replay(bridge, size)
    loaded.window.show()
    bridge.goTo(bridge.value("steps") if step < 0 else step)
    if panel:
        button = loaded.window.findChild(QObject, "replayHowMade")
        assert button is not None
        button.activated.emit()
    return loaded


def _settle(window: Any, ms: int = 120) -> Any:
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtGui import QGuiApplication

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()
    QGuiApplication.processEvents()
    return window.grabWindow()


def screenshot_replay(path: str, size: tuple[int, int], scene: str) -> int:
    """Render a replay scene offscreen at ``size`` to a PNG."""
    from pointline.gui.windows import gui_application, prepare_environment

    prepare_environment(offscreen=True)
    gui_application()
    from pointline.gui.tools.phone import black_bars, insets_of, is_phone

    with tempfile.TemporaryDirectory(prefix="pointline-replay-shot-") as folder:
        phone = is_phone(size)
        loaded = load_scene(scene, size, Path(folder), mobile=phone)
        insets = insets_of(size)  # a phone's notch and bars (none on a desktop)
        loaded.bridge.set_insets(insets)
        _settle(loaded.window)
        image = _settle(loaded.window, 60)
        saved = bool((black_bars(image, insets) if phone else image).save(path))
        loaded.window.close()
        loaded.engine.deleteLater()
    return 0 if saved else 1
