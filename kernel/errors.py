"""The kernel's errors: one tree, each error carrying a stable machine code and plain words.

::

    PointlineError                  root of every error the project raises on purpose
    ├── RulesError                  the kernel refused an action or a state document
    │   ├── MalformedAction         code: Code (bad_action, bad_seat, …): never legal
    │   ├── IllegalAction           code: Code (hand_limit, pass_locked, …): not legal now
    │   └── BadState                code: StateCode.BAD_STATE; invariant: Invariant
    ├── DiceInputError              code: InputCode.BAD_INPUT (also a ValueError)
    └── StrictJSONError             code: InputCode.BAD_JSON (also a ValueError): not strict JSON
        └── DuplicateMember         (kernel.strictjson) an object names a member twice

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

from enum import StrEnum
from typing import TYPE_CHECKING, Self

if TYPE_CHECKING:
    from pointline.kernel.rules import Code

__all__ = [
    "BadState",
    "DiceInputError",
    "IllegalAction",
    "InputCode",
    "Invariant",
    "MalformedAction",
    "PointlineError",
    "RulesError",
    "StateCode",
    "StrictJSONError",
    "WordedCode",
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


class WordedCode(StrEnum):
    """A code enum whose members are ``(code, plain words)``: the member is its code string
    (``Code.HAND_LIMIT == "hand_limit"``) and ``text`` its words. Subclassed by every layer's
    code enums that carry words (``kernel.rules.Code``, ``Invariant``)."""

    text: str

    def __new__(cls, code: str, text: str) -> Self:
        member = str.__new__(cls, code)
        member._value_ = code
        member.text = text
        return member


class StateCode(StrEnum):
    """The code of every refused state document (the sub-code is in ``BadState.invariant``)."""

    BAD_STATE = "bad_state"


class Invariant(WordedCode):
    """Which check a refused state document fails: its stable sub-code and its plain words.

    The order the checks are made in, the first failed naming the refusal, is decided by the
    table ``kernel.invariants.CHECKS`` (which PROTOCOL.md and RULES.md list), not by this enum.
    """

    # The document itself.
    NOT_JSON = ("not_json", "The text is not JSON.")
    DUPLICATE_MEMBER = ("duplicate_member", "An object names a member twice.")
    SHAPE = (
        "shape",
        "A member is missing, of the wrong type or out of range (or the version is not 1).",
    )
    # R28: what play could have reached the shape of.
    POINT = ("point", "The point is 4, 5, 6, 8, 9 or 10 in the point phase, else null.")
    RESOLVED_HANDS = ("resolved_hands", "No more resolved hands than throws.")
    COMPLETE = ("complete", "The session is complete exactly when five hands are resolved.")
    ENDING = ("ending", "A session has an ending exactly when it ended without a result.")
    ENDING_SEAT = ("ending_seat", "An ending names a seat of the table, or none.")
    THROW_CAP = ("throw_cap", "A live session has made fewer than 128 throws.")
    UNITS = ("units", "Every amount is a multiple of 10.")
    HAND_LIMIT = ("hand_limit", "At most 100 points a hand on the two lines together.")
    OVER_IS_EMPTY = ("over_is_empty", "Nothing is on the lines once the session is over.")
    CONFIRMED_DRAFT = ("confirmed_draft", "A confirmed come-out draft equals its contracts.")
    NO_CONTRACTS_BEFORE_CONFIRM = (
        "no_contracts_before_confirm",
        "Before Confirm the hand has no contracts.",
    )
    DRAFT_WITHIN_BALANCE = ("draft_within_balance", "An open draft is never above the balance.")
    POINT_LOCK = ("point_lock", "On the point Pass is locked and Don't Pass only comes down.")
    ROLLED_NOTHING_PREPARED = (
        "rolled_nothing_prepared",
        "A sealed roll leaves no reduction prepared.",
    )
    LEDGER_THROWS = ("ledger_throws", "Every ledger records exactly the table's throws.")
    THROW_TOTAL = ("throw_total", "A throw's total is its two dice added.")
    PAYMENT = (
        "payment",
        "A settled line follows from its contract in play and the throw: its outcome is the"
        " one the throw's row gives, and it returns 2, 1 or 0 times the contract (net +1, 0, -1).",
    )
    REFUND = (
        "refund",
        "A withdrawal refund is exactly the Don't Pass reduction recorded just before it,"
        " from the contract in play to a lower one.",
    )
    BALANCE_REPLAY = ("balance_replay", "Each balance is what its ledger replays to.")
    # Last: the document re-encodes to exactly its own canonical bytes.
    NOT_CANONICAL = (
        "not_canonical",
        "The document is not canonical (an extra member, or a result the balances do not give).",
    )


class BadState(RulesError):
    """A canonical state document does not describe a valid table; ``invariant`` says which
    check it fails first, ``text`` the particulars in plain words."""

    code: StateCode

    def __init__(self, invariant: Invariant, text: str | None = None) -> None:
        super().__init__(StateCode.BAD_STATE, invariant.text if text is None else text)
        self.invariant = invariant


class InputCode(StrEnum):
    """The codes of refused inputs: to the dice derivation or a commitment, and JSON text."""

    BAD_INPUT = "bad_input"
    BAD_JSON = "bad_json"


class DiceInputError(PointlineError, ValueError):
    """A nonce, seat, index or table id that the derivation cannot take (``bad_input``)."""

    code: InputCode

    def __init__(self, text: str) -> None:
        super().__init__(InputCode.BAD_INPUT, text)


class StrictJSONError(PointlineError, ValueError):
    """The text is not strict JSON (``kernel.strictjson``); ``text`` says why in plain words."""

    code: InputCode

    def __init__(self, text: str) -> None:
        super().__init__(InputCode.BAD_JSON, text)
