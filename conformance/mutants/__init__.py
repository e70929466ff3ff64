"""Deliberately wrong implementations: each one the reference adapter with one rule broken.

``python -m pointline.conformance.mutants.adapter NAME`` serves the protocol as mutant NAME;
``python -m pointline.conformance.mutants`` runs the suite against every mutant and prints the
kill rate. The mutants live by subject in ``play`` (the rules of play), ``edges`` (the
protocol's edges, dice bounds, canonical escapes, guard order, loading) and ``loading`` (the
order and parts of ``load_state``'s checks, entry ranges, dice inputs, the agreed version);
each module registers its own in a ``kit.Registry``, and ``MUTANTS`` lists them all, module
by module.
"""

from __future__ import annotations

from pointline.conformance.mutants import edges, loading, play
from pointline.conformance.mutants.kit import Mutants

__all__ = ["MUTANTS"]


def _every(*modules: Mutants) -> Mutants:
    every: Mutants = {}
    for mutants in modules:
        for name, entry in mutants.items():
            if name in every:
                raise ValueError(f"two mutants named {name!r}")
            every[name] = entry
    return every


MUTANTS: Mutants = _every(play.mutant.mutants, edges.mutant.mutants, loading.mutant.mutants)
"""Every mutant by name: what it breaks, in words, and its adapter class."""
