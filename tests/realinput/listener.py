"""Print what the app sends to screen readers, as an AT-SPI listener sees it, one JSON line each.

Run by Debian's own Python (``python3-pyatspi``) on the test's session bus
(tests/realinput/test_orca.py):

    python3 tests/realinput/listener.py "Pointline Table"

For every event of the application named on the command line it prints
``{"channel": "notification", "text": ...}`` when an item of role Notification becomes visible
(what Orca 43 speaks) and ``{"channel": "announcement", "text": ...}`` for an
``object:announcement`` (``Accessible.announce()``: newer Orca, and the other platforms' readers).
It prints ``{"ready": true}`` once it listens. A change that went out on both channels shows up
twice; one that went out on neither does not show up.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pyatspi  # type: ignore[import-not-found]


def main() -> int:
    app_name = sys.argv[1]

    def out(row: dict[str, Any]) -> None:
        print(json.dumps(row), flush=True)

    def on_event(event: Any) -> None:
        try:
            if event.host_application is None or event.host_application.name != app_name:
                return
            if event.type.startswith("object:state-changed:showing"):
                source = event.source
                if event.detail1 and source.getRole() == pyatspi.ROLE_NOTIFICATION:
                    out({"channel": "notification", "text": source.name})
            elif event.type.startswith("object:announcement"):
                text = event.any_data if isinstance(event.any_data, str) else str(event.any_data)
                out({"channel": "announcement", "text": text})
        except Exception as error:  # a source gone meanwhile: say so, the test fails on it
            out({"error": f"{type(error).__name__}: {error}"})

    pyatspi.Registry.registerEventListener(
        on_event, "object:state-changed:showing", "object:announcement"
    )
    out({"ready": True})
    pyatspi.Registry.start()
    return 0


if __name__ == "__main__":
    sys.exit(main())
