"""Issue 30, finding 2: a control that is hidden or turned off never keeps the keyboard focus.

Five hands played by keys, then by pointer, as the newcomer did: "Stats: all your sessions",
Escape, "New session". The Stats button is hidden with the finished session's result; focus
must come back to the table, so Up and Enter act on the table (Enter with nothing on the lines
asks "Sit out this hand?") instead of pressing the hidden Stats button, and the first Tab lands
on a control that is on screen.
"""

from __future__ import annotations

from tests.realinput.driver import RealApp, wait_for

STATS = "Stats: all your sessions"


def play_out(app: RealApp) -> None:
    """Sit out hand after hand (Enter asks, Enter again throws; Enter rolls on the point)."""
    for _ in range(60):
        if app.showing("push button", STATS):
            return
        app.key(*["Return"] * 8)
    raise AssertionError(f"the session did not end: {app.status()}")


def test_a_hidden_button_gives_the_focus_back_to_the_table(start_app) -> None:
    app = start_app(dice="d7")
    app.ready()
    play_out(app)
    app.click_button(STATS)
    wait_for("Stats", lambda: app.showing("dialog", "Stats", prefix=True))
    app.key("Escape")
    wait_for("Stats closed", lambda: app.showing("dialog", "Stats", prefix=True) is None)
    app.click_button("New session")
    wait_for("a new session", lambda: (s := app.status()) is not None and s.throw == 0)
    assert app.showing("push button", STATS) is None
    app.key("Up", "Return")
    wait_for("the sit-out question", lambda: app.showing("label", "Sit out this hand?", True))
    assert app.showing("dialog", "Stats", prefix=True) is None
    app.key("Tab")
    focused = wait_for("a focused control", app.focused)
    assert focused["showing"] and focused["role"] in ("push button", "radio button"), focused
