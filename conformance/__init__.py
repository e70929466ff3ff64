"""The conformance suite: a stdio adapter protocol, generated fixtures, a runner and mutants.

``python -m pointline.conformance.generate`` rebuilds ``fixtures/`` from the reference kernel;
``python -m pointline.conformance.runner`` checks an implementation (the reference
adapter by default); ``python -m pointline.conformance.mutants`` runs the deliberately wrong
implementations and prints the kill rate. The protocol is in ``PROTOCOL.md``.

The names below are the suite's public surface. The adapter and the runner are loaded on first
use (both also run as ``python -m``, which must find them not yet imported).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pointline.conformance.codec import PROTOCOL, PROTOCOLS, action_from_json, action_to_json
from pointline.conformance.errors import (
    BadAction,
    ConformanceCode,
    ConformanceError,
    FixturesMissing,
    ImplFailure,
    ProtocolError,
)

if TYPE_CHECKING:
    from pointline.conformance.adapter import Adapter, response_line, serve
    from pointline.conformance.runner import (
        FIXTURES,
        Fixture,
        Implementation,
        find_fixtures,
        fixture_files,
        load_fixtures,
    )

__all__ = [
    "FIXTURES",
    "PROTOCOL",
    "PROTOCOLS",
    "Adapter",
    "BadAction",
    "ConformanceCode",
    "ConformanceError",
    "Fixture",
    "FixturesMissing",
    "ImplFailure",
    "Implementation",
    "ProtocolError",
    "action_from_json",
    "action_to_json",
    "find_fixtures",
    "fixture_files",
    "load_fixtures",
    "response_line",
    "serve",
]

_LAZY = {
    "Adapter": "adapter",
    "response_line": "adapter",
    "serve": "adapter",
    "FIXTURES": "runner",
    "Fixture": "runner",
    "Implementation": "runner",
    "find_fixtures": "runner",
    "fixture_files": "runner",
    "load_fixtures": "runner",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
