"""Answer questions about the running app over the accessibility bus (AT-SPI), one per line.

Run by Debian's own Python (``python3-pyatspi`` lives there, not in the project's venv) on the
session bus the test driver starts (tests/realinput/driver.py):

    python3 tests/realinput/probe.py "Pointline Table"

It reads commands on stdin and writes one JSON line for each on stdout:

* ``nodes``: every accessible node of the app's windows (role, name, enabled, showing, focused;
  a showing button's centre on the screen, to click it; a dimmed button's description, its
  reason);
* ``windows``: each top-level window's name, size and whether it is active.
* ``shown``: as ``nodes``, the showing nodes only (quicker: hidden screens are not walked);
  a showing button's box (x, y, width, height) too, and each window's x and y.

A command that finds no application answers ``{"error": ...}``; the driver waits and asks again.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pyatspi  # type: ignore[import-not-found]

CLICKABLE = ("push button", "toggle button", "radio button")
"""The roles a test clicks: buttons, the chips (toggles) and the bet lines (radio buttons)."""


def find_app(name: str) -> Any:
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and app.name == name:
            return app
    return None


def walk(node: Any, out: list[dict[str, Any]], shown_only: bool = False) -> None:
    states = node.getState()
    row = {
        "role": node.getRoleName(),
        "name": node.name,
        "enabled": bool(states.contains(pyatspi.STATE_ENABLED)),
        "showing": bool(states.contains(pyatspi.STATE_SHOWING)),
        "focused": bool(states.contains(pyatspi.STATE_FOCUSED)),
    }
    if row["role"] == "push button" and not row["enabled"]:  # a dimmed button says why
        row["description"] = node.description
    if row["role"] in CLICKABLE and row["showing"]:  # where to click it (screen pixels)
        box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        row["center"] = [box.x + box.width // 2, box.y + box.height // 2]
        row["box"] = [box.x, box.y, box.width, box.height]
    out.append(row)
    if shown_only and not row["showing"]:
        return  # nothing under a hidden node shows
    for child in node:
        if child is not None:
            walk(child, out, shown_only)


def windows(app: Any) -> list[dict[str, Any]]:
    out = []
    for window in app:
        if window is None:
            continue
        extents = window.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        states = window.getState()
        out.append(
            {
                "name": window.name,
                "x": extents.x,
                "y": extents.y,
                "width": extents.width,
                "height": extents.height,
                "active": bool(states.contains(pyatspi.STATE_ACTIVE)),
                "showing": bool(states.contains(pyatspi.STATE_SHOWING)),
            }
        )
    return out


def answer(name: str, command: str) -> dict[str, Any]:
    app = find_app(name)
    if app is None:
        return {"error": f"no application named {name!r}"}
    if command == "nodes":
        nodes: list[dict[str, Any]] = []
        walk(app, nodes)
        return {"nodes": nodes}
    if command == "shown":  # the showing nodes only (a screen's hidden ones are skipped)
        shown: list[dict[str, Any]] = []
        walk(app, shown, shown_only=True)
        return {"nodes": [n for n in shown if n["showing"]]}
    if command == "windows":
        return {"windows": windows(app)}
    return {"error": f"unknown command {command!r}"}


def main() -> int:
    name = sys.argv[1]
    for line in sys.stdin:
        try:
            reply = answer(name, line.strip())
        except Exception as error:  # the app may be changing under us: the driver asks again
            reply = {"error": f"{type(error).__name__}: {error}"}
        print(json.dumps(reply), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
