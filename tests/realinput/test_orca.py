"""Issue 40: a blind player can play — a real screen reader speaks every bet, throw, result and
balance, once.

Debian 12's Orca 43.1 runs on the test's X display with speech through speech-dispatcher and
espeak-ng into a PulseAudio null sink (``screen_reader.py``), the app beside it with reproducible
dice (label ``d7-260``: the come-out 9 sets the point, a 5 misses it, a 9 wins Pass, and the next
hand's come-out 7 wins Pass). A solo hand is
played by real keys (XTEST), and after each key the test reads what Orca's debug log says it
spoke: the refused key's reason, the draft, the dice and the point, the outcome with its amount
and the balance, the sit-out question, Help's title, pause and resume. Motion is on, as a player
has it: each throw's words come when its result moment shows the result (a pause in the middle
holds them until Resume), and the test waits for them there.

Nothing twice: after each step M is pressed twice ("Sound off.", "Sound on.": speech the test
knows), so everything the step caused has been spoken before those two, and nothing the step
said appears twice. A plain key first waits in Qt's AT-SPI bridge for the reader's verdict
(``NotifyListenersSync``: the reader may consume its own keys; up to the bridge's 100 ms timeout,
longer on a loaded machine), while a Shortcut is matched as its key arrives. While the table has
the focus all its keys are plain keys, M too, so they act in order (test_key_order.py; main's CI
once heard "Sound off." before the third quick Space's draft, when M was a Shortcut there); a
step with Space or Enter still waits for its words before the first M (``HELD_KEYS``), so a
failure names the step whose words never came.

One channel: an AT-SPI listener in another process (``listener.py``) hears each change go out
exactly once, as a Notification that shows, and never also as an ``object:announcement`` (which
Orca 43 does not hear, and a newer Orca would say again).

Waits are on log lines and events, never on time; this test runs without the CPU hogs of
test_held_keys.py. Under ``CI=true`` a missing package fails the test rather than skips it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pointline.net.client import RelayClient
from pointline.net.client._relay_client import steady_choice
from tests.net.support import PASSWORD, relay
from tests.realinput.driver import APP_NAME, SYSTEM_PYTHON, RealApp, require_packages, wait_for
from tests.realinput.loop_thread import LoopThread
from tests.realinput.screen_reader import ScreenReader, SpeakingX, missing_speech_packages

LISTENER = Path(__file__).with_name("listener.py")
ROOM_CODE = re.compile(r"Room (\S+): you are Seat 1\. Share the code\.")
GUEST = "mira"
"""The headless seat's name."""
NOTE = "notification "
"""How Orca 43 says a Notification that shows: its role, then its name."""
MARKERS = ("Sound off.", "Sound on.")
"""What M said twice says: the end of each step in the log."""
HELD_KEYS = frozenset({"space", "Return"})
"""Keys whose words a step waits for (``until``) before M: the keys that play (Escape and F1
are Shortcuts, taken at once, as their words are)."""


@dataclass
class Listener:
    """``listener.py`` on the app's bus: what went out on which channel, in order."""

    process: subprocess.Popen[str]
    rows: list[dict[str, Any]] = field(default_factory=list)

    def read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.rows.append(json.loads(line))

    @classmethod
    def start(cls, env: dict[str, str]) -> Listener:
        """``listener.py`` on the bus of ``env``, once it listens."""
        env = {k: v for k, v in env.items() if k != "PYTHONPATH"}
        process = subprocess.Popen(
            [SYSTEM_PYTHON, str(LISTENER), APP_NAME],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            text=True,
        )
        listener = cls(process)
        threading.Thread(target=listener.read, daemon=True).start()
        wait_for("the listener", lambda: {"ready": True} in listener.rows, timeout=60)
        return listener

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

    def settle(self) -> list[str]:
        """M twice, and wait until Orca has said it: whatever came before has been handled.
        Nothing said repeats; what went out before is not compared (it was heard earlier)."""
        spoken = len(self.reader.spoken())
        self.app.key("m")
        self.app.key("m")
        said = self.reader.wait_spoken(
            "Orca's words for M twice", lambda s: ends_with_markers(s, NOTE), since=spoken
        )
        # Orca's echo of each key ("left shift ", "return ") is no word of the app's: a join
        # code typed in capitals echoes Shift once a letter
        words = [sentence(u) for u in said if not u.endswith(" ")]
        assert len(set(words)) == len(words), f"said twice: {said}"
        return said

    def mark(self) -> tuple[int, int]:
        """How much Orca has spoken and the listener heard so far (``press``'s ``since``)."""
        return len(self.reader.spoken()), len(self.listener.rows)

    def press(self, *keys: str, until: str = "", since: tuple[int, int] | None = None) -> list[str]:
        """Press ``keys``, wait for a Notification starting with ``until`` (a throw's result,
        said when its moment shows it; the words of a held key, ``HELD_KEYS``: the app has taken
        it), then press M twice; return what Orca spoke before the first M's words (since
        ``since``, a ``mark`` taken before keys pressed outside, else since now)."""
        assert until or not HELD_KEYS & set(keys), f"{keys}: M could overtake them, say `until`"
        spoken, heard = since or self.mark()
        if keys:  # none: what another seat did since ``since`` (online)
            self.app.key(*keys)
        if until:
            try:
                self.reader.wait_spoken(
                    f"Orca saying {until!r} after {keys}",
                    lambda s: any(u.startswith(NOTE + until) for u in s),
                    since=spoken,
                )
            except AssertionError as error:
                raise AssertionError(f"{error}\n{self.unsaid(until, heard)}") from None
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
        # (Orca ends some with a full stop: "X" and "X." are the same words; its echo of each
        # key, "space ", is no word of the app's.)
        words = [sentence(u) for u in said if not u.endswith(" ")]
        assert len(set(words)) == len(words), f"said twice after {keys}: {said}"
        # One channel: each change went out once, as a Notification, and nothing as an
        # object:announcement (a reader that hears both would say it twice).
        channels = [(str(row.get("channel")), sentence(str(row.get("text")))) for row in rows]
        texts = [text for _, text in channels]
        cut = texts.index(MARKERS[0])
        assert all(channel == "notification" for channel, _ in channels), channels
        assert texts[cut:] == list(MARKERS), channels
        # What Orca said of the notifications is exactly what went out, in order.
        # (Orca ends a sentence that has no full stop with one.)
        notes = [u.removeprefix(NOTE) for u in before if u.startswith(NOTE)]
        assert notes == texts[:cut], (before, rows)
        return before

    def unsaid(self, until: str, since: int) -> str:
        """Why words starting with ``until`` were not spoken: whether the app put them out (the
        listener heard a Notification show: then Orca dropped it, and its log says how) or not."""
        rows = [str(r.get("text", "")) for r in self.listener.rows[since:]]
        out = [t for t in rows if t.startswith(until)]
        starved = self.app_warnings()
        if not out:
            return f"the app never put {until!r} out; the listener heard {rows}{starved}"
        fate = "\n".join(self.reader.fate(out[0]))
        return f"the app put {out[0]!r} out, Orca did not say it; its log:\n{fate}{starved}"

    def app_warnings(self) -> str:
        """The app's own warnings, each once with its count (a loaded run once printed
        "QSocketNotifier: Socket notifiers cannot be enabled or disabled from another thread"
        and then "Invalid socket 31" two million times: its event loop spun, AT-SPI calls to
        it timed out, and Orca dropped every event of it as from a "potentially-defunct
        source", the "Throw 1:" words among them). Qt's AT-SPI key timeouts are left out."""
        printed = (self.app.home / "app.log").read_text(errors="replace").splitlines()
        counts: dict[str, int] = {}
        for line in printed:
            if "keyEventError" not in line:
                counts[line[:160]] = counts.get(line[:160], 0) + 1
        lines = [f"  {n} x {text}" for text, n in counts.items()]
        return "\nthe app printed:\n" + "\n".join(lines[-12:]) if lines else ""

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

    def rolling(self) -> None:
        """Wait until a throw's result moment runs (Roll is off while it does): the app has
        taken the Enter that threw."""
        wait_for(
            "the dice rolling",
            lambda: (b := self.app.showing("push button", "Roll")) is not None and not b["enabled"],
        )

    def notes(self, *keys: str, until: str = "", since: tuple[int, int] | None = None) -> list[str]:
        """What Orca said of the Notifications after ``keys`` (``press``), in order."""
        said = self.press(*keys, until=until, since=since)
        return [u.removeprefix(NOTE) for u in said if u.startswith(NOTE)]


def sentence(text: str) -> str:
    """``text`` as Orca says it: a sentence without a full stop gets one."""
    return text if text.endswith(".") else text + "."


def ends_with_markers(said: list[str], prefix: str) -> bool:
    said = [sentence(u) for u in said]
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


@contextlib.contextmanager
def under_orca(tmp_path: Path, **app: Any) -> Iterator[Table]:
    """Start PulseAudio, X, speech-dispatcher, Orca, the listener and the app (``RealApp``
    with ``app``), in that order; stop the app, then Orca, speech-dispatcher and PulseAudio,
    then X."""
    require_speech()
    reader = ScreenReader(tmp_path / "reader")
    x: SpeakingX | None = None
    listener: Listener | None = None
    started: RealApp | None = None
    try:
        x = SpeakingX(reader.pulse_server)
        reader.start(x)
        listener = Listener.start(x.env())
        started = RealApp(x, tmp_path / "app", **app)
        yield Table(started, reader, listener)
        # The app's own output has no Qt warning of an Accessible on what is not an Item (a
        # Popup's title went nowhere a reader looks, and it was printed at every start).
        printed = (started.home / "app.log").read_text(errors="replace")
        assert "Accessible attached property" not in printed, printed[-2000:]
    finally:
        if started is not None:
            started.close()
        if listener is not None:
            listener.close()
        reader.close()
        if x is not None:
            x.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    """The solo table under Orca, its dice reproducible (``d7-260``), motion on."""
    with under_orca(tmp_path, dice="d7-260", reduce_motion=False) as solo:
        solo.app.ready()
        wait_for("the window active", lambda: any(w["active"] for w in solo.app.windows() or []))
        solo.settle()  # the window's first words (the frame says the screen's title) are out
        yield solo


def test_orca_speaks_a_solo_hand_once(table: Table) -> None:
    try:
        # A key for a dimmed button: its reason (Reset has nothing to reset yet).
        assert table.notes("BackSpace") == ["There is nothing to reset."]
        # The draft, per line.
        assert table.notes("space", until="Draft") == ["Draft: Pass 10, Don't Pass 0."]
        # Confirm: the come-out's dice and the point, once the dice have landed.
        assert table.notes("Return", until="Rolled") == ["Rolled 5 and 4, total 9. Point 9 is on."]
        # A throw paused while its dice roll: the pause is said and the card's title on its
        # dialog; the dice are said once, whether they landed before the pause or after Resume.
        # (Escape, a Shortcut, is pressed once the app has taken the Enter, a held key.)
        table.ready_to("Roll")
        since = table.mark()
        table.app.key("Return")
        table.rolling()
        paused = table.press("Escape", until="Paused.", since=since)
        assert "Paused dialog" in paused, paused
        landed = any(u.startswith(NOTE + "Rolled") for u in paused)
        resumed = table.press("Escape", until="Resumed" if landed else "Rolled")
        notes = [u.removeprefix(NOTE) for u in paused + resumed if u.startswith(NOTE)]
        assert sorted(notes) == [
            "Paused.",
            "Resumed.",
            "Rolled 3 and 2, total 5. Point 9 is on.",
        ], notes
        # The point made: the dice, the outcome with its amount, the balance, the next hand.
        table.ready_to("Roll")
        assert table.notes("Return", until="Rolled") == [
            "Rolled 4 and 5, total 9. Pass wins 10. "
            "Hand 1 resolved; balance 1,010; come-out for hand 2."
        ]
        # Enter with nothing placed: the question, not a throw.
        table.ready_to("Sit out")
        assert table.notes("Return", until="Sit out") == [
            "Sit out this hand? Enter again (the dice still roll)."
        ]
        # Help's title on its dialog (Help says nothing else when it opens).
        said = table.press("F1")
        assert [u for u in said if u.startswith("Help dialog")] == [said[0]], said
        # Back on the table its name is its summary, said once as the focus comes back.
        back = table.press("Escape")
        summary = "Table, hand 2 of 5, come-out, balance 1,010"
        assert [u for u in back if summary in u] == [summary + " panel."], back
        # Orca's Where Am I (Keypad Enter) reads the table's summary; the app never sees the key
        # (the sit-out question is still armed: an Enter would have sat this hand out).
        where = table.press("KP_Enter")
        assert where[1] == summary + " panel.", where  # after Orca's echo of the key
        assert not [u for u in where if u.startswith(NOTE)], where
        # Quick Spaces: each says its draft (one still waiting may give way to the next), the
        # last one said is the bet as it stands.
        drafts = table.notes("space", "space", "space", until="Draft: Pass 30")
        assert drafts and drafts[-1] == "Draft: Pass 30, Don't Pass 0.", drafts
        assert all(d.startswith("Draft: Pass ") for d in drafts), drafts
        # A key pressed into a throw's result moment (Space while the dice roll: refused, with
        # its reason; it submits nothing): the dice, the outcome and the balance are all said
        # still, in one piece, and only after that key's interruption (Orca stops speech at each
        # key press), so no key of the step cut them.
        spoken, stops = len(table.reader.spoken()), len(table.reader.stops())
        assert table.notes("Return", "space", until="Rolled") == [
            "The dice are rolling: wait for the result.",
            "Rolled 3 and 4, total 7. Pass wins 30. "
            "Hand 2 resolved; balance 1,040; come-out for hand 3.",
        ]
        said = table.reader.spoken()
        result = next(i for i in range(spoken, len(said)) if said[i].startswith(NOTE + "Rolled"))
        keys = table.reader.stops()[stops : stops + 2]  # Return's and Space's
        assert len(keys) == 2 and keys[-1] <= result, (keys, result, said[spoken:])
    except AssertionError as error:  # every step's words so far, for the one who reads the log
        steps = "\n".join(f"{keys}: {said}" for keys, said in table.steps)
        raise AssertionError(f"{error}\nOrca spoke, step by step:\n{steps}") from error
    # The whole hand as Orca spoke it (shown by `pytest -rP`).
    print("Orca spoke, step by step:", *(f"{k}: {s}" for k, s in table.steps), sep="\n")


@pytest.fixture
def relay_url(tmp_path: Path) -> Iterator[str]:
    """A private relay on loopback (tests/net/support.py), on a loop of its own."""
    loop = LoopThread()
    stack = contextlib.AsyncExitStack()
    running = loop.run(stack.enter_async_context(relay(tmp_path / "relay")))
    yield running.url
    loop.run(stack.aclose())
    loop.close()


@dataclass
class Guest:
    """The other seat: a headless player (the client library ``pointline-client`` runs) on a
    loop of its own, which the test tells when to join, commit and leave, so that the app's
    words for each of those are heard one at a time."""

    loop: LoopThread
    client: RelayClient

    def join(self, code: str) -> None:
        self.loop.run(self.client.join_room(code))

    def commit(self) -> None:
        async def steady() -> None:
            await self.client.wait_started(30)
            peer = self.client.peer
            assert peer is not None
            self.client.commit(steady_choice(peer.table, peer.seat))

        self.loop.run(steady())

    def leave(self) -> None:
        self.loop.run(self.client.leave())


@pytest.fixture
def guest(relay_url: str) -> Iterator[Guest]:
    """A headless seat named ``mira``, signed up at the test's relay, not yet in a room."""
    loop = LoopThread()
    client = loop.run(RelayClient.connect(relay_url))
    try:
        loop.run(client.signup(GUEST, PASSWORD))
        yield Guest(loop, client)
    finally:
        loop.run(client.close())
        loop.close()


def come_out_words(throw: str, bet: int) -> str:
    """What a come-out throw with ``bet`` on Pass says, from its dice (the card's rules)."""
    found = re.match(r"Throw 1: ([1-6]) and ([1-6]), total (\d+)\.", throw)
    assert found, throw
    total = int(found[3])
    head = f"Throw 1: {found[1]} and {found[2]}, total {total}"
    if total in (7, 11):
        return f"{head}. Pass wins {bet}. Balance {1000 + bet:,}."
    if total in (2, 3, 12):
        return f"{head}. Pass loses {bet}. Balance {1000 - bet:,}."
    return f"{head}."  # the point: the next words say it ("Point 10: ... then Roll.")


def focused_name(app: RealApp) -> str:
    return str((app.focused() or {}).get("name") or "")


def tab_to(app: RealApp, name: str, most: int = 8) -> None:
    """Tab until ``name`` has the focus, each Tab waited for."""
    for _ in range(most):
        if focused_name(app) == name:
            return
        before = focused_name(app)
        app.key("Tab")
        wait_for("the focus to move", lambda b=before: focused_name(app) != b)
    assert focused_name(app) == name, app.focused()


def test_orca_speaks_an_online_throw_and_its_results(tmp_path: Path, relay_url, guest) -> None:
    """The online app under Orca opens a room on a loopback relay by keys and a headless seat
    joins it; the sign-in, the join, the draft, the commitment and whose commitment is awaited,
    the throw's results and the other seat's departure are each said once."""
    with under_orca(tmp_path, args=("--online", "--relay", relay_url)) as online:
        app, reader = online.app, online.reader
        try:
            wait_for("the name field", lambda: focused_name(app) == "Name", timeout=40)
            app.xdotool("type", "--delay", "20", "orca2")
            spoken = len(reader.spoken())
            app.key("Tab")
            # The password field is a password field to the reader (its text is never said).
            reader.wait_spoken("the password field", lambda s: "password text." in s, spoken)
            app.xdotool("type", "--delay", "20", PASSWORD)
            tab_to(app, "Sign up")
            spoken = len(reader.spoken())
            app.key("Return")
            reader.wait_spoken(
                "signed in",
                lambda s: NOTE + "Signed in as orca2. Create a room or join one by its code." in s,
                spoken,
            )
            tab_to(app, "Create a room")
            spoken = len(reader.spoken())
            app.key("Return")
            said = reader.wait_spoken(
                "the room's code",
                lambda s: any(ROOM_CODE.match(u.removeprefix(NOTE)) for u in s),
                spoken,
            )
            code = next(m[1] for u in said if (m := ROOM_CODE.match(u.removeprefix(NOTE))))
            # A seat joins: said once, by name, with the count (M is no key of the lobby's:
            # the table's first M twice below ends this step too).
            joined = NOTE + f"{GUEST} joined (2 in the room)."
            since_join = len(reader.spoken())
            guest.join(code)
            reader.wait_spoken("the seat joining", lambda s: joined in s, since_join)
            tab_to(app, "Start (2 in)")
            spoken = len(reader.spoken())
            app.key("Return")
            # The session's first words come with a whole new screen. Orca 43 skips a
            # Notification's showing event while more than 50 events wait in its queue (a
            # "flood") unless it is the focused object's, and prunes queued ones when a focus
            # event comes in a flood (under one CPU hog it dropped them 1 run in 9); the focus
            # event it always presents, with the focused table's name and description. So they
            # are the first words of the table's description when it takes the focus
            # (OnlineTable.greet), said once there and never as a Notification.
            wait_for(
                "the online table",
                lambda: focused_name(app).startswith("Online table, hand 1 of 5"),
                timeout=40,
            )
            first = "The session started: 2 seats, you are Seat 1."
            reader.wait_spoken(
                "the session's first words", lambda s: any(first in u for u in s), spoken
            )
            online.ready_to("Allocate 10")
            online.settle()
            said = reader.spoken()[spoken:]
            heard = [u for u in said if first in u]
            assert len(heard) == 1 and heard[0].startswith(first), said
            assert reader.spoken()[since_join:].count(joined) == 1, reader.spoken()[since_join:]
            assert not [u for u in said if u.startswith(NOTE + "Come-out for hand 1")], said
            # Online, the table answers a key on its own loop: each step waits for its words.
            assert online.notes("space", until="Draft") == ["Draft: Pass 10, Don't Pass 0."]
            # My commitment in first: whose commitment the throw now waits for, in one piece.
            assert online.notes("Return", until="Committed") == [
                f"Committed Pass 10, Don't Pass 0 for this throw. Waiting for {GUEST} to choose."
            ]
            # The other seat commits: the throw and its results, and the awaited seat not again.
            since = online.mark()
            guest.commit()
            notes = online.notes(until="Throw 1:", since=since)
            assert notes[0] == come_out_words(notes[0], 10), notes
            assert len(notes) == 2 and notes[1] in (
                "Come-out for hand 2: allocate, then Confirm.",
                "Point "
                + notes[0].rsplit(" ", 1)[-1].rstrip(".")
                + ": prepare Don't Pass if you like, then Roll.",
            ), notes
            # The other seat leaves mid-session: its departure and the ending, each once.
            since = online.mark()
            guest.leave()
            notes = online.notes(until="No result", since=since)
            assert notes.count(f"{GUEST} (Seat 2) left.") == 1, notes
            assert len([n for n in notes if n.startswith("No result")]) == 1, notes
        except AssertionError as error:
            steps = "\n".join(f"{keys}: {said}" for keys, said in online.steps)
            raise AssertionError(f"{error}\nOrca spoke, step by step:\n{steps}") from error
        print("Orca spoke, step by step:", *(f"{k}: {s}" for k, s in online.steps), sep="\n")
