"""Stats, the first-hand guide and the close question, for the solo table's QML.

``Extras`` belongs to one ``TableBridge`` (``bridge.extras`` in QML). It watches the bridge's
``changed`` signal and records every finished session once in the ``StatsStore`` (see
``gui/stats.py``); it knows whether the guide has been seen (a small file in the data folder);
and it says when the window's close question (gui/close_question.py, the shell's) asks on the
solo table: mid-session, since a closed session is never resumed.

While one of its cards is open (``covering``) the bridge refuses every submission, as it does
under Help; Escape and Android's Back close the card on top first.

Without a data folder (tests, screenshots) records are kept in memory only and the guide is
not remembered: nothing is written anywhere.
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
from pathlib import Path
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from pointline.gui.betting import CHIP_VALUES
from pointline.gui.close_question import Asking, CloseQuestion
from pointline.gui.seat_table import QVARIANT_LIST
from pointline.gui.session import Reveal
from pointline.gui.stats import (
    LEFT_CLOSED,
    LEFT_NEW_SESSION,
    SessionRecord,
    StatsError,
    StatsStore,
    record_of,
    write_atomically,
)
from pointline.gui.texts import CLOSE_WORDS, guide_step_words, solo_close_text
from pointline.kernel import HAND_LIMIT, HANDS_PER_SESSION, STARTING_POINTS, Table
from pointline.kernel.words import counted

__all__ = ["GUIDE_STEPS", "Extras", "extras_of"]

GUIDE_FILE = "guide.json"
STATS_OPEN = "Stats is open: close it to play."
GUIDE_OPEN = "The guide is open: finish or skip it to play."

GUIDE_STEPS: tuple[dict[str, str], ...] = (
    {
        "title": "Welcome to the table",
        "text": f"{HANDS_PER_SESSION} hands with {STARTING_POINTS:,} free fictional points: no "
        "money and no prizes. This guide only points at things: nothing you press here plays.",
        "target": "",
    },
    {
        "title": "The two lines",
        "text": "Pass and Don't Pass. Choose one with the arrow keys, or tap it.",
        "phone": "Pass and Don't Pass. Tap one to choose it.",
        "target": "linePass lineDontPass",
    },
    {
        "title": "Allocate",
        "text": f"Pick a chip ({', '.join(str(v) for v in CHIP_VALUES)}), then Allocate or a tap "
        f"on a line puts it there (Space does the same), up to {HAND_LIMIT} a hand over both "
        "lines.",
        "phone": f"Pick a chip ({', '.join(str(v) for v in CHIP_VALUES)}), then tap a line or "
        f"Allocate to put it there, up to {HAND_LIMIT} a hand over both lines.",
        "target": "btnAllocate",
    },
    {
        "title": "Confirm",
        "text": "Confirm seals your chips and throws the dice (Enter). With nothing on the "
        "lines it says Sit out: the dice still roll.",
        "phone": "Confirm seals your chips and throws the dice. With nothing on the lines it "
        "says Sit out: the dice still roll.",
        "target": "btnConfirm",
    },
    {
        "title": "Roll",
        "text": "When a point is ON, a Roll button appears and throws again (Enter or Space) "
        "until the point or a seven. Pass stays; Don't Pass may come down before "
        "each throw.",
        "phone": "When a point is ON, Roll throws again until the point or a seven. Pass "
        "stays; Don't Pass may come down before each throw.",
        "target": "",
    },
    {
        "title": "Help and Stats",
        "text": "Help has the rules, your Stats of past sessions and this guide again.",
        "phone": "The menu has Help with the rules, your Stats of past sessions and this "
        "guide again.",
        "target": "btnHelp",
        "phoneTarget": "btnMenu",
    },
)
"""The guide's steps: a title, a sentence (``phone``: the same on a phone, in taps, where the
desktop's speaks of keys), and the objectNames of the controls it points at, space-separated
(``phoneTarget``: on a phone, where that control sits in the menu); the guide's card never
covers them (Guide.qml places it beside them)."""


def _points(n: int) -> str:
    return f"{n:,}"


WATCH_LABEL = "Watch again"
"""The Stats button that opens a session's replay."""
OPEN_LABEL = "Open a saved session…"
"""The Stats button (desktop) that picks any saved session or transcript to watch."""
SAVED_SHOWN = 12
"""How many saved transcripts Stats lists on a phone (newest first)."""
OPEN_FILTERS = ("Pointline sessions (*.jsonl *.json)", "All files (*)")

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _when(year: int, month: int, day: int, clock: str) -> str:
    """A moment as Stats writes it: "6 Dec 2026, 09:27 UTC"."""
    return f"{day} {MONTHS[month - 1]} {year}, {clock} UTC"


def _place(rank: int) -> str:
    """A rank as a place: 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st."""
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


SAVED_NOT_FINISHED = "not finished"
SAVED_NO_RESULT = "ended without a result"
SAVED_UNREADABLE = "cannot be read"


def _transcript_ends(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The header's and the outcome record's bodies of the transcript at ``path`` (empty when
    missing or not JSON objects). Not a verification: the replay verifies when it opens."""
    header: dict[str, Any] = {}
    outcome: dict[str, Any] = {}
    with open(path, "rb") as file:
        for number, line in enumerate(file):
            if number > 0 and b'"outcome"' not in line:
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            body = record.get("body") if isinstance(record, dict) else None
            if not isinstance(body, dict):
                continue
            if number == 0 and record.get("kind") == "header":
                header = body
            elif record.get("kind") == "outcome":
                outcome = body
    return header, outcome


def saved_row(path: Path) -> dict[str, str]:
    """One saved online session as Stats lists it on a phone: named by its date and result
    ("6 Dec 2026, 09:27 UTC · 1st of 2, 1,030 points"), never by its file name (issue 39)."""
    from datetime import UTC, datetime

    try:
        header, outcome = _transcript_ends(path)
        started = header.get("started_at")
        stamp = (
            float(started)
            if isinstance(started, (int, float))
            and not isinstance(started, bool)
            and 0 <= started < 1e11
            else path.stat().st_mtime
        )
    except OSError:
        return {"label": SAVED_UNREADABLE, "path": str(path)}
    moment = datetime.fromtimestamp(stamp, UTC)
    when = _when(moment.year, moment.month, moment.day, moment.strftime("%H:%M"))
    seat, final, ranks = header.get("seat"), outcome.get("final"), outcome.get("ranks")
    status = outcome.get("status")
    result = SAVED_NOT_FINISHED
    if status == "ended":
        result = SAVED_NO_RESULT
    elif (
        status == "complete"
        and type(seat) is int
        and isinstance(final, list)
        and isinstance(ranks, list)
        and 0 <= seat < min(len(final), len(ranks))
        and type(final[seat]) is int
        and type(ranks[seat]) is int
        and ranks[seat] > 0
    ):
        # the number held to its word (a narrow row never leaves "points" alone on a line)
        result = f"{_place(ranks[seat])} of {len(ranks)}, {_points(final[seat])}\u00a0points"
    return {"label": f"{when} · {result}", "path": str(path)}


def record_row(record: SessionRecord, number: int) -> dict[str, Any]:
    """One session as the Stats view lists it (plain words, and the chart's samples)."""
    year, month, day = record.finished[:10].split("-")
    when = _when(int(year), int(month), int(day), record.finished[11:16])
    change = record.final_points - STARTING_POINTS
    sign = "+" if change > 0 else "\u2212" if change < 0 else "\u00b1"
    return {
        "when": when,
        "label": f"Session {number} · "
        + (f"final {_points(record.final_points)}" if record.complete else "no result"),
        "outcome": "Complete" if record.complete else "Ended without a result",
        "reason": record.reason,
        "final": _points(record.final_points),
        "change": f"{sign}{_points(abs(change))}",
        "hands": record.hands,
        "throws": record.throws,
        "winsPass": record.wins_pass,
        "winsDontPass": record.wins_dont_pass,
        "longestRun": record.longest_point_run,
        "chart": list(record.chart),
        "figures": (
            f"{when} · {counted(record.hands, 'hand')} resolved · "
            f"{counted(record.throws, 'throw')} · Pass won {record.wins_pass} · Don't Pass won "
            f"{record.wins_dont_pass} · longest point run "
            f"{counted(record.longest_point_run, 'throw')}"
            + ("" if record.complete else f" · points at the end {_points(record.final_points)}")
        ),
        "summary": (
            f"Session {number}, {when}: "
            f"{'complete' if record.complete else 'ended without a result'}, final "
            f"points {_points(record.final_points)}, {counted(record.hands, 'hand')}, Pass won "
            f"{record.wins_pass}, Don't Pass won {record.wins_dont_pass}, longest point run "
            f"{counted(record.longest_point_run, 'throw')}"
        ),
    }


def extras_of(bridge: QObject) -> Extras:
    """The ``Extras`` of a ``TableBridge`` (QML reads it as ``bridge.extras``)."""
    extras = bridge.property("extras")
    if not isinstance(extras, Extras):
        raise TypeError("this bridge has no Stats and guide (bridge.extras)")
    return extras


class Extras(QObject):
    """Stats, the guide and the close question of one solo table (``bridge.extras``)."""

    changed = Signal()

    def __init__(self, bridge: Any, folder: Path | None = None) -> None:
        super().__init__(bridge)
        self._bridge = bridge
        self._folder: Path | None = None
        self._store: StatsStore | None = None
        self._memory: list[SessionRecord] = []
        self._rows: list[dict[str, Any]] = []
        self._records: list[SessionRecord] = []
        """The records behind ``_rows``, in the same order (a replay is opened from one)."""
        self.replays: list[Any] = []
        """The replays opened from Stats, screens of the one window (kept while open)."""
        self._save_problem = ""
        self._load_problem = ""
        self._stats_open = False
        self._guide_open = False
        self._guide_step = 0
        self._question: CloseQuestion = bridge.shell.close_question
        self._question.set_asker("solo", self._close_asking)
        self._question.changed.connect(self._changed)
        self.ask_before_closing = False
        """Ask before the window closes mid-session (the app turns it on in ``start``; tools
        and tests that close their windows do not ask)."""
        self._tracked: Table = bridge.table
        self._reveals = self._session_reveals()
        self._session_id = secrets.token_hex(8)
        self._recorded = False
        if folder is not None:
            self.use_folder(folder)
        # the table is looked at when a throw lands, a session ends or a new one starts
        for signal in (bridge.throwsChanged, bridge.isOverChanged, bridge.phaseChanged):
            signal.connect(self._observe)

    # ------------------------------------------------------------------ the data folder
    def use_folder(self, folder: Path) -> None:
        """Keep records in ``folder/stats`` and remember the guide in ``folder``."""
        self._folder = folder
        self._store = StatsStore(folder / "stats")
        self._reload()

    def _reload(self) -> None:
        if self._store is None:
            records: tuple[SessionRecord, ...] = tuple(reversed(self._memory))
        else:
            loaded = self._store.load()
            records, self._load_problem = loaded.records, loaded.problem
        self._rows = [record_row(r, len(records) - i) for i, r in enumerate(records)]
        self._records = list(records)
        self.changed.emit()

    def start(self) -> None:
        """The app's start: records in the data folder, and the guide on first launch."""
        from pointline.net.paths import data_dir  # the data folder lives in one place

        self.ask_before_closing = True
        try:
            self.use_folder(data_dir())
        except OSError as error:
            self._save_problem = (
                f"Stats cannot be kept: the data folder could not be made ({error.strerror})."
            )
        self.show_guide_if_first()

    def guide_seen(self) -> bool:
        """Whether the guide was shown before (False without a data folder or when unreadable)."""
        if self._folder is None:
            return False
        try:
            data = json.loads((self._folder / GUIDE_FILE).read_text("utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            return False
        return isinstance(data, dict) and data.get("seen") is True

    def _remember_guide(self) -> None:
        if self._folder is None:
            return
        # Not remembered when the folder is not writable: the guide shows again, harming nothing.
        with contextlib.suppress(OSError):
            write_atomically(self._folder / GUIDE_FILE, json.dumps({"seen": True}) + "\n")

    def show_guide_if_first(self) -> bool:
        """On first launch, open the guide and remember it: it shows once, even if the app is
        closed before it is finished (Help opens it again). Returns whether it opened."""
        if self.guide_seen():
            return False
        self.openGuide()
        self._remember_guide()
        return True

    # ------------------------------------------------------------------ recording
    def _observe(self) -> None:
        table = self._bridge.table
        if table is not self._tracked:
            old = self._tracked
            if not self._recorded and not old.is_over and old.throws > 0:
                self._record(old, LEFT_NEW_SESSION)
            self._tracked = table
            self._reveals = self._session_reveals()
            self._session_id = secrets.token_hex(8)
            self._recorded = False
        if table.is_over and not self._recorded:
            self._record(table, LEFT_CLOSED)

    def _session_reveals(self) -> list[Reveal] | None:
        """The tracked session's reveals (kept in its record so it can be watched again); the
        list is the session's own, so throws made after tracking began are in it."""
        session = getattr(self._bridge, "session", None)
        reveals = getattr(session, "reveals", None)
        return reveals if isinstance(reveals, list) else None

    def _record(self, table: Table, left: str) -> None:
        self._recorded = True
        record = record_of(table, self._session_id, left=left, reveals=self._reveals)
        if self._store is None:
            self._memory.append(record)
        else:
            try:
                self._store.add(record)
                self._save_problem = ""
            except StatsError as error:
                self._save_problem = error.text
        self._reload()

    def in_play(self) -> bool:
        """A session with something at stake that closing would end (a throw or a draft)."""
        t = self._bridge.table
        return not t.is_over and (t.throws > 0 or t.draft(0).total > 0)

    def record_if_in_play(self) -> None:
        """The app is quitting: a session in play is recorded as left (closed) once."""
        if not self._recorded and not self._tracked.is_over and self._tracked.throws > 0:
            self._record(self._tracked, LEFT_CLOSED)

    # ------------------------------------------------------------------ what QML reads
    @property
    def covering(self) -> str:
        """Why nothing can be submitted while a card of ours is open ("" when none is)."""
        if self._question.asked:
            return CLOSE_WORDS["covering"]
        if self._guide_open:
            return GUIDE_OPEN
        if self._stats_open:
            return STATS_OPEN
        return ""

    def _step(self) -> dict[str, str]:
        return GUIDE_STEPS[self._guide_step]

    def _step_text(self, key: str = "text") -> str:
        """The step's sentence (or target): in taps on a phone (issue 39), with keys on a
        desktop."""
        step = self._step()
        phone = "phone" if key == "text" else "phoneTarget"
        mobile = bool(getattr(self._bridge, "_mobile", False))
        return step.get(phone, step[key]) if mobile else step[key]

    coveringText = Property(str, lambda self: self.covering, notify=changed)

    def _summary(self) -> str:
        rows = self._rows
        if not rows:
            return ""
        complete = [r for r in rows if r["outcome"] == "Complete"]
        words = f"{len(rows)} session{'s' if len(rows) != 1 else ''}, {len(complete)} complete"
        if complete:
            best = max(int(r["final"].replace(",", "")) for r in complete)
            words += f" · best final points {_points(best)}"
        return words

    statsOpen = Property(bool, lambda self: self._stats_open, notify=changed)
    statsSummary = Property(str, _summary, notify=changed)
    """How many sessions, how many complete, and the best final points among them."""
    sessions = Property(QVARIANT_LIST, lambda self: self._rows, notify=changed)
    """Every recorded session, newest first (see ``record_row``)."""
    statsProblem = Property(
        str,
        lambda self: " ".join(p for p in (self._save_problem, self._load_problem) if p),
        notify=changed,
    )
    """What could not be saved or read, in plain words ("" when all is well)."""
    guideOpen = Property(bool, lambda self: self._guide_open, notify=changed)
    guideStep = Property(int, lambda self: self._guide_step, notify=changed)
    guideSteps = Property(int, lambda self: len(GUIDE_STEPS), constant=True)
    guideTitle = Property(str, lambda self: self._step()["title"], notify=changed)
    guideText = Property(str, lambda self: self._step_text(), notify=changed)
    guideTarget = Property(str, lambda self: self._step_text("target"), notify=changed)
    closeQuestion = Property(QObject, lambda self: self._question, constant=True)
    """The window's close question (CloseAsk.qml shows it over the solo table)."""

    # ------------------------------------------------------------------ slots
    def _changed(self) -> None:
        self.changed.emit()
        self._bridge.refresh()  # the bridge's legal actions depend on ``covering``

    watchLabel = Property(str, lambda self: WATCH_LABEL, constant=True)
    openLabel = Property(str, lambda self: OPEN_LABEL, constant=True)
    openFilters = Property(QVARIANT_LIST, lambda self: list(OPEN_FILTERS), constant=True)

    def _saved_folder(self) -> str:
        """The folder the file dialog opens in: where online transcripts are saved (else the
        app's data folder; else the home folder), as a file URL."""
        from PySide6.QtCore import QUrl

        from pointline.net.paths import data_dir, transcripts_dir

        for folder in (transcripts_dir(create=False), data_dir(create=False), Path.home()):
            if folder.is_dir():
                return str(QUrl.fromLocalFile(str(folder)).toString())
        return ""

    savedFolder = Property(str, _saved_folder, constant=True)
    """Where "Open a saved session…" starts (issue 38, finding 7: it opened in the working
    folder)."""

    @Slot(result=QVARIANT_LIST)
    def savedTranscripts(self) -> list[dict[str, str]]:
        """The online transcripts in the app's transcripts folder, newest first (at most
        ``SAVED_SHOWN``): a phone has no file picker, so Stats lists them to watch, each named
        by its date and result (``saved_row``)."""
        from pointline.net.paths import TRANSCRIPT_SUFFIX, transcripts_dir

        try:
            folder = transcripts_dir(create=False)
            files = [
                p
                for p in folder.iterdir()
                if p.suffix == TRANSCRIPT_SUFFIX and re.fullmatch(r"[\w.-]+", p.stem, re.ASCII)
            ]  # names the app writes (net.paths.safe_part): nothing else is listed as a label
            files.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        except OSError:
            return []
        return [saved_row(p) for p in files[:SAVED_SHOWN]]

    @Slot(str)
    def watchFile(self, url: str) -> None:
        """Watch the file the desktop's dialog chose (an online transcript loads the online
        code now, on demand; a file that cannot be watched opens on its plain words)."""
        from PySide6.QtCore import QUrl

        path = QUrl(url).toLocalFile() or url
        from pointline.gui.replay.app import open_replay

        sounds = getattr(self._bridge, "sounds", None)
        self._keep_replay(
            lambda closed: open_replay(path, frame=self._frame(), on_leave=closed, sounds=sounds)
        )

    @Slot()
    def dialogClosed(self) -> None:
        """The file dialog closed (chosen or cancelled): the one window takes the keyboard
        back (under X with no window manager the focus was left on the root window)."""
        from pointline.gui.windows import take_keyboard_back

        frame = self._frame()
        if frame is not None:
            take_keyboard_back(frame)

    def _frame(self) -> Any:
        """The one window the table is shown in (a replay opens as a screen of it)."""
        from pointline.gui.windows import frame_of

        return frame_of(self._bridge)

    def _keep_replay(self, opening: Any) -> None:
        """Keep the replay ``opening(closed)`` opens (its bridge) until it has gone."""
        from pointline.gui.windows import keep_while_open

        keep_while_open(self.replays, opening)

    @Slot(int)
    def watch(self, index: int) -> None:
        """Watch the session of row ``index`` again in a replay window (its saved nonces and
        commitments re-derive the dice; an older session says it was saved before replays
        were kept). Watching is not resuming: nothing of it is played on or saved."""
        if not 0 <= index < len(self._records):
            return
        from pointline.gui.replay.app import open_replay
        from pointline.gui.replay.errors import ReplayError
        from pointline.gui.replay.solo import open_solo

        try:
            session = open_solo(self._records[index])
            problem = ""
        except ReplayError as error:
            session, problem = None, error.text
        sounds = getattr(self._bridge, "sounds", None)
        self._keep_replay(
            lambda closed: open_replay(
                frame=self._frame(),
                session=session,
                problem=problem,
                on_leave=closed,
                sounds=sounds,
            )
        )

    @Slot()
    def openStats(self) -> None:
        self._reload()
        self._stats_open = True
        self._changed()

    @Slot()
    def closeStats(self) -> None:
        self._stats_open = False
        self._changed()

    @Slot()
    def openGuide(self) -> None:
        self._guide_step = 0
        self._guide_open = True
        self._changed()

    @Slot()
    def nextGuide(self) -> None:
        """The next step; after the last one the guide closes (and is remembered)."""
        if self._guide_step + 1 < len(GUIDE_STEPS):
            self._guide_step += 1
            self._changed()
            self._say_guide_step()
        else:
            self.skipGuide()

    @Slot()
    def backGuide(self) -> None:
        if self._guide_step > 0:
            self._guide_step -= 1
            self._changed()
            self._say_guide_step()

    def _say_guide_step(self) -> None:
        """A new step is said once (the focus stays on Next, so a reader would not read it)."""
        step = self._step()
        words = guide_step_words(
            self._guide_step + 1, len(GUIDE_STEPS), step["title"], self._step_text()
        )
        self._bridge.announced.emit(words)

    @Slot()
    def skipGuide(self) -> None:
        """Close the guide (Skip, Done, Escape or Back); it is remembered as seen."""
        self._guide_open = False
        self._guide_step = 0
        self._remember_guide()
        self._changed()

    def _close_asking(self) -> Asking | None:
        """The solo table's close question: asked while a session is in play (closing after
        all records it as left, then the window closes)."""
        if not self.ask_before_closing or not self.in_play():
            return None
        thrown = self._bridge.table.throws > 0
        return Asking(solo_close_text(thrown), CLOSE_WORDS["soloHint"], self.record_if_in_play)

    def escape(self) -> bool:
        """Escape or Back: close our card on top (True), or leave it to the bridge (False)."""
        if self._question.asked:
            self._question.cancel()
        elif self._guide_open:
            self.skipGuide()
        elif self._stats_open:
            self.closeStats()
        else:
            return False
        return True
