"""Render the generated sections of ``spec/RULES.md`` from the kernel.

``python -m pointline.spec.render`` rewrites every section between
``<!-- BEGIN GENERATED: name -->`` and ``<!-- END GENERATED: name -->``;
``python -m pointline.spec.render --check`` exits 1 when the file is stale (a test runs the check).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

from pointline.kernel import (
    ABORT_REASONS,
    THROW_CAP,
    TRANSITIONS,
    UNIT,
    Allocate,
    Choice,
    Code,
    Confirm,
    EndReason,
    Guard,
    Line,
    ReduceDontPass,
    Roll,
    Table,
    Throw,
    Transition,
    canonical,
    dice,
    ordinal,
)
from pointline.kernel.invariants import CHECKS, CheckStage

__all__ = [
    "EXAMPLE_NONCES",
    "EXAMPLE_TABLE",
    "RULES_PATH",
    "SECTIONS",
    "canonical_example",
    "checks",
    "codes",
    "dice_example",
    "main",
    "reasons",
    "render",
    "stale_sections",
    "transitions",
]

RULES_PATH = Path(__file__).with_name("RULES.md")
_BLOCK = re.compile(
    r"(<!-- BEGIN GENERATED: (?P<name>[a-z-]+) -->\n)(?P<body>.*?)"
    r"(<!-- END GENERATED: (?P=name) -->)",
    re.DOTALL,
)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _guard(g: Guard) -> str:
    return f"{g.text} → `{g.code.code}`"


def _row_line(n: int, row: Transition) -> str:
    guards = "<br>".join(f"{i}. {_guard(g)}" for i, g in enumerate(row.guards, 1)) or "—"
    if row.effect is not None:
        result = f"**accept**: {row.effect.value}"
    else:
        assert row.reject is not None
        result = f"**reject** `{row.reject.code}`"
    outcomes = "—"
    if row.pass_outcome is not None and row.dont_pass_outcome is not None:
        outcomes = f"Pass {row.pass_outcome.value}, Don't Pass {row.dont_pass_outcome.value}"
    then = "—" if row.then is None else row.then.value
    cells = [
        f"T{n}",
        f"`{row.phase.value}`",
        f"`{row.kind.value}`",
        row.when.value,
        guards,
        result,
        outcomes,
        then,
        ", ".join(row.rules),
    ]
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def transitions() -> str:
    head = [
        "| row | phase | action | when | guards, in order → code | result | settles | then |"
        " rules |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    return "\n".join(head + [_row_line(i, r) for i, r in enumerate(TRANSITIONS, 1)]) + "\n"


def codes() -> str:
    lines = [
        "| code | class | text | when |",
        "| --- | --- | --- | --- |",
    ]
    for code in Code:
        where = _code_use(code)
        kind = "malformed" if code.malformed else "illegal"
        lines.append(f"| `{code.code}` | {kind} | {_cell(code.text)} | {_cell(where)} |")
    return "\n".join(lines) + "\n"


_MALFORMED_WHEN = {
    Code.BAD_ACTION: "the input is not one of the eight actions (checked before anything else)",
    Code.BAD_SEAT: "a seat action, or an Abort naming a seat, names no seat 0..N−1"
    " (also: a table of other than 1–8 seats)",
    Code.BAD_LINE: "an Allocate names neither Pass nor Don't Pass",
    Code.BAD_AMOUNT: f"an Allocate amount is not a whole number > 0 and a multiple of {UNIT}",
    Code.BAD_DIE: "a Throw face is not a whole number 1..6",
    Code.BAD_REASON: "an Abort reason is not one of: "
    + ", ".join(f"`{r.value}`" for r in EndReason if r in ABORT_REASONS),
}


def _code_use(code: Code) -> str:
    if code in _MALFORMED_WHEN:
        return _MALFORMED_WHEN[code]
    rows: list[str] = []
    for n, row in enumerate(TRANSITIONS, 1):
        if row.reject is code or any(g.code is code for g in row.guards):
            rows.append(f"T{n}")
    if code is Code.SESSION_OVER:
        return f"every action once the session is complete or ended (rows {rows[0]}–{rows[-1]})"
    return ("row " if len(rows) == 1 else "rows ") + ", ".join(rows)


def reasons() -> str:
    lines = ["| reason | in an Abort | meaning |", "| --- | --- | --- |"]
    meaning = {
        EndReason.THROW_CAP: f"the {ordinal(THROW_CAP)} throw did not complete the session (R22)",
        EndReason.DEPARTURE: "a seat left the table",
        EndReason.BACKGROUND: "a seat's app went to the background (online)",
        EndReason.BAD_REVEAL: "a reveal did not match its commitment",
        EndReason.DEADLINE: "a deadline passed (confirm, peer response, session, receipts)",
        EndReason.BAD_SIGNATURE: "a protocol message failed its signature check",
        EndReason.REPLAY: "a protocol message was replayed",
        EndReason.NON_MEMBER: "a message came from someone not in the room",
        EndReason.MALFORMED: "a protocol message could not be read",
    }
    for r in EndReason:
        allowed = "yes" if r in ABORT_REASONS else "no (reached only by throwing)"
        lines.append(f"| `{r.value}` | {allowed} | {meaning[r]} |")
    return "\n".join(lines) + "\n"


_STAGE_WORDS = {
    CheckStage.DOCUMENT: "the document as read",
    CheckStage.TABLE: "the table",
    CheckStage.SEAT: "each seat, in seat order",
    CheckStage.LEDGER: "each seat's ledger, one reading",
    CheckStage.LAST: "the document re-encoded",
}


def checks() -> str:
    """The checks of ``load_state`` in the order they are made (``kernel.invariants.CHECKS``)."""
    lines = ["| order | sub-code | checked on | the check |", "| --- | --- | --- | --- |"]
    for n, check in enumerate(CHECKS, 1):
        where = _STAGE_WORDS[check.stage]
        lines.append(f"| {n} | `{check.invariant.value}` | {where} | {check.invariant.text} |")
    return "\n".join(lines) + "\n"


EXAMPLE_TABLE = "example-table"
EXAMPLE_NONCES = (bytes(range(32)), bytes(range(32, 64)))


def dice_example() -> str:
    throw_index = 1
    choice = Choice(10, 20).to_bytes()
    commit = dice.commitment(EXAMPLE_TABLE, throw_index, 0, EXAMPLE_NONCES[0], choice)
    seed = dice.dice_seed(EXAMPLE_TABLE, throw_index, EXAMPLE_NONCES)
    d1, d2, rejected = dice.dice_from_seed(seed)
    block0 = hashlib.sha256(seed + (0).to_bytes(4, "big")).digest()
    message = b"".join(
        (
            dice.DICE_DOMAIN,
            dice.PROTOCOL_VERSION.to_bytes(2, "big"),
            len(EXAMPLE_TABLE.encode()).to_bytes(4, "big"),
            EXAMPLE_TABLE.encode(),
            throw_index.to_bytes(4, "big"),
            bytes([len(EXAMPLE_NONCES)]),
            *EXAMPLE_NONCES,
        )
    )
    assert hashlib.sha256(message).digest() == seed
    lines = [
        f"- table id: `{EXAMPLE_TABLE}` (UTF-8, {len(EXAMPLE_TABLE.encode())} bytes);"
        f" throw index: {throw_index}; two seats; protocol version {dice.PROTOCOL_VERSION}",
        f"- nonce of seat 0: `{EXAMPLE_NONCES[0].hex()}`",
        f"- nonce of seat 1: `{EXAMPLE_NONCES[1].hex()}`",
        f"- seat 0's choices: `{choice.decode()}` (hex `{choice.hex()}`)",
        f"- seat 0's commitment: `{commit.hex()}`",
        f"- seed message m ({len(message)} bytes): `{message.hex()}`",
        f"- dice seed = SHA-256(m): `{seed.hex()}`",
        f"- block 0 = SHA-256(seed ‖ `00000000`): `{block0.hex()}`",
        f"- dice: **{d1} and {d2}** (total {d1 + d2}); bytes rejected on the way: {rejected}",
        "- how: " + "; ".join(_consumed(block0)),
    ]
    return "\n".join(lines) + "\n"


def canonical_example() -> str:
    table = Table(seats=1, table_id="doc")
    for action in (
        Allocate(0, Line.PASS),
        Allocate(0, Line.DONT_PASS, 20),
        Confirm(0),
        Throw(2, 2),
        ReduceDontPass(0),
        Roll(0),
    ):
        table.push(action)
    doc = canonical.to_document(table)
    pretty = json.dumps(doc, sort_keys=True, indent=2)
    lines = [
        "After Allocate Pass 10, Allocate Don't Pass 20, Confirm, Throw 2+2 (point 4),"
        " Reduce Don't Pass, Roll on a one-seat table `doc` (shown indented for reading;"
        " the canonical bytes have no spaces or newlines):",
        "",
        "```json",
        pretty,
        "```",
        "",
        f"Canonical bytes ({len(canonical.dumps(doc))} bytes) hash (SHA-256, hex):"
        f" `{canonical.state_hash(table)}`",
    ]
    return "\n".join(lines) + "\n"


def _consumed(block: bytes) -> list[str]:
    """How the first bytes of a block become faces (until two faces are found)."""
    out: list[str] = []
    faces = 0
    for i, b in enumerate(block):
        if b >= dice.ACCEPT_BELOW:
            out.append(f"byte {i} = {b} ≥ 252, rejected")
            continue
        faces += 1
        out.append(f"byte {i} = 0x{b:02x} = {b}, {b} mod 6 + 1 = {b % 6 + 1} (die {faces})")
        if faces == 2:
            break
    return out


SECTIONS: dict[str, Callable[[], str]] = {
    "transitions": transitions,
    "codes": codes,
    "reasons": reasons,
    "checks": checks,
    "dice-example": dice_example,
    "canonical-example": canonical_example,
}


def render(text: str) -> str:
    """``text`` with every generated section replaced by its current rendering."""
    seen: set[str] = set()

    def sub(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in SECTIONS:
            raise KeyError(f"unknown generated section {name!r}")
        seen.add(name)
        return match.group(1) + SECTIONS[name]() + match.group(4)

    out = _BLOCK.sub(sub, text)
    missing = set(SECTIONS) - seen
    if missing:
        raise KeyError(f"RULES.md lacks generated sections: {sorted(missing)}")
    return out


def stale_sections(text: str) -> list[str]:
    """Names of the generated sections whose text differs from a fresh rendering."""
    stale = []
    found = {m.group("name"): m.group("body") for m in _BLOCK.finditer(text)}
    for name, make in SECTIONS.items():
        if found.get(name) != make():
            stale.append(name)
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pointline.spec.render", description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if RULES.md is stale")
    args = parser.parse_args(argv)
    text = RULES_PATH.read_text(encoding="utf-8")
    if args.check:
        stale = stale_sections(text)
        for name in stale:
            print(f"stale: {name}")
        return 1 if stale else 0
    new = render(text)
    if new != text:
        RULES_PATH.write_text(new, encoding="utf-8")
        print(f"updated {RULES_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
