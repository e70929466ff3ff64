"""The small-order Ed25519 public keys a verifier refuses (spec/ONLINE.md §12), and, for the
vectors, a signature by each that a cofactorless check without that refusal takes as valid.

Edwards25519 arithmetic in a few lines (RFC 8032 §5.1), for the vectors and the mutants only:
the reference signs and verifies with libsodium (``net.protocol._keys``).
"""

from __future__ import annotations

import hashlib

__all__ = ["SMALL_ORDER_KEYS", "cofactorless_verify", "forge"]

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
_Point = tuple[int, int, int, int]
IDENTITY: _Point = (0, 1, 1, 0)

SMALL_ORDER_KEYS: tuple[str, ...] = (
    # the 8 points of small order, canonically encoded
    "0100000000000000000000000000000000000000000000000000000000000000",  # order 1
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # order 2
    "0000000000000000000000000000000000000000000000000000000000000000",  # order 4
    "0000000000000000000000000000000000000000000000000000000000000080",  # order 4
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  # order 8
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",  # order 8
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",  # order 8
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",  # order 8
    # the same points in encodings that are not canonical (y not below p, or x = 0 with the
    # sign bit set), which a lenient decoder reads as one of the points above
    "0100000000000000000000000000000000000000000000000000000000000080",  # order 1, sign set
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",  # order 2, sign set
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # y = p: order 4
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",  # y = p: order 4
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # y = p + 1: order 1
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",  # y = p + 1: order 1
)
"""Every 32-byte public key libsodium refuses as small order: 7 values of y, each with the
sign bit clear and set (spec/ONLINE.md §12 lists them)."""


def _add(a: _Point, b: _Point) -> _Point:
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa, bb = (y1 - x1) * (y2 - x2) % P, (y1 + x1) * (y2 + x2) % P
    c, dd = t1 * 2 * D * t2 % P, z1 * 2 * z2 % P
    e, f, g, h = bb - aa, dd - c, dd + c, bb + aa
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _mul(k: int, point: _Point) -> _Point:
    out = IDENTITY
    while k:
        if k & 1:
            out = _add(out, point)
        point, k = _add(point, point), k >> 1
    return out


def _encode(point: _Point) -> bytes:
    x, y, z, _ = point
    zi = pow(z, P - 2, P)
    x, y = x * zi % P, y * zi % P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def _decode(data: bytes) -> _Point | None:
    """A lenient decoder: y is taken mod p, and x = 0 with the sign bit set is accepted."""
    value = int.from_bytes(data, "little")
    y, sign = value % (1 << 255) % P, value >> 255
    u, v = (y * y - 1) % P, (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    if v * x * x % P == (-u) % P:
        x = x * SQRT_M1 % P
    if v * x * x % P != u % P:
        return None
    if x & 1 != sign and x:
        x = P - x
    return (x, y, 1, x * y % P)


_B: _Point = _decode((4 * pow(5, P - 2, P) % P).to_bytes(32, "little"))  # type: ignore[assignment]


def _same(a: _Point, b: _Point) -> bool:
    return a[0] * b[2] % P == b[0] * a[2] % P and a[1] * b[2] % P == b[1] * a[2] % P


def _k(r: bytes, key: bytes, message: bytes) -> int:
    return int.from_bytes(hashlib.sha512(r + key + message).digest(), "little") % L


def cofactorless_verify(key: bytes, signature: bytes, message: bytes) -> bool:
    """[S]B = R + [k]A with no small-order refusal and a lenient key decoder: what the
    vectors ``signatures.verify.small_order_key.*`` must not be taken for."""
    a, r = _decode(key), _decode(signature[:32])
    s = int.from_bytes(signature[32:], "little")
    if a is None or r is None or s >= L or len(signature) != 64:
        return False
    return _same(_mul(s, _B), _add(r, _mul(_k(signature[:32], key, message), a)))


def forge(key: bytes, message: bytes) -> bytes:
    """A signature (R = a multiple of the small-order ``key``, S = 0) that
    ``cofactorless_verify`` accepts for ``message``: R + [k]A is the identity."""
    a = _decode(key)
    assert a is not None
    for j in range(8):
        r = _encode(_mul(j, a))
        if _same(_add(_mul(j, a), _mul(_k(r, key, message), a)), IDENTITY):
            return r + bytes(32)
    raise ValueError("no multiple of the key works for this message")
