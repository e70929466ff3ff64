"""Words for the seat's ledger: the history panel's lines and the balance chart's samples."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pointline.gui.betting import repeat_actions
from pointline.gui.texts import CALLOUT_NAMES
from pointline.kernel import (
    ENDING_WORDS,
    STARTING_POINTS,
    ActionKind,
    ContractChanged,
    Contracted,
    EndReason,
    Entry,
    Line,
    Outcome,
    Phase,
    Refunded,
    Settled,
    Table,
    ThrowSeen,
    Voided,
    row_for,
)

__all__ = [
    "DRAFT_HEADS",
    "LINE_NAMES",
    "MINUS",
    "OUTCOME_WORDS",
    "ThrowWords",
    "callout_words",
    "chart_samples",
    "draft_words",
    "end_reason",
    "entry_text",
    "history_rows",
    "is_draft_words",
    "line_flights",
    "line_outcomes",
    "reason_words",
    "repeat_text",
    "result_text",
    "settlement_words",
    "signed",
    "throw_words",
]

LINE_NAMES = {Line.PASS: "Pass", Line.DONT_PASS: "Don't Pass"}
OUTCOME_WORDS = {Outcome.WIN: "wins", Outcome.LOSS: "loses", Outcome.PUSH: "pushes"}


def reason_words(reason: EndReason) -> str:
    """Why a session ended without a result, as a clause ("a player left"): the kernel's one
    table of ending words (beside ``EndReason``), which the online endings word too."""
    return ENDING_WORDS[reason].clause


MINUS = "\u2212"
"""The one minus sign the table writes (felt, history, announcements): U+2212, not a hyphen."""


def signed(amount: int) -> str:
    """An amount with its sign: "+20", "\u221210", "0"."""
    if amount > 0:
        return f"+{amount:,}"
    return f"{MINUS}{abs(amount):,}" if amount < 0 else "0"


def history_rows(ledger: Iterable[Entry]) -> list[dict[str, str]]:
    """The ledger in words, a heading row (kind "hand") before each hand."""
    rows = []
    hand = 0
    for entry in ledger:
        if entry.hand != hand:
            hand = entry.hand
            rows.append({"kind": "hand", "text": f"Hand {hand}", "hand": str(hand)})
        kind, text = entry_text(entry)
        rows.append({"kind": kind, "text": text, "hand": str(hand)})
    return rows


def entry_text(entry: Entry) -> tuple[str, str]:
    """(kind, words) for one ledger entry."""
    if isinstance(entry, Contracted):
        if entry.pass_amount + entry.dont_pass_amount == 0:
            return "contract", "Sits out this hand (nothing on the lines)"
        return "contract", (
            f"Contracts: Pass {entry.pass_amount} · Don't Pass {entry.dont_pass_amount}"
        )
    if isinstance(entry, ContractChanged):
        return "change", (
            f"Before throw {entry.throw}: {LINE_NAMES[entry.line]} "
            f"{entry.before}\u00a0→\u00a0{entry.after}"  # no-break: never "10 → / 0"
        )
    if isinstance(entry, Refunded):
        return "refund", f"Withdrawal refund {entry.amount} (no profit)"
    if isinstance(entry, ThrowSeen):
        where = "come-out" if entry.phase is Phase.COME_OUT else f"point {entry.point}"
        return "throw", (
            f"Throw {entry.throw}: {entry.die1}\u00a0+\u00a0{entry.die2}\u00a0=\u00a0"
            f"{entry.total} ({where})"  # no-break spaces: a sum never wraps inside itself
        )
    if isinstance(entry, Settled):
        return entry.outcome.value, (
            f"{LINE_NAMES[entry.line]} {entry.contract} {OUTCOME_WORDS[entry.outcome]}: "
            f"{entry.returned} back ({signed(entry.net)})"
        )
    if isinstance(entry, Voided):
        return "void", (
            f"{LINE_NAMES[entry.line]} {entry.amount} void, returned: {reason_words(entry.reason)}"
        )
    raise TypeError(f"not a ledger entry: {entry!r}")


def settlement_words(entry: Settled) -> str:
    """A short announcement: "Pass wins 10", "Don't Pass pushes", "Pass loses 10"."""
    name = LINE_NAMES[entry.line]
    if entry.outcome is Outcome.PUSH:
        return f"{name} pushes, {entry.returned} back"
    return f"{name} {OUTCOME_WORDS[entry.outcome]} {abs(entry.net)}"


def chart_samples(entries: Iterable[Entry]) -> list[int]:
    """Points (balance plus contracts on the table) at the start and after every throw."""
    points = STARTING_POINTS
    samples = [points]
    for entry in entries:
        if isinstance(entry, Settled):
            points += entry.net
            samples[-1] = points
        elif isinstance(entry, ThrowSeen):
            samples.append(points)
    return samples


DRAFT_HEADS = ("Draft: ", "Prepared: ", "Nothing prepared: ")
"""How the draft's words (``draft_words``) begin, at come-out and at the point."""


def draft_words(table: Table, seat: int) -> str:
    """What the status line says after a change to the seat's draft (no throw yet)."""
    d, c = table.draft(seat), table.contracts(seat)
    come_out, prepared, nothing = DRAFT_HEADS
    if table.phase is Phase.POINT and d.dont_pass_amount < c.dont_pass_amount:
        back = c.dont_pass_amount - d.dont_pass_amount
        return (
            f"{prepared}Don't Pass {c.dont_pass_amount} → {d.dont_pass_amount}; "
            f"{back} comes back as a refund when you roll"
        )
    if table.phase is Phase.POINT:
        return f"{nothing}Roll keeps your contracts as they are"
    return f"{come_out}Pass {d.pass_amount}, Don't Pass {d.dont_pass_amount}"


def is_draft_words(text: str) -> bool:
    """Whether ``text`` is the words of a draft (``draft_words``): a newer draft may replace one
    a screen reader has not been given yet (Announcer.qml; issue 40: quick Space presses)."""
    return text.startswith(DRAFT_HEADS)


def line_flights(entries: tuple[Entry, ...]) -> dict[str, int]:
    """The chips that slide off each line after a throw (ChipFlights.qml draws them): a positive
    count goes back to the balance (a win with its profit, a push, a refund, a void), a negative
    one is a lost contract swept off the felt. A line with chips going back shows those."""
    back: dict[str, int] = {}
    swept: dict[str, int] = {}
    for entry in entries:
        if isinstance(entry, Refunded):
            back["dont_pass"] = back.get("dont_pass", 0) + entry.amount
        elif isinstance(entry, Settled) and entry.returned > 0:
            back[entry.line.value] = back.get(entry.line.value, 0) + entry.returned
        elif isinstance(entry, Settled):
            swept[entry.line.value] = swept.get(entry.line.value, 0) + entry.contract
        elif isinstance(entry, Voided):
            back[entry.line.value] = back.get(entry.line.value, 0) + entry.amount
    return {line: back.get(line) or -swept[line] for line in {*back, *swept}}


def line_outcomes(entries: tuple[Entry, ...]) -> dict[str, str]:
    """What each line shows on the felt after a throw: "+20", "−10", "push", "refund 10"."""
    out: dict[str, list[str]] = {}
    for entry in entries:
        if isinstance(entry, Refunded):
            out.setdefault("dont_pass", []).append(f"refund {entry.amount}")
        elif isinstance(entry, Settled):
            words = "push" if entry.outcome is Outcome.PUSH else signed(entry.net)
            out.setdefault(entry.line.value, []).append(words)
        elif isinstance(entry, Voided):
            out.setdefault(entry.line.value, []).append(f"{entry.amount} returned")
    return {line: " · ".join(words) for line, words in out.items()}


def callout_words(seen: ThrowSeen) -> str:
    """The callout over the felt once the dice land: the total and what it did, from the
    kernel's row for this throw ("7 — seven out, Don't Pass wins", "11 — Pass wins", "12 — craps,
    Pass loses, Don't Pass pushes", "Point is 4"): its name (``texts.CALLOUT_NAMES``), then the
    lines that won (every line's outcome when none won)."""
    row = row_for(seen.phase, ActionKind.THROW, seen.total, seen.point)
    name = CALLOUT_NAMES[row.when].format(total=seen.total, point=seen.point)
    settled = [
        (line, outcome)
        for line, outcome in (
            (Line.PASS, row.pass_outcome),
            (Line.DONT_PASS, row.dont_pass_outcome),
        )
        if outcome is not None
    ]
    said = [pair for pair in settled if pair[1] is Outcome.WIN] or settled
    # no-break spaces: a line's result never wraps inside itself on the felt ("Don't / Pass")
    decided = ", ".join(
        f"{LINE_NAMES[line]} {OUTCOME_WORDS[outcome]}".replace(" ", "\u00a0")
        for line, outcome in said
    )
    if not decided:
        return name
    return f"{name}, {decided}" if "—" in name else f"{name} — {decided}"


@dataclass(frozen=True)
class ThrowWords:
    """What is said about one throw: to screen readers, in the status line, on the felt."""

    dice: tuple[int, int]
    announcement: str
    status: str
    felt: str
    outcomes: list[Outcome]
    callout: str = ""
    """The callout over the felt once the dice land (``callout_words``)."""


def throw_words(table: Table, seat: int, entries: tuple[Entry, ...]) -> ThrowWords:
    """The words for a throw's new ledger ``entries`` (``table``: after the throw)."""
    words: list[str] = []
    short: list[str] = []
    outcomes: list[Outcome] = []
    dice = (0, 0)
    callout = ""
    # The dice first (what a listener waits for), then a refund this roll sealed, the results.
    refunded = [e for e in entries if isinstance(e, Refunded)]
    entries = tuple(e for e in entries if not isinstance(e, Refunded))
    throw_at = next((i for i, e in enumerate(entries) if isinstance(e, ThrowSeen)), -1)
    entries = entries[: throw_at + 1] + tuple(refunded) + entries[throw_at + 1 :]
    for entry in entries:
        if isinstance(entry, ThrowSeen):
            dice = (entry.die1, entry.die2)
            callout = callout_words(entry)
            words.append(f"Rolled {entry.die1} and {entry.die2}, total {entry.total}")
            short.append(f"Rolled {entry.total}")
        elif isinstance(entry, Settled):
            words.append(settlement_words(entry))
            short.append(settlement_words(entry))
            outcomes.append(entry.outcome)
        elif isinstance(entry, Refunded):  # sealed by this roll
            words.append(f"Don't Pass {entry.amount} refunded (no profit)")
            short.append(f"refund {entry.amount}")
    felt = ""
    if table.phase is Phase.POINT and not outcomes:
        felt = f"Point {table.point} is ON"
        words.append(f"Point {table.point} is on")
        short.append(f"point {table.point} is on")
    elif table.phase is Phase.COME_OUT and outcomes:
        words.append(
            f"Hand {table.hands_resolved} resolved; balance {table.balance(seat):,}; "
            f"come-out for hand {table.hand}"
        )
        felt = f"Hand {table.hands_resolved} resolved — place chips for hand {table.hand}"
    if table.phase is Phase.COMPLETE:
        words.append(f"Session complete: final points {table.balance(seat):,}")
    elif table.phase is Phase.ENDED:
        words.append("Session ended without a result")
    return ThrowWords(dice, ". ".join(words) + ".", ", ".join(short) + ".", felt, outcomes, callout)


def result_text(table: Table, seat: int) -> str:
    """The session's result in a sentence ("" while it has none)."""
    result = table.result
    if result is None:
        return ""
    final = result.final[seat]
    change = final - STARTING_POINTS
    verdict = "up" if change > 0 else "down" if change < 0 else "even"
    amount = f" {abs(change):,}" if change else ""
    return f"Final points {final:,} — {verdict}{amount} on the {STARTING_POINTS:,} you started with"


def end_reason(table: Table) -> str:
    """Why the session ended without a result ("" when it did not)."""
    return "" if table.ending is None else reason_words(table.ending.reason)


def repeat_text(table: Table, seat: int) -> str:
    """What Repeat last bet would place ("Pass 30 and Don't Pass 20 again (R)")."""
    plan = repeat_actions(table, seat)
    if not plan:
        return "Place the last hand's bet again (R)"
    amounts = {line: sum(a.amount for a in plan if a.line is line) for line in Line}
    parts = [f"{LINE_NAMES[line]} {amounts[line]}" for line in Line if amounts[line]]
    return f"{' and '.join(parts)} again (R)"
