"""net's public faces (issue 37): ``net.protocol`` is sans-IO — it imports no websockets and
opens, writes or names no file, reads no command line — and each face exports the names its
``__all__`` promises."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NET = ROOT / "net"
PROTOCOL = sorted((NET / "protocol").glob("*.py"))

# Calls and imports that mean I/O: a file opened, written, listed or removed; a socket; the
# command line; the process's streams.
IO_CALLS = frozenset({"open", "print", "input", "fdopen", "mkstemp", "unlink"})
IO_ATTRS = frozenset(
    {"read_text", "write_text", "read_bytes", "write_bytes", "mkdir", "iterdir", "fsync"}
)
IO_MODULES = frozenset(
    {"websockets", "socket", "asyncio", "argparse", "tempfile", "pathlib", "sqlite3", "shutil"}
)


def _io_uses(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in IO_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in IO_MODULES:
                found.append(node.module)
        elif isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name) and f.id in IO_CALLS:
                found.append(f"{f.id}()")
            elif isinstance(f, ast.Attribute) and (f.attr in IO_ATTRS or f.attr in IO_CALLS):
                found.append(f".{f.attr}()")
        elif (
            isinstance(node, ast.Attribute)
            and node.attr in ("argv", "stdout", "stderr", "stdin")
            and isinstance(node.value, ast.Name)
            and node.value.id == "sys"
        ):
            found.append(f"sys.{node.attr}")
    return found


@pytest.mark.parametrize("path", PROTOCOL, ids=lambda p: p.name)
def test_the_protocol_core_does_no_io(path: Path) -> None:
    assert _io_uses(path.read_text(encoding="utf-8")) == []


def test_the_io_check_finds_io() -> None:
    """The check above can fail: each kind of I/O it looks for is found."""
    planted = (
        "import websockets\nfrom pathlib import Path\nimport argparse\n"
        "open('x')\nPath('x').write_text('y')\nimport sys\nsys.argv\nprint(1)\n"
    )
    assert len(_io_uses(planted)) == 7


def test_the_protocol_core_loads_without_websockets() -> None:
    """The whole core (every private module behind the face) imports with websockets
    unavailable: the socket library belongs to the client and the relay."""
    code = (
        "import sys; sys.modules['websockets'] = None\n"
        "import pkgutil, importlib, pointline.net.protocol as p\n"
        "for m in pkgutil.iter_modules(p.__path__):\n"
        "    importlib.import_module('pointline.net.protocol.' + m.name)\n"
        "assert not any(n.startswith('websockets') for n in sys.modules if sys.modules[n])\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stdout.strip() == "ok", done.stderr


@pytest.mark.parametrize("face", ["protocol", "client", "relay"])
def test_each_face_exports_what_it_promises(face: str) -> None:
    module = importlib.import_module(f"pointline.net.{face}")
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert missing == []
    assert all(not name.startswith("_") for name in module.__all__)


FACES_CONTRACT = "gui and bench reach net only through its public faces"


def _private_modules() -> set[str]:
    """Every private module of net (a file named ``_x.py``, ``__init__`` and ``__main__`` aside),
    as import-linter names it."""
    return {
        "pointline." + ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for path in NET.rglob("_*.py")
        if not path.name.startswith("__")
    }


def test_the_faces_contract_names_every_private_module() -> None:
    """import-linter's forbidden list is written out by hand: a private module added behind a
    face (``_report``, ``_solo``, ``_split`` and the relay's ``_core`` were, after the list) would
    be open to gui/ and bench/ until someone added it. This holds the list to the files."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [
        c for c in config["tool"]["importlinter"]["contracts"] if c["name"] == FACES_CONTRACT
    ]
    assert contract["source_modules"] == ["pointline.gui", "bench"]
    private = _private_modules()
    assert {"pointline.net._ws", "pointline.net.relay._core"} <= private
    assert sorted(private - set(contract["forbidden_modules"])) == []
