"""The relay cases (HARNESS.md, "The relay cases"): each checks one or more sentences of
ONLINE.md §9 against a running relay, with real websocket clients — raw ones that send exact
frames, and reference peers (``RelayClient``) that play whole sessions. A case returns None when
the relay did what §9 says, else why not, in one line.

Every case starts from nothing: its own sign-ups (names made unique by the case's tag), its own
room, its own sockets, all closed at its end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import string
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from pointline.conformance.errors import ConformanceCode, ConformanceError
from pointline.kernel import ONLINE_SEATS_MAX
from pointline.net.client._relay_client import RelayClient
from pointline.net.client._verify_command import verify_transcript
from pointline.net.protocol._keys import public_key_from_hex, verify_signature
from pointline.net.protocol._peer import Timeouts
from pointline.net.protocol._roster import roster_from_wire, roster_signing_bytes
from pointline.net.protocol._wire import CODE_ALPHABET, CODE_LENGTH

__all__ = [
    "MAX_CONNECTIONS",
    "RELAY_CASES",
    "SEND_TIMEOUT",
    "SIGNIN_DEADLINE",
    "RelayCase",
    "Setting",
]

PASSWORD: Final = "relay-harness-password"
SIGNIN_DEADLINE: Final = 2.0
"""The test profile's sign-in deadline (HARNESS.md): a relay started with ``--test-profile``
closes a socket that has not signed in 2 s after it connected."""
SEND_TIMEOUT: Final = 1.0
"""The test profile's send timeout: a reader whose socket has not taken a frame for 1 s is cut."""
MAX_CONNECTIONS: Final = 64
"""The test profile's cap on open sockets in total (counted from accept)."""
AUTH_PER_CONNECTION: Final = 10
"""Sign-up/sign-in/password checks per connection per window (the default)."""
FAILURES_PER_NAME: Final = 5
"""Failed sign-ins per (name, address) per window (the default)."""
WAIT: Final = 5.0
"""How long a case waits for one frame it is owed (the test profile's relay answers at once)."""
BURST: Final = 200
"""Frames a connection may send at once (ONLINE.md §9: bursts of twice 100/s)."""
RATE: Final = 100.0
"""Frames a second a connection may send, sustained (the bucket's refill)."""
CONCLUSIVE: Final = 0.9
"""Seconds within which ``BURST - 1`` answered frames prove a burst above ``RATE`` (a bucket of
``RATE`` answers at most ``RATE + RATE × 0.9`` = 190 frames in that time)."""
FLOODS: Final = 4
"""Floods of the rate case at most, while each takes ``CONCLUSIVE`` s or more to show."""
MAX_FRAME: Final = 64 * 1024
SESSION_TIMEOUTS: Final = Timeouts(confirm=10.0, response=5.0, session=60.0, receipts=5.0)


@dataclass(frozen=True, slots=True)
class Setting:
    """What a case knows of the relay under test."""

    url: str
    relay_key: str  # the first line of its standard output
    tag: str  # unique per case and run: account names are built from it
    folder: Path  # for the reference peers' transcripts
    restart: Callable[[], Awaitable[str]] | None = None
    """Stop the relay and start it again on the same port and data folder: the key it prints
    (only for a case that runs alone)."""


class Refused(ConformanceError):
    """A case's finding: the relay broke a sentence of §9 (the text says which)."""

    default_code = ConformanceCode.RELAY_REFUSED


class Raw:
    """One websocket speaking exact frames."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.next_id = 1

    @classmethod
    async def open(cls, url: str) -> Raw:
        return cls(await connect(url, max_size=None, compression=None, open_timeout=WAIT))

    async def send(self, doc: dict[str, Any] | str | bytes) -> None:
        """A text frame (``bytes``: a binary frame, as is)."""
        await self.ws.send(doc if isinstance(doc, str | bytes) else json.dumps(doc))

    async def request(self, doc: dict[str, Any]) -> dict[str, Any]:
        """Send ``doc`` with the next id; the frame that answers it (it must carry that id)."""
        rid = self.next_id
        self.next_id += 1
        await self.send({**doc, "id": rid})
        got = await self.recv()
        if got.get("id") != rid:
            raise Refused(f"{doc['op']} (id {rid}) was answered by {_short(got)}")
        return got

    async def recv(self, wait: float = WAIT) -> dict[str, Any]:
        try:
            text = await asyncio.wait_for(self.ws.recv(), wait)
        except TimeoutError:
            raise Refused(f"no frame within {wait:g} s") from None
        except ConnectionClosed as exc:
            raise Refused(f"the relay closed the connection ({exc.rcvd})") from None
        if not isinstance(text, str):
            raise Refused("a binary frame from the relay")
        doc = json.loads(text)
        if not isinstance(doc, dict):
            raise Refused(f"a frame that is not an object: {text[:80]}")
        return doc

    async def quiet(self, wait: float = 0.3) -> None:
        """Nothing arrives within ``wait`` seconds."""
        try:
            text = await asyncio.wait_for(self.ws.recv(), wait)
        except (TimeoutError, ConnectionClosed):
            return
        raise Refused(f"an unexpected frame: {str(text)[:120]}")

    async def close(self) -> None:
        await self.ws.close()


def _short(doc: dict[str, Any]) -> str:
    return json.dumps(doc)[:160]


def expect(doc: dict[str, Any], op: str, **fields: Any) -> dict[str, Any]:
    """``doc`` must be ``op`` with these field values (``code`` for an error)."""
    if doc.get("op") != op or any(doc.get(k) != v for k, v in fields.items()):
        want = ", ".join([op, *(f"{k}={v!r}" for k, v in fields.items())])
        raise Refused(f"expected {want}; got {_short(doc)}")
    return doc


class Scene:
    """The sockets of one case (all closed at its end)."""

    def __init__(self, setting: Setting) -> None:
        self.setting = setting
        self.sockets: list[Raw] = []
        self.count = 0
        self.code = ""  # the last room's code

    async def raw(self) -> Raw:
        sock = await Raw.open(self.setting.url)
        self.sockets.append(sock)
        return sock

    async def member(self) -> tuple[Raw, str, str]:
        """A signed-up socket: (socket, token, name)."""
        self.count += 1
        name = f"{self.setting.tag}m{self.count}"
        sock = await self.raw()
        got = await sock.request({"op": "signup", "name": name, "password": PASSWORD})
        expect(got, "signed_in", name=name)
        return sock, str(got["token"]), name

    async def room(self, size: int, start: bool) -> list[tuple[Raw, str, str]]:
        """``size`` members in one room (seat i = the list's i-th), started or not; every frame
        before the start read."""
        members = [await self.member() for _ in range(size)]
        creator, token, _ = members[0]
        made = expect(
            await creator.request({"op": "create_room", "token": token, "session_key": _key(0)}),
            "room",
            seat=0,
        )
        self.code = str(made["code"])
        for seat, (sock, tok, _) in enumerate(members[1:], start=1):
            doc = {"op": "join_room", "token": tok, "code": made["code"], "session_key": _key(seat)}
            expect(await sock.request(doc), "room", seat=seat)
            for earlier, _, _ in members[:seat]:
                expect(await earlier.recv(), "roster", code=made["code"])
        if start:
            expect(await creator.request({"op": "start", "token": token}), "started", seat=0)
            for seat, (sock, _, _) in enumerate(members[1:], start=1):
                got = expect(await sock.recv(), "started", seat=seat)
                if "id" in got:
                    raise Refused(f"the started of seat {seat} carries an id (it asked nothing)")
        return members

    async def close(self) -> None:
        for sock in self.sockets:
            with contextlib.suppress(TimeoutError, ConnectionClosed, OSError):
                await asyncio.wait_for(sock.close(), 2.0)


def _key(seat: int) -> str:
    return f"{seat + 1:x}" * 64


# ------------------------------------------------------------------------------ the cases


async def signup_names_the_printed_key(scene: Scene) -> None:
    """§9 `signed_in` carries the relay's key; HARNESS.md: the key printed on the first line."""
    sock = await scene.raw()
    name = f"{scene.setting.tag}k"
    got = await sock.request({"op": "signup", "name": name, "password": PASSWORD})
    expect(got, "signed_in", name=name, relay_key=scene.setting.relay_key)
    if not isinstance(got.get("token"), str) or not got["token"]:
        raise Refused(f"signed_in without a token: {_short(got)}")
    again = await sock.request({"op": "signin", "name": name.upper(), "password": PASSWORD})
    expect(again, "signed_in", relay_key=scene.setting.relay_key)


async def bad_frames_are_answered_and_keep_the_connection(scene: Scene) -> None:
    """§9: missing or extra fields, non-JSON, an unknown op, a duplicate member, a number too
    large for a double → `bad_frame` (with the id when the id was valid); the connection stays."""
    sock = await scene.raw()
    for text, want_id in (
        ("not json", None),
        ('{"op":"fly","id":11}', 11),
        ('{"op":"signup","name":"abcdef","id":12}', 12),
        ('{"op":"signup","name":"abcdef","password":"x","extra":1,"id":13}', 13),
        ('{"op":"signup","name":"abc","name":"abcdef","password":"pw123456"}', None),
        ('{"op":"send","payload":{"n":1e400}}', None),
        ('{"op":"leave","id":1.5}', None),
        ('{"op":"leave","id":9007199254740992}', None),
    ):
        await sock.send(text)
        got = expect(await sock.recv(), "error", code="bad_frame")
        if got.get("id") != want_id:
            raise Refused(f"the bad_frame for {text} carries id {got.get('id')!r}, not {want_id}")
    await sock.send(b'{"op":"leave","id":15}')  # a binary frame
    expect(await sock.recv(), "error", code="bad_frame")
    name = f"{scene.setting.tag}b"
    expect(await sock.request({"op": "signup", "name": name, "password": PASSWORD}), "signed_in")


async def a_request_with_a_bad_token_changes_nothing(scene: Scene) -> None:
    """§9 R4: a room request with a token that is not live → `bad_token`, with the request's
    id; the token is checked after the frame's own form (R1), of which the session key's form
    (`bad_key`) is part, and before anything else."""
    sock = await scene.raw()
    doc = {"op": "create_room", "token": "not-a-token", "session_key": _key(0)}
    expect(await sock.request(doc), "error", code="bad_token")
    badly = {"op": "join_room", "token": "not-a-token", "code": "ZZZZZZ", "session_key": "AB" * 32}
    expect(await sock.request(badly), "error", code="bad_key")
    nowhere = {"op": "join_room", "token": "not-a-token", "code": "ZZZZZZ", "session_key": _key(0)}
    expect(await sock.request(nowhere), "error", code="bad_token")  # not no_room
    member, token, _ = await scene.member()
    expect(await member.request({"op": "start", "token": token}), "error", code="not_in_room")


async def a_room_fills_in_join_order_and_the_creator_hears_of_each(scene: Scene) -> None:
    """§9 `create_room` → `room` seat 0 with a 6-character code; `join_room` → `room`; the
    others get `roster`; a session key is 64 lowercase hex digits (`bad_key`)."""
    await scene.room(3, start=False)
    probe, ptoken, _ = await scene.member()
    bad = {"op": "create_room", "token": ptoken, "session_key": "AB" * 32}
    expect(await probe.request(bad), "error", code="bad_key")
    made = await probe.request({"op": "create_room", "token": ptoken, "session_key": _key(5)})
    code = expect(made, "room", seat=0)["code"]
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        raise Refused(f"the room code {code!r} is not {CODE_LENGTH} of {CODE_ALPHABET}")
    roster = made.get("roster")
    if roster != [{"seat": 0, "name": made["creator"], "session_key": _key(5)}]:
        raise Refused(f"a new room's roster is {roster!r}")
    again = {"op": "create_room", "token": ptoken, "session_key": _key(6)}
    expect(await probe.request(again), "error", code="in_room")


async def joins_are_refused_by_their_rules(scene: Scene) -> None:
    """§9: `no_room`, `duplicate_account`, `duplicate_key`, `not_creator`, `too_few` (a room
    starts with 2..8 members), `room_started`; R5's order: a started room's seated account
    joining again is `room_started`, not `duplicate_account`."""
    (creator, ctoken, _), (second, stoken, _) = await scene.room(2, start=False)
    made = await scene.member()
    third, ttoken, _ = made
    code = scene.code
    lone_code = "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"
    expect(
        await third.request(
            {"op": "join_room", "token": ttoken, "code": lone_code, "session_key": _key(2)}
        ),
        "error",
        code="no_room",
    )
    twice = {"op": "join_room", "token": stoken, "code": code, "session_key": _key(4)}
    other, _, _ = await scene.member()
    twin = await other.request({"op": "signin", "name": made[2], "password": PASSWORD})
    expect(twin, "signed_in")
    same_key = {"op": "join_room", "token": twin["token"], "code": code, "session_key": _key(1)}
    expect(await other.request(same_key), "error", code="duplicate_key")
    expect(await second.request(twice), "error", code="in_room")
    dup = await scene.raw()
    signed = await dup.request(
        {"op": "signin", "name": f"{scene.setting.tag}m2", "password": PASSWORD}
    )
    dup_join = {"op": "join_room", "token": signed["token"], "code": code, "session_key": _key(7)}
    expect(await dup.request(dup_join), "error", code="duplicate_account")
    expect(await second.request({"op": "start", "token": stoken}), "error", code="not_creator")
    expect(await creator.request({"op": "start", "token": ctoken}), "started", seat=0)
    late = {"op": "join_room", "token": ttoken, "code": code, "session_key": _key(3)}
    expect(await third.request(late), "error", code="room_started")
    again = {**dup_join, "session_key": _key(8)}  # a seated account, a started room
    expect(await dup.request(again), "error", code="room_started")
    alone, atoken, _ = await scene.member()
    expect(
        await alone.request({"op": "create_room", "token": atoken, "session_key": _key(0)}),
        "room",
    )
    expect(await alone.request({"op": "start", "token": atoken}), "error", code="too_few")


async def a_room_holds_at_most_eight(scene: Scene) -> None:
    """§9: 2..8 members; the ninth join → `room_full`."""
    await scene.room(ONLINE_SEATS_MAX, start=False)
    code = scene.code
    ninth, token, _ = await scene.member()
    join = {"op": "join_room", "token": token, "code": code, "session_key": _key(9)}
    expect(await ninth.request(join), "error", code="room_full")


async def the_roster_is_signed_over_the_transcript_bytes(scene: Scene) -> None:
    """§9 "Roster signature": `started` carries the same `table_id` and `roster_sig` to every
    member, the signature verifying under the printed key over `roster_signing_bytes`; the
    creator's answer carries its request's id, the others' none."""
    members = await scene.room(3, start=False)
    creator, token, _ = members[0]
    first = expect(await creator.request({"op": "start", "token": token}), "started", seat=0)
    others = [
        expect(await s.recv(), "started", seat=i + 1) for i, (s, _, _) in enumerate(members[1:])
    ]
    for doc in others:
        if (doc.get("table_id"), doc.get("roster_sig")) != (first["table_id"], first["roster_sig"]):
            raise Refused("the members got different table ids or signatures")
        if "id" in doc:
            raise Refused("a started sent to a member who asked nothing carries an id")
    names = [m[2] for m in members]
    roster = first.get("roster")
    want = [{"seat": i, "name": n, "session_key": _key(i)} for i, n in enumerate(names)]
    if roster != want:
        raise Refused(f"the started roster is {roster!r}")
    signed = roster_signing_bytes(first["table_id"], roster_from_wire(roster), first.get("host"))
    key = public_key_from_hex(scene.setting.relay_key)
    try:
        signature = bytes.fromhex(first["roster_sig"])
    except (TypeError, ValueError):
        raise Refused(f"roster_sig is not hex: {first.get('roster_sig')!r}") from None
    if not verify_signature(key, signature, signed):
        raise Refused("roster_sig does not verify under the printed key over the roster bytes")


async def a_send_reaches_the_others_unchanged_and_never_the_sender(scene: Scene) -> None:
    """§9: a `send` payload reaches every other present member as `deliver` with the sender's
    seat as `from_seat`, the payload unchanged, never the sender."""
    members = await scene.room(3, start=True)
    sender = members[1][0]
    payload = {"kind": "commit", "z": [1, 2.5, "é\u2028"], "a": {"nested": True}}
    await sender.send({"op": "send", "payload": payload})
    for seat in (0, 2):
        got = expect(await members[seat][0].recv(), "deliver", from_seat=1)
        if got.get("payload") != payload or list(got["payload"]) != list(payload):
            raise Refused(f"seat {seat} got the payload changed: {_short(got)}")
    expect(await sender.request({"op": "fly"}), "error", code="bad_frame")  # nothing before it


async def a_send_before_the_start_or_outside_a_room_is_forwarded_to_nobody(scene: Scene) -> None:
    """§9: `send` before `start` → `not_started`; outside a room → `not_in_room`; in both
    cases nobody gets a `deliver`."""
    members = await scene.room(2, start=False)
    joiner = members[1][0]
    await joiner.send({"op": "send", "payload": {"early": 1}})
    await joiner.send({"op": "fly", "id": 901})  # answered after the send's refusal
    expect(await joiner.recv(), "error", code="not_started")
    expect(await joiner.recv(), "error", code="bad_frame", id=901)
    stranger, _, _ = await scene.member()
    await stranger.send({"op": "send", "payload": {"stray": 1}})
    await stranger.send({"op": "fly", "id": 902})
    expect(await stranger.recv(), "error", code="not_in_room")
    expect(await stranger.recv(), "error", code="bad_frame", id=902)
    await members[0][0].quiet()


async def departures_are_announced(scene: Scene) -> None:
    """§9 `leave`: in a started room the others get `departed` (seat, name), also when the
    socket just closes; in an open room the others get `roster`, and `room_closed` when the
    creator left."""
    members = await scene.room(3, start=True)
    await members[2][0].close()
    for seat in (0, 1):
        expect(await members[seat][0].recv(), "departed", seat=2, name=members[2][2])
    await members[1][0].send({"op": "leave"})
    expect(await members[0][0].recv(), "departed", seat=1, name=members[1][2])
    waiting = await scene.room(3, start=False)
    await waiting[1][0].send({"op": "leave"})
    roster = expect(await waiting[0][0].recv(), "roster")
    if [e.get("name") for e in roster.get("roster", [])] != [waiting[0][2], waiting[2][2]]:
        raise Refused(f"after a leave the roster is {roster.get('roster')!r}")
    expect(await waiting[2][0].recv(), "roster")
    await waiting[0][0].send({"op": "leave"})
    closed = expect(await waiting[2][0].recv(), "error", code="room_closed")
    if "id" in closed:
        raise Refused("room_closed carries an id")


async def a_dropped_seat_is_held_and_taken_back_with_what_it_missed(scene: Scene) -> None:
    """§9 "A blip is not a departure" R12-R14: a member of a started room whose socket drops
    without a close frame is not announced; `resume` on a new socket takes its seat back,
    answered `resumed` with the number of its sends the relay took, then the deliveries it
    missed, in order; the seat is the new socket's; a resume for a seat not held is
    `no_seat` and changes nothing."""
    (a, _, _), (b, token, _) = await scene.room(2, start=True)
    await b.send({"op": "send", "payload": {"n": 1}})
    expect(await a.recv(), "deliver", from_seat=1, payload={"n": 1})
    await a.send({"op": "send", "payload": {"n": 1}})
    expect(await b.recv(), "deliver", from_seat=0, payload={"n": 1})
    b.ws.transport.abort()  # dropped: no close frame, no leave
    scene.sockets.remove(b)  # nothing left to close (closing an aborted socket raises)
    for n in (2, 3):
        await a.send({"op": "send", "payload": {"n": n}})
    back = await scene.raw()
    resume = {"op": "resume", "token": token, "code": scene.code, "session_key": _key(1)}
    got = await back.request({**resume, "received": 1})
    expect(got, "resumed", code=scene.code, seat=1, received=1)
    for n in (2, 3):
        expect(await back.recv(), "deliver", from_seat=0, payload={"n": n})
    await back.send({"op": "send", "payload": {"n": 2}})
    # the first frame Seat 1 gets after the drop: no departure was announced
    expect(await a.recv(), "deliver", from_seat=1, payload={"n": 2})
    stranger, other_token, _ = await scene.member()
    refused = await stranger.request({**resume, "token": other_token, "received": 0})
    expect(refused, "error", code="no_seat")
    await a.quiet()


async def a_departure_during_a_hold_reaches_the_seat_when_it_resumes(scene: Scene) -> None:
    """§9 R13: a seat that resumes gets the `departed` of a seat that left while it was held
    (or before the relay noticed its socket had gone), where it fell among the deliveries it
    missed, and only once (without it, the resumed seat would wait for a seat that is gone
    until a deadline)."""
    (a, _, _), (b, token, _), (c, _, c_name) = await scene.room(3, start=True)
    b.ws.transport.abort()  # dropped: no close frame, no leave; its seat is held
    scene.sockets.remove(b)
    await a.send({"op": "send", "payload": {"n": 1}})
    expect(await c.recv(), "deliver", from_seat=0, payload={"n": 1})
    await c.send({"op": "leave"})
    expect(await a.recv(), "departed", seat=2, name=c_name)
    await a.send({"op": "send", "payload": {"n": 2}})
    back = await scene.raw()
    resume = {"op": "resume", "token": token, "code": scene.code, "session_key": _key(1)}
    expect(await back.request({**resume, "received": 0}), "resumed", seat=1, received=0)
    expect(await back.recv(), "deliver", from_seat=0, payload={"n": 1})
    expect(await back.recv(), "departed", seat=2, name=c_name)
    expect(await back.recv(), "deliver", from_seat=0, payload={"n": 2})
    await back.quiet()


async def a_connection_that_does_not_sign_in_is_closed_at_the_deadline(scene: Scene) -> None:
    """§9 "Limits", `--signin-deadline`: a socket that has not signed in by the deadline (the
    test profile's 2 s) is closed with 1008; one that signed in stays."""
    idle = await scene.raw()
    kept, _, _ = await scene.member()
    began = time.monotonic()
    try:
        await asyncio.wait_for(idle.ws.wait_closed(), SIGNIN_DEADLINE + 2.0)
    except TimeoutError:
        raise Refused(f"an idle socket was still open {SIGNIN_DEADLINE + 2:g} s on") from None
    took = time.monotonic() - began
    code = idle.ws.close_code
    if code != 1008:
        raise Refused(f"the idle socket was closed with {code}, not 1008")
    if took < SIGNIN_DEADLINE - 0.5:
        raise Refused(f"the idle socket was closed after {took:.1f} s, before the deadline")
    expect(await kept.request({"op": "fly"}), "error", code="bad_frame")  # still open


async def the_frame_budget_allows_a_burst_and_no_more(scene: Scene) -> None:
    """§9: 100 frames/s sustained, bursts of 200 → `rate_limited` beyond (the connection
    stays).

    A relay allows at most ``BURST + RATE × t`` frames in ``t`` seconds, so the count shows the
    burst only when the flood was quick: a relay whose burst is 100 also answers 199 frames when
    they take it a second (a loaded machine: the sender starved, or the relay). The harness's
    own time from its first send to reading the first `rate_limited` bounds the relay's; when
    it is ``CONCLUSIVE`` s or more, the bucket is left to fill again and the flood is repeated
    (at most ``FLOODS`` times; the same when every frame was answered, which a correct relay
    does when they took it a second). Any flood answered `rate_limited` before 199 frames
    fails, and so does one answered in full within a second; when every flood was too slow to
    tell, the case passes (it cannot tell, so it does not blame the relay)."""
    sock, _, _ = await scene.member()
    count = BURST + 100
    loop = asyncio.get_running_loop()
    for _ in range(FLOODS):
        began = loop.time()
        await asyncio.gather(*(sock.send({"op": "leave", "id": n}) for n in range(1, count + 1)))
        codes: list[Any] = []
        took = None
        for _ in range(count):
            codes.append(expect(await sock.recv(), "error").get("code"))
            if took is None and codes[-1] == "rate_limited":
                took = loop.time() - began
        first = codes.index("rate_limited") if "rate_limited" in codes else None
        if first is None:
            if loop.time() - began < (count - BURST) / RATE:  # a bucket would have run dry
                raise Refused(f"{count} frames at once were all answered, none rate_limited")
            await asyncio.sleep(BURST / RATE + 0.5)  # slow enough to refill: again
            continue
        if first < BURST - 1:
            raise Refused(f"rate_limited after {first} frames; a burst of {BURST} is allowed")
        if set(codes) != {"not_in_room", "rate_limited"}:
            raise Refused(f"unexpected answers: {sorted(str(c) for c in set(codes))}")
        if took is not None and took < CONCLUSIVE:
            return  # a burst of 199 or more within a second: the budget's burst is there
        await asyncio.sleep(BURST / RATE + 0.5)  # the bucket full again


async def a_frame_over_the_cap_closes_the_connection(scene: Scene) -> None:
    """§9 `--max-size`: a frame over 64 KiB closes the connection (1009)."""
    sock, _, _ = await scene.member()
    await sock.send({"op": "send", "payload": {"pad": "x" * MAX_FRAME}})
    try:
        await asyncio.wait_for(sock.ws.wait_closed(), WAIT)
    except TimeoutError:
        raise Refused("a frame over 64 KiB did not close the connection") from None
    code = sock.ws.close_code
    if code != 1009:
        raise Refused(f"closed with {code}, not 1009")


async def signout_revokes_the_token(scene: Scene) -> None:
    """§9 `signout` → `signed_out`, the token revoked (`bad_token` if it was not live);
    `change_password` → `signed_in` with a new token, every older one revoked."""
    sock, token, name = await scene.member()
    second = await scene.raw()
    other = await second.request({"op": "signin", "name": name, "password": PASSWORD})
    expect(other, "signed_in")
    change = {"op": "change_password", "token": token}
    fresh = await sock.request({**change, "old_password": PASSWORD, "new_password": PASSWORD + "2"})
    expect(fresh, "signed_in", name=name)
    expect(
        await second.request({"op": "signout", "token": other["token"]}), "error", code="bad_token"
    )
    expect(await sock.request({"op": "signout", "token": fresh["token"]}), "signed_out")
    again = {"op": "create_room", "token": fresh["token"], "session_key": _key(0)}
    expect(await sock.request(again), "error", code="bad_token")


async def reference_peers_play_a_session_through_the_relay(scene: Scene) -> None:
    """§9's promise: reference peers play a whole session through the relay, every peer ends
    with the same result and matched receipts, and every transcript verifies OK under the
    printed relay key."""
    url = scene.setting.url
    clients = [await RelayClient.connect(url, timeouts=SESSION_TIMEOUTS) for _ in range(3)]
    try:
        for i, c in enumerate(clients):
            await c.signup(f"{scene.setting.tag}p{i}", PASSWORD)
        room = await clients[0].create_room()
        for c in clients[1:]:
            await c.join_room(room.code)
        await clients[0].start()
        for c in clients[1:]:
            await c.wait_started(WAIT)
        peers = await asyncio.gather(*(_play(c) for c in clients))
    finally:
        for c in clients:
            await c.close()
    if len({p.result for p in peers}) != 1 or peers[0].result is None:
        raise Refused("the reference peers did not all end with one result")
    key = public_key_from_hex(scene.setting.relay_key)
    for c in clients:
        if c.transcript_path is None:
            raise Refused("a reference peer wrote no transcript")
        report = verify_transcript(c.transcript_path, key)
        if not (report.ok and report.complete):
            raise Refused(f"a transcript does not verify OK: {report.text()[:200]}")


async def sign_ins_are_limited_per_connection_and_per_name(scene: Scene) -> None:
    """§9 R3 and "Limits": sign-up/sign-in/password checks are counted before any hash; the
    eleventh on one connection within the window is `signin_limited`, and after five failed
    sign-ins for a name from one address even the right password is `signin_limited`."""
    _, _, name = await scene.member()
    guesser = await scene.raw()
    for n in range(FAILURES_PER_NAME):
        wrong = {"op": "signin", "name": name, "password": f"wrong-{n}-password"}
        expect(await guesser.request(wrong), "error", code="bad_credentials")
    right = {"op": "signin", "name": name, "password": PASSWORD}
    expect(await guesser.request(right), "error", code="signin_limited")
    counter = await scene.raw()
    for n in range(AUTH_PER_CONNECTION):
        nobody = {"op": "signin", "name": f"{scene.setting.tag}z{n}", "password": PASSWORD}
        expect(await counter.request(nobody), "error", code="bad_credentials")
    fresh = {"op": "signup", "name": f"{scene.setting.tag}late", "password": PASSWORD}
    expect(await counter.request(fresh), "error", code="signin_limited")
    expect(await counter.request({"op": "fly"}), "error", code="bad_frame")  # still open


async def a_reader_that_stops_reading_is_cut_and_announced(scene: Scene) -> None:
    """§9 R8, R9 and "Limits": a member whose socket takes no frame for the send timeout (the
    test profile's 1 s; or with more than 256 frames waiting) is cut, and the others get
    `departed` for it at once; the sender is still served."""
    members = await scene.room(2, start=True)
    talker, sleeper = members[0][0], members[1][0]
    transport = sleeper.ws.transport
    transport.pause_reading()  # it never reads again
    chunk = json.dumps({"op": "send", "payload": {"pad": "x" * 60_000}})
    loop = asyncio.get_running_loop()
    try:
        for _ in range(150):  # within the burst: ~9 MB, enough to fill the socket buffers
            await talker.send(chunk)
        # the 4 s count from the burst sent: on a loaded machine sending it may itself take
        # seconds, which are not the relay's
        until = loop.time() + 4.0
        while loop.time() < until:
            await talker.send(chunk)  # at most ~100 a second: within the frame budget
            try:
                doc = json.loads(await asyncio.wait_for(talker.ws.recv(), 0.01))
            except TimeoutError:
                continue
            if doc.get("op") == "departed":
                expect(doc, "departed", seat=1, name=members[1][2])
                break
            if doc.get("op") != "error" or doc.get("code") != "rate_limited":
                raise Refused(f"the sender got {_short(doc)} while the reader slept")
        else:
            raise Refused("a member that read nothing for 4 s was never cut")
    finally:
        transport.abort()
    expect(await talker.request({"op": "fly"}), "error", code="bad_frame")


async def sockets_over_the_cap_get_http_503(scene: Scene) -> None:
    """§9 R9 and "Limits": open sockets are counted from accept (before the handshake); with
    the test profile's 64 open, the next handshake is answered HTTP 503 "The relay is full; …",
    and once one closes a new socket is served. (Runs alone.)"""
    url = scene.setting.url
    host, port = url.removeprefix("ws://").rsplit(":", 1)
    plain: list[asyncio.StreamWriter] = []
    try:
        for _ in range(MAX_CONNECTIONS - 1):
            plain.append((await asyncio.open_connection(host, int(port)))[1])
        last = await _connect_when_served(scene)  # the 64th: sockets of earlier cases drained
        try:
            extra = await Raw.open(url)
        except InvalidStatus as exc:
            response = exc.response
            if response.status_code != 503 or b"The relay is full" not in response.body:
                raise Refused(
                    f"over the cap: HTTP {response.status_code} {response.body[:80]!r}"
                ) from None
        else:
            await extra.ws.close()
            raise Refused(f"a socket over the cap of {MAX_CONNECTIONS} was served")
        plain.pop().close()
        await _connect_when_served(scene)
        await last.close()
    finally:
        for writer in plain:
            writer.close()


async def _connect_when_served(scene: Scene) -> Raw:
    """A websocket as soon as the relay has a place for it (HTTP 503 until then, up to WAIT)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + WAIT
    while True:
        try:
            return await scene.raw()
        except InvalidStatus:
            if loop.time() > until:
                raise Refused(f"no place under the cap within {WAIT:g} s") from None
            await asyncio.sleep(0.05)


async def the_key_and_accounts_survive_a_restart(scene: Scene) -> None:
    """§9 R10 and "Tokens and the database": stopped and started again on the same data folder,
    the relay prints the same key, and its accounts and live tokens are kept. (Runs alone.)"""
    restart = scene.setting.restart
    assert restart is not None
    _, token, name = await scene.member()
    await scene.close()
    scene.sockets.clear()
    key = await restart()
    if key != scene.setting.relay_key:
        raise Refused("after a restart on the same data folder the relay printed another key")
    sock = await scene.raw()
    again = await sock.request({"op": "signin", "name": name, "password": PASSWORD})
    expect(again, "signed_in", name=name, relay_key=key)
    made = await sock.request({"op": "create_room", "token": token, "session_key": _key(0)})
    expect(made, "room", seat=0)


GOING_AWAY: Final = 1001
"""The close code of a relay that stops (ONLINE.md §9 R11)."""


async def a_stopping_relay_closes_every_socket_with_going_away(scene: Scene) -> None:
    """§9 R11: on SIGTERM the relay closes each open websocket with 1001 (going away): a member
    waiting in a room, its other member, and a socket only signed in. (Runs alone.)"""
    restart = scene.setting.restart
    assert restart is not None
    sockets = [sock for sock, _, _ in await scene.room(2, start=False)]
    sockets.append((await scene.member())[0])
    await restart()
    for n, sock in enumerate(sockets):
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(sock.ws.wait_closed(), WAIT)
        rcvd = sock.ws.protocol.close_rcvd
        if rcvd is None or rcvd.code != GOING_AWAY:
            said = "no close frame" if rcvd is None else f"close code {rcvd.code}"
            raise Refused(f"the relay stopped with {said} on socket {n + 1}, not 1001 (going away)")


async def _play(client: RelayClient) -> Any:
    from pointline.net.client._relay_client import play

    return await asyncio.wait_for(play(client), 60.0)


@dataclass(frozen=True, slots=True)
class RelayCase:
    name: str
    run: Callable[[Scene], Awaitable[None]]
    limit: float = 20.0
    alone: bool = False
    """Run after every other case, by itself (it counts the relay's sockets, restarts it, or
    floods it with megabytes that would starve the deadlines of cases beside it)."""


RELAY_CASES: Final = (
    RelayCase("relay.signin.key_printed", signup_names_the_printed_key),
    RelayCase("relay.frames.bad_frame", bad_frames_are_answered_and_keep_the_connection),
    RelayCase("relay.frames.bad_token", a_request_with_a_bad_token_changes_nothing),
    RelayCase("relay.rooms.create_join", a_room_fills_in_join_order_and_the_creator_hears_of_each),
    RelayCase("relay.rooms.refusals", joins_are_refused_by_their_rules),
    RelayCase("relay.rooms.cap_eight", a_room_holds_at_most_eight),
    RelayCase("relay.start.roster_sig", the_roster_is_signed_over_the_transcript_bytes),
    RelayCase("relay.forward.unchanged", a_send_reaches_the_others_unchanged_and_never_the_sender),
    RelayCase(
        "relay.forward.not_started",
        a_send_before_the_start_or_outside_a_room_is_forwarded_to_nobody,
    ),
    RelayCase("relay.leave.departed", departures_are_announced),
    RelayCase("relay.resume.held", a_dropped_seat_is_held_and_taken_back_with_what_it_missed),
    RelayCase("relay.resume.departed", a_departure_during_a_hold_reaches_the_seat_when_it_resumes),
    RelayCase(
        "relay.limits.signin_deadline",
        a_connection_that_does_not_sign_in_is_closed_at_the_deadline,
    ),
    RelayCase("relay.limits.rate", the_frame_budget_allows_a_burst_and_no_more, limit=30.0),
    RelayCase("relay.limits.max_size", a_frame_over_the_cap_closes_the_connection),
    RelayCase("relay.limits.signin_limited", sign_ins_are_limited_per_connection_and_per_name),
    RelayCase(
        "relay.limits.slow_reader", a_reader_that_stops_reading_is_cut_and_announced, alone=True
    ),
    RelayCase("relay.limits.connection_cap", sockets_over_the_cap_get_http_503, alone=True),
    RelayCase("relay.tokens.signout", signout_revokes_the_token),
    RelayCase("relay.key.restart", the_key_and_accounts_survive_a_restart, alone=True),
    RelayCase(
        "relay.stop.going_away", a_stopping_relay_closes_every_socket_with_going_away, alone=True
    ),
    RelayCase(
        "relay.session.reference_peers", reference_peers_play_a_session_through_the_relay, 60.0
    ),
)

assert all(set(c.name) <= set(string.ascii_lowercase + "._") for c in RELAY_CASES)
