"""The z3 model writes the card's numbers down on its own (``spec/model.py``: the proofs are
about that model); they must be the kernel's (``kernel.values``), the one place the kernel and
every layer above it read them from, or the proofs would be about another table."""

from __future__ import annotations

from pointline.kernel import values
from pointline.spec import model, properties


def test_the_models_numbers_are_the_kernels() -> None:
    assert model.START == values.STARTING_POINTS
    assert model.UNIT == values.UNIT
    assert model.HAND_LIMIT == values.HAND_LIMIT
    assert model.HANDS == values.HANDS_PER_SESSION
    assert model.CAP == values.THROW_CAP
    assert frozenset(model.POINT_TOTALS) == values.POINT_NUMBERS


def test_the_properties_read_the_models_numbers() -> None:
    """``spec/properties.py`` states its invariants with the model's constants (no literal of
    its own): each number appears in the name of the property that bounds it."""
    names = [*properties.SEAT_INVARIANTS, *properties.TABLE_INVARIANTS]
    assert f"every amount is a non-negative multiple of {values.UNIT}" == properties.TENS
    assert any(f"at most {values.HAND_LIMIT}" in name for name in names)
    assert any(f"= {values.STARTING_POINTS})" in name for name in names)
    cap = f"throws <= {values.THROW_CAP} and resolved hands <= {values.HANDS_PER_SESSION}"
    assert cap in names
