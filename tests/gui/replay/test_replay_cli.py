"""``pointline replay FILE`` opens the app straight on the file."""

from __future__ import annotations

from typing import Any

import pytest

from pointline.gui import cli


def test_replay_opens_the_app_on_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    import pointline.gui.replay.app as replay_app

    monkeypatch.setattr(replay_app, "run_replay", lambda path, size=None: opened.append(path) or 0)
    assert cli.main(["replay", "game.jsonl"]) == 0
    assert opened == ["game.jsonl"]


@pytest.mark.parametrize(
    "argv",
    [
        ["--size", "390x844", "replay", "game.jsonl"],
        ["replay", "--size", "390x844", "game.jsonl"],
        ["replay", "game.jsonl", "--size", "390x844"],
        ["--size=390x844", "replay", "game.jsonl"],
    ],
)
def test_size_is_taken_before_or_after_replay(
    monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    """Finding 1 of issue 38: ``pointline --size 390x844 replay FILE`` said "unrecognized
    arguments" and ``pointline replay`` had no size (old code: argparse exits with 2)."""
    opened: list[tuple[str, Any]] = []
    import pointline.gui.replay.app as replay_app

    monkeypatch.setattr(
        replay_app, "run_replay", lambda path, size=None: opened.append((path, size)) or 0
    )
    assert cli.main(argv) == 0
    assert opened == [("game.jsonl", (390, 844))]


def test_replay_help_shows_size(capsys: Any) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["replay", "--help"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    assert "--size WxH" in out and "390x844" in out


def test_replay_needs_a_file(capsys: Any) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["replay"])
    assert stopped.value.code == 2
    assert "file" in capsys.readouterr().err


def test_the_replay_scenes_are_screenshot_scenes(capsys: Any) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--screenshot", "x.png", "--scene", "nope"])
    assert "replay-mid-hand" in capsys.readouterr().err
