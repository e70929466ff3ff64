"""The kernel's errors: a small family, each carrying a stable machine code.

``MalformedAction`` means the action could never be legal in any state (amount 15, die 7,
seat 9). ``IllegalAction`` means the action is well formed but the rules forbid it now
(a Pass increase while the point is on). Every code is listed in ``spec/RULES.md``.
"""

from __future__ import annotations


class PointlineError(Exception):
    """Base of every error the kernel raises."""

    code: str

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class MalformedAction(PointlineError):
    """The action is not well formed for this table: no state makes it legal."""


class IllegalAction(PointlineError):
    """The action is well formed, but the rules do not allow it in this state."""


class BadState(PointlineError):
    """A canonical state document does not describe a valid table."""
