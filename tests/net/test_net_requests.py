"""Request ids: the relay echoes each request's id; the client matches answers by id only."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve

from pointline.net.client._relay_client import ClientError, RelayClient, RelayError
from pointline.net.protocol._wire import (
    MAX_ID,
    ErrorCode,
    Signin,
    WireError,
    parse_client,
    parse_relay,
)
from pointline.net.relay._accounts import FAST_HASH
from pointline.net.relay._server import LOOPBACK_TESTS, RelayConfig, running_relay
from tests.net.support import run

PASSWORD = "password-123"
WAIT = 5.0


def config() -> RelayConfig:
    return RelayConfig(hash_params=FAST_HASH, **LOOPBACK_TESTS)


Script = Callable[[ServerConnection], Awaitable[None]]


@asynccontextmanager
async def fake_relay(script: Script) -> AsyncIterator[str]:
    """A websocket server that runs ``script`` for each connection (a misbehaving relay)."""
    async with serve(script, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        yield f"ws://127.0.0.1:{port}"


async def recv_doc(ws: ServerConnection) -> dict[str, Any]:
    doc = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
    assert isinstance(doc, dict)
    return doc


def test_wire_ids_round_trip_and_are_checked() -> None:
    frame = parse_client('{"op":"signin","name":"ann","password":"password-1","id":42}')
    assert frame == Signin("ann", "password-1", 42)
    assert parse_client('{"op":"signin","name":"ann","password":"password-1"}').id is None
    for bad in ("-1", "1.5", "true", '"7"', str(MAX_ID + 1)):
        with pytest.raises(WireError) as caught:
            parse_client('{"op":"leave","id":' + bad + "}")
        assert caught.value.code is ErrorCode.BAD_FRAME
    with pytest.raises(WireError) as caught:  # a broken request still names its id
        parse_client('{"op":"signin","name":"ann","id":9}')
    assert caught.value.request_id == 9
    reply = parse_relay('{"op":"error","code":"busy","message":"later","id":9}')
    assert reply.id == 9  # type: ignore[union-attr]


def test_the_relay_echoes_every_request_id(tmp_path: Path) -> None:
    async def go() -> None:
        async with (
            running_relay(tmp_path / "r.db", config=config()) as relay,
            connect(relay.url) as ws,
        ):

            async def ask(doc: dict[str, Any]) -> dict[str, Any]:
                await ws.send(json.dumps(doc))
                reply = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
                assert isinstance(reply, dict)
                return reply

            up = await ask({"op": "signup", "name": "echo", "password": PASSWORD, "id": 1})
            assert up["op"] == "signed_in" and up["id"] == 1
            refused = await ask({"op": "start", "token": up["token"], "id": 2})
            assert refused["op"] == "error" and refused["id"] == 2
            broken = await ask({"op": "create_room", "token": up["token"], "id": 3})
            assert broken["code"] == ErrorCode.BAD_FRAME and broken["id"] == 3
            plain = await ask({"op": "leave"})  # no id asked, none given
            assert plain["op"] == "error" and "id" not in plain
            out = await ask({"op": "signout", "token": up["token"], "id": MAX_ID})
            assert out == {"op": "signed_out", "id": MAX_ID}

    run(go())


def test_an_unsolicited_error_never_answers_a_request() -> None:
    async def script(ws: ServerConnection) -> None:
        request = await recv_doc(ws)
        await ws.send(json.dumps({"op": "error", "code": "rate_limited", "message": "slow"}))
        await ws.send(
            json.dumps({"op": "error", "code": "no_room", "message": "x", "id": 999})
        )  # an id nobody asked: dropped
        await ws.send(
            json.dumps({"op": "signed_in", "name": "ann", "token": "tok", "id": request["id"]})
        )
        await ws.wait_closed()

    async def go() -> None:
        async with fake_relay(script) as url:
            client = await RelayClient.connect(url)
            assert await client.signin("ann", PASSWORD) == "tok"
            event = await client.next_event(WAIT)
            assert event == RelayError("rate_limited", "slow")
            assert client.late_replies == 1  # the answer to request 999 was dropped
            assert client.pending_events() == []
            await client.close()

    run(go())


def test_a_late_answer_is_dropped_not_given_to_the_next_request() -> None:
    async def script(ws: ServerConnection) -> None:
        first = await recv_doc(ws)  # left unanswered until the client gave up on it
        second = await recv_doc(ws)
        await ws.send(
            json.dumps({"op": "signed_in", "name": "ann", "token": "late", "id": first["id"]})
        )
        await ws.send(
            json.dumps({"op": "signed_in", "name": "ann", "token": "fresh", "id": second["id"]})
        )
        await ws.wait_closed()

    async def go() -> None:
        async with fake_relay(script) as url:
            client = await RelayClient.connect(url)
            client.request_timeout = 0.2
            with pytest.raises(ClientError) as caught:
                await client.signin("ann", PASSWORD)
            assert caught.value.code == "timeout" and "did not answer" in caught.value.text
            client.request_timeout = WAIT
            assert await client.signin("ann", PASSWORD) == "fresh"
            assert client.late_replies == 1 and client.token == "fresh"
            await client.close()

    run(go())


def test_requests_in_flight_together_each_get_their_own_answer(tmp_path: Path) -> None:
    async def go() -> None:
        async with running_relay(tmp_path / "r.db", config=config()) as relay:
            a = await RelayClient.connect(relay.url)
            await a.signup("para", PASSWORD)
            good, bad = await asyncio.gather(
                a.create_room(), a.join_room("ZZZZZZ"), return_exceptions=True
            )
            assert not isinstance(good, BaseException) and good.code
            assert isinstance(bad, ClientError) and bad.code in ("in_room", "no_room")
            await a.close()

    run(go())


def _client(url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "POINTLINE_PASSWORD": PASSWORD}
    return subprocess.run(
        [sys.executable, "-m", "pointline.net.client", "--url", url, "--name", "cli_1", *extra],
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
    )


def test_the_client_command_says_one_line_on_a_timeout() -> None:
    async def silent(ws: ServerConnection) -> None:
        await ws.wait_closed()

    async def go() -> subprocess.CompletedProcess[str]:
        async with fake_relay(silent) as url:
            return await asyncio.to_thread(_client, url, "--timeout", "0.3")

    done = run(go())
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert lines == ["pointline-client: The relay did not answer within 0.3 s; try again."]


def test_the_client_command_says_one_line_on_a_refusal(tmp_path: Path) -> None:
    async def go() -> subprocess.CompletedProcess[str]:
        async with running_relay(tmp_path / "r.db", config=config()) as relay:
            return await asyncio.to_thread(_client, relay.url)  # no account, no --signup

    done = run(go())
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == ["pointline-client: refused: wrong name or password"]
