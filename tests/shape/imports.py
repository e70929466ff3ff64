"""Our packages' import graph as the source states it, read with ``ast`` (nothing imported).

Every import counts wherever it is written: at the top, inside a function (a lazy import) or
under ``if TYPE_CHECKING:`` (a type-only import still ties the two modules' shapes together).
``from pkg import name`` points at ``pkg.name`` when that is a module, else at ``pkg``.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.paths import ROOT

_SETUP = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
PACKAGES = tuple(sorted(_SETUP["package-dir"].values()))
"""The checkout's folders that install as ``pointline.<folder>`` (pyproject's package-dir)."""


@dataclass(frozen=True, slots=True)
class Import:
    source: str
    target: str
    line: int


def modules() -> dict[str, Path]:
    """``pointline.*`` module name -> its file, for every package folder."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(("pointline", *parts))] = path
    return found


def _resolved(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def imports(known: dict[str, Path]) -> Iterator[Import]:
    """Every import from one of our modules to another (not to itself)."""
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolved(node, module, path.name == "__init__.py")
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    targets.append(full if full in known else base)
            for target in targets:
                while target and target not in known:  # import a.b.c of a module a.b
                    target = target.rpartition(".")[0]
                if target and target != module:
                    yield Import(module, target, node.lineno)


def cycles(edges: list[Import]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)
        graph.setdefault(edge.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)
