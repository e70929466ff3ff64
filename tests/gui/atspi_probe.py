"""Read the running app through the Linux accessibility bus (AT-SPI), as a screen reader does.

Run by Debian's own Python (``python3-pyatspi`` lives there, not in the project's venv) inside
the session bus that ``test_gui_atspi.py`` starts:

    python3 tests/gui/atspi_probe.py "Pointline Table"

It finds the application, lists every accessible node (role, name, enabled, showing), then
presses "Allocate 10" and the confirm button through the Action interface, the way a screen
reader user would, and records the announcements the app sends. It prints one JSON object.
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


def main() -> int:
    app = find_app(sys.argv[1])
    if app is None:
        names = [a.name for a in pyatspi.Registry.getDesktop(0) if a is not None]
        print(json.dumps({"error": f"no application named {sys.argv[1]!r}", "apps": names}))
        return 1
    nodes: list[dict[str, Any]] = []
    buttons: dict[str, Any] = {}
    walk(app, nodes, buttons)
    announcements: list[str] = []

    def heard(event: Any) -> None:
        text = event.any_data if isinstance(event.any_data, str) else str(event.any_data)
        announcements.append(text)

    pyatspi.Registry.registerEventListener(heard, "object:announcement")
    loop = GLib.MainLoop()
    pressed: list[str] = []

    def act(name: str) -> bool:
        found: dict[str, Any] = {}
        walk(app, [], found)  # names change as the draft does ("Sit out" becomes "Confirm")
        if name in found:
            press(found[name])
            pressed.append(name)
        return False

    def stop() -> bool:
        if any(a.startswith("Rolled") for a in announcements) or time.monotonic() > deadline:
            loop.quit()
            return False
        return True

    deadline = time.monotonic() + 10
    GLib.timeout_add(300, act, "Allocate 10")
    GLib.timeout_add(900, act, "Confirm")
    GLib.timeout_add(100, stop)
    loop.run()
    print(json.dumps({"nodes": nodes, "pressed": pressed, "announcements": announcements}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
