"""Issue 30, finding 3: on first launch the keys work at once, with no click.

A bare X server (Xvfb, no window manager) gives no window keyboard focus by itself. The app's
window asks for it when it appears, and the guide takes the focus inside it: Enter, Tab, Escape
and F1 act on the guide and the table through XTEST keys only; nothing here clicks.
"""

from __future__ import annotations

from tests.realinput.driver import wait_for


def test_keys_work_on_the_guide_without_a_click(start_app) -> None:
    app = start_app(guide_seen=False)
    app.ready()
    wait_for("the guide", lambda: app.showing("dialog", "Guide, step 1 of", prefix=True))
    wait_for("the window active", lambda: any(w["active"] for w in app.windows() or []))
    wait_for("the focus on Next", lambda: (app.focused() or {}).get("name") == "Next")
    app.key("Return")  # Next
    wait_for("step 2", lambda: app.showing("dialog", "Guide, step 2 of", prefix=True))
    app.key("Tab")
    wait_for("Tab moved the focus", lambda: (app.focused() or {}).get("name") not in (None, "Next"))
    app.key("Escape")  # Skip
    wait_for("the guide closed", lambda: app.showing("dialog", "Guide", prefix=True) is None)
    app.key("F1")
    wait_for("Help", lambda: app.showing("dialog", "Help"))
