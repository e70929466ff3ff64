"""The result moment of a throw, solo and online: its beats, one small QObject.

Beats: ``rolling`` (the dice travel to the middle of the felt and tumble), ``outcome`` (they
have landed: the callout says the total and what it did, each line's outcome shows; only when a
line settled), ``count`` (chips pay or are swept, the balance counts; a throw that settled
nothing holds it as long as an outcome, so its callout is read), then ``""`` (idle: the history
shows the throw and the countdown for the next one starts). Input is locked while a beat runs,
never longer than ``MOMENT_MS``; a fresh key press or a tap on the felt ends the moment at once
(it never submits), so the moment never keeps a person from choosing. Reduce motion skips every
beat: the result shows at once, and the landed dice and the callout stay in the middle of the
felt for ``CALLOUT_MS`` (``landed``) without locking anything; the next action or a tap ends that.

The solo bridge (``gui.bridge``) and the online one run the same ``ResultMoment``, so both
tables feel the same and the beats are decided here only; each bridge reacts to ``stage``
(what shows at each beat is its own). The beats run on a ``gui.clock.Clock`` (a ``QtClock``
unless one is injected: a screenshot holds a beat with a clock that never fires); ``pause``
freezes a beat (solo's Pause and Help); tests end the moment by ``finish`` or wait on ``stage``.
"""

from __future__ import annotations

import os

from PySide6.QtCore import Property, QObject, QSettings, Signal, Slot
from PySide6.QtQml import QmlElement, QmlUncreatable

from pointline.gui.clock import Clock, QtClock

__all__ = [
    "CALLOUT_MS",
    "COUNT_MS",
    "MOMENT_MS",
    "OUTCOME_MS",
    "ROLL_MS",
    "ResultMoment",
    "reduce_motion_setting",
]

QML_IMPORT_NAME = "Pointline.Seat"
QML_IMPORT_MAJOR_VERSION = 1

ROLL_MS = 900
"""How long the dice travel across the felt and tumble before they land."""
OUTCOME_MS = 1100
"""How long each line's outcome shows over its chips before they pay or are swept."""
COUNT_MS = 600
"""How long the chips slide and the balance counts; input is locked until it ends."""
STAGES = ("", "rolling", "outcome", "count")
MOMENT_MS = ROLL_MS + OUTCOME_MS + COUNT_MS
"""The longest a result moment runs with full motion (every beat): the most input is ever
locked by a throw (Pause and Help hold it longer: nothing can be played under them anyway)."""
CALLOUT_MS = OUTCOME_MS + COUNT_MS
"""Reduce motion: how long the landed dice and the callout stay in the middle of the felt after
the result showed at once (nothing is locked meanwhile; the next action or a tap ends it)."""


def reduce_motion_setting(settings: QSettings | None = None) -> bool:
    """The player's Reduce motion choice, as the solo table keeps it (env var wins)."""
    forced = os.environ.get("POINTLINE_REDUCE_MOTION", "")
    if forced in ("0", "1"):
        return forced == "1"
    store = settings or QSettings("Pointline", "Pointline Table")
    return store.value("reduceMotion", False, type=bool) is True


@QmlElement
@QmlUncreatable("a table's bridge owns its result moment")
class ResultMoment(QObject):  # type: ignore[operator]  # PySide6 stubs: QmlUncreatable
    """Which beat of a throw's result is showing; ``stage`` notifies on every change."""

    stageChanged = Signal()
    reduceMotionChanged = Signal()
    finished = Signal()
    """The moment ended (at once under Reduce motion): the next choice may start."""

    def __init__(
        self,
        parent: QObject | None = None,
        *,
        reduce_motion: bool = False,
        clock: Clock | None = None,
    ) -> None:
        super().__init__(parent)
        self._stage = ""
        self._lingering = False
        self._has_outcome = False
        self._reduce = reduce_motion
        self._clock: Clock = clock if clock is not None else QtClock(self)

    # ------------------------------------------------------------------ state
    def _set_stage(self, stage: str) -> None:
        if stage != self._stage:
            self._stage = stage
            self.stageChanged.emit()
            if not stage:
                self.finished.emit()

    @property
    def running(self) -> bool:
        return bool(self._stage)

    @property
    def beat(self) -> str:
        """The current beat, for Python (``stage`` is the same for QML)."""
        return self._stage

    @property
    def landed(self) -> bool:
        """The dice have landed and the callout shows: the outcome and count beats, and under
        Reduce motion the while after a throw (``CALLOUT_MS``, input free)."""
        return self._stage in ("outcome", "count") or self._lingering

    def _set_lingering(self, on: bool, notify: bool = True) -> None:
        if on != self._lingering:
            self._lingering = on
            if notify:
                self.stageChanged.emit()

    @property
    def reduce_motion(self) -> bool:
        """Reduce motion is on (for Python; ``reduceMotion`` is the same for QML)."""
        return self._reduce

    stage = Property(str, lambda self: self._stage, notify=stageChanged)
    """"" when idle; "rolling", "outcome", "count" while a throw's result shows
    (``stageChanged`` also notifies when ``landed`` changes while idle)."""

    def _get_reduce(self) -> bool:
        return self._reduce

    def set_reduce_motion(self, on: bool) -> None:
        if bool(on) == self._reduce:
            return
        self._reduce = bool(on)
        self.reduceMotionChanged.emit()
        if self._reduce:
            self.finish()

    reduceMotion = Property(bool, _get_reduce, set_reduce_motion, notify=reduceMotionChanged)

    def set_clock(self, clock: Clock) -> None:
        """Run the next beats on ``clock`` (a screenshot holds a beat with one that waits)."""
        self._clock.stop()
        self._set_lingering(False)
        self._clock = clock

    # ------------------------------------------------------------------ beats
    def start(self, has_outcome: bool) -> None:
        """A throw was revealed: run its beats (``has_outcome``: some line settled)."""
        self._clock.stop()
        self._set_lingering(False)
        self._has_outcome = has_outcome
        if self._reduce:
            self._set_stage("count")  # the one beat that shows the result, then idle
            self._set_stage("")
            self._set_lingering(True)  # the landed dice and the callout, nothing locked
            self._clock.start(CALLOUT_MS, self.dismiss)
            return
        self._set_stage("rolling")
        self._clock.start(ROLL_MS, self._advance)

    def _advance(self) -> None:
        if self._stage == "rolling" and self._has_outcome:
            self._set_stage("outcome")
            self._clock.start(OUTCOME_MS, self._advance)
        elif self._stage == "rolling":  # nothing settled: the callout holds as an outcome would
            self._set_stage("count")
            self._clock.start(OUTCOME_MS, self._advance)
        elif self._stage == "outcome":
            self._set_stage("count")
            self._clock.start(COUNT_MS, self._advance)
        else:
            self._set_stage("")

    @Slot()
    def finish(self) -> None:
        """End the moment now: every remaining beat shows at once (a fresh key press, a tap);
        the callout goes too."""
        if not self._stage:
            self.dismiss()
            return
        self._clock.stop()
        if self._stage != "count":
            self._set_stage("count")
        self._set_stage("")

    @Slot()
    def dismiss(self) -> None:
        """The callout left after a moment under Reduce motion goes (the next action, a tap);
        a moment still running is left alone."""
        if self._lingering:
            self._clock.stop()
            self._set_lingering(False)

    def drop_callout(self) -> None:
        """``dismiss`` for an owner that publishes its table right after (an action): no
        ``stageChanged``, so a key's action publishes once (a slow press could pass for a
        held key: gui/keys.py)."""
        if self._lingering:
            self._clock.stop()
            self._set_lingering(False, notify=False)

    def pause(self) -> None:
        """Freeze the current beat where it is (``resume`` lets it run out)."""
        self._clock.pause()

    def resume(self) -> None:
        self._clock.resume()

    def hold(self) -> None:
        """Stop at the current beat for good (a scene's picture holds it)."""
        self._clock.stop()

    def hold_outcome(self) -> bool:
        """Go to the outcome beat now and stop there, if this throw has one (scenes use it)."""
        if self._stage != "rolling" or not self._has_outcome:
            return False
        self._clock.stop()
        self._set_stage("outcome")
        return True

    def cancel(self) -> None:
        """Drop the moment without showing the rest (a new session replaces the table)."""
        self._clock.stop()
        self._set_lingering(False)
        self._set_stage("")
