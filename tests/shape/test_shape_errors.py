"""Every public error class is in its package's drawn tree, under its real parent (issue 31).

Each package that defines a public exception draws its branch of the one error tree in the
docstring of its ``errors`` module (``kernel/errors.py``, ``net/errors.py``, ...). This reads
those drawings and every class statement with ``ast`` (nothing imported): a public exception
class missing from its package's drawing, a drawn name that is no exception of the package, or
a class drawn under another parent than one of its bases, each fails. Exceptions that never
leave their module are private by name (``_Fault``) and need no place in the tree.
"""

from __future__ import annotations

import ast
import builtins
import re
from pathlib import Path

import pytest

from tests.paths import ROOT
from tests.shape.imports import PACKAGES

ROOT_ERROR = "PointlineError"
BRANCH = re.compile(r"[├└]── (\w+)")


def drawn_tree(doc: str) -> dict[str, str | None]:
    """A docstring's tree (the indented block after ``::``) as name -> drawn parent."""
    lines = doc.split("::\n", 1)[1].splitlines()
    parents: dict[str, str | None] = {}
    path: list[str] = []  # the names from the root down to the last line's depth
    root_column = None
    for line in lines:
        if line.strip() and not line.startswith(" "):
            break  # the block ends at the first line back at the margin
        branch = BRANCH.search(line)
        if root_column is None:
            if line.strip():
                name = line.split()[0]
                root_column = len(line) - len(line.lstrip())
                path, parents[name] = [name], None
            continue
        if branch is None:
            continue  # a continuation of the words on the line above
        depth = (branch.start() - root_column) // 4 + 1
        name = branch.group(1)
        assert 1 <= depth <= len(path), f"{name} is drawn deeper than the line above it"
        parents[name] = path[depth - 1]
        path = [*path[:depth], name]
    return parents


def exception_classes() -> dict[str, dict[str, tuple[str, list[str]]]]:
    """package -> class name -> (file, base names), for every exception class it defines."""
    defined: dict[str, list[tuple[str, str, list[str]]]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
                if isinstance(node, ast.ClassDef):
                    bases = [
                        b.id if isinstance(b, ast.Name) else b.attr
                        for b in node.bases
                        if isinstance(b, (ast.Name, ast.Attribute))
                    ]
                    rel = path.relative_to(ROOT).as_posix()
                    defined.setdefault(node.name, []).append((package, rel, bases))
    errors = {
        name
        for name in dir(builtins)
        if isinstance(getattr(builtins, name), type)
        and issubclass(getattr(builtins, name), BaseException)
    }
    grew = True
    while grew:  # a class is an exception when one of its bases is
        grew = False
        for name, places in defined.items():
            if name not in errors and any(b in errors for _, _, bases in places for b in bases):
                errors.add(name)
                grew = True
    found: dict[str, dict[str, tuple[str, list[str]]]] = {}
    for name, places in defined.items():
        if name in errors:
            for package, rel, bases in places:
                found.setdefault(package, {})[name] = (rel, bases)
    return found


def test_the_tree_reader_follows_the_drawing() -> None:
    doc = """Errors.

::

    PointlineError                  root
    ├── A                           words
    │   ├── B                       words,
    │                               more words
    │   └── C
    │       └── D
    └── E

After the block.
"""
    assert drawn_tree(doc) == {
        "PointlineError": None,
        "A": "PointlineError",
        "B": "A",
        "C": "A",
        "D": "C",
        "E": "PointlineError",
    }


def problems(package: str, classes: dict[str, tuple[str, list[str]]], doc: str | None) -> list[str]:
    """What is wrong with ``package``'s drawing (``doc``) for the exception ``classes`` it
    defines (name -> (file, base names)); empty when every public one is drawn in place."""
    public = {name for name in classes if not name.startswith("_")}
    if doc is None or "::\n" not in doc:
        return [f"{package} defines {sorted(public)} but draws no tree in {package}/errors.py"]
    tree = drawn_tree(doc)
    found = [f"{name} ({classes[name][0]}) is not drawn" for name in sorted(public - set(tree))]
    drawn_only = set(tree) - public - {ROOT_ERROR}
    found += [f"{name} is drawn but no public exception" for name in sorted(drawn_only)]
    found += [
        f"{name} is drawn under {parent}, its bases are {classes[name][1]}"
        for name, parent in tree.items()
        if parent is not None and name in classes and parent not in classes[name][1]
    ]
    if next(iter(tree), None) != ROOT_ERROR:
        found.append(f"the tree's root is not {ROOT_ERROR}")
    return found


def test_a_class_left_out_misplaced_or_gone_is_found() -> None:
    doc = "Tree.\n\n::\n\n    PointlineError\n    ├── A\n    │   └── B\n    └── Gone\n"
    classes = {
        "A": ("p/a.py", ["PointlineError"]),
        "B": ("p/b.py", ["PointlineError"]),  # drawn under A
        "C": ("p/c.py", ["A"]),  # not drawn
        "_Private": ("p/c.py", ["Exception"]),  # needs no place
    }
    assert problems("p", classes, doc) == [
        "C (p/c.py) is not drawn",
        "Gone is drawn but no public exception",
        "B is drawn under A, its bases are ['PointlineError']",
    ]
    assert problems("p", classes, "No tree.") == [
        "p defines ['A', 'B', 'C'] but draws no tree in p/errors.py"
    ]
    fixed = "Tree.\n\n::\n\n    PointlineError\n    ├── A\n    │   └── C\n    └── B\n"
    assert problems("p", classes, fixed) == []


CLASSES = exception_classes()


@pytest.mark.parametrize("package", sorted(CLASSES))
def test_every_public_exception_is_drawn_under_its_parent(package: str) -> None:
    errors_module = ROOT / package / "errors.py"
    doc = None
    if errors_module.exists():
        doc = ast.get_docstring(ast.parse(errors_module.read_text(encoding="utf-8")))
    assert problems(package, CLASSES[package], doc) == []


def test_the_packages_with_exceptions_are_the_ones_expected() -> None:
    # the scan finds each package's errors (a broken scan would pass every drawing vacuously)
    assert set(CLASSES) >= {"kernel", "net", "conformance", "gui"}
    assert {"NetError", "CertificateNotTrusted", "PresenceUnavailable"} <= set(CLASSES["net"])


def _names_used(path: Path) -> set[str]:
    used: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Name):
            used.add(node.id)
        elif isinstance(node, ast.Attribute):
            used.add(node.attr)
        elif isinstance(node, ast.alias):
            used.add(node.name)
    return used


def test_errors_that_never_leave_their_module_are_private() -> None:
    """``_Fault`` and its kind are raised and caught in one module: no other code names them."""
    private = {
        name: rel
        for classes in CLASSES.values()
        for name, (rel, _) in classes.items()
        if name.startswith("_")
    }
    assert "_Fault" in private  # the peer's
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            leaked = {n for n in _names_used(path) & set(private) if private[n] != rel}
            assert not leaked, f"{rel} names {sorted(leaked)} of another module"
