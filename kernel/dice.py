"""Commitments and the dice derivation: pure functions, the caller supplies every nonce.

Specified byte by byte in ``spec/RULES.md`` ("Dice"), so that a port derives the same dice
from the same reveals. The kernel itself never draws randomness.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import struct
from collections.abc import Sequence
from dataclasses import dataclass

from pointline.kernel.errors import DiceInputError  # defined here first; kept importable

__all__ = [
    "ACCEPT_BELOW",
    "COMMIT_DOMAIN",
    "DICE_DOMAIN",
    "NONCE_BYTES",
    "PROTOCOL_VERSION",
    "DiceByte",
    "DiceInputError",
    "DiceTrace",
    "commitment",
    "derive_dice",
    "dice_from_seed",
    "dice_seed",
    "dice_trace",
    "verify_commitment",
]

PROTOCOL_VERSION = 1
NONCE_BYTES = 32
COMMIT_DOMAIN = b"pointline/commit/v1\x00"
DICE_DOMAIN = b"pointline/dice/v1\x00"
ACCEPT_BELOW = 252
"""Bytes 0..251 map to a face (252 = 42 × 6); bytes 252..255 are rejected: no face is favoured."""


_U16, _U32, _U32_U8 = struct.Struct(">H"), struct.Struct(">I"), struct.Struct(">IB")


def _lp(data: bytes) -> bytes:
    return _U32.pack(len(data)) + data


def _check_nonce(nonce: bytes) -> None:
    if not isinstance(nonce, (bytes, bytearray)) or len(nonce) != NONCE_BYTES:
        raise DiceInputError("a nonce is exactly 32 bytes")


def _check_common(version: int, table_id: str, throw_index: int) -> None:
    if type(version) is not int or not 0 <= version <= 0xFFFF:
        raise DiceInputError("the protocol version is an integer 0..65535")
    if not isinstance(table_id, str):
        raise DiceInputError("the table id is a string")
    if type(throw_index) is not int or not 1 <= throw_index <= 0xFFFFFFFF:
        raise DiceInputError("the throw index is a positive integer")


@functools.lru_cache(maxsize=64)
def _head(domain: bytes, version: int, table_id: str) -> bytes:
    """The bytes every commitment (or dice seed) of one table starts with: the domain, the
    version and the length-prefixed table id (a session hashes them once per message). A table
    id that is not Unicode text (a lone surrogate such as U+D800) has no UTF-8 bytes: refused,
    never hashed as U+FFFD."""
    try:
        encoded = table_id.encode("utf-8")
    except UnicodeEncodeError:
        raise DiceInputError("the table id is Unicode text (no lone surrogate)") from None
    return domain + _U16.pack(version) + _lp(encoded)


def commitment(
    table_id: str,
    throw_index: int,
    seat: int,
    nonce: bytes,
    choices: bytes,
    version: int = PROTOCOL_VERSION,
) -> bytes:
    """SHA-256 over the commit domain, version, table id, throw index, seat, nonce and choices."""
    _check_common(version, table_id, throw_index)
    if type(seat) is not int or not 0 <= seat <= 255:
        raise DiceInputError("a seat is an integer 0..255")
    _check_nonce(nonce)
    if not isinstance(choices, (bytes, bytearray)):
        raise DiceInputError("choices are bytes")
    message = b"".join(
        (
            _head(COMMIT_DOMAIN, version, table_id),
            _U32_U8.pack(throw_index, seat),
            nonce,
            _U32.pack(len(choices)),
            choices,
        )
    )
    return hashlib.sha256(message).digest()


def verify_commitment(
    digest: bytes,
    table_id: str,
    throw_index: int,
    seat: int,
    nonce: bytes,
    choices: bytes,
    version: int = PROTOCOL_VERSION,
) -> bool:
    """Whether a reveal (nonce and choices) matches the commitment made before it."""
    try:
        expected = commitment(table_id, throw_index, seat, nonce, choices, version)
    except DiceInputError:
        return False
    return isinstance(digest, (bytes, bytearray)) and hmac.compare_digest(expected, bytes(digest))


def dice_seed(
    table_id: str,
    throw_index: int,
    nonces: Sequence[bytes],
    version: int = PROTOCOL_VERSION,
) -> bytes:
    """SHA-256 over the dice domain, version, table id, throw index and every seat's nonce."""
    _check_common(version, table_id, throw_index)
    if not 1 <= len(nonces) <= 255:
        raise DiceInputError("between 1 and 255 nonces, one per seat in seat order")
    for nonce in nonces:
        _check_nonce(nonce)
    message = b"".join(
        (
            _head(DICE_DOMAIN, version, table_id),
            _U32_U8.pack(throw_index, len(nonces)),
            *nonces,
        )
    )
    return hashlib.sha256(message).digest()


def dice_from_seed(seed: bytes, *, accept_below: int | None = None) -> tuple[int, int, int]:
    """Two faces from a seed by rejection sampling, and how many bytes were rejected.

    Block k is SHA-256(seed ‖ k as 4 bytes big-endian), k = 0, 1, …; bytes are read in order;
    a byte b below 252 gives the face b mod 6 + 1; a byte of 252 or more is skipped.
    ``accept_below`` replaces the bound 252 (``ACCEPT_BELOW``) only for a test of a port that
    gets it wrong; the dice of the spec never pass it.
    """
    bound = ACCEPT_BELOW if accept_below is None else accept_below
    faces: list[int] = []
    rejected = 0
    counter = 0
    while True:
        block = hashlib.sha256(seed + _U32.pack(counter)).digest()
        for byte in block:
            if byte < bound:
                faces.append(byte % 6 + 1)
                if len(faces) == 2:
                    return faces[0], faces[1], rejected
            else:
                rejected += 1
        counter += 1


def derive_dice(
    table_id: str,
    throw_index: int,
    nonces: Sequence[bytes],
    version: int = PROTOCOL_VERSION,
) -> tuple[int, int]:
    """Both dice of throw ``throw_index`` from every seat's revealed nonce, in seat order."""
    die1, die2, _ = dice_from_seed(dice_seed(table_id, throw_index, nonces, version))
    return die1, die2


@dataclass(frozen=True, slots=True)
class DiceByte:
    """One byte read while deriving the dice: where it came from, and the face it gave."""

    block: int
    """The block counter k: the byte is from SHA-256(seed ‖ k)."""
    position: int
    """Its place in that block (0..31)."""
    value: int
    face: int | None
    """``value mod 6 + 1`` when ``value`` is below ``ACCEPT_BELOW``; None: rejected."""


@dataclass(frozen=True, slots=True)
class DiceTrace:
    """How one throw's dice were made (spec/RULES.md "Dice"), step by step, for people to see.

    Everything is the kernel's own derivation: ``derive_dice`` returns the same two faces.
    """

    version: int
    table_id: str
    throw_index: int
    nonces: tuple[bytes, ...]
    """Every seat's revealed nonce, in seat order."""
    seed: bytes
    """SHA-256 over the dice domain, version, table id, throw index and the nonces."""
    blocks: tuple[bytes, ...]
    """The SHA-256 blocks read, block k = SHA-256(seed ‖ k)."""
    read: tuple[DiceByte, ...]
    """Every byte read in order, up to the one giving the second face."""
    die1: int
    die2: int

    @property
    def rejected(self) -> int:
        """How many bytes were skipped (``ACCEPT_BELOW`` or more)."""
        return sum(1 for byte in self.read if byte.face is None)

    @property
    def accepted(self) -> tuple[DiceByte, DiceByte]:
        """The two bytes that gave the faces."""
        first, second = (byte for byte in self.read if byte.face is not None)
        return first, second


def dice_trace(
    table_id: str,
    throw_index: int,
    nonces: Sequence[bytes],
    version: int = PROTOCOL_VERSION,
) -> DiceTrace:
    """``derive_dice`` with every step kept: the seed, the blocks, each byte read and its face."""
    seed = dice_seed(table_id, throw_index, nonces, version)
    blocks: list[bytes] = []
    read: list[DiceByte] = []
    faces: list[int] = []
    counter = 0
    while len(faces) < 2:
        block = hashlib.sha256(seed + _U32.pack(counter)).digest()
        blocks.append(block)
        for position, byte in enumerate(block):
            face = byte % 6 + 1 if byte < ACCEPT_BELOW else None
            read.append(DiceByte(counter, position, byte, face))
            if face is not None:
                faces.append(face)
                if len(faces) == 2:
                    break
        counter += 1
    return DiceTrace(
        version,
        table_id,
        throw_index,
        tuple(bytes(n) for n in nonces),
        seed,
        tuple(blocks),
        tuple(read),
        faces[0],
        faces[1],
    )
