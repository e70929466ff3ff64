"""The kernel's public surface: curated ``__all__`` everywhere, one error tree, and the package
docstring's example runs as written (it imports ``pointline.kernel``)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pointline.kernel as kernel
from pointline.kernel import (
    BadState,
    DiceInputError,
    IllegalAction,
    Invariant,
    MalformedAction,
    PointlineError,
    RulesError,
)


def _modules() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(kernel.__path__))


def test_every_kernel_module_lists_its_public_names() -> None:
    for name in _modules():
        module = importlib.import_module(f"pointline.kernel.{name}")
        names = getattr(module, "__all__", None)
        assert isinstance(names, list) and names, name
        for public in names:
            assert hasattr(module, public), (name, public)


MODULE_ONLY = {
    # older names kept for callers, and the table's executable rows (for tools and mutants)
    "canonical": {"dumps"},
    "table": {"EFFECTS", "GUARDS", "EffectFn", "GuardFn", "see_throw"},
    "codes": {"CODES_BY_NAME"},
    "invariants": {"Broken"},
    "strictjson": {"MAX_DEPTH", "DuplicateMember", "check"},  # its loads: kernel.strictjson.loads
    "dice": {"ACCEPT_BELOW", "COMMIT_DOMAIN", "DICE_DOMAIN"},
}
"""Public names of a module that the package does not re-export, each on purpose."""


def test_the_package_exports_every_public_name_of_its_public_modules() -> None:
    for name in kernel.__all__:
        assert hasattr(kernel, name), name
    exported = set(kernel.__all__)
    for name in _modules():
        if name.startswith("_"):
            continue
        module = importlib.import_module(f"pointline.kernel.{name}")
        # What a module lists as public is reachable from the package, not only from the module.
        missing = {n for n in module.__all__ if n not in exported}
        assert missing == MODULE_ONLY.get(name, set()), (name, sorted(missing))


def test_the_kernel_errors_are_one_tree_with_codes() -> None:
    for error in (MalformedAction, IllegalAction, BadState, DiceInputError):
        assert issubclass(error, PointlineError)
    assert issubclass(BadState, RulesError) and issubclass(DiceInputError, ValueError)
    refused = BadState(Invariant.PAYMENT, "seat 0: a payment")
    assert refused.code == "bad_state" and refused.invariant == "payment"
    assert str(refused) == "bad_state: seat 0: a payment"
    assert DiceInputError("a nonce is exactly 32 bytes").code == "bad_input"
    assert len({i.value for i in Invariant}) == len(Invariant)


def test_the_package_docstring_example_runs() -> None:
    failures, tried = doctest.testmod(kernel, verbose=False)
    assert tried >= 5 and failures == 0
