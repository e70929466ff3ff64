"""The Stats and guide scenes for screenshots and the layout check, reached by real play.

``stats`` plays four sessions on the bridge (one ended without a result when the app went to the
background, one left for a new session, two complete) and opens Stats; ``guide`` opens the
first-hand guide at its step about the two lines. Records stay in memory (no data folder).
"""

from __future__ import annotations

from typing import Any

from pointline.gui.extras import extras_of
from pointline.gui.tools.moves import draft
from pointline.kernel import EndReason, Phase

__all__ = ["EXTRA_SCENES", "prepare_extra"]

EXTRA_SCENES = ("stats", "guide")


def _throw(bridge: Any, pass_amount: int, dont_pass: int) -> None:
    """One throw: Roll at the point, else a draft on both lines and Confirm."""
    if bridge.table.phase is Phase.POINT:
        bridge.act("roll")
        return
    draft(bridge, pass_amount, dont_pass)
    bridge.act("confirm")


def _play(bridge: Any, throws: int | None, pass_amount: int, dont_pass: int) -> None:
    """Play ``throws`` throws (None: to the end of the session)."""
    count = 0
    while not bridge.table.is_over and (throws is None or count < throws):
        _throw(bridge, pass_amount, dont_pass)
        count += 1


def prepare_extra(bridge: Any, scene: str) -> None:
    """Bring a fresh bridge to the named scene (one of ``EXTRA_SCENES``)."""
    if scene == "stats":
        _play(bridge, None, 30, 20)
        bridge.newSession()
        _play(bridge, 6, 10, 40)
        bridge.end_without_result(EndReason.BACKGROUND)
        bridge.newSession()
        _play(bridge, 4, 50, 0)
        bridge.newSession()  # left before it finished
        _play(bridge, None, 20, 30)
        extras_of(bridge).openStats()
    elif scene == "guide":
        extras_of(bridge).openGuide()
        extras_of(bridge).nextGuide()
    else:
        raise ValueError(f"unknown scene {scene!r}; scenes: {', '.join(EXTRA_SCENES)}")
