"""The replay screen's QObjects: ``ReplayBridge`` (the verdict, the step, the timeline, the dice
panel) and ``ReplaySeat`` (the ``SeatTable`` the shared ``TableView.qml`` reads).

The bridge reads a ``gui.replay.model.Session`` and publishes, at each step, the seat view of
the file's own seat (``Session.view``: ``gui.seat_view.seat_view`` of the kernel's table) into
``ReplaySeat``, exactly as play publishes it; every seat's balance and contracts go to
``players``. Every property has its own notify signal, emitted only when its value changed.

Nothing here can be submitted anywhere: ``ReplaySeat`` refuses every action (its reasons say
it is a replay), no connection exists, and nothing writes a session or Stats.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from PySide6.QtCore import Property, QObject, QTimer, Signal, Slot
from PySide6.QtQml import QmlElement, QmlUncreatable

from pointline.gui.device import fake_insets
from pointline.gui.history import history_rows
from pointline.gui.presenter import TablePresenter
from pointline.gui.replay.errors import ReplayError
from pointline.gui.replay.model import Session
from pointline.gui.replay.words import (
    REPLAY_TEXTS,
    derivation_lines,
    escaped,
    player_row,
    seat_name,
    throw_title,
)
from pointline.gui.seat_table import QVARIANT_MAP, SeatTable, declare
from pointline.gui.texts import SOLO_WORDS, TEXTS
from pointline.kernel import Phase

__all__ = ["PLAY_MS", "ReplayBridge", "ReplaySeat", "bridge_for", "open_path"]

QML_IMPORT_NAME = "Pointline.Replay"
QML_IMPORT_MAJOR_VERSION = 1

PLAY_MS = 1600
"""How long each throw shows while the replay plays."""


def replay_hint(phase: Phase, mobile: bool, chip: int) -> str:
    """What the keys do in a replay (they step; nothing is played)."""
    return REPLAY_TEXTS["keysMobile" if mobile else "keys"]


def open_path(path: str | Path, relay_key: bytes | None = None) -> Session:
    """A session to watch from ``path``: a solo session record (Stats' JSON) or an online
    transcript (its code is loaded only then). Raises ``ReplayError`` in plain words."""
    path = Path(path)
    try:
        head = path.read_bytes()[:1]
    except OSError:
        head = b""
    if head == b"{":
        from pointline.gui.replay.solo import open_solo_file

        solo = open_solo_file(path)
        if solo is not None:
            return solo
    from pointline.gui.replay.model import open_transcript

    return open_transcript(path, relay_key)


@QmlElement
@QmlUncreatable("The replay bridge owns it.")
class ReplaySeat(SeatTable):  # type: ignore[operator]  # PySide6 stubs: decorator
    """The watched seat as the table view shows it; every action is refused (a replay): its
    actions go nowhere, and everything it shows comes from the bridge's ``TablePresenter``."""

    def __init__(self, bridge: ReplayBridge) -> None:
        super().__init__(bridge)
        self._bridge = bridge

    @Slot(str, result=bool)
    def act(self, name: str) -> bool:
        self.explain(name)
        return False

    @Slot(str, result=bool)
    def tableKey(self, key: str) -> bool:
        return False

    @Slot()
    def keyReleased(self) -> None:
        """Nothing is held in a replay."""

    @Slot(str, result=bool)
    def placeChip(self, line: str) -> bool:
        self.explain("chip")
        return False

    @Slot(result=bool)
    def repeatLastBet(self) -> bool:
        self.explain("repeat")
        return False

    @Slot(str)
    def explain(self, action: str) -> None:
        self._bridge.refuse()


@QmlElement
@QmlUncreatable("Opened from Python.")
class ReplayBridge(QObject):  # type: ignore[operator]  # PySide6 stubs: decorator
    """One watched session (see the module docstring)."""

    DEFAULTS: ClassVar[dict[str, Any]] = declare(
        vars(),
        {
            "title": (str, ""),
            "problem": (str, ""),
            "verdictWord": (str, ""),
            "verdictSentence": (str, ""),
            "verdictRecord": (str, ""),
            "verdictNote": (str, ""),
            "vouchText": (str, ""),
            "seats": (list, []),
            "step": (int, 0),
            "steps": (int, 0),
            "playing": (bool, False),
            "paused": (bool, False),
            "hand": (int, 0),
            "hands": (list, []),
            "timeline": (list, []),
            "throwTitle": (str, ""),
            "derivation": (list, []),
            "players": (list, []),
            "keysHint": (str, ""),
            "reduceMotion": (bool, False),
            "muted": (bool, False),
        },
    )
    """problem: why the file cannot be watched ("" when it can), plain words shown as text."""
    announced = Signal(str)
    """Words said through the frame's one announcement call (the pause and the resume)."""
    leaveRequested = Signal()
    """Escape or Leave replay: the replay screen leaves the one window (gui.windows)."""
    helpRequested = Signal()
    insetsChanged = Signal()
    insets = Property(QVARIANT_MAP, lambda self: self._insets, notify=insetsChanged)
    """Extra safe-area insets (a phone's notch and bars faked by tests and the layout check);
    the screen keeps inside these and the frame's own (Qt's SafeArea)."""

    def set_insets(self, insets: dict[str, int]) -> None:
        """Fake safe-area insets (the layout check and the screenshots: each phone size its
        own, portrait and sideways in one run)."""
        self._insets = dict(insets)
        self.insetsChanged.emit()

    def __init__(
        self,
        session: Session | None = None,
        *,
        problem: str = "",
        mobile: bool = False,
        reduce_motion: bool = False,
        sounds: Any = None,
        shell: Any = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._values: dict[str, Any] = dict(self.DEFAULTS)
        self._sounds = sounds
        """The app's ``gui.sound.Sounds`` (None: silent); a step forward plays the dice."""
        self._shell = shell
        """The window's shell (gui/shell.py) when the replay opens over a screen: M turns the
        sound off for the whole app there, remembered, and the screen below hears of it."""
        self._session = session
        self._mobile = mobile
        self._resume_playing = False
        """Whether the replay was playing when it paused (Resume plays on)."""
        self._insets = fake_insets()
        self._seat = ReplaySeat(self)
        self.presenter = TablePresenter(replay_hint, mobile=mobile, shows_end=False)
        """What the table screen shows (gui/presenter.py); actions go nowhere."""
        self._reduce_motion = reduce_motion
        self._said = ""
        self._seat.publish(**TablePresenter.constants(TEXTS, mobile))
        self._present()
        self._timer = QTimer(self)
        self._timer.setInterval(PLAY_MS)
        self._timer.timeout.connect(self._tick)
        self._put(
            problem=problem,
            muted=bool(getattr(sounds, "muted", True)),
            reduceMotion=reduce_motion,
            keysHint=self._keys_hint(),
        )
        if session is not None:
            self._load(session)

    # ------------------------------------------------------------------ publishing
    def _put(self, **values: Any) -> None:
        for name, value in values.items():
            if self._values[name] != value or type(self._values[name]) is not type(value):
                self._values[name] = value
                getattr(self, f"{name}Changed").emit()

    def value(self, name: str) -> Any:
        """A published value (Python callers and tests; QML reads the property)."""
        return self._values[name]

    @property
    def session(self) -> Session | None:
        return self._session

    def _load(self, session: Session) -> None:
        verdict = session.verdict
        title = REPLAY_TEXTS["solo"] if session.solo else f"Table {escaped(session.table_id)}"
        self._put(
            title=title,
            verdictWord=verdict.word,
            verdictSentence=escaped(verdict.sentence),
            verdictRecord=f"record {verdict.record}" if verdict.record is not None else "",
            verdictNote=verdict.note,
            vouchText=escaped(verdict.vouch_text),
            seats=[
                {
                    "text": f"{seat_name(session, s.seat)}: {s.words}" if s.words else "",
                    "you": s.seat == session.me,
                }
                for s in verdict.seats
                if s.words
            ],
            steps=len(session.throws),
            keysHint=self._keys_hint(),
            hands=list(session.hands()),
            timeline=[
                {
                    "step": position,
                    "hand": t.hand,
                    "label": f"{t.trace.die1 + t.trace.die2}",
                    "text": f"Throw {t.throw}: {t.trace.die1} + {t.trace.die2}",
                }
                for position, t in enumerate(session.throws, start=1)
            ],
        )
        self._show(0)

    def _show(self, step: int) -> None:
        session = self._session
        if session is None:
            return
        step = max(0, min(step, len(session.throws)))
        forward = step == self._values["step"] + 1
        if step > 0:
            throw = session.throws[step - 1]
            before = throw.before.ledger_length(session.me)
            entries = throw.after.ledger_since(session.me, before)
            self.presenter.show_throw((throw.trace.die1, throw.trace.die2), entries, moved=forward)
        else:
            self.presenter.show_no_throw()
        if forward and step > 0 and self._sounds is not None:
            self._sounds.play("dice")
        self.presenter.notice = ""
        self._said = throw_title(session, step)
        self._present(step)
        seat = self._seat
        title = self._said
        table = session.table_at(step)
        mine = 0 <= session.me < table.seat_count  # a FAIL's header may name no such seat
        seat.set_history(history_rows(table.seat(session.me).ledger) if mine else [])
        self._put(
            step=step,
            hand=session.throws[step - 1].hand if step > 0 else (1 if session.throws else 0),
            throwTitle=title,
            derivation=derivation_lines(session, session.throws[step - 1]) if step > 0 else [],
            players=[player_row(session, step, s) for s in range(session.seats)],
        )
        if step >= len(session.throws):
            self._stop()

    def _present(self, step: int = 0) -> None:
        """Publish the watched seat at ``step`` (the presenter's values; nothing can act)."""
        session = self._session
        table = session.table_at(step) if session is not None else None
        me = session.me if session is not None else -1
        self._seat.present(
            self.presenter.values(
                table if table is not None and 0 <= me < table.seat_count else None,
                me,
                acting=None,
                blocked=REPLAY_TEXTS["refused"],
                reduce_motion=self._reduce_motion,
                announcement=self._said,
                status=self._said,
                view=session.view(step, me) if session is not None else None,
            )
        )

    def _keys_hint(self) -> str:
        """What the keys do now (a phone: what to tap)."""
        if self._mobile:
            return REPLAY_TEXTS["keysMobile"]
        if self._values["paused"]:
            return REPLAY_TEXTS["keysPaused"]
        if self._session is not None and not self._session.throws:
            return REPLAY_TEXTS["keysNoThrows"]
        return REPLAY_TEXTS["keys"]

    def refuse(self) -> None:
        """A control of the table was used: a replay refuses it, and says so."""
        self.presenter.notice = REPLAY_TEXTS["refused"]
        self._present(self._values["step"])

    def _stop(self) -> None:
        self._timer.stop()
        self._put(playing=False)

    def _tick(self) -> None:
        self._show(self._values["step"] + 1)

    # ------------------------------------------------------------------ properties
    table = Property(QObject, lambda self: self._seat, constant=True)
    texts = Property(QVARIANT_MAP, lambda self: dict(REPLAY_TEXTS), constant=True)

    # ------------------------------------------------------------------ slots
    @Slot()
    def forward(self) -> None:
        self._stop()
        self._show(self._values["step"] + 1)

    @Slot()
    def back(self) -> None:
        self._stop()
        self._show(self._values["step"] - 1)

    @Slot()
    def first(self) -> None:
        self._stop()
        self._show(0)

    @Slot()
    def last(self) -> None:
        self._stop()
        self._show(self._values["steps"])

    @Slot(int)
    def goTo(self, step: int) -> None:
        self._stop()
        self._show(step)

    @Slot(int)
    def jumpToHand(self, hand: int) -> None:
        session = self._session
        if session is not None and session.first_step_of(hand):
            self.goTo(session.first_step_of(hand))

    @Slot()
    def togglePlay(self) -> None:
        if self._values["playing"]:
            self._stop()
            return
        if self._session is None or not self._session.throws:
            return
        if self._values["step"] >= self._values["steps"]:
            self._show(0)
        self._put(playing=True)
        self._timer.start()

    @Slot()
    def escape(self) -> None:
        """Escape or Android's Back: the replay pauses as solo does, or resumes if paused."""
        if self._values["paused"]:
            self.resume()
        else:
            self.pause()

    @Slot()
    def pause(self) -> None:
        """Nothing moves until ``resume`` (a playing replay stops where it is)."""
        if self._values["paused"]:
            return
        self._resume_playing = bool(self._values["playing"])
        self._stop()
        self._put(paused=True)
        self._put(keysHint=self._keys_hint())
        self.announced.emit(SOLO_WORDS["pausedShort"])

    @Slot()
    def resume(self) -> None:
        """Go on from the throw shown (playing on if it was playing); said as solo says it."""
        if not self._values["paused"]:
            return
        self._put(paused=False)
        self._put(keysHint=self._keys_hint())
        self.announced.emit(SOLO_WORDS["resumed"])
        if self._resume_playing:
            self._resume_playing = False
            self.togglePlay()

    @Slot()
    def leave(self) -> None:
        self._stop()
        self._put(paused=False)
        self.leaveRequested.emit()

    @Slot()
    def help(self) -> None:
        self.helpRequested.emit()

    @Slot()
    def toggleMute(self) -> None:
        """M: sound off or on (the app's own Sounds: the same choice as at the table)."""
        if self._shell is not None:
            self._shell.toggle_mute()
            self._put(muted=bool(self._shell.muted_now))
            return
        if self._sounds is None:
            return
        self._sounds.muted = not self._sounds.muted
        self._put(muted=bool(self._sounds.muted))


def bridge_for(path: str | Path, relay_key: bytes | None = None, **options: Any) -> ReplayBridge:
    """A bridge on the file at ``path``; a file that cannot be watched gives a bridge whose
    ``problem`` says why in plain words (nothing else changes)."""
    try:
        return ReplayBridge(open_path(path, relay_key), **options)
    except ReplayError as error:
        return ReplayBridge(None, problem=error.text, **options)
