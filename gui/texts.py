"""Every rules-bearing sentence the solo table shows, built from the kernel's constants and
its transition table (``TRANSITIONS``), as ``spec/RULES.md`` is rendered from it.

QML keeps no copy of a rule or a number: it reads these through ``bridge.texts``. Change a
constant or a row in ``pointline.kernel`` and Help, the lines' rules on the felt and the button
labels follow.
"""

from __future__ import annotations

from pointline.kernel import (
    HAND_LIMIT,
    HANDS_PER_SESSION,
    POINT_NUMBERS,
    STARTING_POINTS,
    THROW_CAP,
    TRANSITIONS,
    UNIT,
    ActionKind,
    Outcome,
    Phase,
    When,
)

__all__ = [
    "ACTION_LABELS",
    "CALLOUT_NAMES",
    "CLOSE_WORDS",
    "HELP_HTML",
    "LINE_RULES",
    "PAYS",
    "SOLO_WORDS",
    "TEXTS",
    "close_keys",
    "guide_step_words",
    "hosted_close_text",
    "keys_hint",
    "line_rule",
    "moment_reason",
    "sit_out_ask",
    "solo_close_text",
    "table_summary",
    "words_for_number",
]

_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


def words_for_number(n: int) -> str:
    return _NUMBER_WORDS.get(n, f"{n:,}")


def _either(numbers: list[int]) -> str:
    items = [str(n) for n in numbers]
    return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else items[0]


_TOTALS = range(2, 13)
_SOME_POINT = min(POINT_NUMBERS)


def _totals(phase: Phase, line: str, outcome: Outcome) -> list[int]:
    """The throw totals whose row in ``TRANSITIONS`` gives ``line`` the ``outcome``."""
    point = None if phase is Phase.COME_OUT else _SOME_POINT
    out: set[int] = set()
    for row in TRANSITIONS:
        if row.phase is not phase or row.kind is not ActionKind.THROW:
            continue
        got = row.pass_outcome if line == "pass" else row.dont_pass_outcome
        if got is outcome:
            out.update(t for t in _TOTALS if row.when.holds(t, point) and t != point)
    return sorted(out)


_CO = Phase.COME_OUT
PASS_WINS = _totals(_CO, "pass", Outcome.WIN)
PASS_LOSES = _totals(_CO, "pass", Outcome.LOSS)
DP_WINS = _totals(_CO, "dont_pass", Outcome.WIN)
DP_LOSES = _totals(_CO, "dont_pass", Outcome.LOSS)
DP_PUSHES = _totals(_CO, "dont_pass", Outcome.PUSH)
SEVEN_OUT = _totals(Phase.POINT, "pass", Outcome.LOSS)
"""The total that loses Pass on the point (7), besides the point itself winning it."""
POINTS = f"{STARTING_POINTS:,}"

HELP_HTML = (
    "<b>Allocate, then confirm and roll.</b> A point stays ON until that number or seven rolls. "
    "Pass locks; Don’t Pass may decrease before the next throw. Both pay 1:1 net.<br><br>"
    f"<b>Come-out:</b> Pass wins on {_either(PASS_WINS)} and loses on {_either(PASS_LOSES)}. "
    f"Don’t Pass wins on {_either(DP_WINS)}, loses on {_either(DP_LOSES)} and pushes on "
    f"{_either(DP_PUSHES)}. A {_either(sorted(POINT_NUMBERS))} sets the point.<br>"
    f"<b>Point:</b> the point before {_either(SEVEN_OUT)} wins Pass; {_either(SEVEN_OUT)} before "
    "the point wins Don’t Pass. Other totals change nothing.<br>"
    f"<b>Point phase:</b> Pass cannot change. Prepare a Don’t Pass reduction by {UNIT} or remove "
    "it; Roll seals and the reduced part comes back as a withdrawal refund with no profit. "
    "Nothing increases after sealing.<br>"
    f"<b>Session:</b> {words_for_number(HANDS_PER_SESSION)} resolved hands (a sat-out hand "
    f"counts), {POINTS} free fictional points, at most {HAND_LIMIT} a hand in units of {UNIT}; "
    "an empty confirm sits out and still rolls. "
    f"At most {THROW_CAP} throws, else no result.<br>"
    "<b>Dice:</b> before every throw each player commits to a fresh random number, sealed "
    "with their choices and shown only after everyone has committed; the dice are worked out "
    "from those numbers, so no one can choose them (solo practises the same way).<br><br>"
    "<b>Keys:</b> Arrows select the line · Tab / Shift+Tab visit legal buttons and the chips · "
    "on the table Space places the selected chip and Enter confirms at come-out (an empty "
    "confirm asks again: Enter twice sits out), Enter or Space rolls at the point · R repeats "
    "the last bet · a focused button takes Enter/Space · Backspace/Delete reset · Escape closes "
    "Help, else pauses/resumes · F1 Help · M mute.<br>"
    "<b>Focus:</b> buttons take the keyboard by Tab, never by a click or a tap, so Enter keeps "
    "its meaning (Confirm, Roll, the question asked); a click, Escape or a table key gives the "
    "keys back to the table; the footer says what Enter and Space do now.<br>"
    "<b>Touch:</b> pick a chip, tap a line to place it; tap or point at a dimmed button to hear "
    "why it is off; a tap on the felt shows a throw's result at once (it places nothing).<br>"
    "<b>Screen readers:</b> each change is spoken once, in the status line's words: the bet as "
    "you build it, each throw's dice and total, the point, each line's result and amount, "
    "refunds, the balance after each hand, pause and sound. A key for a dimmed button says why "
    "it is off. When the focus comes back to the table it says the hand, the phase, the point "
    "and the balance; Orca's Where Am I (Keypad Enter, or Orca+Enter on a laptop layout) reads "
    "them again as they were then (each change since was spoken as it came). Tried with Orca "
    "43 on Linux.<br><br>"
    "No money, purchases, paid entry, cash-out, tradable tokens or prizes."
)


def _list(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers))


PAYS = "pays\u00a01:1"
"""What a winning line pays, said on each line (the kernel's win returns the contract plus
the same amount as net); a no-break space keeps it on one line."""
LINE_RULES: dict[str, str] = {
    "passComeOut": f"Wins on {_list(PASS_WINS)} · loses on {_list(PASS_LOSES)}",
    "dontPassComeOut": (
        f"Wins on {_list(DP_WINS)} · loses on {_list(DP_LOSES)} · {_list(DP_PUSHES)} pushes"
    ),
    "passPoint": f"Wins on {{point}} before {_list(SEVEN_OUT)}",
    "dontPassPoint": f"Wins on {_list(SEVEN_OUT)} before {{point}}",
}
"""Each line's rule for the current phase, in words a player reads on the felt ({point}: the
point's number), from the kernel's transition table."""


def line_rule(line: str, phase: Phase, point: int = 0) -> str:
    """The rule the ``line`` ("pass" or "dont_pass") plays by now, with what it pays: "Wins on
    7, 11 · loses on 2, 3, 12 · pays 1:1"; on a point of 6, "Wins on 6 before 7 · pays 1:1"."""
    name = "pass" if line == "pass" else "dontPass"
    key = name + ("Point" if phase is Phase.POINT else "ComeOut")
    return LINE_RULES[key].replace("{point}", str(point)) + " · " + PAYS


TEXTS: dict[str, str] = {
    "helpHtml": HELP_HTML,
    # each line's rule now, with what it pays (QML puts the point's number for {point})
    **{"rule" + k[0].upper() + k[1:]: f"{v} · {PAYS}" for k, v in LINE_RULES.items()},
    "playAgain": "Play again",
    "reduce": f"Don't Pass −{UNIT}",
    "repeat": "Repeat last bet",
    # The card's word for placing a chip: the button says "Allocate 10", the guide "Allocate".
    "allocate": "Allocate",
    # The footer while a button has the focus: Space and Enter press it ({button}: its name).
    "focusKeys": "Space or Enter presses {button} · Tab moves on · Esc pauses · F1 help",
    # The footer while a card is open (issue 38, finding 6): what the keys do there, F1 is off.
    "keysGuide": "Space or Enter presses {button} · Tab moves on · Esc skips the guide",
    "keysPaused": "Space or Enter presses {button} · Esc resumes",
    "keysHelp": "Space or Enter presses {button} · Tab moves on · Esc closes Help",
    "keysAsk": "Space or Enter presses {button} · Tab moves on · Esc cancels",
    "keysStats": "Space or Enter presses {button} · Tab moves on · Esc closes Stats",
    "keysClose": "Space or Enter presses {button} · Tab moves on · Esc keeps playing",
    "keysNoButton": "the focused button",
    "reduceHint": f"Prepare a Don't Pass reduction of {UNIT}, refunded when you roll",
    "newSessionHint": f"Start again with {POINTS} free fictional points",
    "newSessionConfirmHint": f"End this session and start again with {POINTS} points",
    # The history as a list a screen reader walks (issue 40): its name says how long it is.
    "historyList": "History, {count} lines",
    # On a phone, relay addresses and file paths wait under an "Advanced" disclosure (issue 39);
    # its button shows the one or the other mark for closed and open.
    "advancedRelay": "Advanced: a relay by its address",
    "advancedRelayHint": "Show or hide the relay address, Sign in and Sign up",
    "advancedTranscript": "Advanced: where the transcript is",
    "advancedTranscriptHint": "Show or hide the transcript file's place on this device",
    "advancedClosed": "▾",
    "advancedOpen": "▴",
    "transcriptSaved": "Transcript saved on this device.",
}

ACTION_LABELS: dict[str, str] = {
    "allocate": "Allocate",
    "confirm": "Confirm",
    "sitOut": "Sit out",
    "reset": "Reset",
    "reduce": f"Don't Pass −{UNIT}",
    "remove": "Remove Don't Pass",
    "roll": "Roll",
    "repeat": "Repeat last bet",
    "chip": "Chip",
}
"""What each control is called on screen and in the reasons said for it."""

SOLO_WORDS: dict[str, str] = {
    "newSession": f"New session: {POINTS} free fictional points. Place chips, then confirm.",
    "revealing": "The dice are rolling: wait for the result.",
    "rolling": "The dice are rolling…",
    "landed": "The result is showing: tap the felt to go on.",
    "asking": "Answer the new-session question first.",
    "help": "Help is open: close it to play.",
    "paused": "Paused: press Escape or Resume to continue.",
    "pausedShort": "Paused.",
    "resumed": "Resumed.",
    "soundOn": "Sound on.",
    "soundOff": "Sound off.",
    "nothingToRepeat": "There is no earlier bet to repeat, or chips are already on the lines.",
    "handsResolved": f"{words_for_number(HANDS_PER_SESSION).capitalize()} hands resolved.",
    "chartComplete": "Points across the session's throws:",
    "chartEnded": (
        "The hand in flight was voided and returned with no profit. Points across the throws:"
    ),
    "historyEmpty": "Contracts, throws, settlements and refunds appear here.",
    "freeText": "Free fictional points, no prizes",
}
"""Solo sentences QML and the bridge show (QML keeps no literal of its own)."""


CALLOUT_NAMES: dict[When, str] = {
    When.NATURAL: "{total}",
    When.CRAPS: "{total} — craps",
    When.TWELVE: "{total} — craps",
    When.POINT_NUMBER: "Point is {total}",
    When.POINT_MADE: "{total} — point made",
    When.SEVEN_OUT: "{total} — seven out",
    When.NO_DECISION: "{total} — no decision, point {point} stays",
}
"""The callout over the felt once the dice land, by the kernel's row for the throw
(``kernel.rules.When``): its name for the total; ``gui.history.callout_words`` adds what the
row decided for the lines ("7 — seven out, Don't Pass wins", "Point is 4")."""


def moment_reason(landed: bool) -> str:
    """Why nothing can be played while a throw's result shows (its dice rolling, then landed)."""
    return SOLO_WORDS["landed" if landed else "revealing"]


def guide_step_words(step: int, steps: int, title: str, text: str) -> str:
    """What a screen reader says when the guide moves to a step (``step`` counted from 1)."""
    return f"Guide, step {step} of {steps}: {title}. {text}"


def sit_out_ask(mobile: bool) -> str:
    """What an empty Confirm's first press says: the second, deliberate press sits out."""
    again = "Tap Sit out again" if mobile else "Enter again"
    return f"Sit out this hand? {again} (the dice still roll)."


def table_summary(phase: Phase, hand: int, point: int, balance: int, on_lines: str = "") -> str:
    """The table's state in one sentence, after its name: what a screen reader says when the
    focus comes back to the table and what Orca's Where Am I reads (issue 40): "hand 2 of 5,
    come-out, balance 1,010"; at the point "hand 1 of 5, point 6 is on, Pass 10 on the lines,
    balance 990". ``on_lines``: the contracts in words ("" when none)."""
    if phase is Phase.COMPLETE:
        return f"session complete, balance {balance:,}"
    if phase is Phase.ENDED:
        return f"session ended without a result, balance {balance:,}"
    where = f"point {point} is on" if phase is Phase.POINT else "come-out"
    lines = f", {on_lines} on the lines" if on_lines else ""
    return f"hand {hand} of {HANDS_PER_SESSION}, {where}{lines}, balance {balance:,}"


def keys_hint(phase: Phase, mobile: bool, chip: int) -> str:
    """The footer's key hint for what the keys do now."""
    if mobile:
        if phase is Phase.COME_OUT:
            return "Pick a chip, tap a line"
        return "Tap Roll" if phase is Phase.POINT else f"Tap {TEXTS['playAgain']} to start again"
    if phase is Phase.COME_OUT:
        return (
            f"Arrows pick a line · Space allocates {chip} · R repeats · Enter confirms · "
            "Esc pauses · F1 help"
        )
    if phase is Phase.POINT:
        return "Enter or Space rolls · Arrows pick a line · Esc pauses · F1 help"
    return "New session starts again · F1 help"


TEXTS.update(
    {
        key: SOLO_WORDS[key]
        for key in ("freeText", "historyEmpty", "handsResolved", "chartComplete", "chartEnded")
    }
)


# ---- the close question (gui/close_question.py): one question, one set of words ------------
CLOSE_WORDS: dict[str, str] = {
    "title": "Close Pointline Table?",
    "keep": "Keep playing",
    "keepKey": "Keep playing (Esc)",
    "keepHint": "Cancel: the session goes on as it was",
    "confirm": "Close the app",
    "covering": "Answer the close question first.",
    "soloHint": "End this session and close; it is kept in Stats",
    "onlineHint": "Leave the table and close the app (a table you host closes with it)",
    "guest": "You are at a table in a session. Closing the app leaves it: the session ends for "
    "everyone without a result.",
}
"""The close question's words on every screen: its title, its two buttons ("keepKey" on a
desktop, where Escape is the same as Keep playing), what Close does on the solo table and
online, why nothing else can be pressed while it is asked, and the question a seat that does
not host is asked while its session runs ("guest")."""


def solo_close_text(thrown: bool) -> str:
    """The question on the solo table (``thrown``: the session has a throw, so it is kept in
    Stats)."""
    kept = " What you played so far is kept in Stats, as ended without a result." if thrown else ""
    return (
        "Close Pointline Table? This session ends now: a closed session is never resumed "
        f"when you come back.{kept} Keep playing goes back to the table."
    )


def hosted_close_text(seated: int, playing: bool = True) -> str:
    """The question before the host closes the app (``seated`` counts the host too;
    ``playing``: a session has started, else the guests wait in the room)."""
    guests = max(0, seated - 1)
    who = "1 guest is" if guests == 1 else f"{guests} guests are"
    if not playing:  # issue 41, finding 6: no session has started, so none ends
        return f"{who} in your room. Closing the app closes the table: they leave the room."
    return (
        f"{who} at your table. Closing the app closes the table: the session ends for "
        "everyone without a result."
    )


def close_keys(button: str) -> str:
    """The footer while the close question is open, on every screen: what Space, Enter and
    Escape do there (``button``: the focused button's name, "" when none has the focus)."""
    return TEXTS["keysClose"].replace("{button}", button or TEXTS["keysNoButton"])
