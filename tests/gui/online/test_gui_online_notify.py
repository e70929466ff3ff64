"""Per-property notify signals on the online bridge, and verify off the GUI thread."""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path
from typing import Any

from pointline.gui.online.bridge import OnlineBridge
from pointline.net.client._verify_command import verify_transcript
from pointline.net.protocol._peer import Timeouts
from pointline.net.protocol._verify import Report
from tests.gui.online_support import (
    HandClock,
    game,
    next_qt_turn,
    on_qt_loop,
    play_session,
    until,
)


def notify_map(obj: Any) -> dict[str, str]:
    """Property name -> its notify signal's name (PySide's meta-object has no offset here)."""
    mo = obj.metaObject()
    out = {}
    for i in range(mo.propertyCount()):
        p = mo.property(i)
        if p.hasNotifySignal():
            out[p.name()] = p.notifySignal().name().data().decode()
    return out


def count_signals(*objects: Any) -> Counter[str]:
    seen: Counter[str] = Counter()
    for obj in objects:
        for signal in set(notify_map(obj).values()):
            getattr(obj, signal).connect(lambda s=signal: seen.update([s]))
    return seen


def small_objects(bridge: OnlineBridge) -> dict[str, Any]:
    """The bridge and the small objects it exposes as constant properties."""
    parts = ("account", "lobby", "table", "results", "seatTable")
    return {"bridge": bridge, **{name: getattr(bridge, name) for name in parts}}


def count_bridge_signals(bridge: OnlineBridge) -> Counter[str]:
    """The signals of the bridge and of every small object it exposes."""
    return count_signals(*small_objects(bridge).values())


def test_every_property_has_its_own_small_notify_signal(qapp: Any) -> None:
    bridge = OnlineBridge()
    maps = {name: notify_map(obj) for name, obj in small_objects(bridge).items()}
    assert len(maps["seatTable"]) >= 25 and sum(map(len, maps.values())) >= 55
    for name, notify in maps.items():
        # no group signal: every property notifies through a signal named after it alone
        assert {p: s for p, s in notify.items() if s != f"{p}Changed"} == {}, name
        assert len(notify) >= 3, name  # each small object has properties of its own
    # each property lives on one object: none repeats another's (my seat's table included)
    owners = Counter(p for notify in maps.values() for p in notify if p != "objectName")
    assert [p for p, n in owners.items() if n > 1] == []
    # the small objects, the list models, the countdown and the result moment are constant
    # properties: the same object every time, no notify signal
    constant = {
        "bridge": ("account", "lobby", "table", "results", "seatTable", "countdown", "moment"),
        "lobby": ("roster",),
        "table": ("seats", "history"),
        "results": ("standings",),
    }
    objects = small_objects(bridge)
    for name, props in constant.items():
        for prop in props:
            owner = objects[name]
            assert prop not in maps[name] and getattr(owner, prop) is getattr(owner, prop)
    assert bridge.table.history.roleNames() and bridge.table.seats.roleNames()


def test_a_signal_fires_only_when_its_value_changes(qapp: Any) -> None:
    bridge = OnlineBridge()
    seen = count_bridge_signals(bridge)
    bridge.table.selectLine("pass")  # already selected: nothing changed, nothing emitted
    assert seen == Counter()
    bridge.table.selectLine("dont_pass")
    assert seen == Counter({"selectedLineChanged": 1})
    seen.clear()
    bridge.openHelp()  # Help opens and the reasons change; legality does not (none yet)
    assert seen == Counter({"helpOpenChanged": 1, "reasonsChanged": 1})
    seen.clear()
    bridge.openHelp()
    assert seen == Counter()
    bridge.account.signIn(
        "ws://127.0.0.1:1", "ab", "x"
    )  # refused here: only the error (and its words)
    assert seen == Counter({"errorChanged": 1, "announcementChanged": 1, "statusChanged": 1})
    assert bridge.screen == "signin" and bridge.client is None


@on_qt_loop()
async def test_during_a_session_each_step_emits_only_what_changed(tmp_path: Path) -> None:
    clock = HandClock()
    async with game(tmp_path, None, timeouts=Timeouts(confirm=30.0), clock=clock) as played:
        bridge = played.bridge
        await until(lambda: not bridge.busy, what="the start request's own busy flag")
        seen = count_bridge_signals(bridge)
        bridge.table.allocate()
        assert seen["draftPassChanged"] == 1 and seen["draftDontPassChanged"] == 0
        assert seen["screenChanged"] == seen["roomCodeChanged"] == seen["contractPassChanged"] == 0
        assert seen["balanceChanged"] == seen["die1Changed"] == seen["rollSerialChanged"] == 0
        seen.clear()
        ticks = count_signals(bridge.countdown)
        clock.ahead = 2.0  # two seconds pass
        await until(lambda: ticks["secondsLeftChanged"] >= 1, what="the countdown to tick")
        assert seen == Counter()  # the countdown ticks on its own object: the bridge is still


@on_qt_loop(timeout=50)
async def test_verify_runs_off_the_gui_thread_and_the_verdict_shows_when_done(
    tmp_path: Path,
) -> None:
    release = threading.Event()
    calls: list[int] = []

    def slow_verify(path: Path) -> Report:
        calls.append(threading.get_ident())
        release.wait(10)  # the GUI thread would freeze here if verify ran on it
        return verify_transcript(path)

    try:
        async with game(tmp_path, None, verify=slow_verify) as played:
            bridge = played.bridge
            await play_session(bridge, played.other)
            await until(lambda: bridge.results.transcriptPath and calls, what="verify to start")
            assert bridge.results.verifying and "Checking" in bridge.results.verifyText
            # Qt's loop (the GUI thread) keeps running while verify waits in its thread
            ticks = []
            for _ in range(3):
                await next_qt_turn()
                ticks.append(bridge.results.verifying)
            assert ticks == [True, True, True]
            assert len(calls) == 1 and calls[0] != threading.get_ident()
            release.set()
            await until(lambda: not bridge.results.verifying, what="the verdict")
            assert bridge.results.verifyOk and "accepts" in bridge.results.verifyText
            assert len(calls) == 1  # one verification, in its own thread
    finally:
        release.set()
