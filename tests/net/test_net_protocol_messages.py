"""Keys, verification words and the signed canonical messages, piece by piece."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace
from typing import Any

import pytest

from pointline.kernel import Choice, EndReason
from pointline.net.errors import (
    BadSignature,
    MalformedMessage,
    MessageError,
    NonMemberSeat,
    RosterError,
    WrongTable,
)
from pointline.net.protocol._keys import (
    WORDS,
    SigningKey,
    public_key_from_hex,
    verification_words,
    verify_signature,
)
from pointline.net.protocol._messages import (
    SIGN_DOMAIN,
    AbortNotice,
    Commit,
    Message,
    Receipt,
    Reveal,
    canonical_json,
    encode,
    parse,
    session_digest,
    sign,
    signing_bytes,
    to_frame,
)
from pointline.net.protocol._peer import Member, Peer, roster_from_wire

KEY = SigningKey.from_bytes(hashlib.sha256(b"seat 0").digest())
OTHER = SigningKey.from_bytes(hashlib.sha256(b"seat 1").digest())
KEYS = {0: KEY.public_key, 1: OTHER.public_key}
NONCE = hashlib.sha256(b"nonce").digest()


def samples() -> list[Message]:
    return [
        Commit("t", 0, 0, 1, hashlib.sha256(b"c").digest()),
        Reveal("t", 0, 1, 1, NONCE, Choice(10, 20).to_bytes()),
        Receipt("t", 0, 2, 9, (1010, 990), hashlib.sha256(b"d").digest()),
        AbortNotice("t", 0, 3, EndReason.DEADLINE, 1),
        AbortNotice("t", 0, 4, EndReason.BACKGROUND, None),
    ]


# ---------------------------------------------------------------------------- keys


def test_signatures_verify_only_for_the_signer_and_the_data() -> None:
    sig = KEY.sign(b"data")
    assert verify_signature(KEY.public_key, sig, b"data")
    assert not verify_signature(KEY.public_key, sig, b"date")
    assert not verify_signature(OTHER.public_key, sig, b"data")
    assert not verify_signature(KEY.public_key, sig[:-1], b"data")
    assert SigningKey.from_bytes(KEY.private_bytes()).public_key == KEY.public_key
    assert len(KEY.public_hex) == 64 and public_key_from_hex(KEY.public_hex) == KEY.public_key


def test_the_word_list_has_256_distinct_short_words() -> None:
    assert len(WORDS) == 256 == len(set(WORDS))
    assert all(w.isalpha() and w.islower() and 3 <= len(w) <= 8 for w in WORDS)


def test_verification_words_are_stable_per_key_and_differ_between_keys() -> None:
    words = verification_words(KEY.public_key)
    assert len(words) == 4 and all(w in WORDS for w in words)
    assert words == verification_words(bytes(KEY.public_key))
    digest = hashlib.sha256(b"pointline/words/v1\x00" + KEY.public_key).digest()
    assert words == tuple(WORDS[b] for b in digest[:4])
    many = {verification_words(SigningKey.generate().public_key) for _ in range(50)}
    assert len(many) == 50
    with pytest.raises(RosterError):
        verification_words(b"short")


@pytest.mark.parametrize("text", ["", "ab" * 32 + "0", KEY.public_hex.upper(), "zz" * 32])
def test_bad_public_key_hex_is_refused(text: str) -> None:
    if text == KEY.public_hex.upper() and text == KEY.public_hex:
        pytest.fail("the sample key has no letters")
    with pytest.raises(RosterError):
        public_key_from_hex(text)


def test_bad_private_keys_are_refused() -> None:
    with pytest.raises(RosterError):
        SigningKey.from_bytes(b"\0" * 31)


# ---------------------------------------------------------------------------- messages


@pytest.mark.parametrize("message", samples(), ids=lambda m: type(m).__name__)
def test_every_kind_round_trips_as_dict_text_and_bytes(message: Message) -> None:
    signed = sign(message, KEY)
    frame = to_frame(signed)
    text = encode(signed)
    assert text == json.dumps(frame, sort_keys=True, separators=(",", ":"))
    for form in (frame, text, text.encode()):
        back = parse(form, "t", KEYS)
        assert back == signed and back.sig == signed.sig


def test_the_signature_covers_the_domain_and_the_canonical_body() -> None:
    message = samples()[0]
    signed = sign(message, KEY)
    body = signing_bytes(message)
    assert body.startswith(SIGN_DOMAIN)
    assert verify_signature(KEY.public_key, signed.sig, body)
    assert not verify_signature(KEY.public_key, signed.sig, body[len(SIGN_DOMAIN) :])
    assert canonical_json({"b": 1, "a": [1, 2]}) == b'{"a":[1,2],"b":1}'


def _frame(**changes: Any) -> dict[str, Any]:
    frame = to_frame(sign(samples()[0], KEY))
    frame.update(changes)
    return frame


@pytest.mark.parametrize(
    "frame",
    [
        _frame(extra=1),
        {k: v for k, v in _frame().items() if k != "throw"},
        _frame(seq=True),
        _frame(seq=-1),
        _frame(throw=0),
        _frame(throw=129),
        _frame(v=2),
        _frame(commitment="AB" * 32),
        _frame(commitment="ab" * 31),
        _frame(sig="00"),
        _frame(kind="shout"),
        _frame(table=""),
        _frame(table=7),
        b'{"kind": NaN}',
        b"[]",
        "\ud800",
        {1: 2},
        None,
    ],
)
def test_malformed_frames_raise_malformed(frame: Any) -> None:
    with pytest.raises(MalformedMessage) as caught:
        parse(frame, "t", KEYS)
    assert caught.value.code == "malformed" and caught.value.reason is EndReason.MALFORMED


def test_malformed_kind_fields() -> None:
    reveal = to_frame(sign(samples()[1], KEY))
    receipt = to_frame(sign(samples()[2], KEY))
    abort = to_frame(sign(samples()[3], KEY))
    for bad in (
        {**reveal, "choice": "é"},
        {**reveal, "choice": ""},
        {**receipt, "final": []},
        {**receipt, "final": [1.5, 2]},
        {**abort, "reason": "boredom"},
        {**abort, "blame": "1"},
    ):
        with pytest.raises(MalformedMessage):
            parse(bad, "t", KEYS)


def test_wrong_table_non_member_and_bad_signature_are_told_apart() -> None:
    commit = samples()[0]
    with pytest.raises(WrongTable) as wrong:
        parse(to_frame(sign(replace(commit, table="u"), KEY)), "t", KEYS)
    assert wrong.value.reason is EndReason.NON_MEMBER
    with pytest.raises(NonMemberSeat):
        parse(to_frame(sign(replace(commit, seat=5), KEY)), "t", KEYS)
    with pytest.raises(BadSignature) as bad:
        parse({**to_frame(sign(commit, KEY)), "seq": 1}, "t", KEYS)  # edited after signing
    assert bad.value.reason is EndReason.BAD_SIGNATURE
    with pytest.raises(BadSignature):
        parse(to_frame(sign(commit, OTHER)), "t", KEYS)  # seat 0's message, seat 1's key
    assert all(isinstance(e, MessageError) for e in (wrong.value, bad.value))


def test_the_session_digest_does_not_depend_on_arrival_order() -> None:
    messages: list[Commit | Reveal] = (
        [
            sign(m, KEY)  # type: ignore[misc]
            for m in samples()[:2]
        ]
        + [sign(Commit("t", 1, 0, 1, b"\3" * 32), OTHER)]
    )  # type: ignore[list-item]
    shuffled = messages[:]
    random.Random(1).shuffle(shuffled)
    assert session_digest(messages) == session_digest(shuffled)
    assert session_digest(messages) != session_digest(messages[:2])


# ---------------------------------------------------------------------------- roster


def test_roster_from_the_relay_frame() -> None:
    wire = [
        {"seat": 1, "name": "bo", "session_key": OTHER.public_hex},
        {"seat": 0, "name": "al", "session_key": KEY.public_hex},
    ]
    roster = roster_from_wire(wire)
    assert [m.name for m in roster] == ["al", "bo"]
    for bad in (
        [{**wire[0], "seat": 2}, wire[1]],
        [wire[1], {**wire[0], "session_key": KEY.public_hex}],
        [{"seat": 0}],
        "nope",
        [],
    ):
        with pytest.raises(RosterError):
            roster_from_wire(bad)


def test_a_peer_refuses_a_roster_that_shows_another_key_for_its_seat() -> None:
    roster = (Member(0, "al", OTHER.public_key), Member(1, "bo", KEY.public_key))
    with pytest.raises(RosterError):
        Peer("t", roster, 0, KEY)
    with pytest.raises(RosterError):
        Peer("t", roster, 2, KEY)
    Peer("t", roster, 1, KEY)
