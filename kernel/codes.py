"""Every code the kernel answers with, and its plain words: one place for each.

``Code`` is every rejection of an action (``Table.push``; ``MALFORMED_CODES`` are the ones no
state makes legal), ``Invariant`` every check a refused state document can fail (the order they
are made in is ``kernel.invariants.CHECKS``), ``StateCode`` and ``InputCode`` the codes of a
refused state document and of refused input. The error classes that carry them are in
``kernel.errors``; the transition table that rejects with them is ``kernel.rules``. Every code
is a ``StrEnum`` member, so it compares equal to its string (``Code.HAND_LIMIT ==
"hand_limit"``); every code is listed in ``spec/RULES.md``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Self

from pointline.kernel.values import HAND_LIMIT, HANDS_PER_SESSION, THROW_CAP, UNIT, spelled

__all__ = [
    "CODES_BY_NAME",
    "MALFORMED_CODES",
    "Code",
    "InputCode",
    "Invariant",
    "StateCode",
    "WordedCode",
]


class WordedCode(StrEnum):
    """A code enum whose members are ``(code, plain words)``: the member is its code string
    (``Code.HAND_LIMIT == "hand_limit"``) and ``text`` its words. Subclassed by every layer's
    code enums that carry words (``Code``, ``Invariant``)."""

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
    COMPLETE = (
        "complete",
        f"The session is complete exactly when {spelled(HANDS_PER_SESSION)} hands are resolved.",
    )
    ENDING = ("ending", "A session has an ending exactly when it ended without a result.")
    ENDING_SEAT = ("ending_seat", "An ending names a seat of the table, or none.")
    THROW_CAP = ("throw_cap", f"A live session has made fewer than {THROW_CAP} throws.")
    UNITS = ("units", f"Every amount is a multiple of {UNIT}.")
    HAND_LIMIT = (
        "hand_limit",
        f"At most {HAND_LIMIT} points a hand on the two lines together.",
    )
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
        "A settled line follows from its contract in play, which is above 0, and the throw:"
        " its outcome is the one the throw's row gives, and it returns 2, 1 or 0 times the"
        " contract (net +1, 0, -1).",
    )
    REFUND = (
        "refund",
        "A withdrawal refund is exactly the Don't Pass reduction recorded just before it,"
        " from the contract in play to a lower one.",
    )
    CONTRACTS_IN_PLAY = (
        "contracts_in_play",
        "The seat's contracts, and every voided amount (above 0), are the ledger's contracts"
        " in play.",
    )
    BALANCE_REPLAY = ("balance_replay", "Each balance is what its ledger replays to.")
    # Last: the document re-encodes to exactly its own canonical bytes.
    NOT_CANONICAL = (
        "not_canonical",
        "The document is not canonical (an extra member, or a result the balances do not give).",
    )


class Code(WordedCode):
    """Every rejection the kernel can give: its stable machine code (the member's string value,
    so ``Code.HAND_LIMIT == "hand_limit"``) and its plain words (``text``)."""

    # Malformed: no state makes the action legal.
    BAD_ACTION = ("bad_action", "That is not an action of this table.")
    BAD_SEAT = ("bad_seat", "There is no such seat at this table.")
    BAD_LINE = ("bad_line", "The line must be Pass or Don't Pass.")
    BAD_AMOUNT = ("bad_amount", f"An amount must be a positive multiple of {UNIT}.")
    BAD_DIE = ("bad_die", "A die shows a whole number from 1 to 6.")
    BAD_REASON = ("bad_reason", "That is not a reason a session can be aborted for.")
    # Illegal now: well formed, but the rules forbid it in this state.
    SESSION_OVER = ("session_over", "The session is over.")
    SEAT_SEALED = ("seat_sealed", "Your choices for this throw are already sealed.")
    HAND_LIMIT = ("hand_limit", Invariant.HAND_LIMIT.text)  # the same rule, the same words
    OVER_BALANCE = ("over_balance", "Not enough points for that.")
    PASS_LOCKED = ("pass_locked", "Pass is locked while the point is on.")
    DONT_PASS_NO_INCREASE = (
        "dont_pass_no_increase",
        "Don't Pass cannot increase once the point is on.",
    )
    NO_POINT = ("no_point", "Don't Pass can be reduced only while the point is on.")
    NOTHING_TO_REDUCE = ("nothing_to_reduce", "There is no Don't Pass left to reduce.")
    NOTHING_TO_RESET = ("nothing_to_reset", "There is nothing to reset.")
    CONFIRM_FIRST = (
        "confirm_first",
        "Confirm the come-out first; the dice roll after it.",
    )
    ALREADY_CONFIRMED = (
        "already_confirmed",
        "The hand is confirmed; roll for the next throw.",
    )
    AWAITING_SEATS = (
        "awaiting_seats",
        "Every seat must seal its choices before the dice are thrown.",
    )

    @property
    def code(self) -> str:
        return str(self._value_)

    @property
    def malformed(self) -> bool:
        return self in MALFORMED_CODES


MALFORMED_CODES = frozenset(
    {
        Code.BAD_ACTION,
        Code.BAD_SEAT,
        Code.BAD_LINE,
        Code.BAD_AMOUNT,
        Code.BAD_DIE,
        Code.BAD_REASON,
    }
)
CODES_BY_NAME = {c.code: c for c in Code}


class InputCode(StrEnum):
    """The codes of refused inputs: to the dice derivation or a commitment, a reveal that does
    not match its commitment, and JSON text."""

    BAD_INPUT = "bad_input"
    BAD_JSON = "bad_json"
    BAD_REVEAL = "bad_reveal"
