"""The online results page (#19 part 2): ranks from the kernel's Result, a balance chart per
seat, receipts; no chart when no throw was made; the page fills its window."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.gui.online_support import (
    Window,
    game,
    on_qt_loop,
    play_session,
    shown_items,
    until,
    visible_texts,
)


def charts(ui: Window) -> list[Any]:
    return [i for i in shown_items(ui) if i.objectName().startswith("chartSeat")]


@on_qt_loop(timeout=60)
async def test_a_complete_session_shows_ranks_and_a_chart_per_seat(tmp_path: Path) -> None:
    async with game(tmp_path, (1280, 720)) as played:
        bridge, ui = played.bridge, played.window
        result = (await play_session(bridge, played.other)).result
        assert result is not None and bridge.results.outcome == "complete"
        rows = list(bridge.results.standings)
        assert [r["seat"] for r in rows] == list(result.standings)  # the kernel's order
        assert [r["rank"] for r in rows] == [result.ranks[s] for s in result.standings]
        assert [r["final"] for r in rows] == [result.final[s] for s in result.standings]
        for r in rows:  # start, then one sample per throw, ending at the final points
            assert len(r["chart"]) == bridge.seatTable.throws + 1 and r["chart"][-1] == r["final"]
        await until(lambda: len(charts(ui)) == 2, what="a chart per seat")
        assert all(c.height() >= 40 and c.width() > 100 for c in charts(ui))
        await until(lambda: bridge.results.receiptsText != "", what="the receipts")
        assert any("signed receipts matched" in t for t in visible_texts(ui))
        assert any(t.startswith("#1") for t in visible_texts(ui))
        # the page fills its window: the standings reach down to the footer
        ranks = ui.item("rankList")
        bottom = ranks.mapToScene(ranks.boundingRect().bottomLeft()).y()
        footer = ui.item("onlineFooter")
        assert footer.mapToScene(footer.boundingRect().topLeft()).y() - bottom < 60


@on_qt_loop(timeout=60)
async def test_an_ending_before_any_throw_shows_no_chart(tmp_path: Path) -> None:
    """Seen: an empty chart "after throw 0: 1,000" after a deadline with no throw."""

    async with game(tmp_path, (844, 390)) as played:
        bridge, ui = played.bridge, played.window
        await played.other.leave()  # before the first throw
        await until(lambda: bridge.screen == "results", what="the ending")
        await until(lambda: bridge.results.transcriptPath != "", what="the transcript")
        assert bridge.results.outcome == "ended" and bridge.seatTable.throws == 0
        rows = list(bridge.results.standings)
        assert [r["rank"] for r in rows] == [0, 0] and all(r["chart"] == [] for r in rows)
        await until(lambda: ui.item("noThrowText").isVisible(), what="the no-throw words")
        assert charts(ui) == []
        shown = visible_texts(ui)
        assert not [t for t in shown if "after throw 0" in t]
        assert not [t for t in shown if t.startswith("#")]  # no ranks without a result
