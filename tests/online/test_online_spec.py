"""spec/ONLINE.md's worked example is what the code computes: the script of §10 prints the
output block that follows it, byte for byte."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

ONLINE = Path(__file__).resolve().parents[2] / "spec" / "ONLINE.md"
HARNESS = Path(__file__).resolve().parents[2] / "conformance" / "online" / "HARNESS.md"


def _example() -> tuple[str, str]:
    text = ONLINE.read_text(encoding="utf-8")
    section = text[text.index("## 10. Worked example") : text.index("## 11.")]
    match = re.search(r"```python\n(.*?)```\n\nOutput:\n\n```text\n(.*?)```", section, re.DOTALL)
    assert match is not None
    return match.group(1), match.group(2)


def test_the_worked_example_prints_its_documented_output() -> None:
    script, documented = _example()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(script, "ONLINE.md §10", "exec"), {})
    assert out.getvalue() == documented


def test_the_worked_example_shows_a_rejected_byte() -> None:
    _, documented = _example()
    block = re.search(r"rejection block 0 +([0-9a-f]{64})", documented)
    assert block is not None and int(block.group(1)[:2], 16) >= 252
    assert "rejection dice     (2, 1, 2)" in documented


def test_the_harness_document_names_every_line_a_client_writes() -> None:
    text = HARNESS.read_text(encoding="utf-8")
    for op in (
        "hello",
        "wire",
        "joined",
        "started",
        "round",
        "throw",
        "complete",
        "ended",
        "error",
        "choose",
        "leave",
        "play",
        "verdict",
    ):
        assert f'"{op}"' in text or f'"op":"{op}"' in text, op
