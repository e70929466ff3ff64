"""The relay and its accounts on their own: real websockets on loopback, raw JSON frames."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from pointline.net.protocol._wire import (
    CODE_ALPHABET,
    CODE_LENGTH,
    ErrorCode,
)
from pointline.net.relay._accounts import (
    FAST_HASH,
    SCHEMA_VERSION,
    AccountError,
    Accounts,
    RateLimiter,
)
from pointline.net.relay._rooms import MAX_MEMBERS
from tests.net.raw import PASSWORD, WAIT, Raw, drain, relay_and_clients, room_of, started_room
from tests.net.support import run

# ---- accounts -------------------------------------------------------------------------------


def test_accounts_file_is_created_in_wal_mode_with_a_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "accounts.sqlite3"
    accounts = Accounts(path, FAST_HASH)
    accounts.signup("alice", PASSWORD)
    accounts.close()
    assert path.exists()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()
    reopened = Accounts(path, FAST_HASH)
    assert reopened.count() == 1 and reopened.schema_version == SCHEMA_VERSION
    name, token = reopened.signin("ALICE", PASSWORD)
    assert name == "alice" and reopened.lookup(token) == "alice"
    reopened.close()


def test_passwords_are_stored_as_argon2id_hashes_only(tmp_path: Path) -> None:
    accounts = Accounts(tmp_path / "a.sqlite3", FAST_HASH)
    accounts.signup("bob_1", PASSWORD)
    stored = accounts.stored_hash("bob_1")
    assert stored is not None and stored.startswith("$argon2id$") and PASSWORD not in stored
    accounts.close()
    assert PASSWORD.encode() not in (tmp_path / "a.sqlite3").read_bytes()


@pytest.mark.parametrize("name", ["ab", "a" * 25, "has space", "émile", "semi;colon", ""])
def test_names_break_the_rules_get_a_clear_error(tmp_path: Path, name: str) -> None:
    accounts = Accounts(tmp_path / "a.sqlite3", FAST_HASH)
    with pytest.raises(AccountError) as caught:
        accounts.signup(name, PASSWORD)
    assert caught.value.code is ErrorCode.BAD_NAME
    assert accounts.count() == 0


def test_taken_names_short_passwords_and_wrong_passwords_are_refused(tmp_path: Path) -> None:
    accounts = Accounts(tmp_path / "a.sqlite3", FAST_HASH)
    token = accounts.signup("Carol-9", PASSWORD)
    for name in ("Carol-9", "carol-9"):
        with pytest.raises(AccountError) as caught:
            accounts.signup(name, "another-password")
        assert caught.value.code is ErrorCode.NAME_TAKEN and "taken" in caught.value.message
    with pytest.raises(AccountError) as caught:
        accounts.signup("dave", "short")
    assert caught.value.code is ErrorCode.BAD_PASSWORD
    for name, password in (("Carol-9", "wrong-password"), ("nobody", PASSWORD)):
        with pytest.raises(AccountError) as caught:
            accounts.signin(name, password)
        assert caught.value.code is ErrorCode.BAD_CREDENTIALS
    assert accounts.lookup(token) == "Carol-9"
    assert accounts.lookup("not-a-token") is None
    assert accounts.count() == 1


def test_sign_in_failures_per_name_are_limited_per_address(tmp_path: Path) -> None:
    accounts = Accounts(tmp_path / "a.sqlite3", FAST_HASH, failures_per_name=3)
    accounts.signup("erin", PASSWORD)
    for _ in range(3):
        with pytest.raises(AccountError):
            accounts.signin("erin", "bad-password", "203.0.113.9")
    with pytest.raises(AccountError) as caught:
        accounts.signin("erin", PASSWORD, "203.0.113.9")  # the guessing address waits
    assert caught.value.code is ErrorCode.SIGNIN_LIMITED
    # the guesses never lock the right password out from another address
    assert accounts.signin("erin", PASSWORD, "198.51.100.7")[0] == "erin"
    assert accounts.signin("ERIN", PASSWORD, "198.51.100.7")[0] == "erin"


def test_rate_limiter_window_slides() -> None:
    clock = [0.0]
    limiter = RateLimiter(2, 10.0, clock=lambda: clock[0])
    for _ in range(2):
        assert limiter.allowed("k")
        limiter.record("k")
    assert not limiter.allowed("k") and limiter.allowed("other")
    clock[0] = 10.5
    assert limiter.allowed("k")


# ---- relay: sign-in over the wire --------------------------------------------------------------


def test_sign_up_and_sign_in_over_the_relay(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay_and_clients(tmp_path, 2) as (_, (a, b)):
            reply = await a.signup("frank")
            assert reply["op"] == "signed_in" and reply["name"] == "frank" and reply["token"]
            again = await b.signup("FRANK")
            assert again["op"] == "error" and again["code"] == "name_taken"
            wrong = await b.ask({"op": "signin", "name": "frank", "password": "nope-nope"})
            assert wrong["op"] == "error" and wrong["code"] == "bad_credentials"
            right = await b.ask({"op": "signin", "name": "frank", "password": PASSWORD})
            assert right["op"] == "signed_in" and right["token"] != reply["token"]

    run(scenario())
    assert (tmp_path / "relay.sqlite3").exists()


def test_sign_in_attempts_per_connection_are_limited(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay_and_clients(tmp_path, 2, auth_attempts=3) as (_, (a, b)):
            await b.signup("gina")
            codes = []
            for i in range(5):
                reply = await a.ask({"op": "signin", "name": f"u{i}xx", "password": "whatever1"})
                codes.append(reply["code"])
            assert codes == ["bad_credentials"] * 3 + ["signin_limited"] * 2
            # another connection is not affected
            ok = await b.ask({"op": "signin", "name": "gina", "password": PASSWORD})
            assert ok["op"] == "signed_in"

    run(scenario())


# ---- relay: bad frames ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "frame",
    [
        "{not json",
        "[1, 2]",
        '"text"',
        '{"op": 5}',
        '{"op": "dance"}',
        '{"op": "signup", "name": "x"}',
        '{"op": "send", "payload": [1]}',
        '{"op": "create_room", "token": "t", "session_key": "zz"}',
        b"\x00\x01binary",
    ],
)
def test_bad_frames_get_an_error_and_the_connection_goes_on(tmp_path: Path, frame: Any) -> None:
    async def scenario() -> None:
        async with relay_and_clients(tmp_path, 1) as (_, (a,)):
            reply = await a.ask(frame)
            assert reply["op"] == "error" and reply["code"] in ("bad_frame", "bad_key")
            assert reply["message"]
            assert (await a.signup("henry"))["op"] == "signed_in"

    run(scenario())


def test_an_oversized_frame_closes_only_that_connection(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay_and_clients(tmp_path, 2, max_size=4096) as (relay, (a, b)):
            await a.send(json.dumps({"op": "send", "payload": {"x": "y" * 5000}}))
            with pytest.raises(ConnectionClosed) as closed:
                await a.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
            assert (await b.signup("ivy"))["op"] == "signed_in"
            late = Raw(await connect(relay.url))
            assert (await late.signup("jack"))["op"] == "signed_in"
            await late.ws.close()

    run(scenario())


def test_a_flood_is_rate_limited_and_others_are_served(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay_and_clients(tmp_path, 2, message_rate=20.0, message_burst=10.0) as (
            _,
            (a, b),
        ):
            for _ in range(40):
                await a.send('{"op": "leave"}')
            codes = [(await a.recv())["code"] for _ in range(40)]
            assert "rate_limited" in codes and codes.count("not_in_room") >= 10
            assert (await b.signup("kate"))["op"] == "signed_in"

    run(scenario())


# ---- rooms ------------------------------------------------------------------------------------


def test_room_codes_rosters_and_start(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay_and_clients(tmp_path, 3) as (_, clients):
            a, b, c = clients
            for i, x in enumerate(clients):
                await x.signup(f"member{i}")
            room = await a.create()
            code = room["code"]
            assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
            assert room["seat"] == 0 and room["creator"] == "member0"
            joined = await b.join(code.lower())  # codes are not case-sensitive
            assert joined["seat"] == 1 and [m["name"] for m in joined["roster"]] == [
                "member0",
                "member1",
            ]
            roster = await a.recv()
            assert roster["op"] == "roster" and len(roster["roster"]) == 2
            assert (await c.join(code))["seat"] == 2
            await b.send({"op": "start", "token": b.token})
            assert (await drain(b, "error"))["code"] == "not_creator"
            await a.send({"op": "start", "token": a.token})
            started = [await drain(x, "started") for x in clients]
            table_ids = {s["table_id"] for s in started}
            assert len(table_ids) == 1 and [s["seat"] for s in started] == [0, 1, 2]
            keys = [m["session_key"] for m in started[0]["roster"]]
            assert keys == [a.key, b.key, c.key]  # each account bound to its session key
            assert all(s["roster"] == started[0]["roster"] for s in started)

    run(scenario())


def test_one_member_cannot_start_and_a_ninth_cannot_join(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay_and_clients(tmp_path, MAX_MEMBERS + 1) as (_, clients):
            for i, x in enumerate(clients):
                await x.signup(f"seat{i}")
            room = await clients[0].create()
            alone = await clients[0].start()
            assert alone["op"] == "error" and alone["code"] == "too_few"
            for x in clients[1:MAX_MEMBERS]:
                assert (await x.join(room["code"]))["op"] == "room"
            ninth = await clients[MAX_MEMBERS].join(room["code"])
            assert ninth["op"] == "error" and ninth["code"] == "room_full"

    run(scenario())


def test_same_account_twice_bad_tokens_unknown_codes_and_late_joins(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay_and_clients(tmp_path, 4) as (_, (a, b, twin, late)):
            code = await room_of([a, b])
            twin.token = (
                await twin.ask({"op": "signin", "name": "player1", "password": PASSWORD})
            )["token"]
            assert (await twin.join(code))["code"] == "duplicate_account"
            twin.token = "forged"
            assert (await twin.join(code))["code"] == "bad_token"
            assert (await late.signup("latecomer"))["op"] == "signed_in"
            assert (await late.join("ZZZZZZ"))["code"] == "no_room"
            await a.send({"op": "start", "token": a.token})
            await drain(a, "started")
            assert (await late.join(code))["code"] == "room_started"
            again = await a.create()
            assert again["code"] == "in_room"

    run(scenario())


def test_payloads_reach_every_other_member_unchanged(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay_and_clients(tmp_path, 3) as (_, clients):
            a, b, c = clients
            code = await room_of(clients)
            await b.send({"op": "send", "payload": {"k": 1}})
            assert (await drain(b, "error"))["code"] == "not_started"
            await a.send({"op": "start", "token": a.token})
            for x in clients:
                await drain(x, "started")
            payload = {"z": [1, "two", None, True], "a": {"nested": "ü"}, "n": -3}
            await b.send({"op": "send", "payload": payload})
            for x in (a, c):
                got = await x.recv()
                assert got == {"op": "deliver", "from_seat": 1, "payload": payload}
                assert list(got["payload"]) == ["z", "a", "n"]
            assert await b.nothing_waiting()  # never echoed
            assert code

    run(scenario())


def test_departures_are_announced_after_the_start(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay_and_clients(tmp_path, 3) as (_, clients):
            a, b, c = clients
            await room_of(clients)
            await a.send({"op": "start", "token": a.token})
            for x in clients:
                await drain(x, "started")
            await b.send({"op": "leave"})
            for x in (a, c):
                assert await x.recv() == {"op": "departed", "seat": 1, "name": "player1"}
            await c.ws.close()
            assert await a.recv() == {"op": "departed", "seat": 2, "name": "player2"}
            await a.send({"op": "send", "payload": {"still": "here"}})
            assert await a.nothing_waiting()  # a's send is handled: nobody else is in the room
            assert await b.nothing_waiting()  # b left: nothing was delivered to it

    run(scenario())


def test_before_the_start_seats_close_up_and_the_creator_leaving_closes_the_room(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with relay_and_clients(tmp_path, 3) as (_, clients):
            a, b, c = clients
            code = await room_of(clients)
            await drain(a, "roster")
            await drain(a, "roster")
            await b.ws.close()
            roster = await drain(a, "roster")
            assert [m["name"] for m in roster["roster"]] == ["player0", "player2"]
            assert [m["seat"] for m in roster["roster"]] == [0, 1]
            await a.send({"op": "leave"})
            closed = await drain(c, "error")
            assert closed["code"] == "room_closed"
            assert (await c.join(code))["code"] == "no_room"

    run(scenario())


def test_the_relay_command_line_serves_on_loopback(tmp_path: Path) -> None:
    async def scenario() -> None:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            "import sys; from pointline.net.relay._cli import main; sys.exit(main(sys.argv[1:]))",
            "--port",
            "0",
            "--db",
            str(tmp_path / "cli.sqlite3"),
            stdout=asyncio.subprocess.PIPE,
        )
        try:
            assert proc.stdout is not None
            line = (await asyncio.wait_for(proc.stdout.readline(), 15)).decode()
            assert "ws://127.0.0.1:" in line
            url = line.split()[3]
            async with connect(url) as ws:
                await ws.send(json.dumps({"op": "signup", "name": "cli_user", "password": "x" * 8}))
                reply = json.loads(await asyncio.wait_for(ws.recv(), 15))
                assert reply["op"] == "signed_in"
        finally:
            proc.terminate()
            code = await asyncio.wait_for(proc.wait(), 10)
        assert code == 0  # SIGTERM stops it cleanly
        assert (tmp_path / "cli.sqlite3").exists()

    run(scenario(), timeout=40)


# ---- the user data folder --------------------------------------------------------------------


def test_data_folder_follows_the_override_then_xdg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys
    from datetime import UTC, datetime

    from pointline.net import paths

    monkeypatch.setenv("POINTLINE_DATA_DIR", str(tmp_path / "override"))
    assert paths.data_dir() == tmp_path / "override" and (tmp_path / "override").is_dir()
    monkeypatch.delenv("POINTLINE_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert paths.data_dir(create=False) == tmp_path / "xdg" / "pointline"
    monkeypatch.setenv("POINTLINE_DATA_DIR", str(tmp_path / "override"))
    when = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    name = paths.transcript_name("ab/../cd", 3, when)
    # protocol seat 3 is the player every screen calls Seat 4: the file says so too
    assert "/" not in name and name.startswith("20260102T030405Z-") and name.endswith("seat4.jsonl")
    first = paths.transcript_path("t1", 0, when)
    first.write_text("x")
    second = paths.transcript_path("t1", 0, when)
    assert second != first and not second.exists()  # never overwrites an older transcript


def test_a_member_that_stops_reading_is_cut_and_announced(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with relay_and_clients(
            tmp_path, 2, message_burst=2000.0, outbox_frames=8, send_timeout=2.0
        ) as (relay, clients):
            sender, sleeper = clients
            await room_of(clients)
            await sender.send({"op": "start", "token": sender.token})
            await drain(sender, "started")
            await drain(sleeper, "started")
            import socket

            small = (socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sleeper.ws.transport.get_extra_info("socket").setsockopt(*small)
            for conn in relay.relay.connections.values():  # the relay's side, small too
                conn.ws.transport.get_extra_info("socket").setsockopt(
                    socket.SOL_SOCKET, socket.SO_SNDBUF, 4096
                )
            sleeper.ws.transport.pause_reading()  # never reads again
            chunk = {"op": "send", "payload": {"pad": "x" * 60_000}}
            departed = None
            for _ in range(100):
                for _ in range(10):
                    await sender.send(chunk)
                try:
                    departed = await asyncio.wait_for(sender.ws.recv(), 0.05)
                    break
                except TimeoutError:
                    continue
            assert departed is not None
            assert json.loads(departed) == {"op": "departed", "seat": 1, "name": "player1"}
            assert (await Raw(await connect(relay.url)).signup("after_cut"))["op"] == "signed_in"
            sleeper.ws.transport.abort()  # it cannot read the closing handshake any more

    run(scenario())


def test_a_payload_with_duplicate_keys_or_non_numbers_deep_inside_is_refused_not_forwarded(
    tmp_path: Path,
) -> None:
    """The relay never re-encodes a lax payload into something else (last key winning, NaN as
    non-JSON): it answers the sender with a plain ``bad_frame`` and forwards nothing."""
    commit = '{"kind":"commit","seat":0,"body":{"throw":1,"throw":2}}'
    frames = {
        "duplicate key in a nested object": '{"op":"send","payload":' + commit + "}",
        "NaN in a nested list": '{"op":"send","payload":{"kind":"x","v":[1,NaN]}}',
        "Infinity as a value": '{"op":"send","payload":{"kind":"x","v":Infinity}}',
        "a number too large for a double": '{"op":"send","payload":{"kind":"x","v":1e999}}',
        # issue 33 R3: the same numbers written out as integers
        "an integer of 400 digits": '{"op":"send","payload":{"n":' + "9" * 400 + "}}",
        "an integer of 4000 digits": '{"op":"send","payload":{"n":[-' + "9" * 4000 + "]}}",
        "an integer of 400 digits, laid out otherwise": (
            '{"payload":{"n":' + "9" * 400 + '},"op":"send"}'
        ),
    }

    async def scenario() -> None:
        async with relay_and_clients(tmp_path, 2) as (_, clients):
            a, b = await started_room(clients)
            for name, text in frames.items():
                await b.send(text)
                reply = await b.recv()
                assert (reply["op"], reply["code"]) == ("error", "bad_frame"), name
                assert "not strict JSON" in reply["message"], name
                assert await a.nothing_waiting(), name  # b had its answer: nothing forwarded
            await b.send('{"op":"send","payload":{"kind":"x","v":[1.5,-0.0,1e300]}}')
            assert (await a.recv())["payload"] == {"kind": "x", "v": [1.5, -0.0, 1e300]}
            big = 10**308  # 309 digits, still a double: forwarded as written
            await b.send('{"op":"send","payload":{"n":' + str(big) + "}}")
            assert (await a.recv())["payload"] == {"n": big}

    run(scenario())


def test_a_payload_is_forwarded_as_the_bytes_received(tmp_path: Path) -> None:
    """The peers get exactly what the sender wrote (spacing, escapes, number spelling): the
    relay cuts the payload out of the frame it parsed strictly and never encodes it again."""
    payload = '{"kind": "commit", "name": "caf\\u00e9", "n": 1.50, "list": [ 1 ,2 ]}'

    async def scenario() -> None:
        async with relay_and_clients(tmp_path, 3) as (_, clients):
            a, b, c = await started_room(clients)
            await b.send('{"op":"send","payload":' + payload + "}")
            for other in (a, c):
                text = await asyncio.wait_for(other.ws.recv(), WAIT)
                assert text == '{"op":"deliver","from_seat":1,"payload":' + payload + "}"
            # laid out otherwise (an id, members in another order): re-encoded, same values
            await b.send('{"payload":{"kind":"x","v":"caf\\u00e9"},"op":"send"}')
            assert (await a.recv())["payload"] == {"kind": "x", "v": "café"}
            assert (await c.recv())["from_seat"] == 1

    run(scenario())


def test_a_burst_from_several_senders_reaches_each_reader_whole_and_in_order(
    tmp_path: Path,
) -> None:
    """Frames forwarded in one turn of the relay's loop are written together; a reader still
    gets every frame, each sender's in the order sent, and the relay counts each one sent."""

    async def scenario() -> None:
        async with relay_and_clients(tmp_path, 3, message_burst=1000.0) as (relay, clients):
            a, b, c = await started_room(clients)
            count = 200
            for i in range(count):  # interleaved, without waiting for anything
                for who, sender in (("b", b), ("c", c)):
                    await sender.send(f'{{"op":"send","payload":{{"from":"{who}","n":{i}}}}}')
            got: dict[str, list[int]] = {"b": [], "c": []}
            for _ in range(2 * count):
                payload = (await a.recv())["payload"]
                got[payload["from"]].append(payload["n"])
            assert got == {"b": list(range(count)), "c": list(range(count))}
            assert await a.nothing_waiting()  # nothing more than the 2 × 200
            for reader, other in ((b, "c"), (c, "b")):  # each got the other's, in order too
                assert [(await reader.recv())["payload"]["n"] for _ in range(count)] == got[other]
            sent = {x.id: x.sender.sent for x in relay.relay.connections.values()}
            assert sorted(sent.values())[-1] >= 2 * count  # a's sender counted each frame

    run(scenario())
