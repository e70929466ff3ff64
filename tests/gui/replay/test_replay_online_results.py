""" "Watch again" on the online results: the saved transcript opens as a replay screen whose
verdict is verify's own (a session ended before its first throw keeps the test short)."""

from __future__ import annotations

from pathlib import Path

from pointline.net.client._verify_command import verify_transcript
from tests.gui.online_support import game, on_qt_loop, until, verified


@on_qt_loop(timeout=60)
async def test_watch_again_opens_the_saved_transcript(tmp_path: Path) -> None:
    async with game(tmp_path, (1280, 720)) as played:
        bridge, ui = played.bridge, played.window
        await played.other.leave()
        await until(lambda: bridge.screen == "results", what="the ending")
        await verified(bridge)
        await until(lambda: ui.item("btnWatchAgain").isVisible(), what="Watch again")
        await ui.click("btnWatchAgain")
        (replay,) = bridge.results.replays
        # a screen of the same window, over the results (issue 38): leaving shows them again
        assert ui.window.property("screen") == "replay"
        key = bytes.fromhex(bridge.client.relay_key)  # the relay's key, pinned at sign-in
        report = verify_transcript(bridge.results.transcriptPath, key)
        assert replay.value("vouchText").startswith("players verified by the relay's signature")
        assert replay.value("verdictWord") == ("OK" if report.complete else "INCOMPLETE")
        assert replay.value("verdictSentence") == report.summary
        assert replay.value("steps") == report.throws == 0
        replay.leave()
        await until(lambda: bridge.results.replays == [], what="the replay gone")
        assert ui.window.property("screen") == "online" and bridge.screen == "results"
        await until(lambda: ui.focus() != "", what="the results' first control focused")
