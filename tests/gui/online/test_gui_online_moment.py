"""The result moment online (#19 part 2): the solo table's beats, animations on, keys locked.

Each test plays real throws through the online window against a private relay on loopback,
with one headless peer. The deadline rule (spec/ONLINE.md, "The result moment online"): the
countdown for the next throw starts when the moment ends on this client.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QGuiApplication, QKeyEvent

from pointline.kernel import HANDS_PER_SESSION
from pointline.net.client._relay_client import RelayClient
from pointline.net.protocol._peer import Timeouts
from tests.gui.online_support import (
    Game,
    K,
    Window,
    commit_steady,
    game,
    on_qt_loop,
    until,
)
from tests.gui.support import ManualClock

SLOW = Timeouts(confirm=30.0, response=5.0, session=120.0, receipts=3.0)


def moment_game(tmp_path: Path, size: tuple[int, int] | None, **options: Any) -> Any:
    """A started two-seat game with deadlines no test reaches (a moment takes its time)."""
    return game(tmp_path, size, timeouts=SLOW, peer_timeouts=SLOW, **options)


def held(ui: Window, key: Qt.Key, times: int) -> None:
    """A key held down since before: ``times`` auto-repeated presses, as a keyboard sends them."""
    for _ in range(times):
        event = QKeyEvent(QEvent.Type.KeyPress, key, Qt.KeyboardModifier.NoModifier, "", True)
        QGuiApplication.sendEvent(ui.window, event)


def record_stages(played: Game) -> list[str]:
    """Every stage the moment enters, in order, from now on."""
    bridge, stages = played.bridge, []
    bridge.moment.stageChanged.connect(lambda: stages.append(bridge.seatTable.revealStage))
    return stages


async def throw_once(ui: Window, other: RelayClient) -> None:
    """Confirm Pass 10 by keys, let the peer commit, and wait for the moment to start."""
    bridge = ui.bridge
    await until(lambda: bridge.seatTable.legal["confirm"], what="the come-out")
    await ui.table_focus()
    await ui.key(K.Key_Space)
    await ui.key(K.Key_Return)
    await until(lambda: bridge.table.committed, what="my commit")
    commit_steady(other)
    await until(lambda: bridge.seatTable.revealStage != "", what="the result moment")


@on_qt_loop(timeout=60)
async def test_the_moment_runs_its_beats_and_no_held_key_submits(tmp_path: Path) -> None:
    async with moment_game(tmp_path, (1280, 720), reduce_motion=False) as played:
        bridge, ui = played.bridge, played.window
        stages = record_stages(played)
        await throw_once(ui, played.other)
        assert bridge.seatTable.revealStage == "rolling"
        # the dice tumble over the table as it was: my chips still on the line
        assert bridge.seatTable.contractPass == 10 and bridge.seatTable.balance == 990
        assert bridge.countdown.secondsLeft == 0  # the next countdown waits for the moment
        assert not any(bridge.seatTable.legal.values())
        assert "dice are rolling" in bridge.seatTable.reasons["confirm"]
        submitted = played.sent
        held(ui, K.Key_Return, 25)  # Enter held since the confirm: the repeats do nothing
        held(ui, K.Key_Space, 25)
        assert bridge.seatTable.revealStage == "rolling" and played.sent == submitted
        await ui.key(K.Key_Return)  # a fresh press only ends the moment: nothing is sent
        assert bridge.seatTable.revealStage == "" and played.sent == submitted
        assert not bridge.table.committed  # and nothing was prepared: the draft is the contract
        assert (bridge.seatTable.draftPass, bridge.seatTable.draftDontPass) == (
            bridge.seatTable.contractPass,
            bridge.seatTable.contractDontPass,
        )
        assert stages[-1] == "" and "count" in stages
        # the result is shown, the countdown for the next throw now runs
        assert bridge.seatTable.throws == 1 and bridge.table.history
        await until(lambda: bridge.countdown.secondsLeft > 0, what="the next countdown")
        assert bridge.countdown.secondsLeft <= SLOW.confirm


@on_qt_loop(timeout=60)
async def test_untouched_the_moment_shows_each_beat_in_order(tmp_path: Path) -> None:
    async with moment_game(tmp_path, (844, 390), reduce_motion=False) as played:
        bridge = played.bridge
        stages: list[str] = []
        outcomes: list[dict[str, str]] = []

        def beat() -> None:
            stages.append(bridge.seatTable.revealStage)
            outcomes.append(dict(bridge.seatTable.lineOutcomes))

        bridge.moment.stageChanged.connect(beat)
        await throw_once(played.window, played.other)
        await until(lambda: bridge.seatTable.revealStage == "", timeout=10, what="the moment's end")
        settled = bool(bridge.seatTable.lineOutcomes)
        expected = ["rolling", "outcome", "count", ""] if settled else ["rolling", "count", ""]
        assert stages == expected
        assert outcomes[0] == {}  # no outcome while the dice tumble
        if settled:
            assert outcomes[1] == bridge.seatTable.lineOutcomes


@on_qt_loop(timeout=60)
async def test_reduce_motion_shows_the_result_at_once(tmp_path: Path) -> None:
    async with moment_game(tmp_path, (390, 844), reduce_motion=True) as played:
        bridge = played.bridge
        stages = record_stages(played)
        await until(lambda: bridge.seatTable.legal["confirm"], what="the come-out")
        bridge.table.allocate()
        assert bridge.table.confirm()
        commit_steady(played.other)
        await until(lambda: bridge.seatTable.throws == 1, what="the throw")
        assert bridge.seatTable.revealStage == "" and "rolling" not in stages
        await until(lambda: bridge.countdown.secondsLeft > 0, what="the next countdown")


@on_qt_loop(timeout=90)
async def test_the_last_throw_shows_its_moment_before_the_results(tmp_path: Path) -> None:
    """The session completes during the last throw's moment: the results wait for its end.

    The beats run on a clock the test fires: earlier moments end at a press, the last one's
    beats fire only after the session's completion has been seen during it."""
    beats = ManualClock()

    async with moment_game(tmp_path, None, reduce_motion=False, beats=beats) as played:
        bridge, other = played.bridge, played.other
        completed: list[tuple[str, str]] = []
        bridge.results.outcomeChanged.connect(
            lambda: completed.append((bridge.screen, bridge.seatTable.revealStage))
        )
        while True:
            await until(
                lambda: bridge.seatTable.legal["confirm"] or bridge.seatTable.legal["roll"],
                timeout=20,
                what="my turn",
            )
            if not bridge.seatTable.legal["roll"]:
                assert bridge.table.allocate()
            assert bridge.table.roll() if bridge.seatTable.legal["roll"] else bridge.table.confirm()
            commit_steady(other)
            await until(lambda: bridge.seatTable.revealStage != "", what="the throw's moment")
            if bridge.peer.table.hands_resolved == HANDS_PER_SESSION:
                break
            bridge.moment.finish()  # a press ends an earlier moment
        await until(lambda: bridge.results.outcome != "", what="the session's completion")
        assert completed == [("table", "rolling")] and bridge.seatTable.revealStage == "rolling"
        assert bridge.screen == "table"  # the moment holds the results back
        while beats.advance():
            assert bridge.screen == "table" or bridge.seatTable.revealStage == ""
        await until(lambda: bridge.screen == "results", timeout=10, what="the results")
        assert bridge.seatTable.revealStage == ""
