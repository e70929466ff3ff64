"""The hash vectors: commitments and reveals, the dice (with the rejection boundary), the
session digest, the transcript record hash and the roster signature. Each builder returns cases
``{"name", "input", "expect"}`` from fixed seeds; ``check.py`` recomputes ``expect``."""

from __future__ import annotations

import hashlib
from typing import Any

from pointline.conformance.online.basic import TABLES, Case, h
from pointline.conformance.online.sim import RELAY_SEED, seat_key
from pointline.kernel import Choice
from pointline.kernel import dice as kdice
from pointline.net.protocol import _keys as nkeys
from pointline.net.protocol import _messages as nmsg
from pointline.net.protocol import _peer as nproto
from pointline.net.protocol import _transcript as ntr

__all__ = ["chain", "commitments", "dice", "dice_expect", "digest_messages", "digests", "rosters"]

# ---------------------------------------------------------------------------- commitments


def commitments() -> list[Case]:
    cases: list[Case] = []
    choice = Choice(10, 20).to_bytes()
    for i, table in enumerate(TABLES):
        for throw, seat in ((1, 0), (2, 7), (128, 255)):
            nonce = h(f"commit/{i}/{throw}")
            inp: dict[str, Any] = {
                "table": table,
                "throw": throw,
                "seat": seat,
                "nonce": nonce.hex(),
                "choice": choice.decode(),
            }
            digest = kdice.commitment(table, throw, seat, nonce, choice)
            cases.append(
                {
                    "name": f"commit.table_{i}.throw_{throw}.seat_{seat}",
                    "input": inp,
                    "expect": {"commitment": digest.hex()},
                }
            )
    for text in ('{"dont_pass":0,"pass":0}', '{"dont_pass":100,"pass":0}', ""):
        nonce = b"\x00" * 32
        digest = kdice.commitment("t0", 1, 1, nonce, text.encode())
        cases.append(
            {
                "name": f"commit.choice_{len(text)}_bytes",
                "input": {
                    "table": "t0",
                    "throw": 1,
                    "seat": 1,
                    "nonce": nonce.hex(),
                    "choice": text,
                },
                "expect": {"commitment": digest.hex()},
            }
        )
    # reveals checked against a commitment: the match, and each input changed by one step
    base = {
        "table": "t0",
        "throw": 3,
        "seat": 1,
        "nonce": h("reveal").hex(),
        "choice": '{"dont_pass":0,"pass":10}',
    }
    made = kdice.commitment("t0", 3, 1, h("reveal"), b'{"dont_pass":0,"pass":10}').hex()
    changes: dict[str, dict[str, Any]] = {
        "matches": {},
        "other_table": {"table": "t1"},
        "other_throw": {"throw": 4},
        "other_seat": {"seat": 2},
        "nonce_last_bit": {"nonce": h("reveal")[:31].hex() + "%02x" % (h("reveal")[31] ^ 1)},
        "other_choice": {"choice": '{"dont_pass":0,"pass":20}'},
        "choice_spaced": {"choice": '{"dont_pass":0, "pass":10}'},
    }
    for name, change in changes.items():
        inp = {**base, **change, "commitment": made}
        match = kdice.verify_commitment(
            bytes.fromhex(made),
            inp["table"],
            inp["throw"],
            inp["seat"],
            bytes.fromhex(inp["nonce"]),
            inp["choice"].encode(),
        )
        cases.append({"name": f"reveal.{name}", "input": inp, "expect": {"matches": match}})
    assert [c["expect"]["matches"] for c in cases[-len(changes) :]] == [True] + [False] * 6
    return cases


# ---------------------------------------------------------------------------- dice


def dice_expect(table: str, throw: int, nonce_hex: list[str]) -> dict[str, Any]:
    nonce_list = [bytes.fromhex(n) for n in nonce_hex]
    seed = kdice.dice_seed(table, throw, nonce_list)
    rejected = kdice.dice_from_seed(seed)[2]
    block0 = hashlib.sha256(seed + b"\x00\x00\x00\x00").digest()
    got = kdice.derive_dice(table, throw, nonce_list)
    return {"seed": seed.hex(), "block0": block0.hex(), "rejected": rejected, "dice": list(got)}


def _nonce_set(label: str, seats: int) -> list[str]:
    return [h(f"{label}/{s}").hex() for s in range(seats)]


def dice() -> list[Case]:
    cases: list[Case] = []
    for seats in (1, 2, 3, 8):
        for throw in (1, 2, 64, 128):
            nonce_hex = _nonce_set(f"dice/{seats}/{throw}", seats)
            cases.append(
                {
                    "name": f"plain.seats_{seats}.throw_{throw}",
                    "input": {"table": "t0", "throw": throw, "nonces": nonce_hex},
                    "expect": dice_expect("t0", throw, nonce_hex),
                }
            )
    for i, table in enumerate(TABLES):
        nonce_hex = _nonce_set(f"dice/table/{i}", 2)
        cases.append(
            {
                "name": f"plain.table_{i}",
                "input": {"table": table, "throw": 1, "nonces": nonce_hex},
                "expect": dice_expect(table, 1, nonce_hex),
            }
        )
    same = ["11" * 32, "22" * 32]
    cases.append(
        {
            "name": "order.seat_order",
            "input": {"table": "t0", "throw": 1, "nonces": same},
            "expect": dice_expect("t0", 1, same),
        }
    )
    cases.append(
        {
            "name": "order.reversed",
            "input": {"table": "t0", "throw": 1, "nonces": same[::-1]},
            "expect": dice_expect("t0", 1, same[::-1]),
        }
    )
    # the rejection boundary: searched deterministically over labelled nonce sets, for a first
    # byte of 251 (accepted: face 6), 252..255 (rejected), the second face after a rejection,
    # and two or three rejections in a row
    wanted: dict[str, Any] = {
        f"boundary.first_byte_{b}": b for b in (0, 5, 6, 250, 251, 252, 253, 254, 255)
    }
    wanted.update(
        {
            "boundary.second_byte_251": ("second", 251),
            "boundary.second_byte_252": ("second", 252),
            "boundary.second_byte_255": ("second", 255),
            "boundary.rejected_2": ("rejected", 2),
        }
    )
    found: dict[str, list[str]] = {}
    k = 0
    while len(found) < len(wanted) and k < 50000:
        nonce_hex = [h(f"boundary/{k}/0").hex(), h(f"boundary/{k}/1").hex()]
        k += 1
        seed = kdice.dice_seed("t0", 1, [bytes.fromhex(n) for n in nonce_hex])
        block = hashlib.sha256(seed + b"\x00\x00\x00\x00").digest()
        rejected = kdice.dice_from_seed(seed)[2]
        for name, want in wanted.items():
            if name in found:
                continue
            if isinstance(want, int):
                hit = block[0] == want
            elif want[0] == "second":
                hit = block[0] < 252 and block[1] == want[1]
            else:
                hit = rejected == want[1]
            if hit:
                found[name] = nonce_hex
    assert set(found) == set(wanted), sorted(set(wanted) - set(found))
    for name in wanted:
        if name in found:
            cases.append(
                {
                    "name": name,
                    "input": {"table": "t0", "throw": 1, "nonces": found[name]},
                    "expect": dice_expect("t0", 1, found[name]),
                }
            )
    return cases


# ---------------------------------------------------------------------------- digest, chain


def digest_messages(seats: int, throws: int, label: str) -> list[nmsg.Commit | nmsg.Reveal]:
    out: list[nmsg.Commit | nmsg.Reveal] = []
    for n in range(1, throws + 1):
        for s in range(seats):
            key = seat_key(s)
            choice = Choice(10, 0).to_bytes()
            nonce = h(f"{label}/{n}/{s}")
            c = kdice.commitment("t0", n, s, nonce, choice)
            commit = nmsg.sign(nmsg.Commit("t0", s, 2 * n - 2, n, c), key)
            reveal = nmsg.sign(nmsg.Reveal("t0", s, 2 * n - 1, n, nonce, choice), key)
            assert isinstance(commit, nmsg.Commit) and isinstance(reveal, nmsg.Reveal)
            out += [commit, reveal]
    return out


def digests() -> list[Case]:
    cases: list[Case] = []
    for seats, throws in ((1, 1), (2, 1), (2, 3), (3, 2), (8, 1), (2, 10)):
        msgs = digest_messages(seats, throws, f"digest/{seats}/{throws}")
        for order in ("sorted", "reversed", "interleaved"):
            frames = [nmsg.encode(m) for m in msgs]
            if order == "reversed":
                frames = frames[::-1]
            elif order == "interleaved":
                frames = frames[1::2] + frames[0::2]
            cases.append(
                {
                    "name": f"digest.seats_{seats}.throws_{throws}.{order}",
                    "input": {"frames": frames},
                    "expect": {"digest": nmsg.session_digest(msgs).hex()},
                }
            )
    return cases


def chain() -> list[Case]:
    cases: list[Case] = []
    bodies: list[tuple[str, str, dict[str, Any]]] = [
        ("header_short", "header", {"seat": 0, "table_id": "t0"}),
        ("sent", "sent", {"from": 0, "at": 1000.25, "message": '{"a":1}'}),
        ("received_int_time", "received", {"from": 1, "at": 1000, "message": "x"}),
        ("throw", "throw", {"throw": 1, "dice": [2, 5], "total": 7}),
        (
            "outcome_ended",
            "outcome",
            {
                "status": "ended",
                "throws": 0,
                "reason": "deadline",
                "seat": None,
                "reporter": 1,
                "proven": False,
            },
        ),
        ("receipts", "receipts", {"status": "matched", "count": 2, "digest": "00" * 32}),
        ("float_0.1", "sent", {"at": 0.1}),
        ("float_1e-05", "sent", {"at": 1e-05}),
        ("float_1e+16", "sent", {"at": 1e16}),
        ("float_45.0", "sent", {"at": 45.0}),
        ("float_negative", "sent", {"at": -2.5}),
        ("unicode_raw", "header", {"name": "é\u2028\U0001d11e"}),
        ("escapes", "header", {"name": '"\\\n\x01\x1f/'}),
        ("nested_sorted", "header", {"b": {"z": 1, "a": [3, {"y": 2, "x": 1}]}, "a": None}),
    ]
    prev = ntr.GENESIS
    for index, (name, kind, body) in enumerate(bodies):
        digest = ntr.record_hash(index, prev, kind, body)
        cases.append(
            {
                "name": f"record.{name}",
                "input": {"index": index, "prev": prev, "kind": kind, "body": body},
                "expect": {
                    "hash": digest,
                    "line": ntr.Record(index, prev, ntr.RecordKind(kind), body, digest).to_line(),
                },
            }
        )
        prev = digest
    return cases


def rosters() -> list[Case]:
    cases: list[Case] = []
    relay = nkeys.SigningKey.from_bytes(RELAY_SEED)
    for seats in range(1, 9):
        for table in ("t0", "é/room"):
            roster = tuple(
                nproto.Member(s, f"name_{s}", seat_key(s).public_key) for s in range(seats)
            )
            data = nproto.roster_signing_bytes(table, roster)
            cases.append(
                {
                    "name": f"roster.seats_{seats}.table_{'ascii' if table == 't0' else 'utf8'}",
                    "input": {
                        "table": table,
                        "roster": nproto.roster_to_document(roster),
                        "relay_seed": RELAY_SEED.hex(),
                    },
                    "expect": {
                        "signing_bytes": data.hex(),
                        "relay_key": relay.public_hex,
                        "roster_sig": relay.sign(data).hex(),
                    },
                }
            )
    return cases
