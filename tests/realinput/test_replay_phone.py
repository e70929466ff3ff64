"""Issue 38, finding 1, with a real keyboard and pointer: Stats → Watch again at a phone's sizes.

On 7617d3d Watch again opened a second window fixed at 1280x720: at 390x844 and 844x390 the
verdict was cut and Play, Next, End, Hand, "How were these dice made?" and Leave replay were off
the screen (only Esc worked). Here the one window is started at 390x844, then turned to 844x390
(xdotool resizes it, as a phone turning does); at each size every replay control is showing and
wholly inside the window (AT-SPI), is reached by Tab and works by the pointer; Escape pauses the
replay (and resumes it); Leave replay goes back to Stats and the solo table as it was (its draft
kept). Desktop mode at phone sizes, as "One window"'s keyboard tests are (issue 39).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pointline.gui.stats import StatsStore
from tests.gui.replay.test_replay_screen import _solo_record
from tests.realinput.driver import RealApp, wait_for

PORTRAIT, SIDEWAYS = (390, 844), (844, 390)
HOW_MADE = {PORTRAIT: "Dice?", SIDEWAYS: "How were these dice made?"}
"""The dice panel's button: short in a narrow window, whole where it fits."""


def controls(size: tuple[int, int]) -> tuple[str, ...]:
    return ("Start", "Back", "Play", "Next", "End", "Hand", HOW_MADE[size], "Leave replay")


def shown(app: RealApp) -> list[dict[str, Any]]:
    """The showing nodes (the probe's ``shown``: the hidden screens are not walked, which keeps
    each look quick)."""
    return app.ask("shown").get("nodes") or []


def node(app: RealApp, role: str, name: str, prefix: bool = False) -> dict[str, Any] | None:
    for found in shown(app):
        if found["role"] == role and (
            found["name"] == name or (prefix and (found["name"] or "").startswith(name))
        ):
            return found
    return None


def button(app: RealApp, name: str) -> dict[str, Any] | None:
    """The showing button ``name`` ("Hand": the hand button, whatever its number)."""
    return node(app, "push button", name, prefix=name == "Hand")


def click(app: RealApp, name: str) -> None:
    """Click the showing, enabled button ``name`` with the real pointer, at its centre."""
    found = wait_for(name, lambda: (b := button(app, name)) is not None and b["enabled"] and b)
    app.click(*found["center"])


def stats_open(app: RealApp) -> bool:
    return node(app, "dialog", "Stats", prefix=True) is not None


def window_box(app: RealApp) -> tuple[int, int, int, int]:
    (shown,) = [w for w in app.windows() or [] if w["showing"]]  # one window, always
    return shown["x"], shown["y"], shown["width"], shown["height"]


def inside(box: list[int], window: tuple[int, int, int, int]) -> bool:
    x, y, w, h = box
    wx, wy, ww, wh = window
    return wx <= x and wy <= y and x + w <= wx + ww and y + h <= wy + wh


def enabled(app: RealApp, name: str) -> bool:
    found = button(app, name)
    return found is not None and bool(found["enabled"])


def check_size(app: RealApp, size: tuple[int, int]) -> None:
    window = wait_for(f"the window at {size}", lambda: (b := window_box(app))[2:] == size and b)
    names = controls(size)
    # showing, and wholly inside the window: a pointer reaches each
    everything = shown(app)
    for name in names:
        found = next(
            n
            for n in everything
            if n["role"] == "push button"
            and (n["name"] == name or (name == "Hand" and n["name"].startswith(name)))
        )
        assert inside(found["box"], window), (name, found["box"], window)
    # by keys: Right steps (Start and Back come on), Tab reaches every control that is on
    app.key("Right")
    wait_for("a throw shown", lambda: enabled(app, "Back"))
    now = {("Hand" if n["name"].startswith("Hand") else n["name"]): n for n in shown(app)}
    reachable = {n for n in names if n in now and now[n]["enabled"]}
    seen: set[str] = set()
    for _ in range(2 * len(names)):
        app.key("Tab")
        focused = ([n for n in shown(app) if n["focused"]] or [None])[-1]
        if focused is not None and focused["role"] == "push button":
            seen.add("Hand" if focused["name"].startswith("Hand") else focused["name"])
        if reachable <= seen:
            break
    assert reachable <= seen, (reachable - seen, seen)
    app.key("Escape")  # pauses, as solo's Escape does
    wait_for("the pause card", lambda: button(app, "Resume"))
    app.key("Escape")  # resumes
    wait_for("the pause card gone", lambda: button(app, "Resume") is None)
    # by pointer: each control does what it says
    click(app, "Start")
    wait_for("the start", lambda: not enabled(app, "Back"))
    click(app, "Next")
    wait_for("a step forward", lambda: enabled(app, "Back"))
    click(app, "Back")
    wait_for("a step back", lambda: not enabled(app, "Start"))
    click(app, "End")
    wait_for("the end", lambda: not enabled(app, "Next"))
    click(app, "Play")  # from the end, plays from the start
    wait_for("playing", lambda: button(app, "Pause"))
    click(app, "Pause")
    wait_for("paused playing", lambda: button(app, "Play"))
    hand = button(app, "Hand")
    assert hand is not None
    if hand["enabled"]:
        app.click(*hand["center"])
        wait_for("the next hand", lambda: (b := button(app, "Hand")) and b["name"] != hand["name"])
    click(app, "Next")
    click(app, HOW_MADE[size])
    wait_for("the dice panel", lambda: button(app, "Close"))
    click(app, "Close")
    wait_for("the dice panel closed", lambda: button(app, "Close") is None)


def test_watch_again_by_keys_and_pointer_at_a_phones_sizes(start_app, tmp_path: Path) -> None:
    StatsStore(tmp_path / "home0" / "data" / "pointline" / "stats").add(_solo_record())
    app = start_app(args=("--size", f"{PORTRAIT[0]}x{PORTRAIT[1]}"))
    before = app.ready()
    click(app, "Allocate 10")  # a draft on Pass: kept while the replay is watched
    wait_for("the draft", lambda: enabled(app, "Reset"))
    app.key("F1")
    click(app, "Stats")
    wait_for("Stats", lambda: stats_open(app))
    click(app, "Watch again")
    wait_for("the replay", lambda: button(app, "Leave replay"))
    check_size(app, PORTRAIT)
    app.xdotool("search", "--name", "^Pointline Table", "windowsize", "%@", *map(str, SIDEWAYS))
    check_size(app, SIDEWAYS)
    click(app, "Leave replay")
    wait_for("Stats again", lambda: stats_open(app))
    app.key("Escape")
    wait_for("the solo table", lambda: not stats_open(app))
    if node(app, "dialog", "Help", prefix=True):  # Stats was opened from Help
        app.key("Escape")
    wait_for("the draft still there", lambda: enabled(app, "Reset"))
    status = app.status()
    assert status is not None and status.throw == before.throw and status.hand == before.hand
    assert len([w for w in app.windows() or [] if w["showing"]]) == 1
