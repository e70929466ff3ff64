"""The vectors of the messages themselves: canonical encoding and signatures of each kind,
Ed25519 keys and words, parsing and its error codes, choices (the hashes are in ``hashes``).

Each builder returns a list of cases ``{"name", "input", "expect"}``; ``check.py`` recomputes
``expect`` from ``input`` with the reference code. Every value comes from fixed seeds.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from typing import Any

from pointline.conformance.online.sim import seat_key
from pointline.conformance.online.smallorder import SMALL_ORDER_KEYS, cofactorless_verify, forge
from pointline.kernel import Choice, EndReason, PointlineError
from pointline.net.errors import MessageError
from pointline.net.protocol import _keys as nkeys
from pointline.net.protocol import _messages as nmsg

__all__ = [
    "CHOICES",
    "PARSE_SEATS",
    "PARSE_TABLE",
    "RFC8032",
    "SMALL_ORDER",
    "TABLES",
    "Case",
    "choice_expect",
    "choices",
    "h",
    "message_expect",
    "message_from",
    "messages",
    "parse_expect",
    "parse_frames",
    "parsing",
    "signatures",
]

Case = dict[str, Any]

RFC8032 = (
    # RFC 8032 section 7.1, TEST 1 to 3: secret key, public key, message, signature (hex)
    (
        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
        "",
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    ),
    (
        "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
        "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
        "72",
        "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
    ),
    (
        "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
        "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
        "af82",
        "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
    ),
)

TABLES = ("t0", "3f9c0a1b2d4e5f60", "é", 'q"\\/\n\t\x01\x7f', "\u2028\U0001d11e", "x" * 128)


def h(label: str) -> bytes:
    """32 bytes from a label: SHA-256(label)."""
    return hashlib.sha256(label.encode()).digest()


def message_from(spec: dict[str, Any]) -> nmsg.Message:
    """A message from a vector's body fields (as JSON values, hex for bytes)."""
    kind, t, s, q = spec["kind"], spec["table"], spec["seat"], spec["seq"]
    if kind == "commit":
        return nmsg.Commit(t, s, q, spec["throw"], bytes.fromhex(spec["commitment"]))
    if kind == "reveal":
        nonce = bytes.fromhex(spec["nonce"])
        return nmsg.Reveal(t, s, q, spec["throw"], nonce, spec["choice"].encode("ascii"))
    if kind == "receipt":
        final = tuple(spec["final"])
        return nmsg.Receipt(t, s, q, spec["throws"], final, bytes.fromhex(spec["digest"]))
    return nmsg.AbortNotice(t, s, q, EndReason(spec["reason"]), spec["blame"])


def message_expect(spec: dict[str, Any], seed: str) -> dict[str, Any]:
    message = nmsg.sign(message_from(spec), nkeys.SigningKey.from_bytes(bytes.fromhex(seed)))
    return {
        "canonical_body": nmsg.canonical_json(nmsg.body(message)).decode("utf-8"),
        "signing_bytes": nmsg.signing_bytes(message).hex(),
        "sig": message.sig.hex(),
        "frame": nmsg.encode(message),
    }


def _bodies() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for i, table in enumerate(TABLES):
        common = {"table": table, "seat": i % 8, "seq": i}
        out.append(
            (
                f"commit.table_{i}",
                {"kind": "commit", **common, "throw": 1 + i, "commitment": h(f"c{i}").hex()},
            )
        )
        out.append(
            (
                f"reveal.table_{i}",
                {
                    "kind": "reveal",
                    **common,
                    "throw": 1 + i,
                    "nonce": h(f"n{i}").hex(),
                    "choice": Choice(10 * i, 10).to_bytes().decode(),
                },
            )
        )
    for throw in (1, 2, 127, 128):
        out.append(
            (
                f"commit.throw_{throw}",
                {
                    "kind": "commit",
                    "table": "t0",
                    "seat": 1,
                    "seq": 2 * throw - 2,
                    "throw": throw,
                    "commitment": h(f"t{throw}").hex(),
                },
            )
        )
    for seq in (0, 1, 1 << 20):
        out.append(
            (
                f"reveal.seq_{seq}",
                {
                    "kind": "reveal",
                    "table": "t0",
                    "seat": 7,
                    "seq": seq,
                    "throw": 3,
                    "nonce": ("00" * 32 if seq else "ff" * 32),
                    "choice": '{"dont_pass":100,"pass":0}',
                },
            )
        )
    for n in (1, 2, 8):
        final = [1000 + 10 * k for k in range(n)]
        out.append(
            (
                f"receipt.seats_{n}",
                {
                    "kind": "receipt",
                    "table": "t0",
                    "seat": n - 1,
                    "seq": 9,
                    "throws": 5 + n,
                    "final": final,
                    "digest": h(f"d{n}").hex(),
                },
            )
        )
    out.append(
        (
            "receipt.zero_and_max_points",
            {
                "kind": "receipt",
                "table": "t0",
                "seat": 0,
                "seq": 40,
                "throws": 128,
                "final": [0, 1 << 40],
                "digest": "ab" * 32,
            },
        )
    )
    for reason in EndReason:
        for blame in (None, 0, 5):
            if reason is EndReason.THROW_CAP and blame is not None:
                continue
            out.append(
                (
                    f"abort.{reason.value}.blame_{blame}",
                    {
                        "kind": "abort",
                        "table": "t0",
                        "seat": 1,
                        "seq": 3,
                        "reason": reason.value,
                        "blame": blame,
                    },
                )
            )
    return out


def messages() -> list[Case]:
    cases = []
    for k, (name, spec) in enumerate(_bodies()):
        seed = seat_key(k % 8).private_bytes().hex()
        cases.append(
            {
                "name": name,
                "input": {"seed": seed, "body": spec},
                "expect": message_expect(spec, seed),
            }
        )
    return cases


SMALL_ORDER = bytes([1]) + bytes(31)
"""The identity point's encoding: an Ed25519 point of small order (order 1)."""


def signatures() -> list[Case]:
    cases: list[Case] = []
    for number, (secret, public, msg, want) in enumerate(RFC8032, start=1):
        key = nkeys.SigningKey.from_bytes(bytes.fromhex(secret))
        got = key.sign(bytes.fromhex(msg)).hex()
        assert (key.public_hex, got) == (public, want), "RFC 8032 test vector"
        cases.append(
            {
                "name": f"rfc8032.test_{number}",
                "input": {"op": "sign", "seed": secret, "message": msg},
                "expect": {"public_key": public, "sig": want},
            }
        )
    for seat in range(8):
        key = seat_key(seat)
        words = list(nkeys.verification_words(key.public_key))
        cases.append(
            {
                "name": f"seat_keys.seat_{seat}",
                "input": {"op": "words", "seed": key.private_bytes().hex()},
                "expect": {"public_key": key.public_hex, "words": words},
            }
        )
    for count in (1, 2, 8, 32):
        key = seat_key(3)
        cases.append(
            {
                "name": f"words.count_{count}",
                "input": {"op": "words", "seed": key.private_bytes().hex(), "count": count},
                "expect": {
                    "public_key": key.public_hex,
                    "words": list(nkeys.verification_words(key.public_key, count)),
                },
            }
        )
    key = seat_key(0)
    data = nmsg.SIGN_DOMAIN + b'{"kind":"abort"}'
    sig = key.sign(data)
    order = int("1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed", 16)
    s_high = (int.from_bytes(sig[32:], "little") + order).to_bytes(32, "little")
    other = seat_key(1).public_key
    variants = {
        "valid": (key.public_key, sig, data),
        "sig_bit_flipped": (key.public_key, sig[:5] + bytes([sig[5] ^ 1]) + sig[6:], data),
        "message_byte_changed": (key.public_key, sig, data[:-1] + b"]"),
        "domain_nul_missing": (key.public_key, sig, data.replace(b"\x00", b"", 1)),
        "other_seat_key": (other, sig, data),
        "s_plus_group_order": (key.public_key, sig[:32] + s_high, data),
        "short_signature": (key.public_key, sig[:63], data),
        # the identity point (small order) as key and R, S = 0: a cofactorless check that
        # skips the small-order refusal takes it as valid for any message (§12)
        "small_order_key_and_r": (SMALL_ORDER, SMALL_ORDER + bytes(32), data),
    }
    for name, (pub, s, d) in variants.items():
        cases.append(
            {
                "name": f"verify.{name}",
                "input": {
                    "op": "verify",
                    "public_key": pub.hex(),
                    "sig": s.hex(),
                    "message": d.hex(),
                },
                "expect": {"valid": nkeys.verify_signature(pub, s, d)},
            }
        )
    assert [c["expect"]["valid"] for c in cases[-len(variants) :]] == [True] + [False] * 7
    for number, hex_key in enumerate(SMALL_ORDER_KEYS):
        # each key of §12's list, with a signature a cofactorless check that decodes the key
        # leniently and skips the small-order refusal takes as valid (OpenSSL's does)
        small = bytes.fromhex(hex_key)
        signed, forged = _forged(small, data)
        assert cofactorless_verify(small, forged, signed)
        assert not nkeys.verify_signature(small, forged, signed)
        cases.append(
            {
                "name": f"verify.small_order_key.{number:02d}_{hex_key[:8]}_{hex_key[-2:]}",
                "input": {
                    "op": "verify",
                    "public_key": hex_key,
                    "sig": forged.hex(),
                    "message": signed.hex(),
                },
                "expect": {"valid": False},
            }
        )
    return cases


def _forged(key: bytes, data: bytes) -> tuple[bytes, bytes]:
    """The first of ``data``, ``data`` + "0", "1", ... that a small-order ``key`` can forge."""
    for suffix in ["", *map(str, range(64))]:
        with contextlib.suppress(ValueError):
            return data + suffix.encode(), forge(key, data + suffix.encode())
    raise ValueError("no message")


# ---------------------------------------------------------------------------- parsing

PARSE_TABLE = "t0"
PARSE_SEATS = 3


def parse_expect(frame: str) -> dict[str, Any]:
    """What ``net.protocol._messages.parse`` makes of ``frame`` for table t0 and seats 0..2."""
    roster = {s: seat_key(s).public_key for s in range(PARSE_SEATS)}
    try:
        message, text = nmsg.parse_encoded(frame, PARSE_TABLE, roster, PARSE_SEATS)
    except MessageError as error:
        return {"error": error.code}
    return {"kind": message.kind, "canonical": text}


def _signed_doc(seat: int = 1, **body: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "v": 1,
        "kind": "commit",
        "table": PARSE_TABLE,
        "seat": seat,
        "seq": 0,
        "throw": 1,
        "commitment": h("p").hex(),
    }
    base.update(body)
    data = nmsg.SIGN_DOMAIN + nmsg.canonical_json(base)
    return {**base, "sig": seat_key(seat % 8).sign(data).hex()}


def _text(doc: dict[str, Any]) -> str:
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def parse_frames() -> list[tuple[str, str]]:
    good = _signed_doc()
    frames: list[tuple[str, str]] = [
        ("valid.commit", _text(good)),
        ("valid.spaced_unsorted", json.dumps(good, indent=1)[::1]),
    ]
    reveal = _signed_doc(kind="reveal", nonce=h("n").hex(), choice='{"dont_pass":0,"pass":10}')
    del reveal["commitment"]
    reveal = _signed_doc(**{k: v for k, v in reveal.items() if k not in ("sig",)})
    frames.append(("malformed.reveal_with_commitment", _text(reveal)))
    ok_reveal = {
        "v": 1,
        "kind": "reveal",
        "table": PARSE_TABLE,
        "seat": 2,
        "seq": 1,
        "throw": 1,
        "nonce": h("n").hex(),
        "choice": '{"dont_pass":0,"pass":10}',
    }
    sig = seat_key(2).sign(nmsg.SIGN_DOMAIN + nmsg.canonical_json(ok_reveal)).hex()
    frames.append(("valid.reveal", _text({**ok_reveal, "sig": sig})))
    changes: dict[str, dict[str, Any]] = {
        "v_2": {"v": 2},
        "v_true": {"v": True},
        "v_string": {"v": "1"},
        "kind_unknown": {"kind": "hello"},
        "kind_missing": {"kind": None},
        "table_empty": {"table": ""},
        "table_129": {"table": "x" * 129},
        "table_number": {"table": 7},
        "seat_negative": {"seat": -1},
        "seat_256": {"seat": 256},
        "seat_true": {"seat": True},
        "seat_float": {"seat": 1.0},
        "seq_negative": {"seq": -1},
        "seq_2^20+1": {"seq": (1 << 20) + 1},
        "throw_0": {"throw": 0},
        "throw_129": {"throw": 129},
        "commitment_upper": {"commitment": h("p").hex().upper()},
        "commitment_short": {"commitment": h("p").hex()[:62]},
        "commitment_nonhex": {"commitment": "zz" * 32},
        "extra_field": {"extra": 1},
        "sig_upper": {"sig": None},
    }
    for name, change in changes.items():
        doc = dict(good)
        for key, value in change.items():
            if key == "sig":
                doc["sig"] = good["sig"].upper()
            elif key == "kind" and value is None:
                del doc["kind"]
            else:
                doc[key] = value
        frames.append((f"malformed.{name}", _text(doc)))
    missing = dict(good)
    del missing["seq"]
    frames.append(("malformed.seq_missing", _text(missing)))
    body = _text(good)
    frames += [
        ("malformed.duplicate_key", body[:-1] + ',"seat":1}'),
        ("malformed.nan", body.replace('"throw":1', '"throw":NaN')),
        ("malformed.infinity", body.replace('"throw":1', '"throw":Infinity')),
        ("malformed.not_json", body[:-1]),
        ("malformed.array", "[" + body + "]"),
        ("malformed.number_10.0", body.replace('"throw":1', '"throw":1.0')),
        ("malformed.too_large", body[:-1] + ',"pad":"' + "x" * 16384 + '"}'),
        ("malformed.lone_surrogate", body.replace('"table":"t0"', '"table":"\\ud800"')),
        ("malformed.too_deep", body[:-1] + ',"x":' + "[" * 9 + "]" * 9 + "}"),
    ]
    frames.append(("wrong_table.other_id", _text(_signed_doc(table="t1"))))
    frames.append(("non_member.seat_3", _text(_signed_doc(seat=3))))
    frames.append(("non_member.seat_255", _text(_signed_doc(seat=255))))
    forged = dict(good)
    forged["sig"] = _signed_doc(seat=2)["sig"]
    frames.append(("bad_signature.other_seats_key", _text(forged)))
    flipped = dict(good)
    flipped["throw"] = 2
    frames.append(("bad_signature.body_changed_after_signing", _text(flipped)))
    zero = dict(good)
    zero["sig"] = "0" * 128
    frames.append(("bad_signature.zeros", _text(zero)))
    for kind, extra in (
        ("receipt", {"throws": 5, "final": [1000, 1010, 990], "digest": h("d").hex()}),
        ("abort", {"reason": "deadline", "blame": 0}),
    ):
        doc = {"v": 1, "kind": kind, "table": PARSE_TABLE, "seat": 0, "seq": 4, **extra}
        signed = {**doc, "sig": seat_key(0).sign(nmsg.SIGN_DOMAIN + nmsg.canonical_json(doc)).hex()}
        frames.append((f"valid.{kind}", _text(signed)))
        for field_name, bad in (
            ("final", [1000, -1, 0]),
            ("final", []),
            ("final", [1] * 9),
            ("final", [1000, 1010]),  # one per roster seat (3 here), not just 1..8 (§3)
            ("final", [True, 0, 0]),
            ("reason", "bored"),
            ("blame", 256),
            ("blame", "0"),
            ("digest", h("d").hex()[:-1]),
        ):
            if field_name in extra:
                label = "".join(c for c in json.dumps(bad) if c.isalnum() or c in "-,")[:24]
                frames.append(
                    (f"malformed.{kind}.{field_name}_{label}", _text({**signed, field_name: bad}))
                )
    return frames


def parsing() -> list[Case]:
    return [
        {"name": name, "input": {"frame": frame}, "expect": parse_expect(frame)}
        for name, frame in parse_frames()
    ]


# ---------------------------------------------------------------------------- choices


def choice_expect(text: str) -> dict[str, Any]:
    try:
        choice = Choice.from_bytes(text.encode("ascii"))
    except PointlineError:
        return {"valid": False}
    return {"valid": True, "pass": choice.pass_amount, "dont_pass": choice.dont_pass_amount}


CHOICES = {
    "canonical.pass_10": '{"dont_pass":0,"pass":10}',
    "canonical.both_0": '{"dont_pass":0,"pass":0}',
    "canonical.dont_pass_100": '{"dont_pass":100,"pass":0}',
    "canonical.large": '{"dont_pass":990,"pass":1000}',
    "refused.keys_reversed": '{"pass":10,"dont_pass":0}',
    "refused.space": '{"dont_pass":0, "pass":10}',
    "refused.not_unit": '{"dont_pass":0,"pass":15}',
    "refused.negative": '{"dont_pass":-10,"pass":0}',
    "refused.float": '{"dont_pass":0,"pass":10.0}',
    "refused.exponent": '{"dont_pass":0,"pass":1e1}',
    "refused.leading_zero": '{"dont_pass":0,"pass":010}',
    "refused.missing_key": '{"pass":10}',
    "refused.extra_key": '{"dont_pass":0,"odds":0,"pass":10}',
    "refused.bool": '{"dont_pass":false,"pass":10}',
    "refused.string_amount": '{"dont_pass":"0","pass":10}',
    "refused.array": "[0,10]",
    "refused.duplicate": '{"dont_pass":0,"pass":10,"pass":10}',
    "refused.trailing_newline": '{"dont_pass":0,"pass":10}\n',
    "refused.not_json": "pass=10",
}


def choices() -> list[Case]:
    return [
        {"name": name, "input": {"choice": text}, "expect": choice_expect(text)}
        for name, text in CHOICES.items()
    ]
