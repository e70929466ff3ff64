"""Suite strength: every deliberately wrong implementation fails the suite."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from pointline.conformance.mutants import MUTANTS
from pointline.conformance.mutants.__main__ import run_mutant


def test_there_are_at_least_twenty_mutants() -> None:
    assert len(MUTANTS) >= 20


def test_every_mutant_is_killed() -> None:
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run_mutant, MUTANTS))
    survivors = [name for name, killed, _, _ in results if not killed]
    assert survivors == []
