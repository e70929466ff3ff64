"""Session signing keys (Ed25519, via PyNaCl's libsodium) and verification words.

Each client makes a fresh ``SigningKey`` per session; the relay binds its public key to the
account in the roster. ``verification_words`` turns a public key into a few short words that
two people can compare out loud to check that the roster shows the key the other one holds.

Signatures are pure Ed25519 (RFC 8032), checked strictly: libsodium refuses an S not below the
group order and a small-order R or public key (spec/ONLINE.md section 12). It checks a
signature in about half the time OpenSSL takes through ``cryptography`` (63 us against 132 us
on the CI machine), and each peer checks 14 per 8-seat throw. Only bindings PyNaCl has had
since 1.3.0 are used: that is the release python-for-android builds for a phone.
"""

from __future__ import annotations

import hashlib
import os

from nacl.bindings import (
    crypto_sign,
    crypto_sign_open,
    crypto_sign_seed_keypair,
)
from nacl.exceptions import BadSignatureError

from pointline.net.errors import RosterError

__all__ = [
    "PUBLIC_KEY_BYTES",
    "SIGNATURE_BYTES",
    "WORDS",
    "WORDS_DOMAIN",
    "WORD_COUNT",
    "SigningKey",
    "public_key_from_hex",
    "verification_words",
    "verify_signature",
]

PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64
WORDS_DOMAIN = b"pointline/words/v1\x00"
WORD_COUNT = 4

# 256 short, distinct, easy-to-say words: byte value b of SHA-256(domain || key) names WORDS[b].
WORDS: tuple[str, ...] = tuple(
    """
    acid acorn actor aisle alarm album alley amber angle ankle apple apron arena arrow atlas
    attic award bacon badge bagel baker bamboo banjo barn basil beach beard bench berry bike
    bison blade blank blaze bloom board boat bonus booth bottle brain brass bread brick bride
    brook broom brush bucket bugle cabin cable cactus camel candle canoe canyon cargo carpet
    castle cedar chalk cherry chess chief cider circus claw clock cloud clover coast cobra comet
    coral cotton couch crane crater crown cube curtain daisy dancer delta denim desert diary
    dingo dolphin donkey dragon drum eagle easel echo elbow elder ember engine falcon fern ferry
    fiddle field flag flint flute forest fossil fox frost garden garlic gecko ginger glacier
    glove goose grape gravel guitar hammer harbor harp hazel helmet heron hippo honey hotel
    igloo iris island ivory jacket jaguar jelly jigsaw jungle kayak kettle kiwi koala ladder
    lagoon lantern lemon lilac lion lizard llama lobster locket lotus magnet mango maple marble
    meadow melon meteor mint mirror mitten monkey moose mosaic muffin nectar needle nickel
    noodle oasis ocean olive onion orbit orchid otter owl paddle panda parrot pasta peach pebble
    pepper piano pickle pilot pine pirate planet plum pony poppy puffin pumpkin quartz quill
    rabbit radar radish raven ribbon river robin rocket rose ruby saddle salmon sandal satin
    scarf shell sierra silver sketch sled sloth snail socket spider spoon squid stamp starfish
    stone sugar summit swan table tango teapot tiger toast tomato topaz torch tractor trumpet
    tulip tunnel turtle umbrella valley velvet violin volcano waffle walnut walrus whale whistle
    """.split()  # noqa: SIM905 - a word list reads better as text
)


class SigningKey:
    """An Ed25519 private key for one session."""

    __slots__ = ("_public", "_secret", "_seed")

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._public, self._secret = crypto_sign_seed_keypair(seed)

    @classmethod
    def generate(cls) -> SigningKey:
        return cls(os.urandom(32))

    @classmethod
    def from_bytes(cls, raw: bytes) -> SigningKey:
        """A key from its 32-byte raw private form (tests use fixed keys)."""
        if not isinstance(raw, (bytes, bytearray)) or len(raw) != 32:
            raise RosterError("a private key is exactly 32 bytes")
        return cls(bytes(raw))

    def private_bytes(self) -> bytes:
        return self._seed

    @property
    def public_key(self) -> bytes:
        """The raw 32-byte public key."""
        return self._public

    @property
    def public_hex(self) -> str:
        return self._public.hex()

    def sign(self, data: bytes) -> bytes:
        return crypto_sign(data, self._secret)[:SIGNATURE_BYTES]

    def __repr__(self) -> str:
        return f"SigningKey(public={self.public_hex[:16]}…)"


def verify_signature(public_key: bytes, signature: bytes, data: bytes) -> bool:
    """Whether ``signature`` is a valid Ed25519 signature of ``data`` by ``public_key``."""
    if (
        not isinstance(public_key, bytes)
        or len(public_key) != PUBLIC_KEY_BYTES
        or not isinstance(signature, bytes)
        or len(signature) != SIGNATURE_BYTES
    ):
        return False
    try:
        crypto_sign_open(signature + data, public_key)
    except BadSignatureError:
        return False
    return True


def public_key_from_hex(text: str) -> bytes:
    """A raw public key from 64 lowercase hex digits; raises ``RosterError`` otherwise."""
    if not isinstance(text, str) or len(text) != 2 * PUBLIC_KEY_BYTES:
        raise RosterError("a public key is 64 hex digits")
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raise RosterError("a public key is 64 hex digits") from None
    if raw.hex() != text:
        raise RosterError("a public key is written in lowercase hex")
    return raw


def verification_words(public_key: bytes, count: int = WORD_COUNT) -> tuple[str, ...]:
    """``count`` words (1..32) from SHA-256 of the key: byte i of the digest picks word i."""
    if not isinstance(public_key, (bytes, bytearray)) or len(public_key) != PUBLIC_KEY_BYTES:
        raise RosterError("a public key is exactly 32 bytes")
    if type(count) is not int or not 1 <= count <= 32:
        raise RosterError("between 1 and 32 words")
    digest = hashlib.sha256(WORDS_DOMAIN + bytes(public_key)).digest()
    return tuple(WORDS[b] for b in digest[:count])
