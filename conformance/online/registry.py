"""The registry of the online mutants: each a patch applied at run time (never a file edit)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["MUTANTS", "Mutant", "mutant", "replace_everywhere", "set_attr"]


@dataclass(frozen=True)
class Mutant:
    text: str
    killer: str
    """``vectors``, ``verifier`` or ``client:CASE`` (the harness case that must catch it)."""
    patch: Callable[[], None]


MUTANTS: dict[str, Mutant] = {}


def mutant(name: str, text: str, killer: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    def register(patch: Callable[[], None]) -> Callable[[], None]:
        MUTANTS[name] = Mutant(text, killer, patch)
        return patch

    return register


def replace_everywhere(old: object, new: object) -> None:
    """Rebind every ``pointline`` module global that is ``old`` to ``new``."""
    for name, module in list(sys.modules.items()):
        if name.startswith("pointline") and module is not None:
            for key, value in list(vars(module).items()):
                if value is old:
                    setattr(module, key, new)


def set_attr(owner: object, name: str, value: object) -> None:
    """Monkeypatch ``owner.name`` (a module global or a class attribute) in this process."""
    setattr(owner, name, value)
