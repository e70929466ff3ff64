"""No import cycle in the kernel or the conformance suite, type-only imports included: the
modules' own imports (read from their source, not run) form a graph without a loop, so each
module can be read after the ones it imports (issue 31: ``_steps`` and ``table``, ``errors``
and ``rules``, the mutants' package and ``edges`` were loops)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"kernel": "pointline.kernel", "conformance": "pointline.conformance"}


def _modules(folder: str, package: str) -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join([package, *parts])] = path
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The known modules ``path`` imports anywhere in its source (under ``if TYPE_CHECKING``
    and inside functions too): ``from a.b import c`` names ``a.b.c`` when that is a module,
    else ``a.b``."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".")
                anchor = anchor if is_package else anchor[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
    return {module for module in found if module in known and module != name}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as the modules along it, or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def _graph() -> dict[str, set[str]]:
    modules: dict[str, Path] = {}
    for folder, package in PACKAGES.items():
        modules.update(_modules(folder, package))
    known = set(modules)
    return {name: _imports(name, path, known) for name, path in modules.items()}


def test_the_kernel_and_the_conformance_suite_have_no_import_cycle() -> None:
    graph = _graph()
    assert "pointline.kernel.table" in graph["pointline.kernel.canonical"]  # the scan sees imports
    cycle = _cycle(graph)
    assert cycle is None, " -> ".join(cycle or [])


@pytest.mark.parametrize(
    "graph",
    [{"a": {"b"}, "b": {"c"}, "c": {"a"}}, {"a": {"a2"}, "a2": {"a"}, "z": set()}],
)
def test_the_cycle_finder_finds_a_loop(graph: dict[str, set[str]]) -> None:
    assert _cycle(graph) is not None
    assert _cycle({"a": {"b"}, "b": set()}) is None
