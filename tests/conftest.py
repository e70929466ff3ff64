"""Shared test settings: hypothesis profiles only (each area keeps its own fixtures).

``HYPOTHESIS_PROFILE=ci`` (the default) keeps the run short on a 2-core machine;
``HYPOTHESIS_PROFILE=large`` runs ten times more examples and steps.
"""

from __future__ import annotations

import os

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
