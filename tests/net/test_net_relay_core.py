"""The relay's sans-IO core (``net.relay._core.RelayCore``) driven without a socket: frames and
times in, the actions it returns checked; its store and hashing calls answered at once."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from pointline.net.protocol._keys import public_key_from_hex, verify_signature
from pointline.net.protocol._roster import roster_from_wire, roster_signing_bytes
from pointline.net.relay import FAST_HASH, Accounts, RelayConfig, RelayCore
from pointline.net.relay._cluster import Router
from pointline.net.relay._core import (
    Action,
    Authenticated,
    Call,
    Close,
    Dispatch,
    TokenBucket,
    Transmit,
)

PASSWORD = "correct horse"
KEY_A = "a" * 64
KEY_B = "b" * 64


def answer(call: Call) -> Any:
    return call.fn(*call.args)


class Driver:
    """A synchronous driver: every call answered at once, every frame to a connection kept."""

    def __init__(self, tmp_path: Path, **limits: Any) -> None:
        accounts = Accounts(tmp_path / "relay.sqlite3", FAST_HASH)
        self.core = RelayCore(accounts, accounts.relay_key(), RelayConfig(**limits))
        self.now = 100.0
        self.inbox: dict[int, list[dict[str, Any]]] = {}
        self.raw: dict[int, list[bytes]] = {}
        self.authenticated: list[int] = []

    def open(self) -> int:
        conn = self.core.opened("192.0.2.7", self.now)
        self.inbox[conn], self.raw[conn] = [], []
        return conn

    def apply(self, actions: list[Action]) -> None:
        for action in actions:
            if isinstance(action, Transmit):
                for c in action.conns:
                    self.inbox[c].append(json.loads(action.data))
                    self.raw[c].append(action.data)
            elif isinstance(action, Authenticated):
                self.authenticated.append(action.conn)

    def frame(self, conn: int, doc: dict[str, Any] | str) -> None:
        text = doc if isinstance(doc, str) else json.dumps(doc, separators=(",", ":"))
        for action in self.core.receive(conn, text, self.now):
            if isinstance(action, Dispatch):
                self.apply(self.core.run(conn, action.frame, answer))
            else:
                self.apply([action])

    def last(self, conn: int) -> dict[str, Any]:
        return self.inbox[conn][-1]

    def signed_up(self, name: str) -> tuple[int, str]:
        conn = self.open()
        self.frame(conn, {"op": "signup", "name": name, "password": PASSWORD, "id": 1})
        token = self.last(conn)["token"]
        return conn, str(token)


def seated(tmp_path: Path, **limits: Any) -> tuple[Driver, int, int, str]:
    """A started two-seat room: (driver, creator, joiner, the room's code)."""
    d = Driver(tmp_path, **limits)
    a, ta = d.signed_up("alice")
    b, tb = d.signed_up("bobby")
    d.frame(a, {"op": "create_room", "token": ta, "session_key": KEY_A, "id": 2})
    code = d.last(a)["code"]
    d.frame(b, {"op": "join_room", "token": tb, "code": code, "session_key": KEY_B, "id": 2})
    d.frame(a, {"op": "start", "token": ta, "id": 3})
    return d, a, b, code


def test_a_signup_answers_with_the_token_and_the_relay_key_and_stops_the_deadline(
    tmp_path: Path,
) -> None:
    d = Driver(tmp_path)
    conn, token = d.signed_up("alice")
    answer_frame = d.last(conn)
    assert answer_frame["op"] == "signed_in" and answer_frame["id"] == 1
    assert answer_frame["relay_key"] == d.core.key.public_hex
    assert d.core.accounts.lookup(token) == "alice"
    assert d.authenticated == [conn]


def test_a_started_room_gets_a_roster_signed_over_the_transcript_bytes(tmp_path: Path) -> None:
    d, a, b, code = seated(tmp_path)
    assert d.inbox[a][-2]["op"] == "roster"  # the creator heard of the joiner
    started = {c: d.last(c) for c in (a, b)}
    assert [s["op"] for s in started.values()] == ["started", "started"]
    assert started[a]["id"] == 3 and "id" not in started[b]  # only the creator asked
    assert (started[a]["seat"], started[b]["seat"]) == (0, 1)
    doc = started[b]
    signed = roster_signing_bytes(doc["table_id"], roster_from_wire(doc["roster"]), None)
    key = public_key_from_hex(d.core.key.public_hex)
    assert verify_signature(key, bytes.fromhex(doc["roster_sig"]), signed)
    assert started[a]["roster_sig"] == doc["roster_sig"] and doc["code"] == code


def test_a_send_is_delivered_unchanged_to_the_others_only(tmp_path: Path) -> None:
    d, a, b, _ = seated(tmp_path)
    before_a = len(d.inbox[a])
    payload = '{"z":1,"a":[1.50,"\\u00e9"]}'  # bytes a re-encoding would change
    d.frame(b, '{"op":"send","payload":' + payload + "}")
    assert len(d.inbox[a]) == before_a + 1 and d.last(b)["op"] == "started"
    assert d.raw[a][-1] == ('{"op":"deliver","from_seat":1,"payload":' + payload + "}").encode()
    assert d.core.frames_forwarded == 1


def test_a_send_before_the_start_is_refused_and_forwards_nothing(tmp_path: Path) -> None:
    d = Driver(tmp_path)
    a, ta = d.signed_up("alice")
    b, tb = d.signed_up("bobby")
    d.frame(a, {"op": "create_room", "token": ta, "session_key": KEY_A, "id": 2})
    code = d.last(a)["code"]
    d.frame(b, {"op": "join_room", "token": tb, "code": code, "session_key": KEY_B, "id": 2})
    seen = len(d.inbox[a])
    d.frame(b, {"op": "send", "payload": {"x": 1}})
    assert d.last(b) == {
        "op": "error",
        "code": "not_started",
        "message": "the room has not started",
    }
    assert len(d.inbox[a]) == seen and d.core.frames_forwarded == 0


def test_the_frame_budget_refills_with_the_time_fed_in(tmp_path: Path) -> None:
    d, a, b, _ = seated(tmp_path)
    d.core.sessions[b].bucket = TokenBucket(1.0, 1.0, d.now)  # 1 frame/s, bursts of 1
    d.frame(b, {"op": "send", "payload": {"n": 1}})
    d.frame(b, {"op": "send", "payload": {"n": 2}})  # the same instant: over the budget
    assert d.last(b)["code"] == "rate_limited"
    assert d.last(a)["payload"] == {"n": 1}
    d.now += 1.0
    d.frame(b, {"op": "send", "payload": {"n": 3}})
    assert d.last(a)["payload"] == {"n": 3}


def test_a_bad_frame_is_refused_with_its_id_and_changes_nothing(tmp_path: Path) -> None:
    d = Driver(tmp_path)
    conn = d.open()
    d.frame(conn, '{"op":"signin","name":"alice","id":7}')
    assert d.last(conn)["code"] == "bad_frame" and d.last(conn)["id"] == 7
    d.frame(conn, {"op": "create_room", "token": "nope", "session_key": KEY_A, "id": 8})
    assert d.last(conn) == {
        "op": "error",
        "code": "bad_token",
        "message": "sign in again: this token is not valid",
        "id": 8,
    }
    assert len(d.core.rooms) == 0 and d.authenticated == []


def test_departures_from_a_started_and_from_an_open_room(tmp_path: Path) -> None:
    d, a, b, _ = seated(tmp_path)
    d.apply(d.core.closed(b))
    assert d.last(a) == {"op": "departed", "seat": 1, "name": "bobby"}
    (tmp_path / "two").mkdir()
    d2 = Driver(tmp_path / "two")
    c, tc = d2.signed_up("carol")
    e, te = d2.signed_up("erin1")
    d2.frame(c, {"op": "create_room", "token": tc, "session_key": KEY_A, "id": 2})
    code = d2.last(c)["code"]
    d2.frame(e, {"op": "join_room", "token": te, "code": code, "session_key": KEY_B, "id": 2})
    d2.frame(c, {"op": "leave"})
    assert d2.last(e)["code"] == "room_closed" and len(d2.core.rooms) == 0


def test_the_per_connection_sign_in_count_runs_in_the_core_time(tmp_path: Path) -> None:
    tries = 3
    d = Driver(tmp_path, auth_attempts=tries, auth_window=60.0)
    conn = d.open()
    for n in range(tries + 1):
        d.frame(conn, {"op": "signin", "name": "nobody", "password": PASSWORD, "id": n + 1})
    assert d.last(conn)["code"] == "signin_limited"
    d.now += 61.0  # the window has passed, in the time fed in
    d.frame(conn, {"op": "signin", "name": "nobody", "password": PASSWORD, "id": 99})
    assert d.last(conn)["code"] == "bad_credentials"


def test_a_join_to_no_room_names_the_code_in_plain_words(tmp_path: Path) -> None:
    d = Driver(tmp_path)
    conn, token = d.signed_up("alice")
    d.frame(conn, {"op": "join_room", "token": token, "code": " m8hhfe", "session_key": KEY_A})
    assert d.last(conn)["message"] == "no room with code M8HHFE"  # no Python quotes
    d.frame(conn, {"op": "join_room", "token": token, "code": "'\n", "session_key": KEY_A})
    assert d.last(conn)["message"] == "no room with code (empty)"


class _Directory:
    """A cluster directory in memory: room codes -> the relay that holds them."""

    public_url = "ws://here.example:1"

    def __init__(self) -> None:
        self.rooms = {"ELSWHR": "ws://there.example:1"}
        self.released: list[str] = []

    async def claim(self, code: str) -> bool:
        return self.rooms.setdefault(code, self.public_url) == self.public_url

    async def release(self, code: str) -> None:
        self.released.append(code)

    async def owner(self, code: str) -> str | None:
        return self.rooms.get(code)

    def least_loaded(self, own_load: int) -> str | None:
        return None


def test_directory_requests_go_out_as_calls_and_a_join_elsewhere_is_redirected(
    tmp_path: Path,
) -> None:
    directory = _Directory()
    d = Driver(tmp_path)
    d.core.router = Router(directory)
    kinds: list[str] = []

    def answer_all(call: Call) -> Any:
        kinds.append(call.kind)
        result = call.fn(*call.args)
        return asyncio.run(result) if call.kind == "presence" else result

    conn, token = d.signed_up("alice")
    join = {"op": "join_room", "token": token, "code": "elswhr", "session_key": KEY_A, "id": 5}
    for action in d.core.receive(conn, json.dumps(join), d.now):
        assert isinstance(action, Dispatch)
        d.apply(d.core.run(conn, action.frame, answer_all))
    assert d.last(conn) == {"op": "redirect", "url": "ws://there.example:1", "id": 5}
    assert kinds == ["store", "presence"] and len(d.core.rooms) == 0
    create = {"op": "create_room", "token": token, "session_key": KEY_A, "id": 6}
    for action in d.core.receive(conn, json.dumps(create), d.now):
        assert isinstance(action, Dispatch)
        d.apply(d.core.run(conn, action.frame, answer_all))
    code = d.last(conn)["code"]
    assert directory.rooms[code] == directory.public_url  # claimed through a presence call
    leave = d.core.closed(conn)  # the room closes: its release is a background call
    assert [(a.kind, a.args) for a in leave if isinstance(a, Call)] == [("background", (code,))]


# ------------------------------------------------------------------------------ deadlines


def test_the_sign_in_deadline_runs_from_the_accept_time_fed_in(tmp_path: Path) -> None:
    d = Driver(tmp_path, signin_deadline=2.0)
    conn = d.core.opened("192.0.2.7", 101.0, accepted=100.5)  # the handshake took 0.5 s
    assert d.core.next_deadline() == 102.5
    assert d.core.tick(102.4) == []
    assert d.core.tick(102.5) == [Close(conn, 1008, "sign in within 2 s", "signin")]
    assert d.core.tick(200.0) == [] and d.core.next_deadline() is None  # closed once


def test_signing_in_drops_the_deadline(tmp_path: Path) -> None:
    d = Driver(tmp_path, signin_deadline=2.0)
    conn, _ = d.signed_up("alice")
    idle = d.open()
    assert d.core.next_deadline() == d.now + 2.0  # the idle one's
    assert d.core.tick(d.now + 5.0) == [Close(idle, 1008, "sign in within 2 s", "signin")]
    assert conn != idle and d.core.next_deadline() is None


def test_a_reader_with_too_many_frames_waiting_is_cut_and_its_departure_announced(
    tmp_path: Path,
) -> None:
    d, a, b, _ = seated(tmp_path, outbox_frames=4)
    assert d.core.outbox(b, 4, d.now, d.now) == []  # at the limit: still served
    actions = d.core.outbox(b, 5, d.now, d.now)
    assert actions[0] == Close(b, 1008, "too slow: frames were not read", "slow", actions[0].why)
    assert "more than 4 frames waiting" in actions[0].why
    d.apply(actions[1:])
    assert d.last(a) == {"op": "departed", "seat": 1, "name": "bobby"}
    assert d.core.outbox(b, 9, d.now, d.now) == []  # cut once
    assert d.core.next_deadline() is None


def test_a_send_that_waits_past_the_send_timeout_cuts_the_reader(tmp_path: Path) -> None:
    d, a, b, _ = seated(tmp_path, send_timeout=0.5)
    t0 = d.now
    assert d.core.outbox(b, 2, t0, t0) == []
    assert d.core.next_deadline() == t0 + 0.5
    assert d.core.outbox(b, 0, None, t0 + 0.4) == []  # drained in time: no deadline
    assert d.core.next_deadline() is None and d.core.tick(t0 + 1.0) == []
    assert d.core.outbox(b, 1, t0 + 1.0, t0 + 1.0) == []
    assert d.core.tick(t0 + 1.4) == []
    actions = d.core.tick(t0 + 1.5)
    assert isinstance(actions[0], Close) and actions[0].cause == "slow"
    assert "waited more than 0.5 s" in actions[0].why
    d.apply(actions[1:])
    assert d.last(a) == {"op": "departed", "seat": 1, "name": "bobby"}


def test_a_dropped_seat_is_held_for_its_resume_and_gets_what_it_missed(tmp_path: Path) -> None:
    """Issue 43: a connection that drops (no close frame) keeps its seat for ``resume_grace``;
    ``resume`` takes it back on a new connection, answers how many of its sends the relay took
    and sends the deliveries it missed; only a hold that runs out is a departure."""
    d = Driver(tmp_path, resume_grace=30.0)
    a, ta = d.signed_up("alice")
    b, tb = d.signed_up("bobby")
    d.frame(a, {"op": "create_room", "token": ta, "session_key": KEY_A, "id": 2})
    code = d.last(a)["code"]
    d.frame(b, {"op": "join_room", "token": tb, "code": code, "session_key": KEY_B, "id": 2})
    d.frame(a, {"op": "start", "token": ta, "id": 3})
    d.frame(b, {"op": "send", "payload": {"n": 1}})
    d.frame(a, {"op": "send", "payload": {"n": 1}})
    before = len(d.inbox[a])
    d.apply(d.core.closed(b, hold=True, now=d.now))
    assert len(d.inbox[a]) == before  # no departure announced
    d.frame(a, {"op": "send", "payload": {"n": 2}})
    d.frame(a, {"op": "send", "payload": {"n": 3}})
    b2 = d.open()
    resume = {"op": "resume", "token": tb, "code": code, "session_key": KEY_B, "received": 1}
    d.frame(b2, {**resume, "id": 5})
    assert d.inbox[b2][0] == {"op": "resumed", "code": code, "seat": 1, "received": 1, "id": 5}
    assert [f["payload"] for f in d.inbox[b2][1:]] == [{"n": 2}, {"n": 3}]
    d.frame(b2, {"op": "send", "payload": {"n": 2}})  # the seat is b2's now
    assert d.last(a) == {"op": "deliver", "from_seat": 1, "payload": {"n": 2}}
    # a hold that runs out is a departure, and then the seat cannot be taken back
    d.apply(d.core.closed(b2, hold=True, now=d.now))
    assert d.core.next_deadline() == d.now + 30.0
    d.apply(d.core.tick(d.now + 29.0))
    assert d.last(a)["op"] == "deliver"
    d.apply(d.core.tick(d.now + 30.0))
    assert d.last(a) == {"op": "departed", "seat": 1, "name": "bobby"}
    b3 = d.open()
    d.frame(b3, {**resume, "received": 3, "id": 6})
    assert d.last(b3)["code"] == "no_seat" and d.last(b3)["id"] == 6


def test_a_resume_on_a_live_connection_replaces_it(tmp_path: Path) -> None:
    """The client noticed the silence first (its pings): the relay still has the old
    connection; the resume closes it, and a resume that counts more than was sent is refused."""
    d = Driver(tmp_path)
    a, ta = d.signed_up("alice")
    b, tb = d.signed_up("bobby")
    d.frame(a, {"op": "create_room", "token": ta, "session_key": KEY_A, "id": 2})
    code = d.last(a)["code"]
    d.frame(b, {"op": "join_room", "token": tb, "code": code, "session_key": KEY_B, "id": 2})
    d.frame(a, {"op": "start", "token": ta, "id": 3})
    b2 = d.open()
    resume = {"op": "resume", "token": tb, "code": code, "session_key": KEY_B, "received": 0}
    actions = []
    for action in d.core.receive(b2, json.dumps({**resume, "id": 4}), d.now):
        assert isinstance(action, Dispatch)
        actions = d.core.run(b2, action.frame, answer)
    closes = [x for x in actions if isinstance(x, Close)]
    assert [(c.conn, c.cause) for c in closes] == [(b, "resumed")]
    d.apply(actions)
    assert d.last(b2)["op"] == "resumed"
    c = d.open()
    d.frame(c, {**resume, "received": 9, "id": 5})
    assert d.last(c)["code"] == "no_seat"


def test_a_room_keeps_a_bounded_log_for_resumes() -> None:
    """What a room keeps for resumes is bounded in frames and bytes; a resume that needs a
    frame no longer kept gets nothing (the relay answers ``no_seat``)."""
    from pointline.net.relay._rooms import LOG_BYTES, Member, Room

    room = Room("ABCDEF", "alice", [Member(1, "alice", KEY_A), Member(2, "bobby", KEY_B)], "t")
    big = b"x" * 60_000
    for _ in range(100):
        room.record(0, big)
    kept = LOG_BYTES // len(big)
    assert len(room.log) == kept and room.log_bytes == kept * len(big) <= LOG_BYTES
    assert room.missed(1, 100 - kept) == [big] * kept
    assert room.missed(1, 100 - kept - 1) is None
    assert room.missed(1, 101) is None
    assert room.missed(0, 0) == []  # nothing was addressed to the sender
