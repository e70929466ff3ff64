"""The hosted table's TLS certificate: made once on first hosting, kept, shown as four words.

A hosted table serves ``wss://`` only (``net.hosting``). Its certificate is self-signed and kept
with its key in the app's data folder (``net.paths.data_dir()/host``, the folder 0700, both files
0600), so the next game night shows the same certificate and guests who pinned it are asked
nothing. Guests pin it by the SHA-256 fingerprint the table announces (``net.discovery``); people
compare it as four words (``certificate_words``).

The certificate is an X.509 v3 certificate for an Ed25519 key (RFC 8410), written here in DER and
signed with PyNaCl (libsodium), which the app already carries for the session keys: Python's
``ssl`` and Qt cannot make a certificate, and pyca ``cryptography`` would add a 14 MB library to
the desktop build and a Rust-built recipe to the phone's for one certificate per device. OpenSSL
(Python's ``ssl``, on every side of the table) serves and checks Ed25519 certificates in TLS 1.2
and 1.3; the tests cross-check the certificate with ``cryptography``.

The certificate words are distinct from the per-seat roster words
(``net.protocol.keys.verification_words``) in two ways: they come from another list
(``CERTIFICATE_WORDS``: 256 describing words, none of them among the roster's 256 things; a test
keeps the lists apart), so a person never mistakes one set for the other; and they are derived
under their own domain (``SHA-256("pointline/certificate-words/v1\\0" || fingerprint)``), so the
same bytes never give related words in both.
"""

from __future__ import annotations

import base64
import contextlib
import datetime
import hashlib
import os
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from pointline.net import paths
from pointline.net.errors import NetCode, NetError

__all__ = [
    "CERTIFICATE_WORDS",
    "CERT_FILE",
    "HOST_DIR",
    "KEY_FILE",
    "WORDS_DOMAIN",
    "HostCertificate",
    "HostCertificateError",
    "certificate_fingerprint",
    "certificate_words",
    "ensure_host_certificate",
    "host_dir",
    "write_private",
]

HOST_DIR: Final = "host"
CERT_FILE: Final = "certificate.pem"
KEY_FILE: Final = "certificate-key.pem"
WORDS_DOMAIN: Final = b"pointline/certificate-words/v1\x00"
WORD_COUNT: Final = 4
VALID_DAYS: Final = 3650
"""Ten years: the pin, not a date, is what guests trust; a certificate that expired is made anew
(guests then see "this table's certificate changed")."""
RENEW_BEFORE: Final = datetime.timedelta(days=30)

# 256 short, easy-to-say describing words; none is in net.protocol.keys.WORDS (the roster's things).
CERTIFICATE_WORDS: tuple[str, ...] = tuple(
    """
    able active agile airy alert alive ample ancient antique apt arctic astute august autumn
    awake balmy bold bonny bouncy brave breezy bright brisk broad bronze bubbly bumpy busy calm
    candid carefree careful casual cheeky cheery chilly chubby civil classic clean clear clever
    cloudy cosmic cosy crafty creamy crisp crunchy cuddly curly cute dainty dapper daring
    dazzling deep deft dewy dim dreamy dusky dusty eager early earnest easy elated electric
    elegant empty endless epic exotic fabulous faint fair famous fancy fast fearless feisty
    fierce fiery firm fizzy flat fluffy fond foggy frank free fresh friendly frosty funny fuzzy
    gallant gentle giant giddy gifted glad gleaming glossy golden good graceful grand grassy
    great green handy happy hardy hearty heavy helpful hidden high hollow honest hopeful humble
    hungry husky icy ideal immense jolly jovial joyful juicy jumpy just keen kind large lavish
    leafy level light limber little lively local lofty long lovely loyal lucky lunar lush magic
    mellow merry mighty mild misty modern modest mossy musical neat new nice nimble noble novel
    orange patient peaceful perfect playful pleasant plucky plush polite proud purple quick
    quiet rapid rare ready regal rich ripe robust rosy round royal rustic sandy savvy scenic
    secret serene sharp shiny shy silent silky simple sleepy slim smart smooth snowy snug soft
    solar solid sonic spicy spry steady steep stormy strong sturdy sunny super sweet swift tall
    tame tender tidy tiny tough tranquil tropical true trusty twin unique upbeat urban useful
    vast vivid warm wavy wealthy wild windy wise witty wooden woolly yellow young zany zealous
    zesty
    """.split()  # noqa: SIM905 - a word list reads better as text
)


class HostCertificateError(NetError, code=NetCode.HOST_CERTIFICATE):
    """The certificate could not be made or kept (``text`` in plain words for the screen)."""


def certificate_fingerprint(der: bytes) -> str:
    """The SHA-256 of a certificate's DER bytes, 64 lowercase hex digits: what a table
    announces, a guest pins and ``certificate_words`` shows (here, in a leaf the relay's
    ``--announce`` and the client's trust both import)."""
    return hashlib.sha256(der).hexdigest()


def certificate_words(fingerprint: str, count: int = WORD_COUNT) -> tuple[str, ...]:
    """Four words for a certificate's SHA-256 fingerprint (64 lowercase hex digits)."""
    if len(fingerprint) != 64 or fingerprint.strip("0123456789abcdef"):
        raise ValueError("a fingerprint is 64 lowercase hex digits")
    digest = hashlib.sha256(WORDS_DOMAIN + bytes.fromhex(fingerprint)).digest()
    return tuple(CERTIFICATE_WORDS[b] for b in digest[:count])


@dataclass(frozen=True, slots=True)
class HostCertificate:
    """The host's certificate and key files, the certificate's PEM and its fingerprint."""

    cert_path: Path
    key_path: Path
    pem: str
    fingerprint: str

    @property
    def words(self) -> tuple[str, ...]:
        return certificate_words(self.fingerprint)

    def server_context(self) -> ssl.SSLContext:
        """TLS settings for the hosted relay (TLS 1.2 or later)."""
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.load_cert_chain(self.cert_path, self.key_path)
        return context


def host_dir(folder: str | os.PathLike[str] | None = None) -> Path:
    """The host's folder (``data_dir()/host`` unless ``folder`` is given), made 0700."""
    path = Path(folder) if folder is not None else paths.data_dir() / HOST_DIR
    path.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):  # not every file system keeps modes (Windows)
        path.chmod(0o700)
    return path


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` readable and writable by the user only (0600), atomically."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


# ---- the certificate in DER, by hand: Ed25519 (RFC 8410) signed with PyNaCl ------------------

_ED25519 = b"\x30\x05\x06\x03\x2b\x65\x70"  # AlgorithmIdentifier { id-Ed25519 }
_PKCS8_PREFIX = b"\x30\x2e\x02\x01\x00" + _ED25519 + b"\x04\x22\x04\x20"
_COMMON_NAME = b"\x06\x03\x55\x04\x03"  # id-at-commonName
_SUBJECT_ALT_NAME = b"\x06\x03\x55\x1d\x11"  # id-ce-subjectAltName
SUBJECT: Final = "Pointline hosted table"
DNS_NAME: Final = "pointline.local"


def _tlv(tag: int, body: bytes) -> bytes:
    size = len(body)
    if size < 0x80:
        return bytes([tag, size]) + body
    raw = size.to_bytes((size.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(raw)]) + raw + body


def _seq(*parts: bytes) -> bytes:
    return _tlv(0x30, b"".join(parts))


def _time(moment: datetime.datetime) -> bytes:
    """UTCTime before 2050, GeneralizedTime from then on (RFC 5280 4.1.2.5)."""
    if moment.year < 2050:
        return _tlv(0x17, moment.strftime("%y%m%d%H%M%SZ").encode("ascii"))
    return _tlv(0x18, moment.strftime("%Y%m%d%H%M%SZ").encode("ascii"))


def _read(data: bytes, pos: int) -> tuple[int, int, int]:
    """(tag, start of the value, end of the value) of the DER element at ``pos``."""
    if pos + 2 > len(data):
        raise ValueError("truncated")
    tag, size, pos = data[pos], data[pos + 1], pos + 2
    if size & 0x80:
        count = size & 0x7F
        if not 1 <= count <= 4 or pos + count > len(data):
            raise ValueError("bad length")
        size, pos = int.from_bytes(data[pos : pos + count], "big"), pos + count
    if pos + size > len(data):
        raise ValueError("truncated")
    return tag, pos, pos + size


def _children(data: bytes, start: int, end: int) -> list[tuple[int, int, int]]:
    found, pos = [], start
    while pos < end:
        element = _read(data, pos)
        found.append(element)
        pos = element[2]
    return found


def certificate_der(seed: bytes, now: datetime.datetime, days: int = VALID_DAYS) -> bytes:
    """A self-signed X.509 v3 certificate for the Ed25519 key of ``seed`` (32 bytes), valid
    from a day before ``now`` (a guest's clock a little behind) for ``days`` days."""
    from nacl.bindings import crypto_sign, crypto_sign_seed_keypair

    public, secret = crypto_sign_seed_keypair(seed)
    name = _seq(_tlv(0x31, _seq(_COMMON_NAME, _tlv(0x0C, SUBJECT.encode("ascii")))))
    serial = int.from_bytes(os.urandom(16), "big") >> 1 or 1  # positive, at most 16 bytes
    alt_names = _seq(_tlv(0x82, DNS_NAME.encode("ascii")))
    tbs = _seq(
        _tlv(0xA0, _tlv(0x02, b"\x02")),  # version 3
        _tlv(0x02, serial.to_bytes((serial.bit_length() + 8) // 8, "big")),
        _ED25519,
        name,
        _seq(_time(now - datetime.timedelta(days=1)), _time(now + datetime.timedelta(days=days))),
        name,
        _seq(_ED25519, _tlv(0x03, b"\x00" + public)),
        _tlv(0xA3, _seq(_seq(_SUBJECT_ALT_NAME, _tlv(0x04, alt_names)))),
    )
    signature = crypto_sign(tbs, secret)[:64]
    return _seq(tbs, _ED25519, _tlv(0x03, b"\x00" + signature))


def certificate_facts(der: bytes) -> tuple[bytes, datetime.datetime]:
    """The Ed25519 public key and the end of validity of a certificate ``certificate_der``
    made; ``ValueError`` for anything else."""
    start = _read(der, 0)[1]
    tbs = _children(der, *_read(der, start)[1:])
    if len(tbs) < 7 or der[tbs[2][1] - 2 : tbs[2][2]] != _ED25519:
        raise ValueError("not an Ed25519 certificate")
    validity = _children(der, tbs[4][1], tbs[4][2])
    tag, lo, hi = validity[1]
    text = der[lo:hi].decode("ascii")
    form = "%y%m%d%H%M%SZ" if tag == 0x17 else "%Y%m%d%H%M%SZ"
    until = datetime.datetime.strptime(text, form).replace(tzinfo=datetime.UTC)
    spki = der[tbs[6][1] - 2 : tbs[6][2]]
    if not spki.startswith(b"\x30\x2a" + _ED25519 + b"\x03\x21\x00") or len(spki) != 44:
        raise ValueError("not an Ed25519 key")
    return spki[-32:], until


def key_pem(seed: bytes) -> bytes:
    """The PKCS#8 PEM of an Ed25519 private key (RFC 8410), as ``ssl`` loads it."""
    body = base64.encodebytes(_PKCS8_PREFIX + seed).decode("ascii").replace("\n", "")
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    return f"-----BEGIN PRIVATE KEY-----\n{lines}\n-----END PRIVATE KEY-----\n".encode("ascii")


def _seed_of(pem: bytes) -> bytes:
    text = pem.decode("ascii").strip().splitlines()
    if len(text) < 3 or text[0] != "-----BEGIN PRIVATE KEY-----":
        raise ValueError("not a private key")
    raw = base64.b64decode("".join(text[1:-1]), validate=True)
    if len(raw) != len(_PKCS8_PREFIX) + 32 or not raw.startswith(_PKCS8_PREFIX):
        raise ValueError("not an Ed25519 key")
    return raw[-32:]


def _load(cert_path: Path, key_path: Path) -> HostCertificate | None:
    """The kept certificate, or None when it is missing, unreadable, not matching its key or
    near its end (then a new one is made)."""
    from nacl.bindings import crypto_sign_seed_keypair

    try:
        pem = cert_path.read_text(encoding="ascii")
        der = ssl.PEM_cert_to_DER_cert(pem)
        public, until = certificate_facts(der)
        own = crypto_sign_seed_keypair(_seed_of(key_path.read_bytes()))[0]
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if own != public or until - RENEW_BEFORE < datetime.datetime.now(datetime.UTC):
        return None
    return HostCertificate(cert_path, key_path, pem, certificate_fingerprint(der))


def _make(cert_path: Path, key_path: Path) -> None:
    seed = os.urandom(32)
    der = certificate_der(seed, datetime.datetime.now(datetime.UTC))
    write_private(key_path, key_pem(seed))
    write_private(cert_path, ssl.DER_cert_to_PEM_cert(der).encode("ascii"))


def ensure_host_certificate(folder: str | os.PathLike[str] | None = None) -> HostCertificate:
    """The host's certificate: the kept one, or a new one made (and kept) the first time.

    ``HostCertificateError`` in plain words when the folder cannot be written."""
    try:
        where = host_dir(folder)
        cert_path, key_path = where / CERT_FILE, where / KEY_FILE
        kept = _load(cert_path, key_path)
        if kept is not None:
            return kept
        _make(cert_path, key_path)
    except OSError as exc:
        raise HostCertificateError(
            f"The table's certificate cannot be kept in the app's data folder "
            f"({exc.strerror or 'not writable'})."
        ) from None
    made = _load(cert_path, key_path)
    if made is None:
        raise HostCertificateError("The table's certificate could not be made.")
    return made
