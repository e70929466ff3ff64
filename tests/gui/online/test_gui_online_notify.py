"""Per-property notify signals on the online bridge, and verify off the GUI thread."""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path
from typing import Any

from pointline.gui.online.bridge import OnlineBridge
from pointline.net.protocol.peer import Timeouts
from pointline.net.protocol.verify import Report, verify_transcript
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


def count_bridge_signals(bridge: OnlineBridge) -> Counter[str]:
    """The bridge's own signals and those of my seat's table (``seatTable``)."""
    return count_signals(bridge, bridge.seatTable)


def test_every_property_has_its_own_small_notify_signal(qapp: Any) -> None:
    first = OnlineBridge()
    notify, seat = notify_map(first), notify_map(first.seatTable)
    assert len(notify) >= 25 and len(seat) >= 25
    # no group signal: every property notifies through a signal named after it alone
    assert {p: s for p, s in (notify | seat).items() if s != f"{p}Changed"} == {}
    # my seat's table is read on ``seatTable`` only: the bridge repeats none of its properties
    assert set(notify) & set(seat) == {"objectName"}
    # the seats, the standings and the history are list models (their rows notify), the
    # countdown and the result moment objects of their own: constant properties of the bridge
    bridge = OnlineBridge()
    for prop in ("seats", "roster", "standings", "history", "countdown", "moment"):
        assert prop not in notify and getattr(bridge, prop) is getattr(bridge, prop)
    assert bridge.history.roleNames() and bridge.seats.roleNames()


def test_a_signal_fires_only_when_its_value_changes(qapp: Any) -> None:
    bridge = OnlineBridge()
    seen = count_bridge_signals(bridge)
    bridge.selectLine("pass")  # already selected: nothing changed, nothing emitted
    assert seen == Counter()
    bridge.selectLine("dont_pass")
    assert seen == Counter({"selectedLineChanged": 1})
    seen.clear()
    bridge.openHelp()  # Help opens and the reasons change; legality does not (none yet)
    assert seen == Counter({"helpOpenChanged": 1, "reasonsChanged": 1})
    seen.clear()
    bridge.openHelp()
    assert seen == Counter()
    bridge.signIn("ws://127.0.0.1:1", "ab", "x")  # refused here: only the error (and its words)
    assert seen == Counter({"errorChanged": 1, "announcementChanged": 1, "statusChanged": 1})
    assert bridge.screen == "signin" and bridge.client is None


@on_qt_loop()
async def test_during_a_session_each_step_emits_only_what_changed(tmp_path: Path) -> None:
    clock = HandClock()
    async with game(tmp_path, None, timeouts=Timeouts(confirm=30.0), clock=clock) as played:
        bridge = played.bridge
        await until(lambda: not bridge.busy, what="the start request's own busy flag")
        seen = count_bridge_signals(bridge)
        bridge.allocate()
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
            await until(lambda: bridge.transcriptPath and calls, what="verify to start")
            assert bridge.verifying and "Checking" in bridge.verifyText
            # Qt's loop (the GUI thread) keeps running while verify waits in its thread
            ticks = []
            for _ in range(3):
                await next_qt_turn()
                ticks.append(bridge.verifying)
            assert ticks == [True, True, True]
            assert len(calls) == 1 and calls[0] != threading.get_ident()
            release.set()
            await until(lambda: not bridge.verifying, what="the verdict")
            assert bridge.verifyOk and "accepts" in bridge.verifyText
            assert len(calls) == 1  # one verification, in its own thread
    finally:
        release.set()
