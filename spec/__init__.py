"""The spec: ``spec/RULES.md`` (rendered in part from the kernel), the z3 model of the card's
rules, the proofs of its invariants, and the cross-check of the kernel against the model.

``python -m pointline.spec`` runs the proofs; ``python -m pointline.spec.render`` regenerates
the generated sections of ``RULES.md``. The names below load their module (and z3) on first
use; none is named like a module of the package (an imported module would shadow it).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pointline.spec.crosscheck import check_step, push_and_check
    from pointline.spec.proofs import run as run_proofs
    from pointline.spec.render import RULES_PATH, stale_sections
    from pointline.spec.render import render as render_rules

__all__ = [
    "RULES_PATH",
    "check_step",
    "push_and_check",
    "render_rules",
    "run_proofs",
    "stale_sections",
]

_LAZY = {
    "RULES_PATH": ("render", "RULES_PATH"),
    "render_rules": ("render", "render"),
    "stale_sections": ("render", "stale_sections"),
    "run_proofs": ("proofs", "run"),
    "check_step": ("crosscheck", "check_step"),
    "push_and_check": ("crosscheck", "push_and_check"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _LAZY[name]
    return getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
