"""The round's cheaper paths give exactly the bytes of the general ones they stand in for."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pointline.kernel import EndReason
from pointline.net.protocol._keys import SigningKey
from pointline.net.protocol._messages import (
    AbortNotice,
    Commit,
    Receipt,
    Reveal,
    canonical_json,
    encode,
    parse_encoded,
    sign,
    sign_encoded,
    to_frame,
)
from pointline.net.protocol._transcript import RecordKind, Transcript, record_hash
from pointline.net.protocol._wire import WireError, parse_relay

KEY = SigningKey.from_bytes(bytes(range(32)))

tables = st.text(min_size=1, max_size=40).filter(lambda t: t.encode("utf-8", "ignore") != b"")
seats = st.integers(0, 7)
seqs = st.integers(0, 1 << 20)


@st.composite
def messages(draw: st.DrawFn) -> Commit | Reveal | Receipt | AbortNotice:
    table, seat, seq = draw(tables), draw(seats), draw(seqs)
    kind = draw(st.sampled_from(["commit", "reveal", "receipt", "abort"]))
    if kind == "commit":
        return Commit(
            table, seat, seq, draw(st.integers(1, 128)), draw(st.binary(min_size=32, max_size=32))
        )
    if kind == "reveal":
        choice = draw(
            st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=64)
        )
        return Reveal(table, seat, seq, 3, bytes(32), choice.encode("ascii"))
    if kind == "receipt":
        # one final per roster seat: the roster is seats 0..seat (the test's keys)
        return Receipt(
            table, seat, seq, 9, tuple(1000 - 10 * s for s in range(seat + 1)), bytes(32)
        )
    blame = draw(st.none() | seats)
    return AbortNotice(table, seat, seq, draw(st.sampled_from(list(EndReason))), blame)


@given(messages())
def test_the_frame_text_from_one_body_encoding_is_encode(message: Commit) -> None:
    try:
        message.table.encode("utf-8")
    except UnicodeEncodeError:
        return  # not a table id any peer holds
    signed, text = sign_encoded(message, KEY)
    assert signed == sign(message, KEY) and signed.sig == sign(message, KEY).sig
    assert text == encode(signed)
    # a receiver writes the same text from the frame's own fields
    roster = {seat: KEY.public_key for seat in range(message.seat + 1)}
    parsed, received = parse_encoded(to_frame(signed), message.table, roster)
    assert parsed == signed and received == text


def test_the_sig_goes_before_table_even_when_a_choice_spells_table() -> None:
    reveal = Reveal("t", 0, 0, 1, bytes(32), b',"table":"x"')
    signed, text = sign_encoded(reveal, KEY)
    assert text == encode(signed)
    assert parse_encoded(encode(signed), "t", {0: KEY.public_key}) == (signed, text)


@given(
    st.sampled_from([RecordKind.SENT, RecordKind.RECEIVED]),
    st.none() | st.integers(0, 255),
    st.floats(allow_nan=True, allow_infinity=True) | st.integers(-(10**12), 10**12),
    st.text(max_size=80),
)
def test_message_records_hash_as_general_records_do(
    kind: RecordKind, sender: int | None, at: float, text: str
) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return  # a transcript holds Unicode text only
    fast, general = Transcript({"h": 1}), Transcript({"h": 1})
    if at != at or at in (float("inf"), float("-inf")):
        # not JSON: both paths refuse it (the kernel's one encoder) and record nothing
        with pytest.raises(ValueError):
            fast.append_message(kind, sender, at, text)
        with pytest.raises(ValueError):
            general.append(kind, {"from": sender, "at": at, "message": text})
        assert fast.records == general.records  # the header alone, as before
        return
    a = fast.append_message(kind, sender, at, text)
    b = general.append(kind, {"from": sender, "at": at, "message": text})
    assert a.hash == b.hash == record_hash(a.index, a.prev, kind.value, dict(b.body))
    assert a.to_line() == b.to_line()


@given(st.integers(1, 128), st.integers(1, 6), st.integers(1, 6))
def test_throw_records_hash_as_general_records_do(throw: int, die1: int, die2: int) -> None:
    fast, general = Transcript({"h": 1}), Transcript({"h": 1})
    a = fast.append_throw(throw, die1, die2)
    b = general.append(
        RecordKind.THROW, {"throw": throw, "dice": [die1, die2], "total": die1 + die2}
    )
    assert a == b and a.to_line() == b.to_line()
    assert a.to_line() == canonical_json(a.to_document()).decode("utf-8")


def test_a_records_line_made_with_its_hash_is_its_canonical_json() -> None:
    log = Transcript({"version": 1, "table_id": "t", "roster": [{"seat": 0, "name": "é"}]})
    log.append_message(RecordKind.SENT, 0, 1000.5, '{"kind":"commit"}')
    log.append(RecordKind.OUTCOME, {"status": "ended", "final": [1, 2], "seat": None})
    for record in log.records:
        assert record.line
        assert record.to_line() == canonical_json(record.to_document()).decode("utf-8")


def test_relay_frames_stay_strict_on_the_fast_path() -> None:
    deep = '{"op":"deliver","from_seat":1,"payload":{"a":' + "[" * 40 + "]" * 40 + "}}"
    for raw in (
        '{"op":"deliver","from_seat":1,"payload":{"table":"\\ud800"}}',
        '{"op":"deliver","from_seat":1,"payload":{"seq":1e999}}',
        '{"op":"deliver","from_seat":1,"payload":{"seq":' + "9" * 400 + "}}",
        '{"op":"deliver","from_seat":1,"payload":{"seq":NaN}}',
        deep,
    ):
        with pytest.raises(WireError):
            parse_relay(raw)
    assert parse_relay('{"op":"deliver","from_seat":1,"payload":{"a":"[[[{{"}}')
