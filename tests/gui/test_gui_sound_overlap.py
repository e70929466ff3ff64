"""Sounds started while another plays leave the app's loop answering (a real PulseAudio sink).

Qt 6.11's ``QSoundEffect`` on PulseAudio, started while another effect (or itself) still
played, now and then disabled a socket notifier from its audio thread: Qt printed
"QSocketNotifier: Socket notifiers cannot be enabled or disabled from another thread", then the
GUI thread's loop found the notifier's closed socket on every pass ("Invalid socket N",
two million times in one Orca run) and stopped answering. ``Sounds.play`` now stops the sound
playing first. A player process starts a sound every 30 ms (its tempo: sounds over sounds still
playing), 60 times, and reports every Qt message; a flood ends it early. On the old
``Sounds.play`` it flooded within 60 sounds in every run tried.
Needs the Debian package ``pulseaudio`` (the fixture of ``test_gui_sound_capture``).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.gui.script_run import run_json
from tests.gui.test_gui_sound_capture import pulse

__all__ = ["pulse"]  # the fixture this module uses (defined in test_gui_sound_capture)

PLAYER = r"""
import json, os, sys, time
from PySide6.QtCore import QTimer, qInstallMessageHandler
from PySide6.QtGui import QGuiApplication

messages = {}


def note(mode, context, text):
    key = text[:70]
    messages[key] = messages.get(key, 0) + 1
    if messages[key] > 10000:  # the loop spins: report now, it would never end
        print(json.dumps({"messages": messages, "spun": True}), flush=True)
        os._exit(0)


qInstallMessageHandler(note)
app = QGuiApplication(sys.argv)
from pointline.gui.sound import SOUNDS, Sounds

sounds = Sounds()
sounds.preload()


def wait(condition, what):
    deadline = time.monotonic() + 10
    while not condition():
        if time.monotonic() > deadline:
            sys.exit(f"timed out waiting until {what}")
        app.processEvents()


assert sounds.available, "no audio output"
wait(sounds.ready, "the sounds are loaded")
names = list(SOUNDS)
plays = []


def tick():  # the player's tempo: a sound every 30 ms, over the ones still playing
    if len(plays) < 60:
        sounds.play(names[len(plays) % len(names)])
        plays.append(1)
    elif not sounds.is_playing():  # all started and the last one ended
        app.quit()


tempo = QTimer()
tempo.timeout.connect(tick)
tempo.start(30)
app.exec()  # the GUI thread waits in Qt's loop, as in the app
print(json.dumps({"messages": messages, "spun": False}))
"""


def test_sounds_started_over_each_other_leave_no_stale_notifier(
    pulse: dict[str, str], tmp_path: Path
) -> None:
    # a stereo sink, as a desktop's (and the Orca tests' speech sink): the mono sounds are
    # mapped to two channels (the fixture's own sink is mono, where it never showed)
    stereo = ("pactl", "load-module", "module-null-sink", "sink_name=pointline_stereo")
    subprocess.run(stereo, env=pulse, check=True, capture_output=True, timeout=30)
    default = ("pactl", "set-default-sink", "pointline_stereo")
    subprocess.run(default, env=pulse, check=True, capture_output=True, timeout=30)
    report = run_json(PLAYER, [], pulse, timeout=120)
    notifier = {k: n for k, n in report["messages"].items() if "QSocketNotifier" in k}
    assert not report["spun"], f"the loop spun on a stale notifier: {notifier}"
    assert notifier == {}, notifier
