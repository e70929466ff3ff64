"""The 01_dice and 02_commitment topics: stateless vectors for the derivation and commitments
(generator only)."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from pointline.conformance import edges
from pointline.conformance.casebook import DiceCase
from pointline.kernel import (
    Choice,
    commitment,
    dice_from_seed,
    dice_seed,
)

__all__ = ["commitments", "dice"]


# ---------------------------------------------------------------------- dice and commitments
def _nonce(label: str, i: int) -> bytes:
    return hashlib.sha256(f"{label}/{i}".encode()).digest()


def _derive(
    c: DiceCase, table_id: Any, index: Any, nonces: list[Any], version: Any = 1
) -> dict[str, Any]:
    return c.request(
        {
            "op": "derive_dice",
            "table_id": table_id,
            "throw_index": index,
            "nonces": [n.hex() if isinstance(n, bytes) else n for n in nonces],
            "version": version,
        }
    )


def dice() -> list[DiceCase]:
    """Dice derivation vectors: seeds, faces, and the rejection-sampling paths."""
    cases = []
    rng = random.Random("dice")
    ids = ["t", "solo", "", "room-42", "tablé ü", "🎲"]
    for i in range(150):
        n = 1 + i % 8
        index = rng.choice((1, 2, 3, 64, 127, 128, rng.randint(1, 200), 0xFFFFFFFF))
        c = DiceCase(f"dice.vector.{i:03d}", f"{n} nonce(s), throw {index}", ("R27",))
        _derive(c, ids[i % len(ids)], index, [rng.randbytes(32) for _ in range(n)])
        cases.append(c)
    # Search nonces whose seeds reject bytes: before the first face, between the faces, several.
    wanted = {
        (1, "first"): None,
        (1, "second"): None,
        (2, "first"): None,
        (2, "split"): None,
        (3, "any"): None,
    }
    found: dict[tuple[int, str], list[bytes]] = {}
    i = 0
    while len(found) < len(wanted) and i < 3_000_000:
        nonce = _nonce("reject", i)
        i += 1
        seed = dice_seed("t", 1, [nonce])
        block = hashlib.sha256(seed + b"\x00\x00\x00\x00").digest()
        _, _, rejected = dice_from_seed(seed)
        if rejected == 0:
            continue
        first_bad = block[0] >= 252
        if rejected == 1:
            key = (1, "first" if first_bad else "second")
        elif rejected == 2:
            key = (2, "first" if first_bad and block[1] >= 252 else "split")
        else:
            key = (3, "any")
        if key in wanted and key not in found:
            found[key] = [nonce]
    for (count, where), nonces in sorted(found.items()):
        c = DiceCase(
            f"dice.rejection.{count}.{where}",
            f"{count} rejected byte(s) ({where}) before two faces",
            ("R27",),
        )
        _derive(c, "t", 1, nonces)
        cases.append(c)
    # Seeds for every pair of faces.
    faces: dict[tuple[int, int], bytes] = {}
    i = 0
    while len(faces) < 36:
        nonce = _nonce("faces", i)
        i += 1
        d1, d2, _ = dice_from_seed(dice_seed("solo", 5, [nonce, nonce]))
        faces.setdefault((d1, d2), nonce)
    for (d1, d2), nonce in sorted(faces.items()):
        c = DiceCase(f"dice.faces.{d1}{d2}", f"a reveal that gives {d1} and {d2}", ("R27", "R8"))
        _derive(c, "solo", 5, [nonce, nonce])
        cases.append(c)
    good = _nonce("good", 0)
    order = DiceCase("dice.order_matters", "the nonces are taken in seat order", ("R27",))
    _derive(order, "t", 7, [good, _nonce("good", 1)])
    _derive(order, "t", 7, [_nonce("good", 1), good])
    _derive(order, "t", 8, [good, _nonce("good", 1)])
    _derive(order, "u", 7, [good, _nonce("good", 1)])
    _derive(order, "t", 7, [good, _nonce("good", 1)], 2)
    cases.append(order)
    bad: list[tuple[str, dict[str, Any]]] = [
        ("nonce_31", {"nonces": [good[:31]]}),
        ("nonce_33", {"nonces": [good + b"\x00"]}),
        ("nonce_not_hex", {"nonces": ["zz" * 32]}),
        ("nonce_not_string", {"nonces": [5]}),
        ("no_nonces", {"nonces": []}),
        ("nonces_not_list", {"nonces": good.hex()}),
        ("index_0", {"throw_index": 0}),
        ("index_negative", {"throw_index": -1}),
        ("index_2_32", {"throw_index": 1 << 32}),
        ("index_string", {"throw_index": "1"}),
        ("version_negative", {"version": -1}),
        ("version_65536", {"version": 65536}),
        ("table_id_number", {"table_id": 5}),
    ]
    for name, change in bad:
        c = DiceCase(f"dice.bad_input.{name}", f"derivation input {name} is refused", ("R27",))
        req: dict[str, Any] = {
            "op": "derive_dice",
            "table_id": "t",
            "throw_index": 1,
            "nonces": [good.hex()],
            "version": 1,
        }
        req.update(
            {
                k: (
                    [n.hex() if isinstance(n, bytes) else n for n in v]
                    if k == "nonces" and isinstance(v, list)
                    else v
                )
                for k, v in change.items()
            }
        )
        c.request(req)
        cases.append(c)
    c = DiceCase("dice.many_nonces", "255 nonces are accepted, 256 are not", ("R27",))
    _derive(c, "t", 1, [_nonce("many", i) for i in range(255)])
    _derive(c, "t", 1, [_nonce("many", i) for i in range(256)])
    cases.append(c)
    return cases + edges.dice_boundaries() + edges.dice_tokens("derive_dice")


def _commit_request(
    op: str,
    table_id: Any,
    index: Any,
    seat: Any,
    nonce: Any,
    choices: Any,
    version: Any = 1,
    digest: Any = None,
) -> dict[str, Any]:
    req = {
        "op": op,
        "table_id": table_id,
        "throw_index": index,
        "seat": seat,
        "nonce": nonce.hex() if isinstance(nonce, bytes) else nonce,
        "choices": choices.hex() if isinstance(choices, bytes) else choices,
        "version": version,
    }
    if digest is not None:
        req["commitment"] = digest.hex() if isinstance(digest, bytes) else digest
    return req


def commitments() -> list[DiceCase]:
    """Commitment vectors: computed digests, good reveals, and every kind of tampering."""
    cases = []
    rng = random.Random("commit")
    for i in range(120):
        table_id = rng.choice(("t", "room-7", "tablé", ""))
        index = rng.choice((1, 2, 128, rng.randint(1, 128)))
        seat = rng.randint(0, 7)
        nonce = rng.randbytes(32)
        p = rng.choice((0, 10, 50, 100))
        choices = (
            Choice(p, rng.choice((0, 10, 100 - p))).to_bytes()
            if i % 5
            else rng.randbytes(rng.randint(0, 40))
        )
        digest = commitment(table_id, index, seat, nonce, choices)
        c = DiceCase(
            f"commitment.vector.{i:03d}",
            f"commit and verify: table {table_id!r}, throw {index}, seat {seat}",
            ("R26",),
        )
        c.request(_commit_request("commitment", table_id, index, seat, nonce, choices))
        c.request(
            _commit_request("verify_commitment", table_id, index, seat, nonce, choices, 1, digest)
        )
        flipped = bytearray(nonce)
        flipped[rng.randrange(32)] ^= 1 << rng.randrange(8)
        bad_digest = bytearray(digest)
        bad_digest[rng.randrange(32)] ^= 1 << rng.randrange(8)
        tampered = [
            ("nonce", dict(nonce=bytes(flipped))),
            ("choices", dict(choices=choices + b" ")),
            ("seat", dict(seat=(seat + 1) % 8)),
            ("index", dict(index=index + 1)),
            ("table", dict(table_id=table_id + "x")),
            ("version", dict(version=2)),
            ("digest", dict(digest=bytes(bad_digest))),
            ("digest_short", dict(digest=digest[:31])),
        ]
        kind, change = tampered[i % len(tampered)]
        assert isinstance(change, dict)
        args: dict[str, Any] = dict(
            table_id=table_id,
            index=index,
            seat=seat,
            nonce=nonce,
            choices=choices,
            version=1,
            digest=digest,
        )
        args.update(change)
        c.request(_commit_request("verify_commitment", **args))
        c.description += f"; tampered {kind} is refused"
        cases.append(c)
    nonce = _nonce("commit", 0)
    choices = Choice(30, 20).to_bytes()
    digest = commitment("t", 1, 0, nonce, choices)
    bad_compute = [
        ("nonce_31", dict(nonce=nonce[:31])),
        ("nonce_not_hex", dict(nonce="xy")),
        ("seat_256", dict(seat=256)),
        ("seat_negative", dict(seat=-1)),
        ("seat_null", dict(seat=None)),
        ("index_0", dict(index=0)),
        ("version_65536", dict(version=65536)),
        ("table_id_null", dict(table_id=None)),
        ("choices_not_hex", dict(choices="g")),
    ]
    for name, change in bad_compute:
        assert isinstance(change, dict)
        args = dict(table_id="t", index=1, seat=0, nonce=nonce, choices=choices, version=1)
        args.update(change)
        c = DiceCase(
            f"commitment.bad_input.{name}",
            f"a commitment cannot be computed with {name}; a reveal with it never verifies",
            ("R26",),
        )
        c.request(_commit_request("commitment", **args))
        c.request(_commit_request("verify_commitment", **args, digest=digest))
        cases.append(c)
    c = DiceCase(
        "commitment.digest_not_hex", "a commitment that is not hex never verifies", ("R26",)
    )
    c.request(_commit_request("verify_commitment", "t", 1, 0, nonce, choices, 1, "nothex"))
    c.request(
        _commit_request("verify_commitment", "t", 1, 0, nonce, choices, 1, digest.hex().upper())
    )
    cases.append(c)
    return cases + edges.empty_choices() + edges.dice_tokens("commitment")
