"""The documents' counts of cases, steps and mutants are the suite's (issue 37).

``tools/doc_counts.py`` reads each count from the suite (fixture headers, case ids, the mutant
registry) and compares it with the number the document states; ``--write`` rewrites them.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from tests.paths import ROOT

TOOL = ROOT / "tools" / "doc_counts.py"
DOCS = ("README.md", "conformance/PROTOCOL.md")


def _tool() -> ModuleType:
    """tools/doc_counts.py as a module (tools/ is a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("_tools_doc_counts", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


class _Done:
    def __init__(self, returncode: int, stdout: str) -> None:
        self.returncode, self.stdout = returncode, stdout


def _run(*args: str) -> _Done:
    """The tool's ``main`` in this process (its counts are computed once per module)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = TOOL_MODULE.main(list(args))
    return _Done(code, out.getvalue())


TOOL_MODULE = _tool()


def _copy_docs(to: Path) -> None:
    for name in DOCS:
        (to / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, to / name)


def test_the_documents_state_the_suites_counts() -> None:
    """As a person runs it: ``python tools/doc_counts.py`` finds nothing stale."""
    done = subprocess.run(
        [sys.executable, str(TOOL)], capture_output=True, text=True, timeout=60, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_a_stale_count_is_found_and_written_back(tmp_path: Path) -> None:
    _copy_docs(tmp_path)
    readme = tmp_path / "README.md"
    text = readme.read_text(encoding="utf-8")
    stale, n = re.subn(r"generated fixtures \([\d,]+ cases", "generated fixtures (7 cases", text)
    stale, m = re.subn(r"the runner and \d+ mutant", "the runner and 2 mutant", stale)
    assert (n, m) == (1, 1)
    readme.write_text(stale, encoding="utf-8")
    done = _run("--docs", str(tmp_path))
    assert done.returncode == 1
    assert re.search(r"README\.md:\d+: says 7, the suite has [\d,]+", done.stdout), done.stdout
    assert re.search(r"README\.md:\d+: says 2, the suite has \d+", done.stdout), done.stdout
    assert _run("--docs", str(tmp_path), "--write").returncode == 0
    assert readme.read_text(encoding="utf-8") == text  # the checkout's numbers, written back
    assert _run("--docs", str(tmp_path)).returncode == 0


def test_a_count_whose_words_changed_is_not_dropped(tmp_path: Path) -> None:
    _copy_docs(tmp_path)
    protocol = tmp_path / "conformance" / "PROTOCOL.md"
    text = protocol.read_text(encoding="utf-8")
    changed = text.replace("`malformed.duplicate.*` cases (", "`malformed.duplicate.*` (")
    assert changed != text
    protocol.write_text(changed, encoding="utf-8")
    for args in ((), ("--write",)):
        done = _run("--docs", str(tmp_path), *args)
        assert done.returncode == 1
        assert "found 0 times, not once" in done.stdout, done.stdout
