"""The canonical state JSON is RFC 8785 (JCS), restricted to integers: checked against the
`rfc8785` package (Trail of Bits' implementation of the RFC) over every document in the
conformance fixtures and over documents hypothesis draws (non-ASCII, astral characters, control
characters, U+2028/U+2029, DEL, `/`, NUL, BOM)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from pointline.kernel.canonical import dumps
from tests.paths import FIXTURES

SAFE = 2**53 - 1
"""JCS numbers are IEEE doubles: the integers it writes exactly are those up to 2^53 - 1."""

SPECIAL = '/\\"\x00\x01\x08\x09\x0a\x0c\x0d\x1f\x7f\x80\u00e9\u2028\u2029\ufeff\uffff🎲𝄞\U0010ffff'


def _documents() -> Iterator[Any]:
    """Every state document the fixtures hold: expected states and summaries, loaded ones."""
    for path in sorted(FIXTURES.glob("*.json")):
        for case in json.loads(path.read_bytes())["cases"]:
            for step in case["steps"]:
                expect = step["expect"]
                for key in ("state", "summary"):
                    if key in expect:
                        yield expect[key]
                if step.get("op") == "load_state" and "state" in step:
                    yield step["state"]


def test_every_fixture_document_is_jcs() -> None:
    count = 0
    for doc in _documents():
        assert dumps(doc) == rfc8785.dumps(doc), doc
        count += 1
    assert count > 2_000


def test_the_worked_example_is_jcs() -> None:
    # The 244 bytes of PROTOCOL.md's fresh one-seat table.
    doc = json.loads(
        '{"ending":null,"hands_resolved":0,"phase":"come_out","point":null,"result":null,'
        '"seats":[{"balance":1000,"contracts":{"dont_pass":0,"pass":0},'
        '"draft":{"dont_pass":0,"pass":0},"ledger":[],"sealed":false}],'
        '"table_id":"doc","throws":0,"version":1}'
    )
    assert len(dumps(doc)) == 244 and dumps(doc) == rfc8785.dumps(doc)


_text = st.text(
    alphabet=st.one_of(
        st.sampled_from(SPECIAL), st.characters(exclude_categories=("Cs",))
    ),  # lone surrogates are not Unicode text: both refuse them
    max_size=12,
)
_name = st.text(
    # Member names within the BMP: JCS sorts names by UTF-16 code units, the canonical JSON by
    # code points, and the two orders differ only for names beyond U+FFFF (state names are ASCII).
    alphabet=st.one_of(
        st.sampled_from(SPECIAL[:-3]),
        st.characters(max_codepoint=0xFFFF, exclude_categories=("Cs",)),
    ),
    max_size=6,
)
_documents_drawn = st.recursive(
    st.none() | st.booleans() | st.integers(-SAFE, SAFE) | _text,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_name, inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(_documents_drawn)
def test_drawn_documents_are_jcs(doc: Any) -> None:
    assert dumps(doc) == rfc8785.dumps(doc)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(_name, _text, min_size=2, max_size=8))
def test_member_names_sort_alike(doc: dict[str, str]) -> None:
    assert dumps(doc) == rfc8785.dumps(doc)
