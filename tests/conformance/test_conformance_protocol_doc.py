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


_CITED = re.compile(r"`((?:loading|malformed|dice|commitment|rows|canonical)\.[^`\s]+)`")


def test_every_case_the_document_cites_is_in_the_fixtures() -> None:
    """A case id PROTOCOL.md names (``loading.invalid.ending_without_seat``, or a family such as
    ``malformed.hello.*``) is a case of the committed fixtures, so a sentence cannot point at a
    case that was renamed or never written."""
    fixtures = Path(__file__).resolve().parents[2] / "conformance" / "fixtures"
    ids = {
        found.decode()
        for path in fixtures.glob("*.json")
        for found in re.findall(rb'"id":"([^"]+)"', path.read_bytes())
    }
    cited = set(_CITED.findall(DOC.read_text(encoding="utf-8")))
    assert len(cited) >= 20
    missing = []
    for name in sorted(cited):
        if "*" in name:
            prefix = name.split("*", 1)[0]
            if not any(i.startswith(prefix) for i in ids):
                missing.append(name)
        elif name not in ids:
            missing.append(name)
    assert missing == []
