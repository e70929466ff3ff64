"""The Dice section of spec/RULES.md, implemented from its words alone, matches the kernel."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from pointline.kernel import commitment, derive_dice, dice_from_seed, dice_seed
from pointline.kernel.choice import Choice
from pointline.spec import render


def u16(n: int) -> bytes:
    return n.to_bytes(2, "big")


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def lp(data: bytes) -> bytes:
    return u32(len(data)) + data


def doc_commitment(table_id: str, index: int, seat: int, nonce: bytes, choices: bytes) -> bytes:
    message = (
        b"pointline/commit/v1\x00"
        + u16(1)
        + lp(table_id.encode())
        + u32(index)
        + bytes([seat])
        + nonce
        + lp(choices)
    )
    return hashlib.sha256(message).digest()


def doc_dice(table_id: str, index: int, nonces: list[bytes]) -> tuple[bytes, tuple[int, int]]:
    m = b"pointline/dice/v1\x00" + u16(1) + lp(table_id.encode()) + u32(index)
    seed = hashlib.sha256(m + bytes([len(nonces)]) + b"".join(nonces)).digest()
    faces: list[int] = []
    j = 0
    while len(faces) < 2:
        for b in hashlib.sha256(seed + u32(j)).digest():
            if b < 252 and len(faces) < 2:
                faces.append(b % 6 + 1)
        j += 1
    return seed, (faces[0], faces[1])


nonce = st.binary(min_size=32, max_size=32)


@settings(max_examples=200, deadline=None)
@given(
    table_id=st.text(max_size=12),
    index=st.integers(1, 2**32 - 1),
    nonces=st.lists(nonce, min_size=1, max_size=8),
    amounts=st.tuples(st.integers(0, 10), st.integers(0, 10)),
)
def test_the_documented_derivation_is_the_kernels(
    table_id: str, index: int, nonces: list[bytes], amounts: tuple[int, int]
) -> None:
    choices = Choice(10 * amounts[0], 10 * amounts[1]).to_bytes()
    assert commitment(table_id, index, 0, nonces[0], choices) == doc_commitment(
        table_id, index, 0, nonces[0], choices
    )
    seed, dice = doc_dice(table_id, index, nonces)
    assert dice_seed(table_id, index, nonces) == seed
    assert derive_dice(table_id, index, nonces) == dice


def test_rejected_bytes_are_skipped() -> None:
    """Find a seed whose first block starts with a byte >= 252: that byte gives no face."""
    for k in range(5000):
        seed = hashlib.sha256(u32(k)).digest()
        block = hashlib.sha256(seed + u32(0)).digest()
        if block[0] >= 252:
            d1, d2, rejected = dice_from_seed(seed)
            assert rejected >= 1
            accepted = [b for b in block if b < 252][:2]
            assert (d1, d2) == (accepted[0] % 6 + 1, accepted[1] % 6 + 1)
            return
    raise AssertionError("no seed with a rejected first byte in 5000 tries")


def test_the_worked_example_is_in_rules_md() -> None:
    text = render.RULES_PATH.read_text(encoding="utf-8")
    seed, (d1, d2) = doc_dice(render.EXAMPLE_TABLE, 1, list(render.EXAMPLE_NONCES))
    assert seed.hex() in text
    assert f"**{d1} and {d2}**" in text
