"""Events flow one way (issue 38): each online object subscribes to the relay events it owns and
publishes its own changes; none calls the window back (no ``Shell`` protocol, no ``show``
re-publishing every object)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

import pytest

import pointline.gui.online as online_package
from pointline.gui.online import state
from pointline.gui.online.bridge import OnlineBridge
from pointline.gui.online.from_net import ReceiptsMatched, RosterChanged

ONLINE = Path(online_package.__file__).parent
SMALL_OBJECTS = ("account", "nearby", "host", "lobby", "table", "results")


def test_no_shell_protocol_and_no_show() -> None:
    assert not hasattr(state, "Shell")
    assert not hasattr(OnlineBridge, "show")


@pytest.mark.parametrize("name", SMALL_OBJECTS)
def test_a_small_object_never_calls_the_window(name: str) -> None:
    """It knows no bridge: the window it sees is a ``Link`` (read down, ask by signals)."""
    tree = ast.parse((ONLINE / f"{name}.py").read_text(encoding="utf-8"))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert "OnlineBridge" not in names and "Shell" not in names
    assert "show" not in attributes


def test_the_link_reads_the_window_and_asks_it_only_by_signals() -> None:
    asks = ("announce", "set_error", "set_screen", "set_busy", "set_asking_leave", "play")
    for method in asks:
        body = inspect.getsource(getattr(state.Link, method))
        assert ".emit(" in body and "window" not in body, method


def test_the_router_is_small_and_says_what_it_does() -> None:
    doc = inspect.getdoc(state.Events) or ""
    assert "routes" in doc and "all it does" in doc
    assert len(inspect.getsource(state.Events).splitlines()) < 40


def _publishes(bridge: OnlineBridge, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    for name in ("lobby", "table", "results", "host"):
        part = getattr(bridge, f"_{name}")
        real = part.publish

        def spy(real: Any = real, name: str = name) -> None:
            seen.append(name)
            real()

        monkeypatch.setattr(part, "publish", spy)
    return seen


def test_an_event_reaches_only_the_objects_that_own_it(
    qapp: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    bridge = OnlineBridge()
    seen = _publishes(bridge, monkeypatch)
    bridge._on_event(RosterChanged("ABCDEF", "ada", ()))
    assert "lobby" in seen and "results" not in seen and "host" not in seen
    assert bridge.lobby.roomCode == "ABCDEF"
    seen.clear()
    bridge._on_event(ReceiptsMatched(2))
    assert "results" in seen and "lobby" not in seen and "host" not in seen
    assert bridge.results.receiptsText.startswith("2 of 2 signed receipts matched")


def test_the_window_state_changing_republishes_only_what_reads_it(
    qapp: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    bridge = OnlineBridge()
    seen = _publishes(bridge, monkeypatch)
    bridge.set_help(True)  # the table's reasons read Help
    assert "table" in seen and "lobby" not in seen and "host" not in seen
    assert bridge.seatTable.reasons["allocate"] == state.HELP_LIVE
