"""The GUI layer's errors: its branch of the project's one error tree.

::

    PointlineError                      (pointline.kernel.errors: the root, and the kernel's)
    ├── StatsError                      code: StatsCode.NOT_SAVED (gui.stats): a record not saved
    └── ReplayError                     code: ReplayCode (gui.replay.errors): a file not watched

Each carries ``code`` (a ``StrEnum`` member, equal to its string) and ``text``, the plain words a
screen shows; ``str(error)`` is ``"code: text"`` for logs. Online play's errors are the net
layer's (``pointline.net.errors``), shown through their ``text``.
"""

from __future__ import annotations

from enum import StrEnum

from pointline.kernel import PointlineError

__all__ = ["StatsCode", "StatsError"]


class StatsCode(StrEnum):
    """Why Stats could not do what was asked (the GUI layer's own code, under PointlineError)."""

    NOT_SAVED = "stats_not_saved"


class StatsError(PointlineError):
    """The record could not be saved (the folder is not writable, the disk is full):
    ``StatsCode.NOT_SAVED``, ``text`` the plain words the Stats view shows."""

    code: StatsCode

    def __init__(self, text: str) -> None:
        super().__init__(StatsCode.NOT_SAVED, text)
