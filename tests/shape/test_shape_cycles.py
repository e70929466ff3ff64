"""No import cycle anywhere in our packages (issue 31): a module's imports, lazy and type-only
ones included, never lead back to it. The layers between packages are import-linter's
contracts (pyproject ``[tool.importlinter]``, ``tox -e lint``); this holds inside them too."""

from __future__ import annotations

from pathlib import Path

from tests.shape.imports import Import, cycles, imports, modules


def _described(component: list[str], edges: list[Import]) -> str:
    inside = set(component)
    lines = [
        f"  {edge.source} -> {edge.target} (line {edge.line})"
        for edge in edges
        if edge.source in inside and edge.target in inside
    ]
    return "\n".join([" <-> ".join(component), *sorted(set(lines))])


def test_the_graph_reader_sees_lazy_type_only_and_relative_imports(tmp_path: Path) -> None:
    files = {
        "p": "",
        "p.a": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.b import B\n",
        "p.b": "def main() -> None:\n    from . import c\n",
        "p.c": "import p.d.e as e\nfrom p import a, missing\nfrom .d import f\n",
        "p.d": "",
        "p.d.e": "",
        "p.d.f": "from .. import c\nimport os\n",
    }
    known: dict[str, Path] = {}
    for name, text in files.items():
        path = tmp_path / (
            name.replace(".", "_") + ("/__init__.py" if name in ("p", "p.d") else ".py")
        )
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        known[name] = path
    pairs = {(e.source, e.target) for e in imports(known)}
    assert pairs == {
        ("p.a", "p.b"),  # type-only
        ("p.b", "p.c"),  # inside a function, relative
        ("p.c", "p.d.e"),
        ("p.c", "p.a"),
        ("p.c", "p"),  # a name the package itself defines
        ("p.c", "p.d.f"),
        ("p.d.f", "p.c"),  # two levels up
    }
    # one component: p.a -> p.b -> p.c -> p.a, and p.c <-> p.d.f through it
    assert cycles(list(imports(known))) == [["p.a", "p.b", "p.c", "p.d.f"]]


def test_a_made_up_cycle_is_found() -> None:
    edges = [Import("a", "b", 1), Import("b", "c", 2), Import("c", "a", 3), Import("c", "d", 4)]
    assert cycles(edges) == [["a", "b", "c"]]
    assert cycles(edges[1:]) == []


def test_no_import_cycle() -> None:
    edges = list(imports(modules()))
    found = cycles(edges)
    assert not found, "import cycles:\n" + "\n".join(_described(c, edges) for c in found)
