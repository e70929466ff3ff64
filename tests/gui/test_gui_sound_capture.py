"""The throw sound, heard for real: played through QtMultimedia into a PulseAudio null sink.

A private PulseAudio daemon (its own HOME and XDG_RUNTIME_DIR, no default.pa, a null sink as
its only output) runs for this module; it works as root (CI) and as a normal user. A player
process drives the real ``TableBridge``: it puts 10 on Pass and confirms, so the table throws
and the app plays its throw sound through ``QSoundEffect``. ``parecord`` records the sink's
monitor as raw PCM while it plays, and sox measures the peak. Nothing sleeps: every wait is on
a condition (the daemon answers, the sound has stopped, the recording is long enough), each
with a timeout.

Needs the Debian packages ``pulseaudio sox`` (``.ci/run`` installs them); without them the
tests are skipped with that list, except under CI, where they fail.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pointline.gui.sound import seconds
from tests.gui.script_run import run_json

RATE = 44100
SINK = "pointline_capture"
TIMEOUT_S = 20.0
THROW_SOUND_FLOOR_DB = -40.0
SILENCE_CEILING_DB = -70.0
RECORD = ("parecord", "--raw", f"--device={SINK}.monitor", f"--rate={RATE}", "--channels=1")
RECORD += ("--format=s16le", "--latency-msec=20")
RAW_FORMAT = ("sox", "-t", "raw", "-r", str(RATE), "-e", "signed-integer", "-b", "16", "-c", "1")

PLAYER = """
import json, sys, time
from PySide6.QtCore import QSettings
from PySide6.QtGui import QGuiApplication

app = QGuiApplication(sys.argv)
from pointline.gui.bridge import TableBridge
from pointline.gui.tools.scenes import counter_nonces
from pointline.gui.sound import Sounds

settings_path, muted = sys.argv[1], sys.argv[2] == "muted"
settings = QSettings(settings_path, QSettings.Format.IniFormat)
settings.setValue("reduceMotion", True)
settings.setValue("muted", muted)
sounds = Sounds()
bridge = TableBridge(counter_nonces(b"sound-capture"), settings=settings, sounds=sounds)
sounds.preload()


def wait(condition, what):
    deadline = time.monotonic() + 10
    while not condition():
        if time.monotonic() > deadline:
            sys.exit(f"timed out waiting until {what}")
        app.processEvents()


if sounds.available:
    wait(sounds.ready, "the sounds are loaded")
played = []
bridge.soundPlayed.connect(played.append)
bridge.selectLine("pass")
bridge.act("allocate")
thrown = bridge.act("confirm")
if played:
    wait(sounds.is_playing, "the throw sound starts")
    wait(lambda: not sounds.is_playing(), "the throw sound ends")
print(json.dumps({"available": sounds.available, "thrown": thrown, "played": played,
                  "throws": bridge.table.throws, "muted": bridge.muted}))
"""


def _wait(condition: Callable[[], bool], what: str, timeout: float = TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting until {what}")
        time.sleep(0.02)  # polling interval of the wait above, never a wait on its own


def _missing() -> list[str]:
    tools = {"pulseaudio": "pulseaudio", "pactl": "pulseaudio", "parecord": "pulseaudio"}
    tools["sox"] = "sox"
    return sorted({pkg for tool, pkg in tools.items() if shutil.which(tool) is None})


@pytest.fixture(scope="module")
def pulse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A private PulseAudio daemon whose only output is a null sink; the environment to use it."""
    missing = _missing()
    if missing:
        message = "needs the Debian packages " + " ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(message + " (.ci/run installs them)")
        pytest.skip(message)
    base = tmp_path_factory.mktemp("pulse")
    home, runtime = base / "home", base / "run"
    home.mkdir()
    runtime.mkdir(mode=0o700)
    socket = runtime / "native"
    env = dict(os.environ)
    env.update(
        {
            "HOME": str(home),
            "XDG_RUNTIME_DIR": str(runtime),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "PULSE_SERVER": f"unix:{socket}",
            "QT_QPA_PLATFORM": "offscreen",
        }
    )
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    log = (base / "pulseaudio.log").open("w")
    daemon = subprocess.Popen(
        [
            "pulseaudio",
            "--daemonize=no",
            "-n",  # no default.pa: no hardware, no suspend-on-idle, only what is loaded here
            "--exit-idle-time=-1",
            "--use-pid-file=false",
            "--disable-shm=true",
            f"--load=module-null-sink sink_name={SINK} rate={RATE} channels=1",
            f"--load=module-native-protocol-unix socket={socket} auth-anonymous=1",
            "--log-target=stderr",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )

    def answers() -> bool:
        if daemon.poll() is not None:
            raise AssertionError(
                f"pulseaudio exited ({daemon.returncode}): {(base / 'pulseaudio.log').read_text()}"
            )
        info = subprocess.run(
            ["pactl", "list", "short", "sinks"], env=env, capture_output=True, text=True
        )
        return info.returncode == 0 and SINK in info.stdout

    try:
        _wait(answers, "the private pulseaudio daemon answers with its null sink")
        yield env
    finally:
        daemon.terminate()
        try:
            daemon.wait(timeout=10)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait(timeout=10)
        log.close()


def _peak_db(raw: Path) -> float:
    """The recording's peak level in dBFS, as sox measures it."""
    stats = subprocess.run(
        [*RAW_FORMAT, str(raw), "-n", "stats"],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    ).stderr
    for line in stats.splitlines():
        if line.startswith("Pk lev dB"):
            value = line.split()[-1]
            return -math.inf if value == "-inf" else float(value)
    raise AssertionError(f"sox printed no peak level: {stats}")


def _capture(env: dict[str, str], tmp_path: Path, mode: str) -> tuple[dict[str, object], float]:
    """Record the sink's monitor while the player throws once; (player's report, peak dBFS)."""
    raw = tmp_path / f"{mode}.raw"
    recorder = subprocess.Popen(
        [*RECORD, str(raw)],
        env=env,
        stderr=subprocess.PIPE,
    )

    def recorded_s() -> float:
        return raw.stat().st_size / 2 / RATE if raw.exists() else 0.0

    try:
        _wait(lambda: recorded_s() > 0.1, "the recording has started")
        report = run_json(PLAYER, [str(tmp_path / f"{mode}.ini"), mode], env, timeout=60)
        # The recording must reach past the end of the sound, muted or not: the length of the
        # throw sound after the player is done, and a margin for the sound server's buffers.
        target = recorded_s() + seconds("dice") + 0.5
        _wait(lambda: recorded_s() >= target, f"the recording holds {target:.2f} s")
    finally:
        recorder.terminate()
        recorder.wait(timeout=10)
    return report, _peak_db(raw)


def test_the_throw_sound_is_heard_above_minus_40_dbfs(
    pulse: dict[str, str], tmp_path: Path
) -> None:
    report, peak = _capture(pulse, tmp_path, "sound")
    assert report["available"] is True, "Qt found no audio output on the null sink"
    assert report["thrown"] is True and report["throws"] == 1
    assert report["played"] and report["played"][0] == "dice"  # type: ignore[index]
    assert peak > THROW_SOUND_FLOOR_DB, f"the throw sound peaked at {peak} dBFS"


def test_muted_the_throw_is_silent(pulse: dict[str, str], tmp_path: Path) -> None:
    report, peak = _capture(pulse, tmp_path, "muted")
    # The output was there and the dice were thrown: the silence is the mute, not a missing sink.
    assert report["available"] is True and report["muted"] is True
    assert report["thrown"] is True and report["throws"] == 1
    assert report["played"] == []
    assert peak < SILENCE_CEILING_DB, f"muted, the sink still peaked at {peak} dBFS"
