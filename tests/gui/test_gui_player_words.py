"""Every string a player can meet, collected from the running app and its error paths, breaks
no rule of ``tests.player_words`` (issue 30 finding 9): no errno text, codec names, reprs,
snake_case codes, transition arrows or "1 throws".

Collected here: all visible text of every solo scene (in the standard and the full-screen
window mode, cards included: Help, Stats, the guide); ``pointline verify`` on a file that is
not text, one that is missing and a folder; the online sign-in against a refused port and a bad
address; ``pointline-client`` against the same; and ``verify``'s report, its ``--show`` lines
and the online client's verdict over every transcript vector. The online screens' visible text
is walked by ``tests/gui/online/test_gui_online_words.py`` with the same rules.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pointline.gui.tools.scenes import MOTION_SCENES, SCENES
from tests.gui.online_support import FAST, PASSWORD, answered, on_qt_loop
from tests.paths import ROOT
from tests.player_words import faults

VECTORS = ROOT / "conformance" / "online" / "vectors" / "transcripts.json"


def _bad(strings: list[tuple[str, str]]) -> list[tuple[str, str, list[str]]]:
    return [(where, text, found) for where, text in strings if (found := faults(text))]


def test_the_rules_catch_what_issue_30_saw() -> None:
    seen = [
        "Seat 1: 1 throws",
        "'utf-8' codec can't decode byte 0xd0 in position 24: invalid continuation byte",
        "cannot read x: [Errno 2] No such file or directory",
        "Cannot reach the relay: [Errno 111] Connect call failed ('127.0.0.1', 8799)",
        "http://h isn't a valid URI: scheme isn't ws or wss",
        "throw 3: 1+2 = 3 at come_out -> point",
        "the outcome {'status': 'ended'}, replayed [1030, 730]",
        "message fails: bad_signature: the signature does not verify",
    ]
    assert all(faults(text) for text in seen), [t for t in seen if not faults(t)]
    fine = [
        "Seat 1 wins 20; 1 throw, 2 throws, 1,001 points",
        "Pays 1 : 1 · Help (F1) · the member 'index' appears twice",
        "Transcript saved in /tmp/test_words0/a_b.jsonl",
        "None of the seats answered.",
    ]
    assert [t for t in fine if faults(t)] == []


def test_the_words_issue_30_found_are_plain() -> None:
    """Stats counts "1 throw"; Help says what a commitment is; the close card names its own
    button; the button and the guide both say Allocate."""
    from pointline.gui.extras import GUIDE_STEPS, record_row
    from pointline.gui.stats import SessionRecord
    from pointline.gui.texts import ACTION_LABELS, HELP_HTML, TEXTS

    one = SessionRecord("s", "2026-12-06T04:00:00Z", False, "background", 1, 1, 0, 0, 990, 1, ())
    row = record_row(one, 1)
    assert "1 hand resolved · 1 throw · " in row["figures"]
    assert row["figures"].endswith("longest point run 1 throw · points at the end 990")
    assert faults(row["figures"]) == [] and faults(row["summary"]) == []
    assert "nonce" not in HELP_HTML and "random number" in HELP_HTML
    assert [s["title"] for s in GUIDE_STEPS if s["target"] == "btnAllocate"] == ["Allocate"]
    assert TEXTS["allocate"] == ACTION_LABELS["allocate"] == "Allocate"


def test_the_close_card_names_the_button_below_it(make_ui) -> None:
    from PySide6.QtCore import QObject

    ui = make_ui()
    ui.bridge.act("allocate")
    ui.bridge.act("confirm")
    ui.bridge.extras.ask_before_closing = True  # as the app's start turns it on
    assert ui.bridge.extras.closeQuestion.ask("solo")
    ui.qtbot.waitUntil(lambda: ui.window.findChild(QObject, "closeOverlay").property("opened"))
    shown = _shown_texts(ui.window)
    said = next(t for t in shown if t.startswith("Close Pointline Table?"))
    buttons = [t for t in shown if t.startswith("Keep playing")]
    assert buttons and "Cancel" not in said and "Keep playing goes back" in said


def _shown_texts(window: Any) -> list[str]:
    out = []
    todo = [window.contentItem()]
    while todo:
        item = todo.pop()
        if not item.isVisible() or item.opacity() == 0:
            continue
        todo.extend(item.childItems())
        for prop in ("text", "placeholderText"):
            value = item.property(prop)
            if isinstance(value, str) and value.strip():
                out.append(value)
    return out


def test_no_solo_scene_shows_a_word_a_player_should_not_see(qapp, qtbot, tmp_path) -> None:
    from PySide6.QtCore import QSettings

    from pointline.gui.app import load
    from pointline.gui.bridge import TableBridge
    from pointline.gui.tools.scenes import counter_nonces, prepare

    strings: list[tuple[str, str]] = []
    for scene in SCENES:
        settings = QSettings(str(tmp_path / f"{scene}.ini"), QSettings.Format.IniFormat)
        settings.setValue("reduceMotion", scene not in MOTION_SCENES)
        bridge = TableBridge(counter_nonces(scene.encode()), settings=settings)
        prepare(bridge, scene)
        loaded = load(bridge, (1280, 720))
        window = loaded.window
        window.show()
        qtbot.waitExposed(window)
        for mode in ("standard", "fullscreen"):
            bridge.setWindowMode(mode)
            qtbot.waitUntil(lambda w=window: len(_shown_texts(w)) >= 8, timeout=3000)
            strings += [(f"{scene} ({mode})", t) for t in _shown_texts(window)]
        window.close()
        del loaded
    assert _bad(strings) == []


def _verify_says(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    from pointline.net.client import verify_main

    verify_main(list(args))
    return capsys.readouterr().out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_verify_says_a_bad_file_in_plain_words(tmp_path: Path, capsys) -> None:
    not_text = tmp_path / "not-text.jsonl"
    not_text.write_bytes(b'{"index": 0, "kind": "\xd0\xd0"}\n')
    cut = tmp_path / "cut.jsonl"
    cut.write_text('{"index": 0, "kind": "hea\n')
    said = {
        "not text": _verify_says(capsys, str(not_text)),
        "missing": _verify_says(capsys, str(tmp_path / "missing.jsonl")),
        "a folder": _verify_says(capsys, str(tmp_path)),
        "cut off": _verify_says(capsys, str(cut)),
    }
    assert all(text.startswith("FAIL: ") for text in said.values()), said
    assert "there is no file" in said["missing"] and "is a folder" in said["a folder"]
    assert _bad(list(said.items())) == []


@on_qt_loop()
async def test_the_online_sign_in_says_a_refused_port_and_a_bad_address_plainly() -> None:
    from pointline.gui.online.bridge import OnlineBridge

    said = []
    for url in (f"ws://127.0.0.1:{_free_port()}", "http://127.0.0.1:1/", "ws://"):
        bridge = OnlineBridge(url, timeouts=FAST)
        await answered(bridge, lambda b=bridge, u=url: b.account.signIn(u, "nobody", PASSWORD))
        assert bridge.error and bridge.screen == "signin"
        said.append((url, bridge.error))
        await bridge.shutdown()
    assert _bad(said) == []


def test_the_headless_client_says_a_refused_port_and_a_bad_address_plainly() -> None:
    """``pointline-client``'s own words (net/headless.py) for what the app's sign-in meets."""
    said = []
    for url in (f"ws://127.0.0.1:{_free_port()}", "http://127.0.0.1:1/"):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pointline.net.client",
                "--url",
                url,
                "--name",
                "nobody",
                "--password",
                PASSWORD,
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode != 0 and "Traceback" not in done.stderr
        said.append((url, done.stdout + done.stderr))
    assert _bad(said) == []


def test_verify_and_the_client_verdict_over_every_transcript_vector(tmp_path: Path) -> None:
    from pointline.gui.online.state import verdict_words
    from pointline.net.client._verify_command import verify_transcript

    cases = json.loads(VECTORS.read_text("utf-8"))["cases"]
    assert cases
    strings: list[tuple[str, str]] = []
    for case in cases:
        path = tmp_path / "t.jsonl"
        path.write_text(case["input"]["transcript"], "utf-8")
        report = verify_transcript(path)
        strings.append((case["name"], report.text()))
        strings += [(case["name"] + " --show", line) for line in report.throw_lines]
        strings.append((case["name"] + " in the app", verdict_words(report)[1]))
    assert _bad(strings) == []
