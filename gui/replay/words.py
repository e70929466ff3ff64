"""Every word the replay screen shows, decided here once (QML keeps no literal of its own).

The derivation lines only put the kernel's trace (``kernel.DiceTrace``) into words: no hash is
computed here. Text from a file (names, table ids) goes through ``escaped`` first: control
characters become visible escapes, and QML shows it as plain text, never as markup.
"""

from __future__ import annotations

import unicodedata

from pointline.gui.replay.model import ReplayThrow, Session
from pointline.kernel import DiceTrace
from pointline.kernel.dice import ACCEPT_BELOW

__all__ = [
    "REPLAY_TEXTS",
    "derivation_lines",
    "escaped",
    "player_row",
    "seat_name",
    "sum_words",
    "throw_title",
]

REPLAY_TEXTS: dict[str, str] = {
    "title": "Watch again",
    "verdictHeading": "What the check proves",
    "play": "Play",
    "pause": "Pause",
    "back": "Back",
    "forward": "Next",
    "first": "Start",
    "last": "End",
    "leave": "Leave replay",
    "howMade": "How were these dice made?",
    "howMadeShort": "Dice?",
    "nextHand": "Jump to the next hand",
    "closePanel": "Close",
    "hand": "Hand",
    "history": "History",
    "timeline": "Throws",
    "noThrows": "No throw to show.",
    "beforeFirst": "Before the first throw.",
    "refused": "This is a replay: nothing can be played or sent.",
    "keys": "Left/Right step · Space plays · Home/End · Esc pauses · F1 help",
    "keysNoThrows": "No throw to step through · Enter leaves · Esc pauses · F1 help",
    "keysPaused": "Space or Enter presses the chosen button · Tab moves on · Esc resumes",
    "keysMobile": "Tap Next or a throw on the timeline",
    "help": (
        "A replay plays a saved session again, throw by throw, through the same rules as play. "
        "Left and Right step one throw, Space plays or pauses, Home and End jump to the ends, "
        "Tab visits the replay's controls, Escape pauses (Leave replay is on the pause card), "
        "M mutes. Nothing is sent anywhere."
    ),
    "pausedTitle": "Paused",
    "pausedText": "Nothing moves until you resume (Escape or Resume).",
    "pausedTextMobile": "Nothing moves until you resume.",
    "resume": "Resume",
    "resumeHint": "Go on watching from this throw",
    "historyHint": "Every throw, contract and refund of this seat",
    "solo": "Solo session",
    "notKeptTitle": "No replay kept",
}
"""The replay screen's labels and sentences."""

NBSP = "\u00a0"
"""Between the parts of a sum: a sum never wraps inside itself ("4 + 4 / = 8")."""

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def escaped(text: str) -> str:
    """``text`` with every control character, line separator and bidirectional mark written
    as a visible ``\\u{XXXX}`` escape (a name may hold anything; it never forges a line)."""
    out = []
    for char in text:
        if unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in _BIDI:
            out.append(f"\\u{{{ord(char):04X}}}")
        else:
            out.append(char)
    return "".join(out)


def seat_name(session: Session, seat: int) -> str:
    name = session.names[seat] if 0 <= seat < session.seats else ""
    return f"Seat {seat + 1} {escaped(name)}".rstrip()


def player_row(session: Session, step: int, seat: int) -> dict[str, object]:
    """One seat at ``step`` as the players list shows it (its seat view's balance and the
    contracts that throw decided)."""
    view = session.view(step, seat)
    # each line's name held to its amount (a narrow phone never leaves "Don't Pass" at the end
    # of one line and its "0" alone on the next)
    return {
        "you": seat == session.me,
        "text": (
            f"{seat_name(session, seat)}: {view.balance:,} · Pass{NBSP}{view.contractPass:,} · "
            f"Don't{NBSP}Pass{NBSP}{view.contractDontPass:,}"
        ),
        "balance": view.balance,
    }


def throw_title(session: Session, step: int) -> str:
    if not session.throws:
        return REPLAY_TEXTS["noThrows"]
    if step <= 0:
        return REPLAY_TEXTS["beforeFirst"]
    throw = session.throws[step - 1]
    title = f"Throw {throw.throw} of {len(session.throws)} · hand {throw.hand} · " + sum_words(
        throw.trace.die1, throw.trace.die2
    )
    if throw.recorded is not None:  # a FAIL's throw: the file's dice beside the derived ones
        first, second = throw.recorded
        title += f" derived · the file says {first} and {second}"
    return title


def sum_words(die1: int, die2: int) -> str:
    """``4 + 4 = 8`` held together on one line (no-break spaces)."""
    return f"{die1}{NBSP}+{NBSP}{die2}{NBSP}={NBSP}{die1 + die2}"


def _short(data: bytes) -> str:
    text = data.hex()
    return text if len(text) <= 16 else f"{text[:8]}…{text[-8:]}"


def derivation_lines(session: Session, throw: ReplayThrow) -> list[dict[str, str]]:
    """RULES.md's dice derivation on this throw's real numbers, one row per step
    (``kind`` "seat", "seed", "block", "byte", "rejected" or "dice"; ``text`` the words;
    ``full`` the whole hex value for a reader who wants it)."""
    trace: DiceTrace = throw.trace
    rows: list[dict[str, str]] = []
    for reveal in throw.reveals:
        committed = _short(reveal.commitment) if reveal.commitment is not None else "none kept"
        check = "matches its commitment" if reveal.commitment_ok else "does NOT match"
        choice = reveal.choice
        rows.append(
            {
                "kind": "seat",
                "text": (
                    f"{seat_name(session, reveal.seat)}: committed {committed}, then revealed "
                    f"nonce {_short(reveal.nonce)} and Pass {choice.pass_amount}, Don't Pass "
                    f"{choice.dont_pass_amount}: {check}"
                ),
                "full": reveal.nonce.hex(),
            }
        )
    rows.append(
        {
            "kind": "seed",
            "text": (
                f"Seed = SHA-256(dice domain, version {trace.version}, table "
                f"{escaped(trace.table_id)}, throw {trace.throw_index}, "
                f"{len(trace.nonces)} nonce{'s' if len(trace.nonces) != 1 else ''}) = "
                f"{_short(trace.seed)}"
            ),
            "full": trace.seed.hex(),
        }
    )
    for k, block in enumerate(trace.blocks):
        rows.append(
            {
                "kind": "block",
                "text": f"Block {k} = SHA-256(seed, {k}) = {_short(block)}",
                "full": block.hex(),
            }
        )
    for byte in trace.read:
        where = f"Block {byte.block} byte {byte.position}: {byte.value}"
        if byte.face is None:
            text = f"{where} is {ACCEPT_BELOW} or more: rejected (no face is favoured)"
        else:
            # the sum held on one line, as every sum is ("15 mod 6 + 1 = 4")
            held = NBSP.join(("→", str(byte.value), "mod", "6", "+", "1", "=", str(byte.face)))
            text = f"{where} {held}: accepted"
        kind = "rejected" if byte.face is None else "byte"
        rows.append({"kind": kind, "text": text, "full": f"{byte.value:02x}"})
    rows.append(
        {
            "kind": "dice",
            "text": (
                f"The dice: {trace.die1} and {trace.die2} ({trace.rejected} byte"
                f"{'s' if trace.rejected != 1 else ''} rejected)"
            ),
            "full": "",
        }
    )
    return rows
