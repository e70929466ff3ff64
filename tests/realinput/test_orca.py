"""Issue 40: a blind player can play — a real screen reader speaks every bet, throw, result and
balance, once.

Debian 12's Orca 43.1 runs on the test's X display with speech through speech-dispatcher and
espeak-ng into a PulseAudio null sink (``screen_reader.py``), the app beside it with reproducible
dice (label ``d7``: the come-out 5 sets the point, a 6 misses it, a 5 wins Pass). A solo hand is
played by real keys (XTEST), and after each key the test reads what Orca's debug log says it
spoke: the refused key's reason, the draft, the dice and the point, the outcome with its amount
and the balance, the sit-out question, Help's title, pause and resume. Motion is on, as a player
has it: each throw's words come when its result moment shows the result (a pause in the middle
holds them until Resume), and the test waits for them there.

Nothing twice: after each step M is pressed twice ("Sound off.", "Sound on.": speech the test
knows), so everything the step caused has been spoken before those two, and nothing the step
said appears twice. One channel: an AT-SPI listener in another process (``listener.py``) hears
each change go out exactly once, as a Notification that shows, and never also as an
``object:announcement`` (which Orca 43 does not hear, and a newer Orca would say again).

Waits are on log lines and events, never on time; this test runs without the CPU hogs of
test_held_keys.py. Under ``CI=true`` a missing package fails the test rather than skips it.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.realinput.driver import APP_NAME, SYSTEM_PYTHON, RealApp, require_packages, wait_for
from tests.realinput.screen_reader import ScreenReader, SpeakingX, missing_speech_packages

LISTENER = Path(__file__).with_name("listener.py")
NOTE = "notification "
"""How Orca 43 says a Notification that shows: its role, then its name."""
MARKERS = ("Sound off.", "Sound on.")
"""What M said twice says: the end of each step in the log."""


@dataclass
class Listener:
    """``listener.py`` on the app's bus: what went out on which channel, in order."""

    process: subprocess.Popen[str]
    rows: list[dict[str, Any]] = field(default_factory=list)

    def read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.rows.append(json.loads(line))

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@dataclass
class Table:
    """The app under Orca, the reader's log and the listener, played one key at a time."""

    app: RealApp
    reader: ScreenReader
    listener: Listener
    steps: list[tuple[str, list[str]]] = field(default_factory=list)

    def press(self, *keys: str, until: str = "") -> list[str]:
        """Press ``keys``, wait for a Notification starting with ``until`` if given (a throw's
        result, said when its moment shows it), then press M twice; return what Orca spoke
        before the first M's words."""
        spoken, heard = len(self.reader.spoken()), len(self.listener.rows)
        self.app.key(*keys)
        if until:
            self.reader.wait_spoken(
                f"Orca saying {until!r} after {keys}",
                lambda s: any(u.startswith(NOTE + until) for u in s),
                since=spoken,
            )
        self.app.key("m")
        self.app.key("m")
        said = self.reader.wait_spoken(
            f"Orca's words for {keys} and then M twice",
            lambda s: ends_with_markers(s, NOTE),
            since=spoken,
        )
        rows = wait_for(f"the listener hearing {keys} and M twice", lambda: self.heard(heard))
        self.steps.append((" ".join(keys), said))
        before = said[: said.index(NOTE + MARKERS[0])]
        # Nothing twice: no utterance of the step repeats, the markers' included.
        assert len(set(said)) == len(said), f"said twice after {keys}: {said}"
        # One channel: each change went out once, as a Notification, and nothing as an
        # object:announcement (a reader that hears both would say it twice).
        channels = [(str(row.get("channel")), str(row.get("text"))) for row in rows]
        texts = [text for _, text in channels]
        cut = texts.index(MARKERS[0])
        assert all(channel == "notification" for channel, _ in channels), channels
        assert texts[cut:] == list(MARKERS), channels
        # What Orca said of the notifications is exactly what went out, in order.
        # (Orca ends a sentence that has no full stop with one.)
        notes = [u.removeprefix(NOTE) for u in before if u.startswith(NOTE)]
        assert notes == [t if t.endswith(".") else t + "." for t in texts[:cut]], (before, rows)
        return before

    def heard(self, since: int) -> list[dict[str, Any]] | None:
        """The listener's rows after the first ``since``, once they end with the markers."""
        rows = self.listener.rows[since:]
        return rows if ends_with_markers([row.get("text", "") for row in rows], "") else None

    def ready_to(self, button: str) -> None:
        """Wait until ``button`` is on: the last throw's result moment has ended (a key while it
        runs is refused, and says so)."""
        wait_for(
            f"{button} on",
            lambda: (b := self.app.showing("push button", button)) is not None and b["enabled"],
        )

    def notes(self, *keys: str, until: str = "") -> list[str]:
        """What Orca said of the Notifications after ``keys`` (``press``), in order."""
        said = self.press(*keys, until=until)
        return [u.removeprefix(NOTE) for u in said if u.startswith(NOTE)]


def ends_with_markers(said: list[str], prefix: str) -> bool:
    marks = [prefix + m for m in MARKERS]
    return marks[0] in said and marks[1] in said[said.index(marks[0]) + 1 :]


def require_speech() -> None:
    require_packages()
    missing = missing_speech_packages()
    if not missing:
        return
    message = "needs the Debian packages " + " ".join(missing)
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(message + " (CI installs them: .ci/run)")
    pytest.skip(message)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    """Start PulseAudio, X, speech-dispatcher, Orca, the listener and the app, in that order;
    stop the app, then Orca, speech-dispatcher and PulseAudio, then X."""
    require_speech()
    reader = ScreenReader(tmp_path / "reader")
    x: SpeakingX | None = None
    listener: Listener | None = None
    app: RealApp | None = None
    try:
        x = SpeakingX(reader.pulse_server)
        reader.start(x)
        env = {k: v for k, v in x.env().items() if k != "PYTHONPATH"}
        process = subprocess.Popen(
            [SYSTEM_PYTHON, str(LISTENER), APP_NAME],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            text=True,
        )
        listener = Listener(process)
        threading.Thread(target=listener.read, daemon=True).start()
        wait_for("the listener", lambda: {"ready": True} in listener.rows)
        app = RealApp(x, tmp_path / "app", dice="d7", reduce_motion=False)
        app.ready()
        wait_for("the window active", lambda: any(w["active"] for w in app.windows() or []))
        yield Table(app, reader, listener)
    finally:
        if app is not None:
            app.close()
        if listener is not None:
            listener.close()
        reader.close()
        if x is not None:
            x.close()


def test_orca_speaks_a_solo_hand_once(table: Table) -> None:
    try:
        # A key for a dimmed button: its reason (Reset has nothing to reset yet).
        assert table.notes("BackSpace") == ["There is nothing to reset."]
        # The draft, per line.
        assert table.notes("space") == ["Draft: Pass 10, Don't Pass 0."]
        # Confirm: the come-out's dice and the point, once the dice have landed.
        assert table.notes("Return", until="Rolled") == ["Rolled 2 and 3, total 5. Point 5 is on."]
        # A throw paused while its dice roll: the pause is said and the card's title on its
        # dialog; the dice are said once, whether they landed before the pause or after Resume.
        table.ready_to("Roll")
        paused = table.press("Return", "Escape", until="Paused.")
        assert "Paused dialog" in paused, paused
        resumed = table.press("Escape", until="Rolled")
        notes = [u.removeprefix(NOTE) for u in paused + resumed if u.startswith(NOTE)]
        assert sorted(notes) == [
            "Paused.",
            "Resumed.",
            "Rolled 3 and 3, total 6. Point 5 is on.",
        ], notes
        # The point made: the dice, the outcome with its amount, the balance, the next hand.
        table.ready_to("Roll")
        assert table.notes("Return", until="Rolled") == [
            "Rolled 3 and 2, total 5. Pass wins 10. "
            "Hand 1 resolved; balance 1,010; come-out for hand 2."
        ]
        # Enter with nothing placed: the question, not a throw.
        table.ready_to("Sit out")
        assert table.notes("Return") == ["Sit out this hand? Enter again (the dice still roll)."]
        # Help's title on its dialog (Help says nothing else when it opens).
        said = table.press("F1")
        assert [u for u in said if u.startswith("Help dialog")] == [said[0]], said
        assert table.notes("Escape") == []
    except AssertionError as error:  # every step's words so far, for the one who reads the log
        steps = "\n".join(f"{keys}: {said}" for keys, said in table.steps)
        raise AssertionError(f"{error}\nOrca spoke, step by step:\n{steps}") from error
