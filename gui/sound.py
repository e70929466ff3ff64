"""Short table sounds synthesized at run time (no binary assets), silent without a device.

Each sound is a few hundred milliseconds of 16-bit mono PCM generated here, written as a WAV
file in a temporary folder and played with QSoundEffect. QtMultimedia is imported only when
the first sound plays, so start-up does not pay for it.

QSoundEffect reads the WAV and writes it to QtMultimedia's own audio output (PulseAudio on
Linux): it needs no media backend, so the desktop build ships neither Qt's FFmpeg plugin nor
FFmpeg (20.4 MB; pysidedeploy.spec), and its smoke test hears the throw sound from the built
app in a PulseAudio null sink (tools/desktop_build.py, issue 42). Keep to QSoundEffect and WAV:
QMediaPlayer or a compressed format would need the backend back.
"""

from __future__ import annotations

import math
import random
import struct
import tempfile
import wave
from pathlib import Path
from typing import Any

__all__ = ["RATE", "SOUNDS", "Sounds", "pcm", "seconds"]

RATE = 22050


def _tone(freqs: list[tuple[float, float]], volume: float = 0.35) -> bytes:
    """Concatenated sine notes (frequency Hz, seconds) with a short fade in and out."""
    out = bytearray()
    for freq, seconds in freqs:
        n = int(RATE * seconds)
        for i in range(n):
            env = min(1.0, i / 200, (n - i) / 600)
            v = volume * env * math.sin(2 * math.pi * freq * i / RATE)
            out += struct.pack("<h", int(v * 32767))
    return bytes(out)


def _rattle() -> bytes:
    rng = random.Random(7)
    out = bytearray()
    n = int(RATE * 0.28)
    for i in range(n):
        click = 1.0 if (i // 700) % 2 == 0 else 0.25
        env = min(1.0, (n - i) / 1500) * click
        v = 0.3 * env * (rng.random() * 2 - 1)
        out += struct.pack("<h", int(v * 32767))
    return bytes(out)


def pcm(name: str) -> bytes:
    """The PCM samples of one sound: dice, win, loss or push."""
    if name == "dice":
        return _rattle()
    if name == "win":
        return _tone([(660, 0.09), (880, 0.09), (1320, 0.16)])
    if name == "loss":
        return _tone([(392, 0.12), (262, 0.22)])
    if name == "push":
        return _tone([(523, 0.12), (523, 0.12)], 0.25)
    raise KeyError(name)


SOUNDS = ("dice", "win", "loss", "push")


def seconds(name: str) -> float:
    """How long one sound lasts."""
    return len(pcm(name)) / 2 / RATE


class Sounds:
    """Plays the table sounds unless muted; does nothing where there is no audio output."""

    def __init__(self) -> None:
        self.muted = False
        self._effects: dict[str, Any] | None = None
        self._dir: tempfile.TemporaryDirectory[str] | None = None
        self.available: bool | None = None

    def preload(self) -> None:
        """Generate and load the sounds now (after the first frame), muted or not."""
        if self._effects is None:
            self._load()

    def _load(self) -> None:
        self._effects = {}
        try:
            from PySide6.QtCore import QUrl, qInstallMessageHandler
            from PySide6.QtMultimedia import QMediaDevices, QSoundEffect
        except ImportError:
            self.available = False
            return
        previous = None

        def quiet(mode: Any, context: Any, message: str) -> None:
            # Without a sound server Qt reports it on every query: that is not an error here.
            if message.startswith("PulseAudioService") or "pa_context" in message:
                return
            if previous is not None:
                previous(mode, context, message)
            else:
                import sys

                print(message, file=sys.stderr)

        previous = qInstallMessageHandler(quiet)
        if QMediaDevices.defaultAudioOutput().isNull():
            self.available = False
            return
        self._dir = tempfile.TemporaryDirectory(prefix="pointline-sounds-")
        for name in SOUNDS:
            path = Path(self._dir.name) / f"{name}.wav"
            with wave.open(str(path), "wb") as f:
                f.setnchannels(1)
                f.setsampwidth(2)
                f.setframerate(RATE)
                f.writeframes(pcm(name))
            effect = QSoundEffect()
            effect.setSource(QUrl.fromLocalFile(str(path)))
            effect.setVolume(0.6)
            self._effects[name] = effect
        self.available = True

    def play(self, name: str) -> bool:
        """Play a sound; returns whether one was started."""
        if self.muted:
            return False
        if self._effects is None:
            self._load()
        effect = (self._effects or {}).get(name)
        if effect is None:
            return False
        # One sound at a time: the one playing (this one too) stops first. Qt 6.11's
        # QSoundEffect on PulseAudio, started while another (or itself) still plays, now and
        # then disables a socket notifier from its audio thread; Qt warns "QSocketNotifier:
        # Socket notifiers cannot be enabled or disabled from another thread", the notifier
        # stays registered with the GUI thread's loop after its socket closes, and that loop
        # spins on "Invalid socket N" for ever (the app stops answering; an Orca run once).
        for other in (self._effects or {}).values():
            if other.isPlaying():
                other.stop()
        effect.play()
        return True

    def ready(self) -> bool:
        """Every sound is loaded and can start at once (False without an audio output)."""
        if not self._effects:
            return False
        return all(e.status() == e.Status.Ready for e in self._effects.values())

    def is_playing(self) -> bool:
        """Whether any sound is playing now."""
        return any(e.isPlaying() for e in (self._effects or {}).values())
