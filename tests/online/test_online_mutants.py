"""Suite strength for the online layer: every deliberately wrong reference peer or verifier
is killed by what its entry names (the vectors, a harness case, or the verifier harness)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from pointline.conformance.online.harness import CASES
from pointline.conformance.online.mutants import BROKEN_PATCH, MUTANTS, run_mutant


def test_there_are_enough_mutants_of_every_kind() -> None:
    assert len(MUTANTS) >= 25
    kinds = {m.killer.split(":")[0] for m in MUTANTS.values()}
    assert kinds == {"vectors", "verifier", "client"}
    cases = {case.name for case in CASES}
    for m in MUTANTS.values():
        if m.killer.startswith("client:"):
            assert m.killer.split(":", 1)[1] in cases


@pytest.mark.timeout(400)
def test_every_mutant_is_killed(vectors_env: dict[str, str]) -> None:
    del vectors_env  # the subprocesses read the checkout's vectors
    with ThreadPoolExecutor(max_workers=3) as pool:  # the harness runs mostly wait
        results = list(pool.map(run_mutant, sorted(MUTANTS)))
    assert [(name, tail) for name, killed, tail in results if not killed] == []


def test_a_mutant_whose_own_wrapper_no_longer_fits_is_not_counted_as_killed() -> None:
    """A wrapper written for an older signature raises TypeError on every call (as
    ``verify_exchange_leave_ok`` did once ``_report`` took ``host``): that failure is the
    mutant's own, so ``run_mutant`` reports it surviving. An ordinary TypeError is not it."""

    def _patch() -> object:
        def report(state: object, players: str) -> object:
            return state

        return report

    wrapper: Any = _patch()
    try:
        wrapper(1, "x", host="h")
    except TypeError as error:
        said = f"{type(error).__name__}: {error}"
    assert BROKEN_PATCH.search(f"got {{'raised': \"{said}\"}}")
    assert not BROKEN_PATCH.search("TypeError: unsupported operand type(s) for +: 'int' and 'str'")
