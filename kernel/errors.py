"""The kernel's errors: a small family, each carrying a stable machine code.

``MalformedAction`` means the action could never be legal in any state (amount 15, die 7,
seat 9). ``IllegalAction`` means the action is well formed but the rules forbid it now
(a Pass increase while the point is on). Every code is listed in ``spec/RULES.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pointline.kernel.rules import Code


class PointlineError(Exception):
    """Root of every error the project raises on purpose, in every layer.

    ``code`` is the layer's stable machine code (an enum member or its string value) and
    ``text`` the plain words a person may read. Player-facing screens show ``text``, never
    ``args`` or ``str(error)`` (which is ``"code: text"`` for logs and developers).
    """

    code: object

    def __init__(self, code: object, text: str) -> None:
        super().__init__(f"{getattr(code, 'value', code)}: {text}")
        self.code = code
        self.text = text

    @property
    def message(self) -> str:
        """The plain words (older name of ``text``)."""
        return self.text


class RulesError(PointlineError):
    """The kernel refused an action or a state document."""


class MalformedAction(RulesError):
    """The action is not well formed for this table: no state makes it legal."""

    code: Code

    def __init__(self, code: Code, text: str) -> None:
        super().__init__(code, text)


class IllegalAction(RulesError):
    """The action is well formed, but the rules do not allow it in this state."""

    code: Code

    def __init__(self, code: Code, text: str) -> None:
        super().__init__(code, text)


class BadState(RulesError):
    """A canonical state document does not describe a valid table."""
