"""A real screen reader for the real-input tests: Debian 12's Orca 43 under Xvfb, and its speech.

``ScreenReader`` starts, on a ``RealX`` display and bus, what issue 40 found Orca 43 needs to be
reliable there:

* a private PulseAudio daemon whose only output is a null sink, started first (speech-dispatcher
  without an audio sink stalls, and Orca and the app hang with it);
* speech-dispatcher with espeak-ng, started by the test before Orca (not autospawned), on its
  own socket in a private ``XDG_RUNTIME_DIR``;
* Orca (``orca_run.py``: its own launcher with a line-buffered debug file), speech on (with speech
  off Orca drops changes that do not move the focus), braille off (``-d braille -d
  braille-monitor``, else Orca blocks starting it), its settings in a private home.

What Orca spoke is read from its debug log, the ``SPEECH OUTPUT: '...'`` lines, in order;
``wait_spoken`` waits on a line, never on time. ``close`` stops Orca, then speech-dispatcher,
then PulseAudio (the app, started after Orca, is stopped before, by its own fixture).

Needs the Debian packages ``orca speech-dispatcher speech-dispatcher-espeak-ng espeak-ng
pulseaudio`` (``.ci/run`` installs them).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.realinput.driver import SYSTEM_PYTHON, RealX, wait_for

ORCA_RUN = Path(__file__).with_name("orca_run.py")
SPOKEN = re.compile(r"^[\d:.]+ - SPEECH OUTPUT: '(.*)' ?(?:\{[^{}]*\})?$", re.S)
"""An utterance in Orca's debug log (its own line breaks continue on lines indented by 18)."""
INDENT = " " * 18
SPEECH_TOOLS = (
    ("orca", "orca"),
    ("speech-dispatcher", "speech-dispatcher"),
    ("espeak-ng", "espeak-ng"),
    ("pulseaudio", "pulseaudio"),
    ("pactl", "pulseaudio"),
)
"""The commands a real screen reader needs, each with the Debian package that has it."""


def missing_speech_packages() -> list[str]:
    missing = [pkg for tool, pkg in SPEECH_TOOLS if shutil.which(tool) is None]
    if not Path("/usr/lib/speech-dispatcher-modules/sd_espeak-ng").exists():
        missing.append("speech-dispatcher-espeak-ng")
    return sorted(set(missing))


def _stop(process: subprocess.Popen[bytes] | subprocess.Popen[str], timeout: float = 10) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class SpeakingX(RealX):
    """A ``RealX`` whose programs also find the private PulseAudio daemon (the app's sounds)."""

    def __init__(self, pulse_server: str) -> None:
        super().__init__()
        self.pulse_server = pulse_server

    def env(self) -> dict[str, str]:
        env = super().env()
        env["PULSE_SERVER"] = self.pulse_server
        return env


class ScreenReader:
    """PulseAudio (a null sink), speech-dispatcher with espeak-ng, and Orca, for one display."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.home = base / "home"
        self.runtime = base / "run"
        self.home.mkdir(parents=True)
        self.runtime.mkdir(mode=0o700)
        self.pulse_socket = self.runtime / "pulse-native"
        self.speech_socket = self.runtime / "speechd.sock"
        self.debug_file = base / "orca-debug.out"
        self._logs: list[object] = []
        self.processes: list[subprocess.Popen[bytes]] = []
        self._pulse()

    @property
    def pulse_server(self) -> str:
        return f"unix:{self.pulse_socket}"

    def _env(self, x: RealX | None = None) -> dict[str, str]:
        env = x.env() if x is not None else dict(os.environ)
        drop = ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "QT_QPA_PLATFORM", "QT_API")
        for name in (*drop, "POINTLINE_DATA_DIR"):  # the data folder is XDG_DATA_HOME's
            env.pop(name, None)
        env.update(
            HOME=str(self.home),
            XDG_RUNTIME_DIR=str(self.runtime),
            XDG_CONFIG_HOME=str(self.home / ".config"),
            XDG_DATA_HOME=str(self.home / ".local" / "share"),
            XDG_CACHE_HOME=str(self.home / ".cache"),
            PULSE_SERVER=self.pulse_server,
            SPEECHD_ADDRESS=f"unix_socket:{self.speech_socket}",
            NO_AT_BRIDGE="0",
            GTK_USE_PORTAL="0",
        )
        return env

    def _start(self, name: str, command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        log = (self.base / f"{name}.log").open("wb")
        self._logs.append(log)
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        self.processes.append(process)
        return process

    def _pulse(self) -> None:
        env = self._env()
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        daemon = self._start(
            "pulseaudio",
            [
                "pulseaudio",
                "--daemonize=no",
                "-n",  # no default.pa: only the null sink and the socket loaded here
                "--exit-idle-time=-1",
                "--use-pid-file=false",
                "--disable-shm=true",
                "--load=module-null-sink sink_name=speech",
                f"--load=module-native-protocol-unix socket={self.pulse_socket} auth-anonymous=1",
                "--log-target=stderr",
            ],
            env,
        )

        def answers() -> bool:
            if daemon.poll() is not None:
                raise AssertionError(f"pulseaudio exited: {self.log('pulseaudio')}")
            info = subprocess.run(
                ["pactl", "list", "short", "sinks"], env=env, capture_output=True, text=True
            )
            return info.returncode == 0 and "speech" in info.stdout

        wait_for("PulseAudio's null sink", answers)

    def start(self, x: RealX) -> None:
        """speech-dispatcher, then Orca, on ``x``; returns once Orca speaks and listens."""
        env = self._env(x)
        config = self.base / "speechd"
        config.mkdir()
        (config / "speechd.conf").write_text(
            'AudioOutputMethod "pulse"\nDefaultModule espeak-ng\n'
            'AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"\n'
            "DefaultRate 100\n"
        )
        speechd = self._start(
            "speech-dispatcher",
            [
                "speech-dispatcher",
                "--run-single",
                "--timeout",
                "0",
                "--communication-method",
                "unix_socket",
                "--socket-path",
                str(self.speech_socket),
                "--config-dir",
                str(config),
                "--log-dir",
                str(self.base),
            ],
            env,
        )
        wait_for(
            "speech-dispatcher's socket",
            lambda: self._alive(speechd, "speech-dispatcher") and self.speech_socket.exists(),
        )
        self.orca = self._start(
            "orca",
            [
                SYSTEM_PYTHON,
                str(ORCA_RUN),
                "--debug-file",
                str(self.debug_file),
                "-e",
                "speech",
                "-d",
                "braille",
                "-d",
                "braille-monitor",
            ],
            env,
        )
        wait_for(
            "Orca listening",
            lambda: self._alive(self.orca, "orca") and "Startup complete" in self.debug_text(),
            timeout=60,
        )

    def _alive(self, process: subprocess.Popen[bytes], name: str) -> bool:
        if process.poll() is not None:
            raise AssertionError(f"{name} exited ({process.returncode}): {self.log(name)}")
        return True

    def log(self, name: str) -> str:
        path = self.base / f"{name}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def debug_text(self) -> str:
        return self.debug_file.read_text(errors="replace") if self.debug_file.exists() else ""

    def spoken(self) -> list[str]:
        """Every utterance Orca sent to speech so far, in order."""
        entries: list[str] = []
        for line in self.debug_text().splitlines():
            if " - SPEECH OUTPUT: '" in line:
                entries.append(line)
            elif entries and line.startswith(INDENT) and not SPOKEN.match(entries[-1]):
                entries[-1] += "\n" + line[len(INDENT) :]
        return [m.group(1) for entry in entries if (m := SPOKEN.match(entry))]

    def stops(self) -> list[int]:
        """Where Orca interrupted its speech (a key press, a focus move): for each interruption,
        how many utterances had gone to speech before it (an index into ``spoken()``)."""
        marks: list[int] = []
        said = 0
        for line in self.debug_text().splitlines():
            if " - SPEECH OUTPUT: '" in line:
                said += 1
            elif "DEFAULT: Interrupting presentation" in line:
                marks.append(said)
        return marks

    def fate(self, text: str, most: int = 12) -> list[str]:
        """What Orca's debug log says it did with the events that carry ``text`` (a
        Notification that showed, a name that changed): each line naming it, and the flood,
        pruning and ignoring lines right after (why a change went unsaid: a timeout's message)."""
        lines = self.debug_text().splitlines()
        out: list[str] = []
        why = ("flood", "Pruning", "Ignoring", "defunct", "Not processing", "DELUGE")
        queued = dequeued = 0
        for i, line in enumerate(lines):
            if text in line and ("EVENT MANAGER" in line or "SPEECH OUTPUT" in line):
                queued, dequeued = queued or i, dequeued or ("Dequeued" in line) * i
                out.append(line[:200])
                out.extend(f"  {n[:160]}" for n in lines[i + 1 : i + 6] if any(w in n for w in why))
        if queued and not dequeued:  # pruned from the queue before its turn (a flood)
            pruned = next((n for n in lines[queued:] if "events pruned" in n), "")
            out.append(f"never dequeued; next pruning: {pruned[:160]}")
        return out[-most:]

    def wait_spoken(
        self, what: str, check: Callable[[list[str]], bool], since: int = 0, timeout: float = 30
    ) -> list[str]:
        """Wait until the utterances after the first ``since`` satisfy ``check``; return them."""

        def heard() -> list[str] | None:
            self._alive(self.orca, "orca")
            said = self.spoken()[since:]
            return said if check(said) else None

        try:
            return wait_for(what, heard, timeout=timeout)
        except AssertionError as error:
            raise AssertionError(f"{error}; Orca spoke: {self.spoken()[since:]!r}") from None

    def close(self) -> None:
        """Orca, then speech-dispatcher, then PulseAudio (the reverse of their start)."""
        for process in reversed(self.processes):
            _stop(process)
        for log in self._logs:
            log.close()  # type: ignore[attr-defined]
