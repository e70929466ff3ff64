"""``pointline replay FILE`` opens the app straight on the file."""

from __future__ import annotations

from typing import Any

import pytest

from pointline.gui import cli


def test_replay_opens_the_app_on_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    import pointline.gui.replay.app as replay_app

    monkeypatch.setattr(replay_app, "run_replay", lambda path: opened.append(path) or 0)
    assert cli.main(["replay", "game.jsonl"]) == 0
    assert opened == ["game.jsonl"]


def test_replay_needs_a_file(capsys: Any) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["replay"])
    assert stopped.value.code == 2
    assert "file" in capsys.readouterr().err


def test_the_replay_scenes_are_screenshot_scenes(capsys: Any) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--screenshot", "x.png", "--scene", "nope"])
    assert "replay-mid-hand" in capsys.readouterr().err
