"""spec/RULES.md is current and defines everything the kernel refers to."""

from __future__ import annotations

import re

from pointline.kernel import TRANSITIONS, Code, EndReason
from pointline.spec import render

TEXT = render.RULES_PATH.read_text(encoding="utf-8")
RULE_IDS = [f"R{i}" for i in range(1, 29)]


def test_generated_sections_are_current() -> None:
    stale = render.stale_sections(TEXT)
    assert not stale, f"run `python -m pointline.spec.render`: stale sections {stale}"


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


def _keys(doc: object, out: set[str]) -> set[str]:
    if isinstance(doc, dict):
        for key, value in doc.items():
            out.add(key)
            _keys(value, out)
    elif isinstance(doc, list):
        for value in doc:
            _keys(value, out)
    return out


def test_every_canonical_field_and_entry_type_is_documented() -> None:
    from pointline.kernel import (
        Abort,
        Allocate,
        Confirm,
        Line,
        ReduceDontPass,
        Roll,
        Table,
        Throw,
        to_document,
    )

    table = Table(2, "doc")
    for action in (
        Allocate(0, Line.PASS),
        Allocate(0, Line.DONT_PASS, 20),
        Confirm(0),
        Confirm(1),
        Throw(2, 2),
        ReduceDontPass(0),
        Roll(0),
        Roll(1),
        Throw(2, 2),
        Allocate(0, Line.DONT_PASS, 30),
        Confirm(0),
        Confirm(1),
    ):
        table.push(action)
    table.push(Abort(EndReason.DEPARTURE, 1))
    doc = to_document(table)
    section = TEXT.split("## Canonical state")[1].split("## What is proved")[0]
    for key in _keys(doc, set()):
        assert f"`{key}`" in section or f"`seats[i].{key}`" in section, key
    types = {e["type"] for s in doc["seats"] for e in s["ledger"]}
    assert types == {"contracted", "contract_changed", "throw", "settled", "refunded", "voided"}
    for kind in types:
        assert f"| `{kind}` |" in section
