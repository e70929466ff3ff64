"""Keys act in the order they were pressed, also with accessibility on (issue 40).

With accessibility on (a screen reader running, or ``QT_LINUX_ACCESSIBILITY_ALWAYS_ON`` as
here), Qt's AT-SPI bridge holds every key press and release that reaches the application until
the accessibility bus answers whether a reader wants the key (``NotifyListenersSync``; up to
100 ms, longer on a loaded machine), and only then delivers it. A QML ``Shortcut`` is matched
before that (Qt tries the shortcut map as the key arrives), so a Shortcut pressed right after a
plain key overtook it: Space on the table (a plain key) then an arrow (a Shortcut) chose the line
first and put the chip on the wrong line. Orca's CI run heard "Sound off." (M, a Shortcut)
before the draft of the Space pressed before it. Keys typed back to back with no delay (the
fastest a person or a switch device types) must still act in order.

The reader here is the Orca test's AT-SPI listener (``listener.py``): once any event listener is
registered on the accessibility bus, Qt sends every plain key through the registry before acting
on it (``AtSpiAdaptor::updateEventListeners``). Without one nothing is held, and old code passed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.realinput.driver import RealApp, RealX, wait_for
from tests.realinput.test_orca import Listener

DRAFT = re.compile(r"Draft: Pass (\d+), Don't Pass (\d+)")


def draft(app: RealApp) -> tuple[int, int] | None:
    """The draft as the table says it (its status line), if one is placed."""
    for node in app.nodes() or []:
        found = DRAFT.fullmatch(node["name"] or "") if node["role"] != "notification" else None
        if found and node["showing"]:
            return int(found.group(1)), int(found.group(2))
    return None


def placed(app: RealApp, total: int) -> tuple[int, int]:
    """The draft once ``total`` points are placed (every Space of a step has acted)."""
    return wait_for(
        f"a draft of {total} in all",
        lambda: (d := draft(app)) is not None and sum(d) == total and d,
    )


@pytest.fixture
def reader(real_x: RealX) -> Iterator[list[dict[str, Any]]]:
    """``listener.py`` on the test's bus, listening before the app starts; what it heard."""
    listener = Listener.start(real_x.env())
    yield listener.rows
    listener.close()


def test_a_plain_key_then_a_shortcut_act_in_the_order_pressed(
    start_app: Callable[..., RealApp], reader: list[dict[str, Any]]
) -> None:
    app = start_app(dice="d7")
    app.ready()
    wait_for("the window active", lambda: any(w["active"] for w in app.windows() or []))
    # Pass is selected: a chip on Pass, Right picks Don't Pass, a chip there, Left picks Pass
    # again, a chip there. (No key twice in a row: X gives a release and a press of one key sent
    # in the same millisecond one time stamp, and Qt takes them for a held key's repeat.)
    app.xdotool("key", "--delay", "0", "space", "Right", "space", "Left", "space")
    assert placed(app, 30) == (20, 10)
    app.xdotool("key", "--delay", "0", "space", "Right", "space")
    assert placed(app, 50) == (30, 20)
    # The listener was on the bus all along: it hears the app say the last draft.
    said = {"channel": "notification", "text": "Draft: Pass 30, Don't Pass 20"}
    wait_for("the listener hearing the last draft", lambda: said in reader)
