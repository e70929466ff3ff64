"""Words the online screens show: relay refusals, the casual-results notice, reasons."""

from __future__ import annotations

from pointline.kernel import EndReason

DEFAULT_RELAY = "ws://127.0.0.1:8765"

# `--scene` names rendered by gui.online.scenes (kept here so the CLI parser imports no net code).
ONLINE_SCENES = (
    "online-signin",
    "online-lobby",
    "online-table",
    "online-results",
    "online-ended",
)

CASUAL_NOTICE = (
    "Casual results, unverified: abort bias and collusion are possible; no trusted dealer; "
    "no ranked or anti-cheat claim."
)

FREE_POINTS = "Free fictional points · no money, no prizes"

# net.wire.ErrorCode values -> what the person reads.
REFUSALS: dict[str, str] = {
    "bad_credentials": "Wrong name or password.",
    "name_taken": "That name is taken: choose another name, or sign in if it is yours.",
    "signin_limited": "Too many sign-in attempts: wait a minute, then try again.",
    "rate_limited": "Too many requests: wait a moment, then try again.",
    "bad_token": "Your sign-in has expired: sign in again.",
    "no_room": "No room has that join code: check it with the person who created the room.",
    "room_full": "That room is full: a room holds at most 8 people.",
    "room_started": "That room has already started: nobody joins after the start.",
    "room_closed": "The room was closed.",
    "in_room": "You are already in a room: leave it first.",
    "duplicate_account": "This account is already in that room: one seat per account.",
    "duplicate_key": "That session key is already in the room.",
    "not_creator": "Only the person who created the room can start it.",
    "too_few": "A room starts with 2 to 8 people: wait for at least one more.",
    "not_in_room": "You are not in a room.",
    "closed": "The connection to the relay is closed.",
    "busy": "Still waiting for the relay's answer to the last request.",
}

REASON_TEXT: dict[EndReason, str] = {
    EndReason.THROW_CAP: "128 throws were reached before the fifth hand resolved",
    EndReason.DEPARTURE: "a player left the table",
    EndReason.BACKGROUND: "an app went to the background",
    EndReason.BAD_REVEAL: "a reveal did not match its commitment",
    EndReason.DEADLINE: "a deadline passed",
    EndReason.BAD_SIGNATURE: "a message had a bad signature",
    EndReason.REPLAY: "a message was replayed or out of order",
    EndReason.NON_MEMBER: "a message came from outside the room",
    EndReason.MALFORMED: "a message was malformed",
}


def refusal(code: str, message: str) -> str:
    """The sentence for a relay refusal (the relay's own message when we have none)."""
    return REFUSALS.get(code, message or code)


def unreachable(url: str, detail: str) -> str:
    return f"Cannot reach the relay at {url}: {detail}. Is it running (pointline-relay)?"
