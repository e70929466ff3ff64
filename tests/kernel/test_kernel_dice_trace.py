"""The dice derivation trace (what the replay's "How were these dice made?" shows) against
``conformance/online/vectors/dice.json``: the seed, block 0, the rejected bytes and the faces."""

from __future__ import annotations

import hashlib
import json
import struct
from pathlib import Path
from typing import Any

import pytest

from pointline.kernel import derive_dice, dice_trace
from pointline.kernel.dice import ACCEPT_BELOW

VECTORS = Path(__file__).parents[2] / "conformance" / "online" / "vectors" / "dice.json"
CASES: list[dict[str, Any]] = json.loads(VECTORS.read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_trace_matches_the_dice_vectors(case: dict[str, Any]) -> None:
    given, expect = case["input"], case["expect"]
    nonces = [bytes.fromhex(n) for n in given["nonces"]]
    trace = dice_trace(given["table"], given["throw"], nonces, given.get("version", 1))
    assert trace.seed.hex() == expect["seed"]
    assert trace.blocks[0].hex() == expect["block0"]
    assert trace.rejected == expect["rejected"]
    assert [trace.die1, trace.die2] == expect["dice"]
    assert trace.nonces == tuple(nonces)
    assert (trace.die1, trace.die2) == derive_dice(given["table"], given["throw"], nonces)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_every_byte_read_is_in_its_block_and_maps_as_specified(case: dict[str, Any]) -> None:
    given = case["input"]
    trace = dice_trace(given["table"], given["throw"], [bytes.fromhex(n) for n in given["nonces"]])
    for k, block in enumerate(trace.blocks):
        assert block == hashlib.sha256(trace.seed + struct.pack(">I", k)).digest()
    for byte in trace.read:
        assert trace.blocks[byte.block][byte.position] == byte.value
        assert byte.face == (byte.value % 6 + 1 if byte.value < ACCEPT_BELOW else None)
    first, second = trace.accepted
    assert (first.face, second.face) == (trace.die1, trace.die2)
    assert trace.read[-1] == second  # reading stops at the second face


def test_a_trace_with_rejected_bytes_lists_them() -> None:
    rejecting = [c for c in CASES if c["expect"]["rejected"] > 0]
    assert rejecting, "dice.json has a case with a rejected byte"
    given = rejecting[0]["input"]
    trace = dice_trace(given["table"], given["throw"], [bytes.fromhex(n) for n in given["nonces"]])
    skipped = [b.value for b in trace.read if b.face is None]
    assert len(skipped) == trace.rejected and all(v >= ACCEPT_BELOW for v in skipped)
