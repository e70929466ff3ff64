"""What every mutant module builds on: a ``Registry`` of its mutants, and ``DocMutant``, the
adapter that changes the state document it answers."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from pointline.conformance.adapter import Adapter
from pointline.kernel import to_document
from pointline.kernel.canonical import dumps

__all__ = ["DocMutant", "Mutants", "Registry"]

Mutants = dict[str, tuple[str, type[Adapter]]]
"""Mutants by name: what each breaks, in words, and its adapter class."""


class Registry:
    """The mutants of one module, in the order they are defined: ``@registry(name, text)``
    over an adapter class registers it. The package lists every module's registry
    (``pointline.conformance.mutants.MUTANTS``)."""

    def __init__(self) -> None:
        self.mutants: Mutants = {}

    def __call__(self, name: str, text: str) -> Callable[[type[Adapter]], type[Adapter]]:
        def register(cls: type[Adapter]) -> type[Adapter]:
            if name in self.mutants:
                raise ValueError(f"two mutants named {name!r}")
            self.mutants[name] = (text, cls)
            return cls

        return register


class DocMutant(Adapter):
    """A mutant that changes the state document it answers (hash and state alike)."""

    def change(self, doc: dict[str, Any]) -> dict[str, Any]:
        return doc

    def state_bytes(self, doc: dict[str, Any]) -> bytes:
        return dumps(doc)

    def current_state(self) -> dict[str, Any]:
        assert self.table is not None
        return self.change(to_document(self.table))

    def current_hash(self) -> str:
        return hashlib.sha256(self.state_bytes(self.current_state())).hexdigest()
