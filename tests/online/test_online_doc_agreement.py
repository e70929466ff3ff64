"""spec/ONLINE.md is the authority, and where it and the code both hold a table, they agree: a
disagreement is a bug in one of them (issue 33). Each test reads the table out of the text and
compares it with what the code does."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, get_args

import pytest

from pointline.kernel import EndReason
from pointline.net.errors import MessageError
from pointline.net.protocol import _wire as wire
from pointline.net.relay._cli import build_parser

ONLINE = Path(__file__).resolve().parents[2] / "spec" / "ONLINE.md"
TEXT = ONLINE.read_text(encoding="utf-8")


def _section(start: str, end: str) -> str:
    """The text between the first line holding ``start`` and the next holding ``end``."""
    head = TEXT.index(start)
    return TEXT[head : TEXT.index(end, head + len(start))]


def _rows(text: str) -> list[list[str]]:
    """The cells of each table row in ``text`` (header and rule rows left out)."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not re.match(r"\|\s*-", line):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows[1:]


def _names(cell: str) -> list[str]:
    """The backticked names in ``cell`` outside parentheses."""
    return re.findall(r"`([^`]+)`", re.sub(r"\([^)]*\)", "", cell))


# ---------------------------------------------------------------------------- the authority


DEFERRING = re.compile(
    r"(code|implementation|reference)( itself)? (is|are|stays|remains) (authoritative|"
    r"the authority|normative)|(code|implementation) (wins|prevails|decides)"
)


def _defers(text: str) -> re.Match[str] | None:
    """Where ``text`` (line breaks and case aside) says the code, not the text, decides."""
    return DEFERRING.search(" ".join(text.split()).lower())


def test_the_text_never_again_defers_to_the_code() -> None:
    assert _defers(TEXT) is None
    assert "this text is the authority" in " ".join(TEXT.split()).lower()


@pytest.mark.parametrize(
    "line",
    [
        "where this text and the code disagree, the code is\nauthoritative",
        "The implementation is authoritative.",
        "if in doubt the code wins",
        "The reference code remains normative.",
    ],
)
def test_the_check_catches_the_ways_of_saying_it(line: str) -> None:
    assert _defers(line) is not None


# ---------------------------------------------------------------------------- error codes


def test_the_rejected_codes_and_their_endings_are_the_message_errors() -> None:
    table = _rows(_section("**When a frame is refused, and its code.**", "Before completion"))
    documented = {(_names(row[0])[0], _names(row[2])[0]) for row in table}
    classes: list[type[MessageError]] = []
    todo = list(MessageError.__subclasses__())
    while todo:
        cls = todo.pop()
        classes.append(cls)
        todo.extend(cls.__subclasses__())
    assert classes
    in_code = set()
    for cls in classes:
        assert cls.reason is not None
        in_code.add((str(cls.code), cls.reason.value))
    assert documented == in_code


def test_the_end_reasons_are_the_kernels() -> None:
    listed = _names(_section("`EndReason` values:", "\n\n"))[1:]
    assert sorted(listed) == sorted(r.value for r in EndReason)


def test_the_relay_error_codes_are_the_wire_error_codes() -> None:
    listed = _names(_section("Error codes: `bad_frame`", "\n\n"))
    assert len(listed) == len(set(listed))
    assert set(listed) == {code.value for code in wire.ErrorCode}


# ---------------------------------------------------------------------------- §9's fields

SAMPLE: dict[str, Any] = {
    "name": "alice",
    "password": "a password",
    "old_password": "a password",
    "new_password": "another one",
    "token": "t" * 43,
    "session_key": "a" * 64,
    "code": "K7QX2M",
    "payload": {"kind": "commit"},
    "seat": 1,
    "creator": "alice",
    "roster": [{"seat": 0, "name": "alice", "session_key": "a" * 64}],
    "table_id": "3f9c0a1b2d4e5f60",
    "roster_sig": "b" * 128,
    "from_seat": 0,
    "relay_key": "c" * 64,
    "host": "alice",
    "message": "plain words",
    "url": "wss://relay.example.org:8765",
    "received": 3,
    "retry_after": 2,
}


def _frames(title: str, end: str) -> dict[str, tuple[list[str], list[str]]]:
    """op -> (required fields, optional fields), as §9's table under ``title`` lists them."""
    out = {}
    for row in _rows(_section(title, end)):
        op = _names(row[0])[0]
        fields = re.findall(r"`(\w+)`( \(optional)?", row[1])
        out[op] = ([f for f, opt in fields if not opt], [f for f, opt in fields if opt])
    return out


CLIENT = _frames("Client → relay:", "Relay → client:")
RELAY = _frames("Relay → client:", "**Request ids.**")


@pytest.mark.parametrize(
    ("frames", "parse", "union"),
    [
        (CLIENT, wire.parse_client, wire.ClientFrame),
        (RELAY, wire.parse_relay, wire.RelayFrame),
    ],
    ids=["client", "relay"],
)
def test_every_frame_of_the_tables_parses_with_exactly_its_fields(
    frames: dict[str, tuple[list[str], list[str]]], parse: Any, union: Any
) -> None:
    seen = set()
    for op, (required, optional) in frames.items():
        for extra in ([], optional):
            doc = {"op": op, **{f: SAMPLE[f] for f in [*required, *extra]}}
            frame = parse(_json(doc))
            seen.add(type(frame))
            # and what the code writes for that frame is exactly those fields
            assert set(wire.to_document(frame)) == set(doc), op
            for missing in required:
                partial = {k: v for k, v in doc.items() if k != missing}
                with pytest.raises(wire.WireError) as refused:
                    parse(_json(partial))
                assert refused.value.code == wire.ErrorCode.BAD_FRAME, (op, missing)
            with pytest.raises(wire.WireError):
                parse(_json({**doc, "unlisted": 1}))
            parse(_json({**doc, "id": 7}))  # every frame may carry an id
    # every frame the code knows is in the table
    assert seen == set(get_args(union))


def _json(doc: dict[str, Any]) -> str:
    return json.dumps(doc)


# ---------------------------------------------------------------------------- the limits

KIB_FLAGS = {"--hash-memory": 1024}
"""Flags whose parser value is in KiB (the table gives every size in KiB)."""


def _amount(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)\s*(KiB|s|h|/s)?", text.strip()).groups()  # type: ignore[union-attr]
    return float(number) * {"KiB": 1024, "h": 3600}.get(unit or "", 1)


def test_the_limits_table_is_the_relays_defaults_and_flags() -> None:
    parser = build_parser()
    defaults = vars(parser.parse_args([]))
    table = _rows(_section("### Limits", "The outbox:"))
    documented = set()
    for row in table:
        flags = _names(row[0])
        values = row[1].split(",")
        assert len(values) == len(flags), row
        for flag, value in zip(flags, values, strict=True):
            documented.add(flag)
            dest = flag.lstrip("-").replace("-", "_")
            assert dest in defaults, f"{flag} is no pointline-relay flag"
            assert _amount(value) == defaults[dest] * KIB_FLAGS.get(flag, 1), (flag, value)
    assert len(documented) >= 15
    groups = {g.title: g for g in parser._action_groups}
    limit_flags = {a.option_strings[0] for a in groups["abuse limits"]._group_actions}
    assert documented == limit_flags | {"--max-size"}
