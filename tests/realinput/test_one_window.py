"""Issue 38 with a real keyboard and pointer: the focus policy and the keyboard after a dialog.

Finding 2: a button clicked with the mouse kept the keyboard focus, so after clicking
"Allocate 10" Enter added 10 more instead of confirming. Finding 5: after the file dialog
("Open a saved session…") under X with no window manager, no key worked until a click. On
7617d3d the first test sees a second Allocate (Pass 20, no throw) and the second times out
waiting for Escape to close Stats.
"""

from __future__ import annotations

from tests.realinput.driver import RealApp, wait_for


def test_click_allocate_then_enter_confirms(start_app) -> None:
    app = start_app(dice="d7")
    before = app.ready()
    app.click_button("Allocate 10")
    wait_for("the chip on Pass", lambda: app.showing("push button", "Confirm"))
    app.key("Return")  # Confirm: the throw happens (not a second Allocate)
    status = wait_for("the throw", lambda: (s := app.status()) is not None and s.throw == 1 and s)
    assert status.throw == before.throw + 1


DIALOG = "Open a saved session…"


def dialog_showing(app: RealApp) -> bool:
    """Whether the file dialog's own window is on screen (Qt's dialog: a second X window)."""
    return any(w["showing"] and w["name"] == DIALOG for w in app.windows() or [])


def test_a_key_works_after_the_file_dialog_with_no_click(start_app) -> None:
    app = start_app()
    app.ready()
    app.key("F1")
    app.click_button("Stats")
    wait_for("Stats", lambda: app.showing("dialog", "Stats", prefix=True))
    app.click_button(DIALOG)
    wait_for("the file dialog", lambda: dialog_showing(app))
    app.click_button("Cancel")  # cancelled by the pointer, in the dialog's window
    wait_for("the dialog closed", lambda: not dialog_showing(app))
    assert app.showing("dialog", "Stats", prefix=True)
    app.key("Escape")  # with no click: the window has the keyboard again, Stats closes
    wait_for("Stats closed", lambda: app.showing("dialog", "Stats", prefix=True) is None)
