"""Nothing outside tests imports tests (issue 31). import-linter holds this for our packages
and bench (pyproject ``[tool.importlinter]``, ``tox -e lint``); tools/ holds scripts, not a
package, so it is read here, with main.py, the same way: every import, lazy ones included."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from tests.paths import ROOT
from tests.shape.imports import PACKAGES, modules


def imports_of_tests(path: Path) -> list[int]:
    """The lines of ``path`` that import the ``tests`` package or a module of it."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        if any(name == "tests" or name.startswith("tests.") for name in names):
            lines.append(node.lineno)
    return lines


def test_the_reader_sees_an_import_of_tests(tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    script.write_text(
        "import testsuite\nfrom tests.net import support\n\ndef f():\n    import tests\n",
        encoding="utf-8",
    )
    assert imports_of_tests(script) == [2, 5]


def test_nothing_outside_tests_imports_tests() -> None:
    files = [ROOT / "main.py"]
    for folder in ("tools", "bench", *PACKAGES):
        files += sorted((ROOT / folder).rglob("*.py"))
    assert len(files) > 100 and ROOT / "tools" / "desktop_build.py" in files
    found = {
        f"{path.relative_to(ROOT)}:{line}" for path in files for line in imports_of_tests(path)
    }
    assert not found, f"these import tests: {sorted(found)}"


def test_each_command_names_the_module_that_defines_its_main() -> None:
    """An entry point never goes through a re-export (that is how the relay's command and the
    headless client each made a cycle with the module re-exporting them)."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "scripts"
    ]
    assert {"pointline", "pointline-relay", "pointline-client"} <= set(scripts)
    for command, target in scripts.items():
        module, _, function = target.partition(":")
        known = modules()
        assert module in known, f"{command}: no module {module}"
        tree = ast.parse(known[module].read_text(encoding="utf-8"))
        defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert function in defined, f"{command}: {module} does not define {function}"
