"""Read the running app through the Linux accessibility bus (AT-SPI), as a screen reader does.

Run by Debian's own Python (``python3-pyatspi`` lives there, not in the project's venv) inside
the session bus that ``test_gui_atspi.py`` starts:

    python3 tests/gui/atspi_probe.py "Pointline Table"

It finds the application and records the first-hand guide a new player meets (its buttons), skips
it, lists every accessible node of the table (role, name, enabled, showing), then presses
"Allocate 10" and the confirm button through the Action interface, the way a screen reader user
would, and records the announcements the app sends. Each step waits for its condition (the guide
gone, Confirm enabled, a throw announced) with a deadline. It prints one JSON object.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import pyatspi  # type: ignore[import-not-found]
from gi.repository import GLib  # type: ignore[import-not-found]


def find_app(name: str, timeout: float = 20.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for app in pyatspi.Registry.getDesktop(0):
            if app is not None and app.name == name:
                return app
        time.sleep(0.2)
    return None


def walk(node: Any, out: list[dict[str, Any]], found: dict[str, Any]) -> None:
    states = node.getState()
    row = {
        "role": node.getRoleName(),
        "name": node.name,
        "enabled": bool(states.contains(pyatspi.STATE_ENABLED)),
        "showing": bool(states.contains(pyatspi.STATE_SHOWING)),
    }
    out.append(row)
    if row["role"] == "push button" and row["showing"]:
        found.setdefault(row["name"], node)
    for child in node:
        if child is not None:
            walk(child, out, found)


def press(node: Any) -> None:
    action = node.queryAction()
    for i in range(action.nActions):
        if action.getName(i) in ("Press", "press", "click", "Click"):
            action.doAction(i)
            return
    action.doAction(0)


def showing_buttons(app: Any) -> dict[str, Any]:
    found: dict[str, Any] = {}
    walk(app, [], found)
    return found


def enabled(node: Any) -> bool:
    return bool(node.getState().contains(pyatspi.STATE_ENABLED))


def main() -> int:
    app = find_app(sys.argv[1])
    if app is None:
        names = [a.name for a in pyatspi.Registry.getDesktop(0) if a is not None]
        print(json.dumps({"error": f"no application named {sys.argv[1]!r}", "apps": names}))
        return 1
    guide: list[dict[str, Any]] = []
    walk(app, guide, {})
    announcements: list[str] = []

    def heard(event: Any) -> None:
        if event.type.startswith("object:state-changed:showing"):
            # On Linux the app speaks through a Notification that shows (Announcer.qml, issue 40)
            if event.detail1 and event.source.getRole() == pyatspi.ROLE_NOTIFICATION:
                announcements.append(event.source.name)
            return
        text = event.any_data if isinstance(event.any_data, str) else str(event.any_data)
        announcements.append(text)

    pyatspi.Registry.registerEventListener(
        heard, "object:announcement", "object:state-changed:showing"
    )
    loop = GLib.MainLoop()
    pressed: list[str] = []
    nodes: list[dict[str, Any]] = []
    deadline = time.monotonic() + 20
    # One step per tick; a step that is not ready yet waits for the next tick (until the deadline).
    steps = ["skip guide", "read table", "add", "confirm", "hear throw"]

    def tick() -> bool:
        if not steps or time.monotonic() > deadline:
            loop.quit()
            return False
        found = showing_buttons(app)  # names change as the draft does ("Sit out" becomes "Confirm")
        step = steps[0]
        if step == "skip guide":
            if "Skip (Esc)" in found:
                press(found["Skip (Esc)"])
                pressed.append("Skip (Esc)")
            steps.pop(0)
        elif step == "read table":
            allocate = found.get("Allocate 10")
            if "Skip (Esc)" not in found and allocate is not None and enabled(allocate):
                walk(app, nodes, {})
                steps.pop(0)
        elif step == "add":
            press(found["Allocate 10"])
            pressed.append("Allocate 10")
            steps.pop(0)
        elif step == "confirm":
            if "Confirm" in found and enabled(found["Confirm"]):
                press(found["Confirm"])
                pressed.append("Confirm")
                steps.pop(0)
        elif any(a.startswith("Rolled") for a in announcements):
            steps.pop(0)
        return True

    GLib.timeout_add(100, tick)
    loop.run()
    print(
        json.dumps(
            {
                "guide": guide,
                "nodes": nodes,
                "pressed": pressed,
                "announcements": announcements,
                "left": steps,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
