"""The relay cases' strength: every deliberately wrong reference relay
(``conformance.online.relay_mutants``) is killed by its small subset of relay cases, each
mutant relay a process of its own, all checked at once."""

from __future__ import annotations

import asyncio

import pytest

from pointline.conformance.online.relay_cases import RELAY_CASES
from pointline.conformance.online.relay_mutants import RELAY_MUTANTS, run_relay_mutants


def test_each_relay_mutant_names_cases_that_exist() -> None:
    assert len(RELAY_MUTANTS) >= 10
    names = [case.name for case in RELAY_CASES]
    for mutant in RELAY_MUTANTS.values():
        assert any(mutant.cases in name for name in names), mutant.cases
        assert len([n for n in names if mutant.cases in n]) <= 2  # a targeted subset


@pytest.mark.timeout(120)
def test_every_relay_mutant_is_killed() -> None:
    results = asyncio.run(run_relay_mutants(sorted(RELAY_MUTANTS)))
    survivors = {name: said for name, (killed, said) in results.items() if not killed}
    assert survivors == {}
    for name, (_, said) in results.items():  # killed by a failing case, not a failed start
        assert "FAIL relay relay." in said and "FAIL relay start" not in said, (name, said)
