"""spec/RULES.md is current and defines everything the kernel refers to."""

from __future__ import annotations

import re

from kernel import TRANSITIONS, Code, EndReason
from spec import render

TEXT = render.RULES_PATH.read_text(encoding="utf-8")
RULE_IDS = [f"R{i}" for i in range(1, 29)]


def test_generated_sections_are_current() -> None:
    stale = render.stale_sections(TEXT)
    assert not stale, f"run `python -m spec.render`: stale sections {stale}"


def test_staleness_is_detected() -> None:
    broken = TEXT.replace("`seat_sealed`", "`seat_closed`", 1)
    table_start = broken.index("<!-- BEGIN GENERATED: transitions -->")
    broken = broken[:table_start] + broken[table_start:].replace("| T1 |", "| T0 |", 1)
    assert "transitions" in render.stale_sections(broken)
    assert render.stale_sections(render.render(broken)) == []


def test_every_rule_is_defined_once_in_order() -> None:
    defined = re.findall(r"^\*\*(R\d+) — ", TEXT, flags=re.MULTILINE)
    assert defined == RULE_IDS


def test_every_rule_cited_by_the_kernel_is_defined() -> None:
    cited = {rule for row in TRANSITIONS for rule in row.rules}
    assert cited <= set(RULE_IDS)


def test_every_code_and_reason_is_listed() -> None:
    for code in Code:
        assert f"| `{code.code}` | {'malformed' if code.malformed else 'illegal'} |" in TEXT
    for reason in EndReason:
        assert f"| `{reason.value}` |" in TEXT


def test_every_row_is_rendered() -> None:
    body = TEXT.split("<!-- BEGIN GENERATED: transitions -->")[1].split("<!-- END")[0]
    rows = [line for line in body.splitlines() if line.startswith("| T")]
    assert len(rows) == len(TRANSITIONS)
