"""Words the online screens show: relay refusals, Help, key hints, seats, endings.

Every rule and every deadline here is built from the kernel's and the protocol's constants, so
QML keeps no copy of a rule or a number: it reads them through the bridge's properties.
No machine code (``bad_password``, ``session_over``) ever reaches a player: a code the table
below does not know gets a plain sentence of its own. The net layer is imported lazily: the
CLI's parser imports this module for the scene names and must not load the net code.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from pointline.kernel import (
    HAND_LIMIT,
    HANDS_PER_SESSION,
    ONLINE_SEATS_MAX,
    ONLINE_SEATS_MIN,
    POINT_NUMBERS,
    STARTING_POINTS,
    THROW_CAP,
    UNIT,
)

__all__ = [
    "AWAKE_REASON",
    "CASUAL_NOTICE",
    "CERTIFICATE_CHANGED",
    "DEFAULT_RELAY",
    "FIRST_VISIT",
    "FORGED",
    "FORGET_TABLE",
    "FREE_POINTS",
    "HELP_KEYS",
    "HELP_TOUCH",
    "HOST_ROSTER_WORDS",
    "HOST_VOUCHES",
    "KEY_HINTS",
    "KEY_HINTS_SHORT",
    "MAX_PEOPLE",
    "MIN_PEOPLE",
    "NAME_ADVICE",
    "NAME_HINT",
    "NEARBY_LIST",
    "NEARBY_NONE",
    "NO_RELAY_YET",
    "ONLINE_SCENES",
    "REFUSALS",
    "RELAY_LOST",
    "RELAY_NEARBY",
    "TRUSTED_NEW",
    "either",
    "forget_hint",
    "forgot_table",
    "help_html",
    "host_share",
    "host_vanished",
    "hosted_by",
    "nearby_relay_label",
    "other_version",
    "password_advice",
    "password_hint",
    "people",
    "refusal",
    "seat_label",
    "seconds",
    "sign_in_problem",
    "table_gone",
    "unreachable",
    "version_refusal",
    "who_is_in",
]

if TYPE_CHECKING:
    from pointline.net.protocol import Timeouts

DEFAULT_RELAY = "ws://127.0.0.1:8765"
MIN_PEOPLE = ONLINE_SEATS_MIN
MAX_PEOPLE = ONLINE_SEATS_MAX
"""An online room starts with 2 to 8 people: the kernel's one constant (the card: exactly 2-8)."""

# `--scene` names rendered by gui.tools.online_scenes (kept here: the CLI imports no net code).
ONLINE_SCENES = (
    "online-signin",
    "online-lobby",
    "online-table",
    "online-moment",
    "online-results",
    "online-ended",
    "online-host",
    "online-nearby",
)

CASUAL_NOTICE = (
    "Casual results, unverified: abort bias and collusion are possible; no trusted dealer; "
    "no ranked or anti-cheat claim."
)

FREE_POINTS = "Free fictional points · no money, no prizes"
AWAKE_REASON = "Playing at an online table"
"""What a desktop shows beside the app's name while the screen is kept on (gui/awake.py)."""

NAME_ADVICE = "Use a name of 3 to 24 letters, digits, hyphens or underscores, with no spaces."


@cache
def _account_rules() -> tuple[re.Pattern[str], int, int]:
    from pointline.net.protocol import MAX_PASSWORD, NAME_RULE
    from pointline.net.relay import MIN_PASSWORD

    return NAME_RULE, MIN_PASSWORD, MAX_PASSWORD


NAME_HINT = "3 to 24 letters, digits, - or _"


def seat_label(seat: int) -> str:
    """How a person reads a seat ("Seat 2" for protocol seat 1), as decided once in
    ``pointline.net.protocol._peer.seat_label`` (imported here lazily: see the module docstring)."""
    from pointline.net.protocol import seat_label as decided

    return decided(seat)


def password_hint() -> str:
    _, low, high = _account_rules()
    return f"{low} to {high:,} characters"


def password_advice() -> str:
    _, low, high = _account_rules()
    return f"Use a password of {low} to {high:,} characters."


RELAY_LOST = "the relay connection was lost"


def people(names: list[str]) -> str:
    """'you', 'you and bob', 'you, bob and chen' (a list as a sentence says it)."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def either(numbers: list[int]) -> str:
    items = [str(n) for n in numbers]
    return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else "".join(items)


def seconds(value: float) -> str:
    """45 -> '45 seconds', 600 -> '10 minutes'."""
    whole = round(value)
    if whole >= 120 and whole % 60 == 0:
        return f"{whole // 60} minutes"
    return f"{whole} second" if whole == 1 else f"{whole} seconds"


# net.protocol._wire.ErrorCode values (and the client's own codes) -> what the person reads.
REFUSALS: dict[str, str] = {
    "bad_name": NAME_ADVICE,
    "bad_credentials": "Wrong name or password.",
    "name_taken": "That name is taken: choose another name, or sign in if it is yours.",
    "signin_limited": "Too many sign-in attempts: wait a minute, then try again.",
    "rate_limited": "Too many requests: wait a moment, then try again.",
    "bad_token": "Your sign-in has expired: sign in again.",
    "not_signed_in": "Sign in first.",
    "no_room": "No room has that join code: check it with the person who created the room.",
    "room_full": f"That room is full: a room holds at most {MAX_PEOPLE} people.",
    "room_started": "That room has already started: nobody joins after the start.",
    "room_closed": "The room was closed: its creator left.",
    "in_room": "You are already in a room: leave it first.",
    "duplicate_account": "This account is already in that room: one seat per account.",
    "duplicate_key": "That session key is already in the room: leave and join again.",
    "not_creator": "Only the person who created the room can start it.",
    "too_few": f"A room starts with {MIN_PEOPLE} to {MAX_PEOPLE} people: wait for one more.",
    "not_in_room": "You are not in a room.",
    "not_started": "The room has not started yet.",
    "closed": "The connection to the relay is closed: sign in again.",
    "busy": "Still waiting for the relay's answer to the last request.",
    "bad_frame": "The relay did not understand that request: update the app, then try again.",
    "bad_key": "The relay refused this app's session key: leave and join again.",
    "bad_reply": "The relay answered something unexpected: try again.",
    "bad_roster": "The relay sent a roster this app cannot use: leave and try another room.",
    # connecting: the player's own words, never the command line's (no flags on a phone)
    "certificate": "This device does not trust the relay's certificate, so nothing was sent. "
    "Check the address with the person who runs the relay.",
    "bad_ca": "The certificate this app was given for the relay cannot be read: ask the person "
    "who runs the relay for it again.",
    "not_tls": "A trusted certificate needs a secure relay address: one that starts with wss://.",
}

NO_RELAY_YET = (
    "No relay yet? One person on your network runs the Pointline relay on a computer; type "
    "that computer's address above, for example ws://192.168.1.20:8765."
)


def refusal(code: str, message: str = "") -> str:
    """The sentence for a relay refusal; an unknown code gets a plain sentence, never the code."""
    del message  # the relay's own words are for logs: they may be terse or name a code
    if code == "bad_password":
        return password_advice()
    return REFUSALS.get(code, "The relay refused that request: try again in a moment.")


def sign_in_problem(name: str, password: str) -> str:
    """What is wrong with a name and password before anything is sent ("" when nothing)."""
    if not name.strip():
        return "Type your name first. " + NAME_ADVICE
    rule, low, high = _account_rules()
    if not rule.fullmatch(name):
        return NAME_ADVICE
    if not password:
        return "Type your password first. " + password_advice()
    if not low <= len(password) <= high:
        return password_advice()
    return ""


def unreachable(url: str, detail: str = "") -> str:
    del detail  # the socket's own words are for logs
    return (
        f"Cannot reach the relay at {url}. Check the address, and that the relay is running "
        "on that computer."
    )


def help_html(timeouts: Timeouts) -> str:
    """The online Help, built from the kernel's rules and these deadlines."""
    points = either(sorted(POINT_NUMBERS))
    return (
        f"<b>Online:</b> {MIN_PEOPLE} to {MAX_PEOPLE} people, each signed in on their own "
        "account and device, share the same dice. For every throw each seat commits its choice "
        "with a fresh secret; then everyone reveals, every app checks every reveal and derives "
        "the dice from all of them. Nobody deals; the relay only forwards signed messages.<br><br>"
        f"<b>Deadlines:</b> {seconds(timeouts.confirm)} to confirm or roll each throw, "
        f"{seconds(timeouts.response)} for the other apps' answers, "
        f"{seconds(timeouts.session)} for the session, {seconds(timeouts.receipts)} for the "
        "signed receipts. A missed deadline, a departure, an app going to the background or a "
        "bad message ends the session for everyone without a result; the unresolved hand is "
        "returned with no profit.<br><br>"
        "<b>Come-out:</b> Pass wins on 7 or 11 and loses on 2, 3 or 12; Don’t Pass wins on 2 or "
        f"3, loses on 7 or 11 and pushes on 12; a {points} sets the point.<br>"
        "<b>Point:</b> the point before seven wins Pass; seven before the point wins Don’t Pass. "
        "Other totals change nothing. Both winning lines pay 1:1 net.<br>"
        f"<b>Point phase:</b> Pass is locked; Don’t Pass may be reduced by {UNIT} or removed, "
        "refunded with no profit when you roll.<br>"
        f"<b>Session:</b> {HANDS_PER_SESSION} resolved hands, {STARTING_POINTS:,} free "
        f"fictional points each, at most {HAND_LIMIT} a hand in units of {UNIT}; at most "
        f"{THROW_CAP} throws. Highest final points wins; ties share a rank.<br><br>"
        "<b>Verification words:</b> four words from each member’s session key; read them out "
        "loud before the start.<br><br>"
        f"{CASUAL_NOTICE} Free fictional points only: no money, purchases or prizes."
    )


HELP_KEYS = (
    "<b>Keys:</b> Arrows select the line · Tab / Shift+Tab visit legal buttons and the chips · "
    "Space allocates the selected chip, R repeats the last bet, Enter confirms at come-out; "
    "Enter or Space roll at the point · "
    "Backspace/Delete reset · Escape closes Help (online nothing pauses) · F1 Help · M mute. "
    "Buttons take the keyboard by Tab, never by a click: at the table a click gives the keys "
    "back to the table, so Enter keeps its meaning. "
    "With a screen reader each change is spoken once; when the focus comes back to the table "
    "it says the hand, the phase, the point and the balance, and Orca's Where Am I (Keypad "
    "Enter, or Orca+Enter on a laptop layout) reads them again."
)
HELP_TOUCH = (
    "<b>Touch:</b> pick a chip, then tap a line to place it; Back closes Help, and at the "
    "table asks before you leave."
)

# The footer's key hints, per screen: only what works there (none on a phone).
KEY_HINTS: dict[str, str] = {
    "signin": "Tab moves between the fields and buttons · Enter signs in · F1 Help",
    "lobby": "Tab moves between the fields and buttons · Enter or Space presses the focused "
    "button · F1 Help",
    "table": "Arrows choose the line · Tab visits legal buttons · Space allocates the chip, R "
    "repeats, Enter confirms; Enter/Space roll at the point · Backspace/Delete reset · F1 Help "
    "(the countdown "
    "keeps running) · M mute. Going to the background ends the session for everyone.",
    "results": "Tab moves between the buttons · Enter or Space presses the focused button · "
    "F1 Help · M mute",
}

# The same in a few words, for a narrow window (a desktop window the width of a phone).
KEY_HINTS_SHORT: dict[str, str] = {
    "signin": "Tab moves · Enter signs in · F1 Help",
    "lobby": "Tab moves · Enter presses · F1 Help",
    "table": "Space allocates the chip · Enter confirms or rolls · F1 Help · M mute",
    "results": "Tab moves · Enter presses · F1 Help · M mute",
}


# ---- hosted tables (gui/online/host.py, gui/online/nearby.py): issue 32 ----------------------
HOST_VOUCHES = (
    "On a hosted table the host's device runs the relay: it cannot forge a die or a payment "
    "(every seat checks every reveal), but it makes the accounts and signs the roster, so the "
    "host vouches for the names. A host can also end a losing session by closing the table: "
    "it ends without a result, as any departure does."
)
"""What the host can and cannot do, said honestly (the lobby and the results of a hosted
table)."""
HOST_ROSTER_WORDS = (
    "Beside each name are that person's own four words, from their session key (not the "
    "table's certificate words): before you tap Start, each reads theirs out loud; if what "
    "someone reads differs from your screen, do not start. Nobody joins after the start."
)
"""The host screen's one explanation of the roster's words (issue 41, finding 11): a newcomer
sees two sets of words there, and this says which is which."""


def host_share(table: str) -> str:
    """The host screen's first line: where guests find the table and which words they compare
    (the certificate's, shown below it; a hosted table needs no join code)."""
    return (
        f"Friends on this Wi-Fi tap {table} under Tables nearby. Before they join, their "
        "screen shows the table's certificate words: these four, the same on every screen."
    )


def who_is_in(count: int, most: int) -> str:
    """The host screen's roster heading."""
    return f"Who is in ({count}/{most})"


NEARBY_NONE = "No tables nearby yet: a friend on this Wi-Fi taps Host a table."
RELAY_NEARBY = "A club's relay: sign in to it, then type the code of a room there."
"""Said when a club relay found nearby (``pointline-relay --announce``) is tapped (issue 41)."""


def other_version(theirs: int, ours: int) -> str:
    """A listed table of another protocol version, in plain words (issue 41: versions meet
    before any sign-in, never as a protocol error later)."""
    return "needs a newer app" if theirs > ours else "runs an older app"


def version_refusal(host: str, theirs: int, ours: int) -> str:
    """Said when such a table is tapped: nothing is sent to it."""
    if theirs > ours:
        return f"{host}'s table runs a newer Pointline: update this app to join it."
    return f"{host}'s table runs an older Pointline: {host} updates the app, then you can join."


FORGET_TABLE = "Forget"
"""The button beside a table whose sign-in this app keeps (issue 41: only it drops one)."""
NEARBY_LIST = "Tables nearby, {count} found"
"""The name of the tables-nearby list a screen reader walks (issue 40): how many it holds."""


def forget_hint(name: str) -> str:
    """What "Forget" beside ``name``'s table does."""
    return f"Forget this table's sign-in: next time {name} asks for your password once"


def forgot_table(name: str) -> str:
    """Said once the kept sign-in of ``name``'s table is gone."""
    return f"{name}: sign-in forgotten. Next time the table asks for your password once."


def table_gone(host: str) -> str:
    """A tapped table that no longer answers, or whose room is gone (issue 41)."""
    return f"{host} closed that table: it is no longer on this Wi-Fi's list."


def host_vanished(host: str) -> str:
    """A guest's line when a hosted table's connection is lost with no word from it (the host's
    app killed, its device off the Wi-Fi): not "sign in again", which a guest never did."""
    return (
        f"{host}'s table stopped answering (its app closed or left the Wi-Fi). When it is back "
        "under Tables nearby, tap it to sit down again."
    )


def nearby_relay_label(name: str, rooms: int) -> str:
    """A club relay's row in Tables nearby: its name and the open rooms it announces."""
    return f"{name} · {'1 open room' if rooms == 1 else f'{rooms} open rooms'}"


FIRST_VISIT = "First visit: check that the host's screen shows these four words before you join."
CERTIFICATE_CHANGED = (
    "This table's certificate changed. Its new words are below: trust it only if the host's "
    "screen shows the same words (a reinstalled app makes a new certificate)."
)
TRUSTED_NEW = (
    "New certificate trusted. The sign-in this app kept was for the old one, so type your "
    "password once to join."
)
"""Said after "Trust the new certificate" (issue 41, finding 11: it said "First visit" and asked
for the password with no reason)."""
FORGED = (
    "This table does not show the certificate it announces: it was not joined and nothing "
    "was trusted."
)


def hosted_by(host: str, me_host: bool) -> str:
    """The lobby's and the results' line on a hosted table."""
    if me_host:
        return f"You host this table. {HOST_VOUCHES}"
    return f"{host} hosts this table. {HOST_VOUCHES}"
