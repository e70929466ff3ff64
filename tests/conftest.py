"""Shared test settings: hypothesis profiles, and each test's own app data folder (each area
keeps its other fixtures).

``HYPOTHESIS_PROFILE=ci`` (the default) keeps the run short on a 2-core machine;
``HYPOTHESIS_PROFILE=large`` runs ten times more examples and steps.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

for name, examples in (("ci", 100), ("large", 1000)):
    settings.register_profile(
        name,
        deadline=None,
        max_examples=examples,
        suppress_health_check=[HealthCheck.too_slow],
        print_blob=True,
    )
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _private_app_data(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Each test gets an empty app data folder (``POINTLINE_DATA_DIR``) that its subprocesses
    inherit: nothing a test saves (transcripts, pinned relay keys, sign-ins) reaches the
    user's folder or another test. A test that sets the variable itself overrides it."""
    monkeypatch.setenv("POINTLINE_DATA_DIR", str(tmp_path_factory.mktemp("app-data")))
