"""The relay's abuse limits, each against a real relay on loopback (every wait is bounded)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from pointline.net.client._relay_client import ClientError, RelayClient
from pointline.net.protocol._wire import ErrorCode
from pointline.net.relay._accounts import RateLimiter
from pointline.net.relay._cli import build_parser, config_from_args
from pointline.net.relay._server import (
    ACCEPT_EXHAUSTED,
    LOOPBACK_TESTS,
    AcceptLogFilter,
    RelayConfig,
    running_relay,
)
from tests.net.support import relay as serving
from tests.net.support import relay_config, run, until

PASSWORD = "password-123"
WAIT = 5.0


async def ask(ws: ClientConnection, doc: dict[str, Any]) -> dict[str, Any]:
    await ws.send(json.dumps(doc))
    reply = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
    assert isinstance(reply, dict)
    return reply


def test_every_limit_is_a_flag_with_the_config_default() -> None:
    defaults = RelayConfig()
    assert config_from_args(build_parser().parse_args([])) == defaults
    args = build_parser().parse_args(
        [
            "--max-connections=9",
            "--connections-per-address=3",
            "--signin-deadline=4",
            "--auth-per-address=5",
            "--auth-per-connection=6",
            "--failures-per-name=2",
            "--auth-window=30",
            "--hash-workers=1",
            "--hash-queue=7",
            "--message-rate=50",
            "--accept-log-interval=10",
        ]
    )
    cfg = config_from_args(args)
    assert (cfg.max_connections, cfg.connections_per_address, cfg.signin_deadline) == (9, 3, 4)
    assert (cfg.auth_per_address, cfg.auth_attempts, cfg.failures_per_name) == (5, 6, 2)
    assert (cfg.auth_window, cfg.hash_workers, cfg.hash_queue) == (30, 1, 7)
    assert (cfg.message_rate, cfg.message_burst, cfg.accept_log_interval) == (50, 100, 10)
    assert defaults.connections_per_address < LOOPBACK_TESTS["connections_per_address"]


def test_connections_per_address_are_capped_and_freed(tmp_path: Path) -> None:
    async def go() -> None:
        async with serving(tmp_path, connections_per_address=3) as relay:
            first = [await connect(relay.url) for _ in range(3)]
            with pytest.raises(InvalidStatus) as refused:
                await connect(relay.url)
            assert refused.value.response.status_code == 503
            assert b"Too many connections from your address" in refused.value.response.body
            with pytest.raises(ClientError) as plain:
                await RelayClient.connect(relay.url)
            assert plain.value.code == "refused"
            assert "Too many connections from your address" in plain.value.text
            assert relay.relay.gate.by_address == {"127.0.0.1": 3}
            await first[0].close()
            await until(lambda: relay.relay.gate.total == 2)
            again = await connect(relay.url)  # a freed place is taken again
            for ws in [*first[1:], again]:
                await ws.close()
            await until(lambda: relay.relay.gate.total == 0)
            assert relay.relay.gate.by_address == {}

    run(go())


def test_connections_in_total_are_capped(tmp_path: Path) -> None:
    async def go() -> None:
        async with serving(tmp_path, max_connections=2) as relay:
            open_ = [await connect(relay.url) for _ in range(2)]
            with pytest.raises(InvalidStatus) as refused:
                await connect(relay.url)
            assert b"The relay is full" in refused.value.response.body
            for ws in open_:
                await ws.close()

    run(go())


def test_a_socket_that_never_signs_in_is_closed_after_the_deadline(tmp_path: Path) -> None:
    async def go() -> None:
        async with serving(tmp_path, signin_deadline=0.3) as relay:
            idle = await connect(relay.url)
            signed = await connect(relay.url)
            reply = await ask(signed, {"op": "signup", "name": "dora", "password": PASSWORD})
            assert reply["op"] == "signed_in"
            await asyncio.wait_for(idle.wait_closed(), WAIT)
            assert idle.close_code == 1008 and "sign in within" in (idle.close_reason or "")
            # a raw TCP socket that never even starts the handshake is cut too
            reader, writer = await asyncio.open_connection(relay.host, relay.port)
            assert await asyncio.wait_for(reader.read(), WAIT) == b""
            writer.close()
            # the signed-in socket outlives the deadline and is still served
            reply = await ask(signed, {"op": "leave"})
            assert reply["code"] == ErrorCode.NOT_IN_ROOM
            assert relay.relay.gate.idle_closed >= 1
            await signed.close()

    run(go())


def test_a_valid_token_counts_as_signing_in(tmp_path: Path) -> None:
    async def go() -> None:
        async with serving(tmp_path, signin_deadline=0.5) as relay:
            first = await connect(relay.url)
            token = (await ask(first, {"op": "signup", "name": "eve_1", "password": PASSWORD}))[
                "token"
            ]
            await first.close()
            second = await connect(relay.url)
            reply = await ask(second, {"op": "start", "token": token})
            assert reply["code"] == ErrorCode.NOT_IN_ROOM  # the token was accepted
            closed = asyncio.ensure_future(second.wait_closed())
            done, _ = await asyncio.wait([closed], timeout=1.0)  # twice the deadline
            assert not done, "a socket with a valid token was closed as idle"
            await second.close()

    run(go())


def test_sign_ins_per_address_are_limited_across_connections(tmp_path: Path) -> None:
    async def go() -> None:
        async with serving(tmp_path, auth_per_address=3, auth_window=60.0) as relay:
            sockets = [await connect(relay.url) for _ in range(4)]
            for i, ws in enumerate(sockets[:3]):
                doc = {"op": "signup", "name": f"addr{i}", "password": PASSWORD}
                assert (await ask(ws, doc))["op"] == "signed_in"
            reply = await ask(sockets[3], {"op": "signin", "name": "addr0", "password": PASSWORD})
            assert reply["code"] == ErrorCode.SIGNIN_LIMITED
            assert "from your address" in reply["message"]
            for ws in sockets:
                await ws.close()

    run(go())


def test_hashing_is_bounded_and_the_overflow_is_told_busy(tmp_path: Path) -> None:
    async def go() -> None:
        async with serving(tmp_path, hash_workers=1, hash_queue=1) as relay:
            release = threading.Event()
            entered = threading.Event()
            real = relay.relay.accounts.signup

            def slow_signup(name: str, password: str) -> str:
                entered.set()
                release.wait(WAIT)
                return real(name, password)

            relay.relay.accounts.signup = slow_signup  # type: ignore[method-assign]
            sockets = [await connect(relay.url) for _ in range(3)]
            for i in range(2):
                await sockets[i].send(
                    json.dumps({"op": "signup", "name": f"hash{i}", "password": PASSWORD})
                )
                if i == 0:  # the first holds the only hashing slot, the second waits
                    await asyncio.wait_for(asyncio.to_thread(entered.wait, WAIT), WAIT)
            await until(lambda: relay.relay.hashing.waiting == 1)
            client = RelayClient(sockets[2])
            client.busy_patience = 0.0  # no asking again here (see the test below)
            with pytest.raises(ClientError) as busy:
                await client.signup("hash2", PASSWORD)
            assert busy.value.code == ErrorCode.BUSY
            text = busy.value.text
            assert text.startswith("The relay is busy") and "try again" in text
            # when to try again: the two computations ahead, one at a time (at least 1 s)
            assert busy.value.retry_after is not None and busy.value.retry_after >= 1
            release.set()
            for ws in sockets[:2]:
                reply = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
                assert reply["op"] == "signed_in"
            assert relay.relay.hashing.active == relay.relay.hashing.waiting == 0
            assert relay.relay.hashing.refused == 1
            # once the queue drains, the refused person gets in
            assert await client.signup("hash2", PASSWORD)
            await client.close()
            for ws in sockets[:2]:
                await ws.close()

    run(go())


def test_a_busy_refusal_says_when_and_the_client_asks_again_by_itself(tmp_path: Path) -> None:
    """Issue 43: a crowd signing up at once. The refusal carries ``retry_after`` and the client
    asks again after it, by itself, and gets in once the queue has drained."""

    async def go() -> None:
        async with serving(tmp_path, hash_workers=1, hash_queue=0) as relay:
            release = threading.Event()
            entered = threading.Event()
            real = relay.relay.accounts.signup

            def slow_signup(name: str, password: str) -> str:
                entered.set()
                release.wait(WAIT)
                return real(name, password)

            relay.relay.accounts.signup = slow_signup  # type: ignore[method-assign]
            first = await connect(relay.url)
            await first.send(json.dumps({"op": "signup", "name": "crowd0", "password": PASSWORD}))
            await asyncio.wait_for(asyncio.to_thread(entered.wait, WAIT), WAIT)
            raw = await connect(relay.url)
            refusal = await ask(raw, {"op": "signup", "name": "crowd1", "password": PASSWORD})
            assert refusal["code"] == "busy" and type(refusal["retry_after"]) is int
            assert refusal["retry_after"] >= 1
            client = await RelayClient.connect(relay.url)
            signing_up = asyncio.ensure_future(client.signup("crowd2", PASSWORD))
            await until(lambda: relay.relay.hashing.refused == 2)  # refused once, waiting
            assert not signing_up.done()
            release.set()
            assert await asyncio.wait_for(signing_up, WAIT)
            assert client.busy_retries >= 1 and client.name == "crowd2"
            await client.close()
            for ws in (first, raw):
                await ws.close()

    run(go())


def test_guesses_from_one_address_never_lock_out_another(tmp_path: Path) -> None:
    """Over the relay: the failure count is keyed by (name, address)."""

    async def go() -> None:
        async with serving(tmp_path, failures_per_name=2) as relay:
            owner = await connect(relay.url)
            assert (await ask(owner, {"op": "signup", "name": "fay", "password": PASSWORD}))[
                "op"
            ] == "signed_in"
            accounts = relay.relay.accounts
            for _ in range(2):  # an attacker elsewhere burns its guesses
                with pytest.raises(Exception, match="wrong name or password"):
                    await asyncio.to_thread(accounts.signin, "fay", "guess-0000", "192.0.2.66")
            with pytest.raises(Exception, match="too many failed"):
                await asyncio.to_thread(accounts.signin, "fay", PASSWORD, "192.0.2.66")
            # the owner, from 127.0.0.1, still signs in with the right password
            reply = await ask(owner, {"op": "signin", "name": "fay", "password": PASSWORD})
            assert reply["op"] == "signed_in"
            await owner.close()

    run(go())


def test_accept_exhaustion_is_logged_once_per_interval(caplog: pytest.LogCaptureFixture) -> None:
    clock = [0.0]
    loop = asyncio.new_event_loop()
    try:
        handler = AcceptLogFilter(loop, 60.0, lambda: clock[0])
        loop.set_exception_handler(handler)
        context = {"message": ACCEPT_EXHAUSTED, "exception": OSError(24, "Too many open files")}
        with caplog.at_level(logging.ERROR, logger="pointline.relay"):
            for second in range(120):  # asyncio retries accept() once a second
                clock[0] = float(second)
                loop.call_exception_handler(context)
        lines = [r for r in caplog.records if "cannot accept connections" in r.getMessage()]
        assert len(lines) == 2  # at 0 s and at 60 s
        assert "59 more since the last report" in lines[1].getMessage()
    finally:
        loop.close()


_EXHAUST = """
import asyncio, resource, sys
from pointline.net.relay._accounts import FAST_HASH
from pointline.net.relay._server import ACCEPT_EXHAUSTED, LOOPBACK_TESTS, RelayConfig, serve_forever
resource.setrlimit(resource.RLIMIT_NOFILE, (48, 48))
config = RelayConfig(hash_params=FAST_HASH, accept_log_interval=60.0, **LOOPBACK_TESTS)

async def main():
    loop = asyncio.get_running_loop()
    report = loop.call_exception_handler
    last = [-1.0]
    def noted(context):  # one line per round of failed accept() calls (asyncio's retries)
        if context.get("message") == ACCEPT_EXHAUSTED and loop.time() - last[0] > 0.5:
            last[0] = loop.time()
            print("accept failed", flush=True)
        report(context)
    loop.call_exception_handler = noted
    await serve_forever(sys.argv[1], "127.0.0.1", 0, None, config)

asyncio.run(main())
"""


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_NOFILE and /proc are Linux")
def test_descriptor_exhaustion_is_logged_once_and_does_not_spin(tmp_path: Path) -> None:
    """Out of descriptors, asyncio retries ``accept()`` once a second: between the first
    round of failed accepts and the third (two retries, seen as they happen) the relay uses
    almost no CPU, and it logs the condition once."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _EXHAUST, str(tmp_path / "r.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None and proc.stderr is not None
        out = proc.stdout
        url = out.readline().decode().split()[3]
        port = int(url.rsplit(":", 1)[1])

        async def failed_accept() -> None:
            line = await asyncio.wait_for(asyncio.to_thread(out.readline), WAIT)
            assert line.decode().strip() == "accept failed", line

        async def flood() -> float:
            socks = []
            for _ in range(80):  # far more sockets than the relay has descriptors
                socks.append(await asyncio.open_connection("127.0.0.1", port))
            await failed_accept()
            start_cpu = _cpu(proc.pid)
            for _ in range(2):  # asyncio's two next retries: the span measured
                await failed_accept()
            used = _cpu(proc.pid) - start_cpu
            for _, writer in socks:
                writer.close()
            return used

        cpu = run(flood())
        assert cpu < 0.5, f"the relay spun for {cpu:.2f} s of CPU while out of descriptors"
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=WAIT)
    lines = [line for line in err.decode().splitlines() if "cannot accept connections" in line]
    assert len(lines) == 1, err.decode()[-2000:]


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_reader_that_stalls_one_send_past_the_timeout_is_cut(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The outbox is a queue and a task doing ``await ws.send`` per connection: a send that
    waits longer than ``send_timeout`` cuts that reader, and its seat is announced at once.
    The reason is read from the relay's log (the cut connection may already be gone from
    its table when the departure arrives: under load, 1 run in CI)."""

    async def go() -> None:
        cfg = relay_config(outbox_frames=100_000, send_timeout=0.5, message_burst=5000.0)
        async with running_relay(tmp_path / "r.db", config=cfg) as relay:
            talker, sleeper = await connect(relay.url), await connect(relay.url)
            token = (await ask(talker, {"op": "signup", "name": "talker", "password": PASSWORD}))[
                "token"
            ]
            other = (await ask(sleeper, {"op": "signup", "name": "sleeper", "password": PASSWORD}))[
                "token"
            ]
            key1, key2 = "a1" * 32, "b2" * 32
            room = await ask(talker, {"op": "create_room", "token": token, "session_key": key1})
            join = {"op": "join_room", "token": other, "code": room["code"], "session_key": key2}
            assert (await ask(sleeper, join))["op"] == "room"
            assert (await ask(talker, {"op": "start", "token": token}))["op"] in (
                "roster",
                "started",
            )
            sleeper.transport.pause_reading()  # never reads again
            chunk = json.dumps({"op": "send", "payload": {"pad": "x" * 60_000}})
            departed = None
            async with asyncio.timeout(20):
                while departed is None:
                    await talker.send(chunk)
                    try:
                        doc = json.loads(await asyncio.wait_for(talker.recv(), 0.01))
                    except TimeoutError:
                        continue
                    if doc["op"] == "departed":
                        departed = doc
            assert departed == {"op": "departed", "seat": 1, "name": "sleeper"}
            said = [r.getMessage() for r in caplog.records if r.name == "pointline.relay"]
            cut = "stopped reading (one frame waited more than 0.5 s)"
            assert any(cut in m for m in said), said
            sleeper.transport.abort()
            await talker.close()

    run(go())


def test_sign_in_counts_are_forgotten_after_their_window() -> None:
    clock = [0.0]
    limiter = RateLimiter(3, 60.0, lambda: clock[0])
    for address in ("192.0.2.1", "192.0.2.2", "192.0.2.3"):
        assert limiter.take(address)
    clock[0] = 30.0
    assert limiter.take("192.0.2.3")
    clock[0] = 61.0
    assert limiter.purge() == 2 and len(limiter) == 1  # .3 still has an event in the window
    clock[0] = 91.0
    assert limiter.purge() == 1 and len(limiter) == 0


@pytest.mark.parametrize(
    "flag", ["--hash-queue=0", "--signin-deadline=-1", "--max-connections=x", "--send-timeout=nan"]
)
def test_a_nonsense_limit_is_refused_by_the_command_line(
    flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        build_parser().parse_args([flag])
    assert caught.value.code == 2
    assert flag.split("=")[0] in capsys.readouterr().err


def test_help_shows_where_the_accounts_database_goes_by_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    help_text = " ".join(capsys.readouterr().out.split())  # argparse wraps lines anywhere
    assert "pointline-relay.sqlite3 in the current folder" in help_text.replace("- ", "-")
    assert build_parser().parse_args([]).db == "pointline-relay.sqlite3"


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--presence", "redis://127.0.0.1:9/0"], "--presence needs --store"),
        (["--public-url", "wss://relay.example.org:8765"], "--public-url goes with --presence"),
        (
            [
                *("--store", "postgresql://x@127.0.0.1:9/x"),
                *("--presence", "redis://127.0.0.1:9/0", "--public-url", "relay.example.org"),
            ],
            "ws:// or wss://",
        ),
    ],
)
def test_cluster_flags_that_cannot_work_are_refused_in_plain_words(
    flags: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from pointline.net.relay._cli import main

    assert main(["--port", "0", *flags]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


async def _silent_websocket(host: str, port: int) -> tuple[asyncio.StreamReader, Any]:
    """A websocket opened by hand that then never reads or answers anything (so it never
    answers the relay's close frame either)."""
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        (
            f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WAIT)
    assert head.startswith(b"HTTP/1.1 101"), head
    return reader, writer


def test_a_socket_that_never_signs_in_leaves_the_caps_at_the_deadline(tmp_path: Path) -> None:
    """Issue 33 R2: at the sign-in deadline the socket gets its 1008 close and its places
    against the per-address and total caps end at once, not when its close handshake times
    out (it never answers); the socket itself is cut soon after."""

    async def go() -> None:
        limits = {"signin_deadline": 0.5, "connections_per_address": 2, "max_connections": 2}
        async with serving(tmp_path, **limits) as relay:
            gate = relay.relay.gate
            silent = [await _silent_websocket(relay.host, relay.port) for _ in range(2)]
            with pytest.raises(InvalidStatus):  # both caps are full
                await connect(relay.url)
            await until(lambda: gate.idle_closed == 2, timeout=WAIT, what="the deadline")
            assert gate.total == 0 and gate.by_address == {}
            fresh = await connect(relay.url)  # at once: no close handshake to wait for
            reply = await ask(fresh, {"op": "signup", "name": "fern", "password": PASSWORD})
            assert reply["op"] == "signed_in"
            for reader, writer in silent:  # each had its close frame, then was cut
                data = await asyncio.wait_for(reader.read(), WAIT)
                assert data[:1] == b"\x88" and (1008).to_bytes(2, "big") in data[:6], data
                writer.close()
            await fresh.close()

    run(go())
