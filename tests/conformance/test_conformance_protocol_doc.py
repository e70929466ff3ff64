"""PROTOCOL.md's examples are what the reference adapter answers, byte for byte: every `>` line
of the document's JSON examples is sent, in order, to one adapter, and its answer must be the
`<` line that follows (so a state is shown in canonical key order, and the examples cannot
drift from the adapter)."""

from __future__ import annotations

import io
import re
from pathlib import Path

from pointline.conformance.adapter import Adapter, serve

DOC = Path(__file__).resolve().parents[2] / "conformance" / "PROTOCOL.md"


def _exchanges() -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for block in re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("> "):
                assert lines[i + 1].startswith("< "), line
                pairs.append((line[2:], lines[i + 1][2:]))
    return pairs


def test_the_protocol_examples_are_the_reference_adapters_answers() -> None:
    pairs = _exchanges()
    assert len(pairs) >= 12
    out = io.StringIO()
    serve(Adapter(), io.StringIO("".join(request + "\n" for request, _ in pairs)), out)
    answers = out.getvalue().splitlines()
    assert len(answers) == len(pairs)
    for (request, documented), answer in zip(pairs, answers, strict=True):
        assert answer == documented, f"for {request}:\n  doc:     {documented}\n  adapter: {answer}"


def test_the_sub_codes_are_listed_in_the_order_the_kernel_checks_them() -> None:
    """PROTOCOL.md's tables under load_state name every check of ``kernel.invariants.CHECKS``
    once, in the table's order (the order ``load_state`` makes them), so a port reads the order
    the suite expects from the document alone."""
    from pointline.kernel.invariants import CHECK_ORDER

    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("The error names the first check") : text.index("## Canonical state")]
    listed = [
        code
        for code in re.findall(r"^\| `([a-z_]+)` \|", section, re.MULTILINE)
        if code != "invariant"  # the tables' header row
    ]
    checked = [invariant.value for invariant in CHECK_ORDER]
    assert listed == checked
    assert "`not_json`" in section
