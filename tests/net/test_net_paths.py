"""The data folder: the override, the desktop defaults, and the folder a phone app is given."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pointline.net import paths


@pytest.fixture(autouse=True)
def no_given_folder(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv(paths.ENV_DATA_DIR, raising=False)
    paths.set_app_data_dir(None)
    yield
    paths.set_app_data_dir(None)


def test_android_without_home_uses_the_given_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "platform", "android")
    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    given = tmp_path / "data" / "user" / "0" / "org.pointline.pointline" / "files"
    paths.set_app_data_dir(str(given))
    assert paths.data_dir() == given and given.is_dir()
    assert paths.transcripts_dir() == given / "transcripts"
    when = paths.transcript_path("t1", 2).parent
    assert when == given / "transcripts"


def test_the_given_folder_is_asked_lazily_and_wins_on_mobile_even_with_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[int] = []

    def qt_folder() -> str:
        asked.append(1)
        return str(tmp_path / "qt-app-data")

    paths.set_app_data_dir(qt_folder)
    assert asked == []
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for platform in paths.MOBILE_PLATFORMS:
        monkeypatch.setattr(sys, "platform", platform)
        assert paths.data_dir(create=False) == tmp_path / "qt-app-data"
    assert len(asked) == 2


def test_linux_without_home_uses_the_given_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("HOME", raising=False)
    paths.set_app_data_dir(tmp_path / "given")
    assert paths.data_dir() == tmp_path / "given"


def test_desktop_with_home_keeps_its_usual_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    paths.set_app_data_dir(tmp_path / "given")
    assert paths.data_dir(create=False) == tmp_path / "home" / ".local" / "share" / "pointline"


def test_the_environment_override_wins_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(paths.ENV_DATA_DIR, str(tmp_path / "override"))
    paths.set_app_data_dir(tmp_path / "given")
    monkeypatch.delenv("HOME", raising=False)
    for platform in ("android", "ios", "linux"):
        monkeypatch.setattr(sys, "platform", platform)
        assert paths.data_dir(create=False) == tmp_path / "override"


def test_an_empty_answer_falls_back_to_the_platform_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "platform", "android")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    paths.set_app_data_dir(lambda: "")
    assert paths.data_dir(create=False) == tmp_path / "xdg" / "pointline"
