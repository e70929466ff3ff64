"""On a phone, relay addresses and file paths wait under "Advanced" (issue 39); a desktop
shows them as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from pointline.gui.texts import TEXTS
from tests.gui.online_support import at_sign_in, on_qt_loop, scene, until, visible_texts


@on_qt_loop(timeout=60)
async def test_a_phone_keeps_the_relay_address_under_advanced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "1")
    async with at_sign_in(tmp_path, (390, 844)) as played:
        ui = played.window
        advanced = ui.item("btnAdvancedRelay")
        assert advanced.isVisible() and TEXTS["advancedRelay"] in advanced.property("text")
        for hidden in ("fieldRelay", "btnSignIn", "btnSignUp", "noRelayText"):
            assert not ui.item(hidden).isVisible(), hidden
        assert not any("ws://" in t for t in visible_texts(ui))  # no address on a phone's form
        await ui.click("btnAdvancedRelay")
        await until(lambda: ui.item("fieldRelay").isVisible(), what="the relay address")
        assert ui.item("btnSignIn").isVisible() and ui.item("btnSignUp").isVisible()
        await ui.click("btnAdvancedRelay")  # closes again
        await until(lambda: not ui.item("fieldRelay").isVisible(), what="the address hidden")


@on_qt_loop(timeout=60)
async def test_a_desktop_shows_the_relay_address_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "0")
    async with at_sign_in(tmp_path) as played:
        ui = played.window
        assert not ui.item("btnAdvancedRelay").isVisible()
        assert ui.item("fieldRelay").isVisible() and ui.item("btnSignIn").isVisible()


@on_qt_loop(timeout=90)
async def test_a_phone_keeps_the_transcript_path_under_advanced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POINTLINE_FORCE_MOBILE", "1")
    async with scene(tmp_path, "online-ended", (390, 844)) as played:
        ui, results = played.window, played.bridge.results
        await until(lambda: results.transcriptPath != "", what="the transcript saved")
        words = ui.item("transcriptText")
        assert results.transcriptPath not in words.property("text")
        assert words.property("text").startswith(TEXTS["transcriptSaved"])
        await ui.click("btnAdvancedTranscript")
        await until(lambda: results.transcriptPath in words.property("text"), what="the path")
