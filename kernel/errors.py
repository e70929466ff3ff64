"""The kernel's errors: one tree, each error carrying a stable machine code and plain words.

::

    PointlineError                  root of every error the project raises on purpose
    ├── RulesError                  the kernel refused an action or a state document
    │   ├── MalformedAction         code: Code (bad_action, bad_seat, …): never legal
    │   ├── IllegalAction           code: Code (hand_limit, pass_locked, …): not legal now
    │   └── BadState                code: StateCode.BAD_STATE; invariant: Invariant
    ├── DiceInputError              code: InputCode.BAD_INPUT (also a ValueError)
    ├── BadReveal                   code: InputCode.BAD_REVEAL: a reveal misses its commitment
    ├── StrictJSONError             code: InputCode.BAD_JSON (also a ValueError): not strict JSON
    │   └── DuplicateMember         (kernel.strictjson) an object names a member twice
    └── SoloRecordError             code: InputCode.BAD_INPUT (also a ValueError): not a solo record

Other layers hang their own branches under the same root (``pointline.conformance.errors`` for
the conformance suite; the net layer's errors for online play), each drawn in its module.

``MalformedAction`` means the action could never be legal in any state (amount 15, die 7,
seat 9). ``IllegalAction`` means the action is well formed but the rules forbid it now (a Pass
increase while the point is on). ``BadState`` refuses a canonical state document and names, in
``invariant``, the first check it fails (in the order of ``kernel.invariants.CHECKS``). Every
code is a ``StrEnum`` member, so it compares equal to its string (``Code.HAND_LIMIT ==
"hand_limit"``); every code is listed in ``spec/RULES.md``.
"""

from __future__ import annotations

from pointline.kernel.codes import Code, InputCode, Invariant, StateCode

__all__ = [
    "BadReveal",
    "BadState",
    "DiceInputError",
    "IllegalAction",
    "MalformedAction",
    "PointlineError",
    "RulesError",
    "SoloRecordError",
    "StrictJSONError",
]


class PointlineError(Exception):
    """Root of every error the project raises on purpose, in every layer.

    ``code`` is the layer's stable machine code (a ``StrEnum`` member, or its string value) and
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
    """A canonical state document does not describe a valid table; ``invariant`` says which
    check it fails first, ``text`` the particulars in plain words."""

    code: StateCode

    def __init__(self, invariant: Invariant, text: str | None = None) -> None:
        super().__init__(StateCode.BAD_STATE, invariant.text if text is None else text)
        self.invariant = invariant


class DiceInputError(PointlineError, ValueError):
    """A nonce, seat, index or table id that the derivation cannot take (``bad_input``)."""

    code: InputCode

    def __init__(self, text: str) -> None:
        super().__init__(InputCode.BAD_INPUT, text)


class BadReveal(PointlineError):
    """A reveal whose nonce or choices do not match the commitment made for them
    (``kernel.dice.verify_commitment`` said no), so its dice cannot be derived. Solo raises it
    when its own reveal misses (never, unless tampered with); online play raises the net
    layer's ``BadReveal``, a subclass with the net layer's code, and ends the session."""

    code: str = InputCode.BAD_REVEAL

    def __init__(self, text: str) -> None:
        # Named, not super(): a subclass may put another base between this class and the root
        # (the net layer's BadReveal is also one of its MessageErrors).
        PointlineError.__init__(self, type(self).code, text)


class StrictJSONError(PointlineError, ValueError):
    """The text is not strict JSON (``kernel.strictjson``); ``text`` says why in plain words."""

    code: InputCode

    def __init__(self, text: str) -> None:
        super().__init__(InputCode.BAD_JSON, text)


class SoloRecordError(PointlineError, ValueError):
    """Text or a document that is not a solo session record as Stats saves it
    (``kernel.solo_record``); ``text`` says which part is wrong, in plain words."""

    code: InputCode

    def __init__(self, text: str) -> None:
        super().__init__(InputCode.BAD_INPUT, text)
