"""Mutants of the byte rules (signing input, canonical JSON, commitment, dice, digest, record
hash, parsing, choices, words, roster): each killed by the vectors."""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Callable, Sequence
from typing import Any

from pointline.conformance.online.registry import mutant, replace_everywhere
from pointline.conformance.online.registry import set_attr as _set

# ---------------------------------------------------------------------------- vectors


@mutant("sign_domain_byte", "the signing domain ends in 0x01, not NUL", "vectors")
def _sign_domain() -> None:
    from pointline.net.protocol import _messages as messages

    _set(messages, "SIGN_DOMAIN", b"pointline/message/v1\x01")


@mutant("canonical_ascii_escapes", "canonical JSON escapes non-ASCII as \\uXXXX", "vectors")
def _ascii() -> None:
    from pointline.kernel import canonical  # the one canonical encoder, every layer's

    _set(
        canonical,
        "_ENCODER",
        json.JSONEncoder(sort_keys=True, separators=(",", ":"), allow_nan=False),
    )


@mutant("canonical_spaces", "canonical JSON with spaces after , and :", "vectors")
def _spaces() -> None:
    from pointline.kernel import canonical

    _set(
        canonical,
        "_ENCODER",
        json.JSONEncoder(
            sort_keys=True, separators=(", ", ": "), ensure_ascii=False, allow_nan=False
        ),
    )


def _commitment(layout: str) -> Callable[..., bytes]:
    from pointline.kernel import dice

    def commitment(
        table_id: str, throw_index: int, seat: int, nonce: bytes, choices: bytes, version: int = 1
    ) -> bytes:
        head = dice.COMMIT_DOMAIN + (b"" if layout == "no_version" else struct.pack(">H", version))
        seat_bytes = struct.pack(">H" if layout == "seat_u16" else ">B", seat)
        data = (
            head
            + dice._lp(table_id.encode())
            + struct.pack(">I", throw_index)
            + seat_bytes
            + bytes(nonce)
            + dice._lp(bytes(choices))
        )
        return hashlib.sha256(data).digest()

    return commitment


@mutant("commit_no_version", "the commitment leaves out the protocol version", "vectors")
def _no_version() -> None:
    from pointline.kernel import dice

    replace_everywhere(dice.commitment, _commitment("no_version"))


@mutant("commit_seat_u16", "the commitment writes the seat in two bytes", "vectors")
def _seat_u16() -> None:
    from pointline.kernel import dice

    replace_everywhere(dice.commitment, _commitment("seat_u16"))


@mutant("dice_accept_252", "rejection off by one: byte 252 gives a face", "vectors")
def _accept_252() -> None:
    from pointline.kernel import dice

    _set(dice, "ACCEPT_BELOW", 253)


@mutant("dice_reject_251", "rejection off by one: byte 251 is rejected", "vectors")
def _reject_251() -> None:
    from pointline.kernel import dice

    _set(dice, "ACCEPT_BELOW", 251)


@mutant("dice_modulo_bias", "no rejection at all: every byte mod 6", "vectors")
def _modulo() -> None:
    from pointline.kernel import dice

    _set(dice, "ACCEPT_BELOW", 256)


def _seed(variant: str) -> Callable[..., bytes]:
    from pointline.kernel import dice

    def dice_seed(
        table_id: str, throw_index: int, nonces: Sequence[bytes], version: int = 1
    ) -> bytes:
        ordered = sorted(nonces) if variant == "sorted" else list(nonces)
        count = b"" if variant == "no_count" else struct.pack(">B", len(nonces))
        data = (
            dice.DICE_DOMAIN
            + struct.pack(">H", version)
            + dice._lp(table_id.encode())
            + struct.pack(">I", throw_index)
            + count
            + b"".join(ordered)
        )
        return hashlib.sha256(data).digest()

    return dice_seed


@mutant("dice_nonces_sorted", "the dice seed sorts the nonces instead of seat order", "vectors")
def _sorted() -> None:
    from pointline.kernel import dice

    replace_everywhere(dice.dice_seed, _seed("sorted"))


@mutant("dice_no_seat_count", "the dice seed leaves out the seat count", "vectors")
def _no_count() -> None:
    from pointline.kernel import dice

    replace_everywhere(dice.dice_seed, _seed("no_count"))


def _digest(variant: str) -> Callable[..., bytes]:
    from pointline.net.protocol import _messages as messages

    def session_digest(items: Any) -> bytes:
        if variant == "reveals_first":
            key = lambda m: (m.throw, 0 if isinstance(m, messages.Reveal) else 1, m.seat)  # noqa: E731
        else:
            key = lambda m: (m.throw, 0 if isinstance(m, messages.Commit) else 1, m.seat)  # noqa: E731
        h = hashlib.sha256(messages.DIGEST_DOMAIN)
        for message in sorted(items, key=key):
            data = messages.encode(message).encode()
            h.update((b"" if variant == "no_length" else struct.pack(">I", len(data))) + data)
        return h.digest()

    return session_digest


@mutant("digest_reveals_first", "the session digest puts reveals before commits", "vectors")
def _reveals_first() -> None:
    from pointline.net.protocol import _messages as messages

    replace_everywhere(messages.session_digest, _digest("reveals_first"))


@mutant("digest_no_length", "the session digest drops the length prefixes", "vectors")
def _no_length() -> None:
    from pointline.net.protocol import _messages as messages

    replace_everywhere(messages.session_digest, _digest("no_length"))


@mutant("throw_cap_127", "the session ends at the 127th throw", "vectors")
def _throw_cap() -> None:
    import sys

    for name, module in list(sys.modules.items()):  # every kernel module that reads the cap
        if name.startswith("pointline.kernel") and getattr(module, "THROW_CAP", None) == 128:
            _set(module, "THROW_CAP", 127)


@mutant("record_hash_domain", "the transcript hash uses another domain", "vectors")
def _record_domain() -> None:
    from pointline.net.protocol import _transcript as transcript

    _set(transcript, "_HASHED_HEAD", 'pointline/transcript/v2\x00{"body":')


@mutant("parse_uppercase_hex", "parsing accepts uppercase hex", "vectors")
def _upper() -> None:
    from pointline.net.protocol import _messages as messages

    original = messages._hex

    def lenient(doc: Any, name: str, digits: int) -> bytes:
        value = doc[name]
        if isinstance(value, str):
            doc = {**doc, name: value.lower()}
        return original(doc, name, digits)

    _set(messages, "_hex", lenient)


@mutant("parse_bool_as_int", "parsing takes true/false as integers", "vectors")
def _bool() -> None:
    from pointline.net.protocol import _messages as messages

    original = messages._int
    _set(
        messages,
        "_int",
        lambda doc, name, low, high: original(
            {**doc, name: int(doc[name]) if isinstance(doc[name], bool) else doc[name]},
            name,
            low,
            high,
        ),
    )


@mutant(
    "parse_wrong_table_as_malformed", "another table's message is reported malformed", "vectors"
)
def _wrong_table() -> None:
    from pointline.net import errors

    _set(errors.WrongTable, "code", "malformed")


@mutant("choice_not_reencoded", "a choice is accepted without the canonical re-encoding", "vectors")
def _choice() -> None:
    from pointline.kernel import choice as kchoice

    original = vars(kchoice.Choice)["from_bytes"].__func__

    def from_bytes(cls: Any, data: bytes) -> Any:
        try:
            doc = json.loads(data)
            return original(cls, kchoice.Choice(doc["pass"], doc["dont_pass"]).to_bytes())
        except (ValueError, KeyError, TypeError):
            return original(cls, data)

    _set(kchoice.Choice, "from_bytes", classmethod(from_bytes))


@mutant("words_skip_first_byte", "verification words start at the digest's second byte", "vectors")
def _words() -> None:
    from pointline.net.protocol import _keys as keys

    def words(public_key: bytes, count: int = keys.WORD_COUNT) -> tuple[str, ...]:
        digest = hashlib.sha256(keys.WORDS_DOMAIN + public_key).digest()
        return tuple(keys.WORDS[b] for b in digest[1 : count + 1])

    replace_everywhere(keys.verification_words, words)


@mutant("roster_domain", "the roster signature uses another domain", "vectors")
def _roster_domain() -> None:
    from pointline.net.protocol import _roster as roster

    _set(roster, "ROSTER_DOMAIN", b"pointline/roster/v2\x00")
