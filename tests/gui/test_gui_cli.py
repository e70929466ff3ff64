"""The pointline command: verify delegation, screenshots, and the synthesized sounds."""

from __future__ import annotations

import os
import sys
import wave
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from pointline.gui import cli
from pointline.gui.sound import RATE, SOUNDS, Sounds, pcm
from tests.gui.script_run import run_python


def test_verify_delegates_to_net_verify(monkeypatch) -> None:
    seen = []
    from pointline.net import client

    monkeypatch.setattr(client, "verify_main", lambda argv: seen.append(list(argv)) or 0)
    assert cli.main(["verify", "transcript.json"]) == 0
    assert seen == [["transcript.json"]]


def test_verify_without_net_verify_says_so(monkeypatch, capsys) -> None:
    # Missing whether or not an earlier test already imported it.
    monkeypatch.setitem(sys.modules, "pointline.net.client", None)
    assert cli.main(["verify", "transcript.json"]) == 2
    assert "net.client is missing" in capsys.readouterr().err


def test_bad_size_is_a_clear_error(capsys) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--screenshot", "x.png", "--size", "big"])
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


def _screenshot(tmp_path: Path, scene: str, size: str = "390x844") -> QImage:
    """``pointline --screenshot`` of ``scene`` at ``size`` in a fresh interpreter; the picture."""
    out = tmp_path / f"{scene}.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", POINTLINE_DATA_DIR=str(tmp_path / "data"))
    command = ["--screenshot", str(out), "--size", size, "--scene", scene]
    run_python(["-m", "pointline.gui.cli", *command], env, timeout=120)
    return QImage(str(out))


def test_screenshot_writes_the_scene_png(tmp_path) -> None:
    image = _screenshot(tmp_path, "help")
    assert (image.width(), image.height()) == (390, 844)


def test_an_online_screenshot_is_laid_out_at_its_size(tmp_path) -> None:
    """The picture waits for the window's layout to hold still at the size asked for: on a phone
    the sign-in screen's relay field runs across the narrow window (a picture once showed the
    layout of the first 1280x720 frame, cut off at the right)."""
    from pointline.gui.device import phone_insets

    image = _screenshot(tmp_path, "online-signin")
    assert (image.width(), image.height()) == (390, 844)
    # the relay address field, above its text: light from the left margin to the right one
    # (pictured as a phone shows it: below the notch's inset)
    y = 135 + phone_insets((390, 844))["top"]
    across = [QColor(image.pixel(x, y)).lightness() for x in range(30, 350, 20)]
    assert min(across) > 200, across


def test_sounds_are_short_pcm_and_silent_without_a_device(tmp_path) -> None:
    for name in SOUNDS:
        data = pcm(name)
        assert 0 < len(data) / 2 / RATE < 0.6
        path = tmp_path / f"{name}.wav"
        with wave.open(str(path), "wb") as f:
            f.setnchannels(1)
            f.setsampwidth(2)
            f.setframerate(RATE)
            f.writeframes(data)
        assert path.stat().st_size > 44
    sounds = Sounds()
    sounds.muted = True
    assert sounds.play("dice") is False
    sounds.muted = False
    sounds.play("win")  # no audio device here: returns without error
    assert sounds.available in (True, False)


def test_app_starts_and_exits_after_its_first_frame() -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = run_python(["-m", "pointline.gui.cli", "--exit-after-first-frame"], env, timeout=60)
    assert "Error" not in done.stderr
