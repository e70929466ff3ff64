"""The replay screen, offscreen: the verdict each transcript vector shows against ``pointline
verify``'s output; keys and clicks step, play and leave; a file that cannot be watched shows
plain words; nothing in a replay opens a connection or changes a session or Stats."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtTest import QTest

from pointline.gui.replay.app import load_replay
from pointline.gui.replay.bridge import ReplayBridge, bridge_for
from pointline.gui.session import SoloSession
from pointline.gui.stats import StatsStore, record_of
from pointline.kernel import Allocate, Confirm, Line, Roll
from pointline.net.client._verify_command import main as verify_main
from pointline.net.protocol._keys import public_key_from_hex
from tests.gui.support import WAIT_MS

VECTORS = Path(__file__).parents[3] / "conformance" / "online" / "vectors" / "transcripts.json"
CASES: list[dict[str, Any]] = json.loads(VECTORS.read_text(encoding="utf-8"))["cases"]
GENUINE = next(c for c in CASES if c["name"] == "genuine.complete.seats_3")


def _write(folder: Path, case: dict[str, Any], name: str = "t.jsonl") -> Path:
    path = folder / name
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write(case["input"]["transcript"])
    return path


class Screen:
    def __init__(self, loaded: Any, qtbot: Any) -> None:
        self.loaded, self.window, self.qtbot = loaded, loaded.window, qtbot
        self.kept: list[ReplayBridge] = []

    def text(self, name: str) -> str:
        found = self.window.findChild(QObject, name)
        assert found is not None, name
        return str(found.property("text"))

    def show(self, bridge: ReplayBridge) -> ReplayBridge:
        self.kept.append(bridge)
        self.window.setProperty("replay", bridge)
        return bridge

    def key(self, key: Qt.Key) -> None:
        QTest.keyClick(self.window, key)

    def focus_name(self) -> str:
        item = self.window.activeFocusItem()
        return str(item.objectName()) if item is not None else ""


@pytest.fixture
def screen(qapp: Any, qtbot: Any, tmp_path: Path) -> Iterator[Screen]:
    bridge = bridge_for(_write(tmp_path, GENUINE))
    loaded = load_replay(bridge, (1280, 720))
    loaded.window.show()
    loaded.window.requestActivate()
    qtbot.waitUntil(lambda: loaded.window.isExposed(), timeout=WAIT_MS)
    shown = Screen(loaded, qtbot)
    yield shown
    loaded.window.close()
    loaded.engine.deleteLater()
    # the engine (and the window's bindings) go before the bridges the test swapped in
    qapp.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    qapp.processEvents()
    shown.kept.clear()


def test_every_vector_shows_verifys_verdict_sentence_and_record(
    screen: Screen, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hosted_seen = False
    for number, case in enumerate(CASES):
        path = _write(tmp_path, case, f"{number}.jsonl")
        key = case["input"]["relay_key"]
        screen.show(bridge_for(path, relay_key=public_key_from_hex(key) if key else None))
        verify_main([str(path)] + (["--relay-key", key] if key else []))
        first = capsys.readouterr().out.splitlines()[0]
        word = screen.text("replayVerdictWord")
        sentence = screen.text("replayVerdictSentence")
        note = screen.text("replayVerdictNote")
        assert word == first.split(":", 1)[0], case["name"]
        if "damaged" in note:  # verify's reader error, named by its line in plain words
            line = note.split("line ")[1].split(" ")[0]
            assert f"line {line} " in first and sentence == note, case["name"]
        else:
            assert f"{word}: {sentence}" == first, case["name"]
        vouch = screen.text("replayVouch")  # plain words: no command-line flag on the screen
        assert "--" not in vouch and "--" not in sentence and "--" not in note, case["name"]
        if case["name"] == "genuine.complete.hosted.relay_key":
            assert vouch.startswith("the names are vouched for by the table's host, player1")
            hosted_seen = True
    assert hosted_seen


def test_keys_step_play_and_leave(screen: Screen, tmp_path: Path) -> None:
    bridge = screen.show(bridge_for(_write(tmp_path, GENUINE, "genuine.jsonl")))
    screen.window.requestActivate()
    screen.key(Qt.Key.Key_Right)
    screen.key(Qt.Key.Key_Right)
    assert bridge.value("step") == 2
    assert screen.text("replayThrowTitle").startswith("Throw 2 of 7")
    screen.key(Qt.Key.Key_Left)
    assert bridge.value("step") == 1
    screen.key(Qt.Key.Key_End)
    assert bridge.value("step") == bridge.value("steps") == 7
    screen.key(Qt.Key.Key_Home)
    assert bridge.value("step") == 0
    screen.key(Qt.Key.Key_Space)
    assert bridge.value("playing")
    screen.key(Qt.Key.Key_Space)
    assert not bridge.value("playing")
    screen.key(Qt.Key.Key_Escape)  # pauses (as solo's Escape does), never leaves
    assert bridge.value("paused")
    screen.qtbot.waitUntil(lambda: screen.focus_name() == "replayResume", timeout=WAIT_MS)
    screen.key(Qt.Key.Key_Tab)  # the pause card's Leave replay
    screen.qtbot.waitUntil(lambda: screen.focus_name() == "replayPauseLeave", timeout=WAIT_MS)
    with screen.qtbot.waitSignal(bridge.leaveRequested, timeout=WAIT_MS):
        screen.key(Qt.Key.Key_Return)


def test_escape_and_back_pause_the_replay_as_they_pause_solo(
    screen: Screen, tmp_path: Path
) -> None:
    """Issue 38: "The shell's pause applies to solo and replay". Escape or Android's Back pause:
    a playing replay stops where it is, the pause card (Resume, Leave replay) takes the keys,
    the step keys do nothing, "Paused." is said through the frame; Escape again (or Resume)
    resumes, says "Resumed." and plays on. On the old screen Escape left the replay."""
    bridge = screen.show(bridge_for(_write(tmp_path, GENUINE, "genuine.jsonl")))
    screen.window.requestActivate()
    left: list[int] = []
    bridge.leaveRequested.connect(lambda: left.append(1))
    said: list[str] = []
    bridge.announced.connect(said.append)
    card = screen.window.findChild(QObject, "replayPause")
    screen.key(Qt.Key.Key_Right)
    screen.key(Qt.Key.Key_Space)  # plays
    assert bridge.value("playing")
    screen.key(Qt.Key.Key_Escape)
    screen.qtbot.waitUntil(lambda: bool(card.property("opened")), timeout=WAIT_MS)
    assert bridge.value("paused") and not bridge.value("playing") and left == []
    assert said == ["Paused."]
    assert "Esc resumes" in bridge.value("keysHint")
    screen.qtbot.waitUntil(lambda: screen.focus_name() == "replayResume", timeout=WAIT_MS)
    step = bridge.value("step")
    screen.key(Qt.Key.Key_Right)  # paused: nothing moves
    assert bridge.value("step") == step
    screen.key(Qt.Key.Key_Escape)  # resumes, and plays on
    screen.qtbot.waitUntil(lambda: not card.property("visible"), timeout=WAIT_MS)
    assert not bridge.value("paused") and bridge.value("playing")
    assert said == ["Paused.", "Resumed."]
    assert "Esc pauses" in bridge.value("keysHint")
    screen.key(Qt.Key.Key_Space)  # stops playing
    QTest.keyClick(screen.window, Qt.Key.Key_Back)  # Android's Back pauses too
    screen.qtbot.waitUntil(lambda: bool(card.property("opened")), timeout=WAIT_MS)
    assert bridge.value("paused")
    screen.key(Qt.Key.Key_Return)  # Enter on Resume
    screen.qtbot.waitUntil(lambda: not bridge.value("paused"), timeout=WAIT_MS)
    assert not bridge.value("playing") and said[-1] == "Resumed." and left == []
    announcer = screen.window.findChild(QObject, "announcer")  # the frame's one call says it
    screen.qtbot.waitUntil(lambda: announcer.property("last") == "Resumed.", timeout=WAIT_MS)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"\x89PNG\r\n", "This file is not a Pointline session transcript."),
        (b'{"a": 1}\n', "This file is not a Pointline session transcript."),
    ],
)
def test_a_file_that_cannot_be_watched_shows_plain_words_and_changes_no_stats(
    screen: Screen, tmp_path: Path, content: bytes, words: str
) -> None:
    store = StatsStore(tmp_path / "stats")
    store.add(_solo_record())
    before = sorted((p.name, p.read_bytes()) for p in (tmp_path / "stats").iterdir())
    path = tmp_path / "x.jsonl"
    path.write_bytes(content)
    screen.show(bridge_for(path))
    assert screen.text("replayProblem") == words
    after = sorted((p.name, p.read_bytes()) for p in (tmp_path / "stats").iterdir())
    assert after == before


def _solo_record() -> Any:
    counter = iter(range(1, 10_000))
    session = SoloSession(lambda: next(counter).to_bytes(32, "big"))
    while session.table.throws < 6:
        if session.table.point is None:
            session.submit(Allocate(0, Line.PASS))
            session.submit(Confirm(0))
        else:
            session.submit(Roll(0))
    return record_of(session.table, "s1", reveals=session.reveals)


def test_keys_and_clicks_in_a_replay_open_no_connection_and_change_no_stats(
    screen: Screen, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[object] = []
    real = socket.socket.connect

    def connect(self: socket.socket, address: Any) -> Any:
        opened.append(address)
        return real(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: opened.append(a))
    store = StatsStore(tmp_path / "stats")
    store.add(_solo_record())
    folder = tmp_path / "stats"
    before = sorted((p.name, p.read_bytes()) for p in folder.iterdir())
    (solo_file,) = folder.iterdir()
    bridge = screen.show(bridge_for(solo_file))
    assert bridge.value("verdictWord") == "OK" and bridge.value("steps") == 6
    screen.window.requestActivate()
    for key in (Qt.Key.Key_Right, Qt.Key.Key_Enter, Qt.Key.Key_R, Qt.Key.Key_Backspace):
        screen.key(key)
    seat = bridge.property("table")
    for action in ("allocate", "confirm", "roll", "reset", "reduce", "remove"):
        assert seat.act(action) is False
    assert seat.placeChip("pass") is False and seat.repeatLastBet() is False
    assert seat.value("notice") == "This is a replay: nothing can be played or sent."
    assert opened == []
    assert sorted((p.name, p.read_bytes()) for p in folder.iterdir()) == before


def _rechained(text: str, name: str, seat: int | None = None) -> str:
    """The transcript with seat 1's name replaced (and the header's own seat, if given) and
    every hash recomputed (no relay key is given: the names are only what the file claims)."""
    from pointline.net.protocol._transcript import GENESIS, record_hash

    docs = [json.loads(line) for line in text.splitlines() if line]
    docs[0]["body"]["roster"][0]["name"] = name
    if seat is not None:
        docs[0]["body"]["seat"] = seat
    prev = GENESIS
    for doc in docs:
        doc["prev"] = prev
        doc["hash"] = prev = record_hash(doc["index"], prev, doc["kind"], doc["body"])
    return "".join(json.dumps(d, separators=(",", ":"), sort_keys=True) + "\n" for d in docs)


def test_a_name_is_shown_as_plain_text_with_control_characters_escaped(
    screen: Screen, tmp_path: Path
) -> None:
    hostile = '<b>Bold</b><img src="x">\n\u202eevil\x1b[31m'
    path = tmp_path / "named.jsonl"
    path.write_text(_rechained(GENUINE["input"]["transcript"], hostile), encoding="utf-8")
    bridge = screen.show(bridge_for(path))
    assert bridge.value("verdictWord") == "OK"
    seats = screen.window.findChild(QObject, "replayVerdictSeats")
    texts = [
        t for t in seats.childItems() if t.property("text") and "Seat 1" in str(t.property("text"))
    ]
    (shown,) = texts
    escaped = '<b>Bold</b><img src="x">\\u{000A}\\u{202E}evil\\u{001B}[31m'
    assert shown.property("text").startswith(f"Seat 1 {escaped}: ")
    for row in bridge.value("players"):
        assert "\n" not in row["text"] and "\u202e" not in row["text"]


def test_every_text_of_the_replay_screen_is_plain_text() -> None:
    """A name, a table id or a reason may hold markup: no Text of the replay renders it."""
    folder = Path(__file__).parents[3] / "gui" / "qml" / "Pointline" / "Replay"
    seen = 0
    for qml in sorted(folder.glob("*.qml")):
        blocks = qml.read_text(encoding="utf-8").split("Text {")[1:]
        seen += len(blocks)
        for block in blocks:
            body = block.split("}", 1)[0]
            assert "textFormat: Text.PlainText" in body, f"{qml.name}: {body[:80]!r}"
    assert seen >= 10


class _FakeSounds:
    def __init__(self) -> None:
        self.muted = False
        self.played: list[str] = []

    def play(self, name: str) -> bool:
        if not self.muted:
            self.played.append(name)
        return not self.muted


def test_m_mutes_and_a_step_forward_plays_the_dice(screen: Screen, tmp_path: Path) -> None:
    sounds = _FakeSounds()
    from pointline.gui.replay.bridge import open_path

    bridge = screen.show(ReplayBridge(open_path(_write(tmp_path, GENUINE)), sounds=sounds))
    screen.window.requestActivate()
    screen.key(Qt.Key.Key_Right)
    assert sounds.played == ["dice"]
    screen.key(Qt.Key.Key_Left)  # back: no throw happens
    assert sounds.played == ["dice"]
    screen.key(Qt.Key.Key_M)
    assert sounds.muted and bridge.value("muted")
    screen.key(Qt.Key.Key_Right)
    assert sounds.played == ["dice"]


def _damaged(tmp_path: Path) -> Path:
    text = GENUINE["input"]["transcript"]
    path = tmp_path / "damaged.jsonl"
    path.write_text(text[: len(text) - 40], encoding="utf-8")
    return path


def _newer(tmp_path: Path) -> Path:
    (case,) = [c for c in CASES if c["name"] == "tampered.header.version_2"]
    return _write(tmp_path, case, "newer.jsonl")


def test_a_damaged_or_newer_file_says_so_in_plain_words_and_changes_no_stats(
    screen: Screen, tmp_path: Path
) -> None:
    store = StatsStore(tmp_path / "stats")
    store.add(_solo_record())
    folder = tmp_path / "stats"
    before = sorted((p.name, p.read_bytes()) for p in folder.iterdir())
    screen.show(bridge_for(_damaged(tmp_path)))
    lines = GENUINE["input"]["transcript"].count("\n")
    assert screen.text("replayVerdictWord") == "FAIL"
    damaged = f"This transcript is damaged: line {lines} is not a whole record."
    assert screen.text("replayVerdictNote") == damaged
    assert "Expecting" not in screen.text("replayVerdictSentence")
    screen.show(bridge_for(_newer(tmp_path)))
    assert screen.text("replayVerdictWord") == "FAIL"
    assert screen.text("replayVerdictNote").startswith(
        "This file was written by a newer Pointline (protocol version 2)"
    )
    assert sorted((p.name, p.read_bytes()) for p in folder.iterdir()) == before


def test_the_dice_panel_shows_the_kernels_trace(screen: Screen, tmp_path: Path) -> None:
    (case,) = [c for c in CASES if c["name"] == "genuine.ended.throw_cap"]
    bridge = screen.show(bridge_for(_write(tmp_path, case, "cap.jsonl")))
    bridge.goTo(2)  # a throw with a rejected byte
    trace = bridge.session.throws[1].trace
    rows = bridge.value("derivation")
    assert [r["kind"] for r in rows].count("rejected") == trace.rejected == 1
    assert rows[-1]["text"] == f"The dice: {trace.die1} and {trace.die2} (1 byte rejected)"
    seed = next(r for r in rows if r["kind"] == "seed")
    assert seed["full"] == trace.seed.hex()
    assert [r["full"] for r in rows if r["kind"] == "seat"] == [n.hex() for n in trace.nonces]


def test_tab_visits_the_replay_controls_and_f1_opens_help(screen: Screen, tmp_path: Path) -> None:
    bridge = screen.show(bridge_for(_write(tmp_path, GENUINE, "genuine.jsonl"), reduce_motion=True))
    assert bridge.property("table").value("reduceMotion")  # the table view's motion is off
    screen.window.requestActivate()
    bridge.goTo(3)
    seen = set()
    for _ in range(12):
        screen.key(Qt.Key.Key_Tab)
        item = screen.window.activeFocusItem()
        seen.add(item.objectName() if item is not None else "")
    assert {"replayPlay", "replayForward", "replayBack", "replayHowMade", "replayLeave"} <= seen
    help_card = screen.window.findChild(QObject, "replayHelp")
    left: list[int] = []
    bridge.leaveRequested.connect(lambda: left.append(1))
    screen.key(Qt.Key.Key_F1)
    screen.qtbot.waitUntil(lambda: help_card.property("opened"), timeout=WAIT_MS)
    screen.key(Qt.Key.Key_Escape)  # closes Help, does not leave the replay
    screen.qtbot.waitUntil(lambda: not help_card.property("visible"), timeout=WAIT_MS)
    assert bridge.value("step") == 3 and left == []


def test_a_header_naming_a_seat_not_at_the_table_is_a_fail_shown_plainly(
    screen: Screen, tmp_path: Path
) -> None:
    path = tmp_path / "seat.jsonl"
    path.write_text(_rechained(GENUINE["input"]["transcript"], "a", seat=7), encoding="utf-8")
    bridge = screen.show(bridge_for(path))
    assert screen.text("replayVerdictWord") == "FAIL" and bridge.value("steps") == 0
    assert screen.text("replayVerdictSentence").startswith("record 0: ")
