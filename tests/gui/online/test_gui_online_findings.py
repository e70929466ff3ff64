"""The findings of "A table that plays like a finished game" (online part), each on screen.

Each test drives the real online window against a private relay on loopback, reached by the
same steps as the screenshots (``gui.online.scenes.prepare_online``) or by the harness.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QWindow

from pointline.gui.online.bridge import OnlineBridge
from pointline.gui.online.texts import KEY_HINTS, seat_label
from pointline.kernel import POINT_NUMBERS, EndReason
from pointline.net.client._relay_client import RelayClient
from pointline.net.client._verify_command import verify_transcript
from pointline.net.protocol._peer import Timeouts
from tests.gui.online_support import (
    FAST,
    PASSWORD,
    Commits,
    Window,
    answered,
    by_name,
    commit_steady,
    fresh_name,
    game,
    headless,
    on_qt_loop,
    relay,
    scene,
    until,
    visible_texts,
)

QML_DIR = Path(__file__).resolve().parents[3] / "gui" / "qml" / "Pointline" / "Online"
PATIENT = Timeouts(confirm=30.0)
"""A confirm deadline no test reaches (the others are the protocol's defaults)."""


@on_qt_loop()
async def test_the_status_names_who_is_awaited_in_plain_words(tmp_path: Path) -> None:
    async with game(tmp_path, timeouts=PATIENT) as played:
        bridge, ui, other = played.bridge, played.window, played.other
        bob = next(r["name"] for r in bridge.lobby.roster if not r["you"])
        assert bridge.table.awaitedText == f"Waiting for you and {bob} to choose"
        await until(lambda: ui.item("awaited").property("text") == bridge.table.awaitedText)
        commit_steady(other)
        await until(lambda: bridge.table.awaitedText == "Waiting for you to choose", what="commit")


@on_qt_loop(timeout=60)
async def test_the_online_table_has_point_boxes_from_the_kernel(tmp_path: Path) -> None:
    source = (QML_DIR / "OnlineTable.qml").read_text()
    assert "4, 5, 6, 8, 9, 10" not in source and "[4," not in source

    async with scene(tmp_path, "online-table") as played:
        ui = played.window
        assert ui.bridge.pointNumbers == sorted(POINT_NUMBERS)
        boxes = ui.item("onlinePointBoxes")
        assert boxes.isVisible()
        shown = [
            int(c.objectName().removeprefix("pointBox"))
            for c in boxes.childItems()
            if c.objectName().startswith("pointBox")
        ]
        assert shown == sorted(POINT_NUMBERS)
        point = ui.bridge.seatTable.point
        assert point in POINT_NUMBERS and ui.bridge.seatTable.phase == "point"
        assert by_name(ui, f"pointBox{point}").property("on") is True
        assert [n for n in shown if by_name(ui, f"pointBox{n}").property("on")] == [point]


@on_qt_loop(timeout=60)
async def test_the_history_has_a_heading(tmp_path: Path) -> None:
    async with scene(tmp_path, "online-table") as played:
        heading = played.window.item("onlineHistoryHeading")
        assert heading.isVisible() and heading.property("text") == "Your history"
        assert played.window.item("onlineHistory").property("count") > 0


@on_qt_loop()
async def test_people_read_one_seat_numbering_the_verifier_also_uses(tmp_path: Path) -> None:
    """The joiner (protocol seat 1) lets its own deadline pass: it reads 'you, Seat 2' and the
    transcript's verifier names protocol seat 1, which seat_label also shows as 'Seat 2'."""
    quick = replace(FAST, confirm=2.0)  # the deadline passes sooner: less to wait

    async with relay(tmp_path) as running:
        host = await headless(running.url, fresh_name("host"), quick)
        room = await host.create_room()
        bridge = OnlineBridge(running.url, timeouts=quick)
        commits = Commits(bridge)
        ui = Window(bridge, (1280, 720))
        await answered(
            bridge, lambda: bridge.account.signUp(running.url, fresh_name("bob"), PASSWORD)
        )
        await answered(bridge, lambda: bridge.lobby.joinRoom(room.code))
        assert bridge.lobby.mySeat == 1 and bridge.lobby.mySeatLabel == "Seat 2"
        labels = {r["name"]: r["label"] for r in bridge.lobby.roster}
        assert sorted(labels.values()) == ["Seat 1", "Seat 2"]
        await until(lambda: "you are Seat 2" in " ".join(visible_texts(ui)), what="header")
        await host.start()
        await until(lambda: bridge.screen == "table", what="the start")
        assert [r["label"] for r in bridge.table.seats] == ["Seat 1", "Seat 2"]
        commit_steady(host)
        await until(lambda: bridge.screen == "results", timeout=quick.confirm + 3)
        assert commits.count == 0
        # the protocol's own words for the ending (net/protocol/_events.py), seats counted from 1
        assert bridge.results.endText.startswith("No result: ")
        assert "Seat 2's move did not arrive in time" in bridge.results.endText
        assert bridge.results.endText.endswith("You are Seat 2.")
        await until(lambda: bridge.results.transcriptPath, what="the transcript")
        report = verify_transcript(Path(bridge.results.transcriptPath))
        assert report.reason is EndReason.DEADLINE and report.seat == 1
        assert seat_label(report.seat) == "Seat 2"
        shown = " ".join(visible_texts(ui))
        assert "You are Seat 2." in shown and "seat 2" not in shown.replace("Seat 2", "")
        await bridge.shutdown()
        await host.close()
        ui.close()


@on_qt_loop(timeout=60)
async def test_the_lobby_names_the_account_once_and_signs_out(tmp_path: Path) -> None:
    async with scene(tmp_path, "online-lobby") as played:
        ui, bridge = played.window, played.bridge
        texts = visible_texts(ui)
        assert sum(t.lower().count("signed in as") for t in texts) == 1, texts
        token = bridge.client.token
        assert token is not None
        assert ui.item("btnSignOut").isVisible()
        await ui.click("btnSignOut")
        await until(lambda: bridge.screen == "signin", what="the sign-in screen")
        assert bridge.client is None and bridge.account.name == "" and bridge.lobby.roomCode == ""
        assert bridge.error == ""
        # the relay revoked the token: a connection presenting it is refused
        probe = await RelayClient.connect(played.url, timeouts=FAST)
        probe.token = token
        with pytest.raises(Exception, match="token"):
            await probe.create_room()
        await probe.close()
        # I created the room: signing out left it, which closes it for the others
        await until(lambda: played.peers[0].room is None, what="the others see it closed")


@on_qt_loop(timeout=60)
async def test_the_lobby_footer_lists_only_lobby_keys(tmp_path: Path) -> None:
    async with scene(tmp_path, "online-lobby") as played:
        footer = played.window.item("onlineFooter").property("text")
        assert KEY_HINTS["lobby"] in footer
        for in_game in ("Arrows", "Space allocates", "Backspace", "M mute", "roll"):
            assert in_game not in footer, in_game


@on_qt_loop()
async def test_the_table_has_a_window_mode_button_that_keeps_the_session(tmp_path: Path) -> None:
    async with game(tmp_path, timeouts=PATIENT) as played:
        bridge, ui = played.bridge, played.window
        await ui.table_focus()
        bridge.table.allocate()
        expected = {
            "theater": QWindow.Visibility.Maximized,
            "fullscreen": QWindow.Visibility.FullScreen,
            "standard": QWindow.Visibility.Windowed,
        }
        for mode in ("theater", "fullscreen", "standard"):
            await ui.click("btnWindow")
            assert bridge.windowMode == mode
            await until(lambda m=mode: ui.window.visibility() == expected[m], what=mode)
            label = {"theater": "Theater", "fullscreen": "Full screen", "standard": "Standard"}
            assert ui.item("btnWindow").property("text") == f"Window: {label[mode]}"
            assert bridge.screen == "table" and bridge.seatTable.draftPass == 10
            assert played.sent == 0 and not bridge.peer.is_finished


@on_qt_loop()
async def test_a_dead_relay_reads_as_a_lost_relay_connection_on_screen(tmp_path: Path) -> None:
    async with game(tmp_path) as played:
        ui = played.window
        played.running.server.close()
        await until(lambda: played.bridge.screen == "results", what="the ending")
        await until(lambda: ui.item("endText").isVisible(), what="the ending on screen")
        shown = ui.item("endText").property("text")
        assert shown == "No result: the relay connection was lost."
        assert "Seat" not in shown and "left" not in shown


@on_qt_loop(timeout=60)
async def test_rules_and_deadlines_come_from_python(tmp_path: Path) -> None:
    for qml in QML_DIR.glob("*.qml"):
        source = qml.read_text()
        for copied in (r"45 s", r"\b10 s\b", r"\b8 s\b", r"minutes", r"\b128\b", r"Pass wins on"):
            assert not re.search(copied, source), f"{qml.name} copies {copied!r}"
    default = OnlineBridge()
    assert "45 seconds to confirm" in default.helpText and "10 minutes" in default.helpText
    assert "4, 5, 6, 8, 9 or 10 sets the point" in default.helpText
    quick = OnlineBridge(timeouts=Timeouts(confirm=30.0, response=4.0, session=120.0))
    assert "30 seconds to confirm" in quick.helpText and "2 minutes" in quick.helpText

    async with scene(tmp_path, "online-lobby") as played:
        ui = played.window
        ui.bridge.openHelp()
        await until(lambda: ui.item("onlineHelp").property("visible"), what="Help")
        shown = " ".join(visible_texts(ui))
        assert "45 seconds to confirm or roll each throw" in shown


@on_qt_loop()
async def test_back_to_solo_is_refused_while_a_session_runs(tmp_path: Path) -> None:
    left: list[bool] = []

    async with game(tmp_path, None, on_leave=lambda: left.append(True)) as played:
        bridge = played.bridge
        bridge.leave()
        assert left == [] and bridge.screen == "table" and not bridge.peer.is_finished
        assert "Leave the table first" in bridge.seatTable.notice
        # the session then ends by the other's departure, not mine: the refused Back to
        # solo started nothing, and nothing called on_leave meanwhile
        await played.other.leave()
        await until(lambda: bridge.screen == "results", what="the ending")
        assert "a departure from Seat 2" in bridge.results.endText
        assert left == [] and played.sent == 0


def test_application_state_is_passed_from_the_enum(qapp: Any) -> None:
    bridge = OnlineBridge()
    bridge.applicationStateChanged_(Qt.ApplicationState.ApplicationSuspended)  # no session: no-op
    assert bridge.screen == "signin"


def test_a_transcript_disk_error_reads_as_its_own_ending(qapp: Any) -> None:
    """The client reports TranscriptFailed last (after its departure): the screen says why."""
    from pointline.net.client._relay_client import TranscriptFailed
    from pointline.net.protocol._peer import SessionEnded

    bridge = OnlineBridge("ws://127.0.0.1:1")
    bridge._on_event(SessionEnded(EndReason.DEPARTURE, 0))
    path = Path("/tmp/pointline-transcript.jsonl")
    reason = "the transcript could not be written: [Errno 28] No space left on device"
    bridge._on_event(TranscriptFailed(path, reason))
    assert bridge.screen == "results"
    assert bridge.results.endText.startswith("No result: your transcript could not be saved (")
    assert (
        str(path) in bridge.results.endText and "No space left on device" in bridge.results.endText
    )
    assert "Errno" not in bridge.results.endText


@on_qt_loop(timeout=60)
async def test_each_line_shows_its_outcome_on_the_felt_online(tmp_path: Path) -> None:
    """After a throw that settles my lines, the felt says how each went until I change my draft."""

    async with scene(tmp_path, "online-results") as played:
        bridge = played.bridge
        assert any(r["kind"] in ("win", "loss", "push") for r in bridge.table.history.rows)
        assert bridge.seatTable.lineOutcomes  # the last throw settled the session's last hand
        for value in bridge.seatTable.lineOutcomes.values():
            assert re.fullmatch(r"(refund \d+ · )?([+\u2212]\d+|push)", value), value
