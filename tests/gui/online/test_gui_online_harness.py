"""The online GUI tests' own harness (tests/gui/online_support.py) checked: a relay and the
bridge on one Qt loop, a headless peer, the waits that replace sleeps."""

from __future__ import annotations

from pathlib import Path

import pytest

from pointline.gui.online.bridge import OnlineBridge
from pointline.net.client._relay_client import RelayClient
from tests.gui.online_support import (
    answered,
    fresh_name,
    game,
    headless,
    next_qt_turn,
    on_qt_loop,
    play_by_bridge,
    relay,
    until,
)


@on_qt_loop()
async def test_the_harness_runs_a_relay_and_the_bridge_on_one_qt_loop(tmp_path: Path) -> None:
    async with game(tmp_path, None) as played:
        assert played.bridge.lobby.mySeat == 0 and len(played.bridge.table.seats) == 2
        assert played.sent == 0
        play_by_bridge(played.bridge)  # my come-out choice reaches the client: counted once
        assert played.sent == 1
        await next_qt_turn()  # Qt's own timers fire on the loop the relay runs on


@on_qt_loop()
async def test_headless_client_helper_signs_up(tmp_path: Path) -> None:
    async with relay(tmp_path) as running:
        c = await headless(running.url, fresh_name("h"))
        assert isinstance(c, RelayClient) and c.token
        await c.close()


@on_qt_loop()
async def test_answered_waits_for_the_reply_and_names_a_request_never_sent() -> None:
    bridge = OnlineBridge("ws://127.0.0.1:1")
    with pytest.raises(TimeoutError, match="never answered"):  # refused locally: no request
        await answered(bridge, lambda: bridge.account.signUp("ws://127.0.0.1:1", "", ""), 0.05)
    await answered(
        bridge, lambda: bridge.account.signIn("ws://127.0.0.1:1", "someone", "pass-word")
    )
    assert not bridge.busy and "Cannot reach the relay" in bridge.error
    with pytest.raises(TimeoutError, match="the flag"):
        await until(lambda: False, timeout=0.05, what="the flag")
    await bridge.shutdown()
