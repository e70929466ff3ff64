"""The online results page (#19 part 2): ranks from the kernel's Result, a balance chart per
seat, receipts; no chart when no throw was made; the page fills its window."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pointline.gui.online.bridge import OnlineBridge
from pointline.net.client import play, steady_choice
from tests.gui.test_gui_online_bridge import play_by_bridge
from tests.gui.test_gui_online_findings import shown_items, visible_texts
from tests.gui.test_gui_online_harness import (
    FAST,
    gui_room,
    online_data,  # noqa: F401 - the fixture, used by pytestmark
    play_through,
    relay,
    run_qt,
    until,
)
from tests.gui.test_gui_online_keys import Window, _delete_windows  # noqa: F401 - fixture

pytestmark = pytest.mark.usefixtures("online_data")


def charts(ui: Window) -> list[Any]:
    return [i for i in shown_items(ui) if i.objectName().startswith("chartSeat")]


def test_a_complete_session_shows_ranks_and_a_chart_per_seat(qapp: Any, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            bridge = OnlineBridge(running.url, timeouts=FAST)
            ui = Window(bridge, (1280, 720))
            (other,) = await gui_room(running.url, bridge)
            task = asyncio.ensure_future(play(other, steady_choice, timeout=40))
            await play_through(bridge, play_by_bridge)
            peer = await asyncio.wait_for(task, 20)
            result = peer.result
            assert result is not None and bridge.outcome == "complete"
            rows = list(bridge.standings)
            assert [r["seat"] for r in rows] == list(result.standings)  # the kernel's order
            assert [r["rank"] for r in rows] == [result.ranks[s] for s in result.standings]
            assert [r["final"] for r in rows] == [result.final[s] for s in result.standings]
            for r in rows:  # start, then one sample per throw, ending at the final points
                assert len(r["chart"]) == bridge.throws + 1 and r["chart"][-1] == r["final"]
            await until(lambda: len(charts(ui)) == 2, what="a chart per seat")
            assert all(c.height() >= 40 and c.width() > 100 for c in charts(ui))
            await until(lambda: bridge.receiptsText != "", what="the receipts")
            assert any("signed receipts matched" in t for t in visible_texts(ui))
            assert any(t.startswith("#1") for t in visible_texts(ui))
            # the page fills its window: the standings reach down to the footer
            ranks = ui.item("rankList")
            bottom = ranks.mapToScene(ranks.boundingRect().bottomLeft()).y()
            footer = ui.item("onlineFooter")
            assert footer.mapToScene(footer.boundingRect().topLeft()).y() - bottom < 60
            await bridge.shutdown()
            await other.close()
            ui.close()

    run_qt(qapp, scenario(), timeout=60)


def test_an_ending_before_any_throw_shows_no_chart(qapp: Any, tmp_path: Path) -> None:
    """Seen: an empty chart "after throw 0: 1,000" after a deadline with no throw."""

    async def scenario() -> None:
        async with relay(tmp_path) as running:
            bridge = OnlineBridge(running.url, timeouts=FAST)
            ui = Window(bridge, (844, 390))
            (other,) = await gui_room(running.url, bridge)
            await other.leave()  # before the first throw
            await until(lambda: bridge.screen == "results", what="the ending")
            await until(lambda: bridge.transcriptPath != "", what="the transcript")
            assert bridge.outcome == "ended" and bridge.throws == 0
            rows = list(bridge.standings)
            assert [r["rank"] for r in rows] == [0, 0] and all(r["chart"] == [] for r in rows)
            await until(lambda: ui.item("noThrowText").isVisible(), what="the no-throw words")
            assert charts(ui) == []
            shown = visible_texts(ui)
            assert not [t for t in shown if "after throw 0" in t]
            assert not [t for t in shown if t.startswith("#")]  # no ranks without a result
            await bridge.shutdown()
            ui.close()

    run_qt(qapp, scenario(), timeout=60)
