"""Commitments and the dice derivation, checked against an independent reading of the spec."""

from __future__ import annotations

import hashlib
import struct

import pytest

from pointline.kernel import PROTOCOL_VERSION, commitment, derive_dice, dice_from_seed, dice_seed
from pointline.kernel import verify_commitment as verify
from pointline.kernel.dice import DiceInputError

NONCE = bytes(range(32))
CHOICES = b'{"dont_pass":0,"pass":10}'
BASE = ("table-a", 7, 2, NONCE, CHOICES, PROTOCOL_VERSION)


def _seed(i: int) -> bytes:
    return hashlib.sha256(b"test seed %d" % i).digest()


def _reference_faces(seed: bytes) -> tuple[int, int, int]:
    """Rejection sampling as specified: blocks SHA-256(seed ‖ k), bytes ≥ 252 skipped."""
    faces: list[int] = []
    rejected = 0
    k = 0
    while len(faces) < 2:
        for byte in hashlib.sha256(seed + struct.pack(">I", k)).digest():
            if len(faces) == 2:
                break
            if byte >= 252:
                rejected += 1
            else:
                faces.append(byte % 6 + 1)
        k += 1
    return faces[0], faces[1], rejected


def test_commitment_changes_with_every_field() -> None:
    digest = commitment(*BASE)
    variants = [
        ("table-b", 7, 2, NONCE, CHOICES, PROTOCOL_VERSION),
        ("table-a", 8, 2, NONCE, CHOICES, PROTOCOL_VERSION),
        ("table-a", 7, 3, NONCE, CHOICES, PROTOCOL_VERSION),
        ("table-a", 7, 2, bytes(32), CHOICES, PROTOCOL_VERSION),
        ("table-a", 7, 2, NONCE, b'{"dont_pass":0,"pass":20}', PROTOCOL_VERSION),
        ("table-a", 7, 2, NONCE, CHOICES, PROTOCOL_VERSION + 1),
        # Length prefixes: moving bytes between the table id and the choices changes it.
        ("table-a7", 7, 2, NONCE, CHOICES, PROTOCOL_VERSION),
    ]
    digests = {commitment(*v) for v in variants}
    assert digest not in digests and len(digests) == len(variants)
    assert commitment(*BASE) == digest  # deterministic


def test_verify_accepts_the_reveal_and_rejects_tampering() -> None:
    digest = commitment(*BASE)
    assert verify(digest, *BASE)
    for i in range(len(digest)):
        tampered = bytearray(digest)
        tampered[i] ^= 0x01
        assert not verify(bytes(tampered), *BASE)
    assert not verify(digest[:-1], *BASE)
    assert not verify(digest, "table-a", 7, 2, NONCE[:-1] + b"\x00", CHOICES)
    assert not verify(digest, "table-a", 7, 2, NONCE, CHOICES + b" ")
    assert not verify(digest, "table-a", 7, 1, NONCE, CHOICES)
    assert not verify(digest, "table-a", 7, 2, NONCE[:31], CHOICES)  # bad input: False, no raise
    assert not verify("not bytes", *BASE)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "args",
    [
        ("t", 0, 0, NONCE, CHOICES),
        ("t", 1, 256, NONCE, CHOICES),
        ("t", 1, 0, NONCE[:31], CHOICES),
        ("t", 1, 0, NONCE, "choices"),
        (b"t", 1, 0, NONCE, CHOICES),
    ],
)
def test_commitment_rejects_bad_input(args: tuple[object, ...]) -> None:
    with pytest.raises(DiceInputError):
        commitment(*args)  # type: ignore[arg-type]


def test_derivation_is_deterministic_and_binds_every_input() -> None:
    nonces = [hashlib.sha256(bytes([i])).digest() for i in range(4)]
    seed = dice_seed("room", 3, nonces)
    assert seed == dice_seed("room", 3, [bytes(n) for n in nonces])
    assert derive_dice("room", 3, nonces) == dice_from_seed(seed)[:2]
    others = {
        dice_seed("room2", 3, nonces),
        dice_seed("room", 4, nonces),
        dice_seed("room", 3, nonces[::-1]),
        dice_seed("room", 3, nonces[:3]),
        dice_seed("room", 3, nonces, version=2),
    }
    assert seed not in others and len(others) == 5
    for bad in ([], [NONCE[:5]], [NONCE] * 256):
        with pytest.raises(DiceInputError):
            dice_seed("room", 3, bad)


def test_faces_follow_the_spec_including_rejected_bytes() -> None:
    hit_rejection = 0
    for i in range(2000):
        seed = _seed(i)
        got = dice_from_seed(seed)
        assert got == _reference_faces(seed)
        hit_rejection += got[2] > 0
    assert hit_rejection > 10  # about 3% of seeds skip a byte ≥ 252 before two faces


def test_every_first_byte_maps_to_a_face_without_modulo_bias() -> None:
    """Search seeds until each of the 256 values has been the first byte of block 0.

    Bytes 252..255 must be skipped and the other 252 must give each face exactly 42 times:
    a plain ``byte % 6`` (modulo bias) would give faces 1-4 43 times and fail here.
    """
    face_of: dict[int, int | None] = {}
    i = 0
    while len(face_of) < 256:
        seed = _seed(10_000 + i)
        i += 1
        block = hashlib.sha256(seed + struct.pack(">I", 0)).digest()
        first = block[0]
        die1, _, rejected = dice_from_seed(seed)
        if first >= 252:
            assert rejected >= 1
            face = None
        else:
            face = die1
        assert face_of.setdefault(first, face) == face  # a function of the byte
    assert i < 20_000
    assert sorted(b for b, f in face_of.items() if f is None) == [252, 253, 254, 255]
    counts = [sum(1 for f in face_of.values() if f == face) for face in range(1, 7)]
    assert counts == [42] * 6


def test_face_distribution_is_uniform_chi_square() -> None:
    """Deterministic seeds; chi-square bounds at p ≈ 0.001 for faces (5 dof) and pairs (35)."""
    n = 6000
    faces = [0] * 6
    pairs = [0] * 36
    for i in range(n):
        d1, d2 = derive_dice("chi", 1 + i, [_seed(i)])
        faces[d1 - 1] += 1
        faces[d2 - 1] += 1
        pairs[(d1 - 1) * 6 + d2 - 1] += 1
    expected = 2 * n / 6
    chi_faces = sum((c - expected) ** 2 / expected for c in faces)
    expected_pair = n / 36
    chi_pairs = sum((c - expected_pair) ** 2 / expected_pair for c in pairs)
    assert chi_faces < 20.52
    assert chi_pairs < 66.62
    # A grossly biased mapping fails the same bound (the test has the power it claims).
    skewed = [0] * 6
    for i in range(n):
        byte = hashlib.sha256(_seed(i)).digest()[0]
        skewed[min(byte // 40, 5)] += 1  # 0..39 → 1, …, 200..255 → 6 (56 values)
    e = n / 6
    assert sum((c - e) ** 2 / e for c in skewed) > 20.52


@pytest.mark.parametrize("table_id", ["\ud800", "a\udc00", "\udc00\ud800"])
def test_a_table_id_with_a_lone_surrogate_is_refused_not_replaced(table_id: str) -> None:
    # Not Unicode text: no UTF-8 bytes to hash (never U+FFFD), a typed refusal, never a codec
    # error; a reveal under such an id never verifies.
    nonce = bytes(32)
    with pytest.raises(DiceInputError):
        dice_seed(table_id, 1, [nonce])
    with pytest.raises(DiceInputError):
        commitment(table_id, 1, 0, nonce, b"{}")
    digest = commitment("\ufffd", 1, 0, nonce, b"{}")
    assert not verify(digest, table_id, 1, 0, nonce, b"{}")
