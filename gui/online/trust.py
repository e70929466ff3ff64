"""What the sign-in screen asks before trusting a relay: its certificate, or its changed key.

``RelayTrust`` is a small QObject with one question at a time, each property with its own
notify signal. ``net.client._trust`` decides what is pinned; this only holds the question:

- ``certificate``: the relay's ``wss://`` certificate is not trusted on this device. The
  screen shows its SHA-256 fingerprint, in groups of four, to compare with what the relay's
  owner reads out; "Trust this relay's certificate" pins it (``KnownRelays.pin_certificate``)
  and signs in again; anything else trusts nothing.
- ``key``: the relay signs with another key than the first time. The player must accept the
  warning (``RelayClient.accept_relay_key``) before the lobby opens.
"""

from __future__ import annotations

from PySide6.QtCore import Property, QObject, Signal
from PySide6.QtQml import QmlElement, QmlUncreatable

from pointline.net.client import CertificateNotTrusted, RelayKeyChanged, spaced

__all__ = ["RelayTrust"]

QML_IMPORT_NAME = "Pointline.Online"
QML_IMPORT_MAJOR_VERSION = 1

CERTIFICATE_NEW = (
    "This device does not know the certificate of the relay at {address}. Trust it only if the "
    "person who runs the relay reads you the same fingerprint:"
)
CERTIFICATE_CHANGED = (
    "The relay at {address} now shows another certificate than the one you trusted. Someone "
    "may be standing in for it. Trust the new one only if its owner reads you the same "
    "fingerprint:"
)
KEY_CHANGED = (
    "The relay at {address} now signs rooms with a different key than the first time you used "
    "it. Someone may be standing in for it. Play on only if the person who runs it says its key "
    "changed."
)


@QmlElement
@QmlUncreatable("the online bridge asks these questions")
class RelayTrust(QObject):  # type: ignore[operator]  # PySide6 stubs: QmlUncreatable
    """The open trust question: ``asking`` is "", "certificate" or "key"."""

    askingChanged = Signal()
    textChanged = Signal()
    fingerprintChanged = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._asking = ""
        self._text = ""
        self._fingerprint = ""
        self.certificate: CertificateNotTrusted | None = None
        self.key_change: RelayKeyChanged | None = None

    def _show(self, asking: str, text: str, fingerprint: str) -> None:
        for name, value in (("asking", asking), ("text", text), ("fingerprint", fingerprint)):
            if getattr(self, f"_{name}") != value:
                setattr(self, f"_{name}", value)
                getattr(self, f"{name}Changed").emit()

    def ask_certificate(self, error: CertificateNotTrusted) -> None:
        self.certificate, self.key_change = error, None
        words = CERTIFICATE_CHANGED if error.changed else CERTIFICATE_NEW
        self._show("certificate", words.format(address=error.address), spaced(error.fingerprint))

    def ask_key(self, error: RelayKeyChanged) -> None:
        self.certificate, self.key_change = None, error
        self._show("key", KEY_CHANGED.format(address=error.address), "")

    def clear(self) -> None:
        self.certificate = self.key_change = None
        self._show("", "", "")

    asking = Property(str, lambda self: self._asking, notify=askingChanged)
    text = Property(str, lambda self: self._text, notify=textChanged)
    fingerprint = Property(str, lambda self: self._fingerprint, notify=fingerprintChanged)
    """The certificate's SHA-256 in groups of four hex digits, as people read it out."""
