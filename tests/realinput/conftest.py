"""Fixtures of the real-input tests: a private X display and bus, and the app on them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.realinput.driver import RealApp, RealX, require_packages


@pytest.fixture
def real_x() -> Iterator[RealX]:
    require_packages()
    x = RealX()
    yield x
    x.close()


@pytest.fixture
def start_app(real_x: RealX, tmp_path: Path) -> Iterator[Callable[..., RealApp]]:
    started: list[RealApp] = []

    def start(**kwargs: Any) -> RealApp:
        app = RealApp(real_x, tmp_path / f"home{len(started)}", **kwargs)
        started.append(app)
        return app

    yield start
    for app in started:
        app.close()
