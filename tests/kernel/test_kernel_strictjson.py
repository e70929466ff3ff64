"""kernel.strictjson: the strict reading side of the canonical encoder, for every layer."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pointline.kernel import PointlineError, StrictJSONError, canonical_text
from pointline.kernel.strictjson import MAX_DEPTH, DuplicateMember, check, loads
from tests.kernel.strict_texts import BAD_TEXTS


@pytest.mark.parametrize("name", sorted(BAD_TEXTS))
def test_loads_refuses_with_plain_words_in_the_error_tree(name: str) -> None:
    with pytest.raises(StrictJSONError) as caught:
        loads(BAD_TEXTS[name])
    error = caught.value
    assert isinstance(error, PointlineError) and isinstance(error, ValueError)
    assert error.code == "bad_json" and error.text and "Traceback" not in error.text
    assert isinstance(error, DuplicateMember) == ("duplicate" in name)


def test_check_refuses_parsed_values_the_same_way() -> None:
    with pytest.raises(StrictJSONError):
        check({"a": float("nan")})
    with pytest.raises(StrictJSONError):
        check(["x\ud800"])
    deep: list[object] = []
    for _ in range(MAX_DEPTH):
        deep = [deep]
    with pytest.raises(StrictJSONError):
        check(deep)
    check({"a": [1, {"b": "é\u2028🎲"}], "c": None})


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(st.characters(exclude_categories=("Cs",))),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(_json)
def test_what_the_canonical_encoder_writes_reads_back(doc: object) -> None:
    assert loads(canonical_text(doc)) == doc
