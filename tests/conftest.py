"""Shared test settings: hypothesis profiles only (each area keeps its own fixtures).

``HYPOTHESIS_PROFILE=ci`` (the default) keeps the run short on a 2-core machine;
``HYPOTHESIS_PROFILE=large`` runs ten times more examples and steps.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "large",
    deadline=None,
    max_examples=1000,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
