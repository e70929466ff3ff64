"""The hosted table's TLS certificate: made once on first hosting, kept, shown as four words.

A hosted table serves ``wss://`` only (``net.hosting``). Its certificate is self-signed and kept
with its key in the app's data folder (``net.paths.data_dir()/host``, the folder 0700, both files
0600), so the next game night shows the same certificate and guests who pinned it are asked
nothing. Guests pin it by the SHA-256 fingerprint the table announces (``net.discovery``); people
compare it as four words (``certificate_words``).

The certificate is an X.509 v3 certificate for an Ed25519 key (RFC 8410), made and read with
pyca ``cryptography``'s x509 builder and loader: Python's ``ssl`` and Qt cannot make a
certificate, and a well-kept library beats a hand-written DER encoder (python-for-android has a
``cryptography`` recipe). Ed25519, not EC P-256: OpenSSL (Python's ``ssl``, on every side of the
table: the guests are this app, never a browser) serves and checks Ed25519 certificates in TLS 1.2
and 1.3 alike (a test connects with each), the key is 32 bytes, and the signature has no hash or
curve parameters to get wrong.

The certificate words are distinct from the per-seat roster words
(``net.protocol._keys.verification_words``) in two ways: they come from another list
(``CERTIFICATE_WORDS``: 256 describing words, none of them among the roster's 256 things; a test
keeps the lists apart), so a person never mistakes one set for the other; and they are derived
under their own domain (``SHA-256("pointline/certificate-words/v1\\0" || fingerprint)``), so the
same bytes never give related words in both.
"""

from __future__ import annotations

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

# 256 short, easy-to-say describing words; none is in net.protocol._keys.WORDS
# (the roster's things).
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


# ---- the certificate, made and read with pyca cryptography's x509 ------------------------------

SUBJECT: Final = "Pointline hosted table"
DNS_NAME: Final = "pointline.local"


def make_certificate(now: datetime.datetime, days: int = VALID_DAYS) -> tuple[bytes, bytes]:
    """A new Ed25519 key and a self-signed X.509 v3 certificate for it, valid from a day before
    ``now`` (a guest's clock a little behind) for ``days`` days: (certificate PEM, PKCS#8 key
    PEM), as ``ssl`` loads them."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.x509.oid import NameOID

    key = Ed25519PrivateKey.generate()
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, SUBJECT)])
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=days))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(DNS_NAME)]), critical=False)
        .sign(key, None)  # Ed25519 signs without a separate hash
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return certificate.public_bytes(serialization.Encoding.PEM), key_pem


def _load(cert_path: Path, key_path: Path) -> HostCertificate | None:
    """The kept certificate, or None when it is missing, unreadable, not matching its key or
    near its end (then a new one is made)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    raw = serialization.Encoding.Raw
    try:
        pem = cert_path.read_text(encoding="ascii")
        certificate = x509.load_pem_x509_certificate(pem.encode("ascii"))
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError, UnicodeError):
        return None
    if not isinstance(key, Ed25519PrivateKey):
        return None
    own = key.public_key().public_bytes(raw, serialization.PublicFormat.Raw)
    try:
        public = certificate.public_key().public_bytes(raw, serialization.PublicFormat.Raw)
    except ValueError:  # not an Ed25519 certificate
        return None
    until = certificate.not_valid_after_utc
    if own != public or until - RENEW_BEFORE < datetime.datetime.now(datetime.UTC):
        return None
    der = certificate.public_bytes(serialization.Encoding.DER)
    return HostCertificate(cert_path, key_path, pem, certificate_fingerprint(der))


def _make(cert_path: Path, key_path: Path) -> None:
    cert_pem, key_pem = make_certificate(datetime.datetime.now(datetime.UTC))
    write_private(key_path, key_pem)
    write_private(cert_path, cert_pem)


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
