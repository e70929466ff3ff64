"""The room's roster as the protocol reads it: seats 0..n-1, each a name and a session key.

The relay sends it in ``started`` (``roster_from_wire``) and signs it (``roster_signing_bytes``);
the transcript header holds it (``roster_to_document``). ``net.protocol._peer`` re-exports every
name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pointline.kernel import MAX_SEATS
from pointline.net.errors import RosterError
from pointline.net.protocol._keys import PUBLIC_KEY_BYTES, public_key_from_hex
from pointline.net.protocol._messages import canonical_json

__all__ = [
    "ROSTER_DOMAIN",
    "Member",
    "Roster",
    "check_roster",
    "roster_from_wire",
    "roster_signing_bytes",
    "roster_to_document",
]


@dataclass(frozen=True, slots=True)
class Member:
    """One seat of the roster the relay sends at the start."""

    seat: int
    name: str
    public_key: bytes


Roster = tuple[Member, ...]


def roster_from_wire(items: object) -> Roster:
    """A roster from the relay's ``started`` frame: ``[{"seat","name","session_key"}, ...]``."""
    if not isinstance(items, list):
        raise RosterError("the roster is a list")
    members: list[Member] = []
    for item in items:
        if not isinstance(item, dict) or not {"seat", "name", "session_key"} <= set(item):
            raise RosterError("each roster entry has seat, name and session_key")
        seat, name = item["seat"], item["name"]
        if type(seat) is not int or not isinstance(name, str):
            raise RosterError("a roster seat is an integer and a name a string")
        members.append(Member(seat, name, public_key_from_hex(item["session_key"])))
    roster = tuple(sorted(members, key=lambda m: m.seat))
    check_roster(roster)
    return roster


def roster_to_document(roster: Roster) -> list[dict[str, Any]]:
    return [{"seat": m.seat, "name": m.name, "public_key": m.public_key.hex()} for m in roster]


ROSTER_DOMAIN = b"pointline/roster/v1\x00"


def roster_signing_bytes(table_id: str, roster: Roster, host: str | None = None) -> bytes:
    """What the relay's ``roster_sig`` covers: the domain, then the canonical JSON of
    ``{"table_id", "roster"}`` (the roster as the transcript header writes it), binding each
    session key to an account name for that table. A hosted table's relay (a player's device)
    adds ``"host"``, the host's name, so the signature also says who vouches for the names; a
    relay that is not hosted signs exactly the bytes it always did."""
    document: dict[str, object] = {"table_id": table_id, "roster": roster_to_document(roster)}
    if host is not None:
        document["host"] = host
    return ROSTER_DOMAIN + canonical_json(document)


def check_roster(roster: Roster) -> None:
    """Seats 0..n-1 in order, 1..8 of them, distinct 32-byte keys; raises ``RosterError``."""
    if not isinstance(roster, tuple) or not 1 <= len(roster) <= MAX_SEATS:
        raise RosterError("a roster holds 1 to 8 members")
    for position, member in enumerate(roster):
        if not isinstance(member, Member) or member.seat != position:
            raise RosterError("roster seats are 0, 1, 2, ... in order")
        if not isinstance(member.public_key, bytes) or len(member.public_key) != PUBLIC_KEY_BYTES:
            raise RosterError("a member's public key is 32 bytes")
    if len({m.public_key for m in roster}) != len(roster):
        raise RosterError("two members share a public key")
