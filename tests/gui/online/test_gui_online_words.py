"""Every string the online screens show is plain English: no machine code, clear refusals."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pointline.gui.online.bridge import OnlineBridge
from pointline.gui.online.texts import (
    NAME_ADVICE,
    ONLINE_SCENES,
    REFUSALS,
    refusal,
    unreachable,
)
from pointline.kernel import EndReason
from pointline.net.protocol._peer import ending_text
from pointline.net.protocol._wire import ErrorCode
from tests.gui.online_support import (
    FAST,
    PASSWORD,
    answered,
    fresh_name,
    on_qt_loop,
    relay,
    scene,
    shown_items,
    until,
)
from tests.player_words import faults

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
CODE_PREFIX = re.compile(r"(?:^|[.!?]\s+)([a-z][a-z0-9_]*:)\s")


def machine_words(text: str) -> list[str]:
    """snake_case tokens and 'code: text' prefixes in ``text`` (file paths are not words)."""
    plain = re.sub(r"<[^>]*>", " ", text)
    words = " ".join(w for w in plain.split() if "/" not in w and "\\" not in w)
    return SNAKE.findall(words) + CODE_PREFIX.findall(words)


def test_the_checker_catches_machine_words() -> None:
    assert machine_words("No result: session_over") == ["session_over"]
    assert machine_words("hand_limit reached") == ["hand_limit"]
    assert machine_words("closed: the connection is closed") == ["closed:"]
    assert machine_words("Roll now. busy: one request at a time") == ["busy:"]
    assert machine_words("Transcript saved: /tmp/a_b/c_d.jsonl") == []
    assert machine_words("No result: a player left the table (bob, Seat 2).") == []


def test_every_refusal_and_reason_is_plain_english() -> None:
    for code in ErrorCode:
        text = refusal(code.value, f"{code.value}: machine words")
        assert text and not machine_words(text), (code, text)
        assert code.value not in text
    assert refusal("something_new", "something_new: x") == (
        "The relay refused that request: try again in a moment."
    )
    endings = [ending_text(r, 1, 0, proven=False) for r in EndReason]
    for text in [*REFUSALS.values(), *endings, unreachable("ws://h:1", "errno 111")]:
        assert not machine_words(text), text
    assert refusal("bad_password") == "Use a password of 8 to 1,024 characters."
    assert refusal("bad_name") == NAME_ADVICE


@pytest.mark.parametrize(
    ("name", "password", "expected"),
    [
        ("al", PASSWORD, NAME_ADVICE),
        ("has space", PASSWORD, NAME_ADVICE),
        ("", PASSWORD, "Type your name first. " + NAME_ADVICE),
        ("alice", "short", "Use a password of 8 to 1,024 characters."),
        ("alice", "x" * 1025, "Use a password of 8 to 1,024 characters."),
        ("alice", "", "Type your password first. Use a password of 8 to 1,024 characters."),
    ],
)
def test_bad_sign_up_input_gets_a_clear_error_and_sends_nothing(
    qapp: Any, name: str, password: str, expected: str
) -> None:
    bridge = OnlineBridge("ws://127.0.0.1:1")
    for slot in (bridge.account.signUp, bridge.account.signIn):
        slot("ws://127.0.0.1:1", name, password)
        assert bridge.error == expected
        assert bridge.client is None and bridge.screen == "signin" and bridge.account.name == ""
        assert not bridge.busy


@on_qt_loop()
async def test_the_relay_refusing_a_password_reads_as_advice(tmp_path: Path) -> None:
    """Past the local check (a relay with other rules): its code becomes the same advice."""

    async with relay(tmp_path) as running:
        bridge = OnlineBridge(running.url, timeouts=FAST)
        name = fresh_name("pw")
        await answered(
            bridge, lambda: bridge.spawn(bridge.account._sign(running.url, name, "short", True))
        )
        assert bridge.error == "Use a password of 8 to 1,024 characters."
        assert bridge.screen == "signin"
        await bridge.shutdown()


async def _walk(ui: Any, where: str) -> list[tuple[str, str, list[str]]]:
    found = []
    read = 0
    for item in shown_items(ui):
        for prop in ("text", "placeholderText"):
            value = item.property(prop)
            if isinstance(value, str) and value:
                read += 1
                bad = machine_words(value) + faults(value)  # and every player-word rule
                if bad:
                    found.append((where, value, bad))
    assert read >= 8, f"only {read} strings shown on {where}: is the walk reaching the page?"
    return found


@pytest.mark.parametrize("name", ONLINE_SCENES)
@on_qt_loop(timeout=60)
async def test_no_machine_code_on_any_online_screen(tmp_path: Path, name: str) -> None:
    async with scene(tmp_path, name, (1280, 720)) as played:
        ui = played.window
        if name == "online-results":
            await until(lambda: not ui.bridge.results.verifying, what="the verdict")
        found = await _walk(ui, name)
        ui.bridge.openHelp()
        await until(lambda: ui.item("onlineHelp").property("visible"), what="Help")
        found += await _walk(ui, name + " with Help")
        ui.bridge.closeHelp()
        if name == "online-table":
            ui.bridge.askLeave()
            await until(lambda: ui.item("leaveDialog").property("visible"), what="the question")
            found += await _walk(ui, name + " asking to leave")
            ui.bridge.cancelLeave()
        for size in ((390, 844), (844, 390)):
            await ui.resize(*size)
            found += await _walk(ui, f"{name} at {size}")
        assert found == []


@pytest.mark.parametrize("lost_at", [1, 3])
def test_a_transcript_cut_by_the_lost_relay_says_so(tmp_path: Path, lost_at: int) -> None:
    """An INCOMPLETE verdict names why: the relay connection was lost, not a missing receipt."""
    from pointline.conformance.online.sim import Session
    from pointline.gui.online.state import verdict_words
    from pointline.net.client._verify_command import verify_transcript

    session = Session(2, seed=16, relay_lost_at=lost_at).run()
    path = tmp_path / "lost.jsonl"
    path.write_text(session.text(0))
    report = verify_transcript(path)
    assert report.ok and not report.complete, report.text()
    ok, words = verdict_words(report)
    where = f"after throw {lost_at - 1}" if lost_at > 1 else "before the first throw"
    assert ok and "receipt" not in words
    assert f"the connection to the relay was lost {where}; nothing after that" in words
