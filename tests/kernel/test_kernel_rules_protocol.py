"""R26..R28, one test each through the kernel's public API: the commitment, the dice
derivation and the canonical state (R1..R25 are in ``test_kernel_rules.py``)."""

from __future__ import annotations

import hashlib
import json

import pytest

from pointline.kernel import (
    BadState,
    Confirm,
    Table,
    Throw,
    commitment,
    derive_dice,
    dice_from_seed,
    dice_seed,
    from_document,
    loads,
    state_bytes,
    state_hash,
    verify_commitment,
)
from tests.kernel._kernel_support import come_out, dice_for, seal_all


def test_r26_commitment() -> None:
    nonce = bytes(range(32))
    choices = b'{"dont_pass":20,"pass":10}'
    digest = commitment("t", 3, 1, nonce, choices)
    assert len(digest) == 32
    assert verify_commitment(digest, "t", 3, 1, nonce, choices)
    assert not verify_commitment(digest, "t", 3, 1, nonce, b'{"dont_pass":20,"pass":20}')
    assert not verify_commitment(digest, "t", 4, 1, nonce, choices)
    assert digest != commitment("t", 3, 1, nonce, choices, version=2)
    assert digest == commitment("t", 3, 1, bytearray(nonce), choices)


def test_r27_dice_derivation() -> None:
    nonces = [hashlib.sha256(bytes([i])).digest() for i in range(3)]
    die1, die2 = derive_dice("room", 5, nonces)
    assert 1 <= die1 <= 6 and 1 <= die2 <= 6
    assert (die1, die2) == derive_dice("room", 5, list(nonces))
    seed = dice_seed("room", 5, nonces)
    assert dice_from_seed(seed)[:2] == (die1, die2)
    # A throw made with those dice is legal input to the table.
    table = Table(3)
    seal_all(table)
    table.push(Throw(die1, die2))
    assert table.throws == 1


def test_r28_canonical_state_json() -> None:
    table = Table(2, "room-1")
    come_out(table, 0, 30, 20)
    table.push(Confirm(1))
    table.push(dice_for(6))
    data = state_bytes(table)
    doc = json.loads(data)
    assert data == json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()
    assert _only_ints(doc)
    again = loads(data)
    assert state_bytes(again) == data and state_hash(again) == state_hash(table)
    assert state_hash(table) == hashlib.sha256(data).hexdigest()
    doc["seats"][0]["balance"] = 1.5
    with pytest.raises(BadState):
        from_document(doc)


def _only_ints(value: object) -> bool:
    if isinstance(value, float):
        return False
    if isinstance(value, dict):
        return all(isinstance(k, str) and _only_ints(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_only_ints(v) for v in value)
    return True
