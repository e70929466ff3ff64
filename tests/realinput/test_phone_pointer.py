"""Issue 39: a hand played by the pointer alone in phone mode at 844x390, an iPhone held
sideways with its insets (47 left and right, 21 at the bottom), on a real X server.

Xvfb sends no touch, so the pointer stands in for the thumb here (touch itself is tested with
synthetic touch events offscreen). The chips sit under the left thumb, the one main action under
the right (its centre in the outer quarter of the width and the lower 60 % of the height), and
it keeps its place as it turns from Confirm to Roll: chip 50, a tap on the Pass line, then the
main action until the hand is resolved, with no key pressed at all.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.realinput.driver import RealApp, wait_for

SIZE = (844, 390)
INSETS = "0,47,21,47"  # top, right, bottom, left: the iPhone's sideways safe area (gui/device.py)


def in_thumb_zone(center: list[int], left: bool) -> bool:
    """The outer quarter of the width on that side, the lower 60 % of the height."""
    x, y = center
    width, height = SIZE
    side = x < width * 0.25 if left else x > width * 0.75
    return side and y > height * 0.4


def main_action(app: RealApp) -> dict[str, Any] | None:
    """The main action: the largest enabled button under the right thumb (Confirm, Roll, ...;
    Reset and the other small ones may sit in that zone too)."""
    found = [
        node
        for node in app.nodes() or []
        if node["role"] == "push button"
        and node["showing"]
        and node["enabled"]
        and node.get("box")
        and in_thumb_zone(node["center"], left=False)
    ]
    return max(found, key=lambda node: node["box"][2] * node["box"][3], default=None)


def acted(app: RealApp, before: Any, throws: int, name: str) -> bool:
    """A throw went out, the hand ended, or the main action turned into another."""
    now = app.status()
    if now is None:
        return False
    turned = (main_action(app) or {}).get("name") != name
    return now.throw > throws or now.hand != before.hand or turned


def test_a_hand_by_pointer_alone_on_a_phone_held_sideways(
    start_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "1")
    monkeypatch.setenv("POINTLINE_FAKE_INSETS", INSETS)
    app = start_app(dice="d7", args=("--size", f"{SIZE[0]}x{SIZE[1]}"))
    before = app.ready()
    (window,) = wait_for("the window", app.windows)
    assert (window["width"], window["height"]) == SIZE
    chip = wait_for("chip 50", lambda: app.showing("push button", "Chip 50"))
    assert in_thumb_zone(chip["center"], left=True), chip  # under the left thumb
    app.click(*chip["center"])
    line = wait_for("the Pass line", lambda: app.showing("radio button", "Pass line"))
    app.click(*line["center"])  # the chip goes on the line it taps
    confirm = wait_for(
        "Confirm under the right thumb",
        lambda: (m := main_action(app)) is not None and m["name"] == "Confirm" and m,
    )
    place = confirm["center"]
    clicks = 0
    while (now := app.status()) is None or now.hand == before.hand:
        assert clicks < 12, f"the hand did not end by the main action: {now}"
        found = wait_for("the main action", lambda: main_action(app))
        assert found["center"] == place, (found, place)  # it keeps its place across states
        throws = now.throw if now is not None else 0
        app.click(*found["center"])
        clicks += 1
        wait_for("the click acted", lambda t=throws, n=found["name"]: acted(app, before, t, n))
    after = wait_for("the next hand", app.status)
    assert after.hand == before.hand + 1 and after.balance != before.balance, (before, after)
    assert abs(after.balance - before.balance) == 50  # Pass 50 won or lost, paid 1:1
