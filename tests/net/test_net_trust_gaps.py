"""Trust gaps closed on the peer side, each against a real relay on loopback (#19 part 3)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from pointline.kernel import EndReason
from pointline.net.client._relay_client import ClientEvent, RelayClient
from pointline.net.client._transcript_file import read_records
from pointline.net.protocol._messages import AbortNotice, Commit, sign, to_frame
from pointline.net.protocol._peer import RoundOpened, SessionEnded
from pointline.net.protocol._wire import Send, encode
from tests.net.support import relay, run, seated


async def next_of(
    client: RelayClient, kind: type[ClientEvent], timeout: float = 10.0
) -> ClientEvent:
    async with asyncio.timeout(timeout):
        while True:
            event = await client.next_event()
            if isinstance(event, kind):
                return event


@asynccontextmanager
async def three_at_the_first_round(tmp_path: Path) -> AsyncIterator[list[RelayClient]]:
    """Three seated clients on a real relay, each at its first round (nobody committed)."""
    async with relay(tmp_path) as running:
        clients = await seated(running.url, 3)
        try:
            for c in clients:
                await next_of(c, RoundOpened)
            yield clients
        finally:
            for c in clients:
                await c.close()


def test_a_signed_notice_falsely_blaming_seat_0_ends_naming_its_reporter(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with three_at_the_first_round(tmp_path) as clients:
            liar = clients[2]
            assert liar.peer is not None and liar.signing_key is not None
            notice = AbortNotice(
                liar.peer.table_id, 2, 0, EndReason.BAD_SIGNATURE, 0
            )  # seq 0: the liar's first message, validly signed
            liar.send_text(encode(Send(to_frame(sign(notice, liar.signing_key)))))
            for honest in clients[:2]:
                ending = await next_of(honest, SessionEnded)
                assert isinstance(ending, SessionEnded)
                assert (ending.reason, ending.seat) == (EndReason.BAD_SIGNATURE, 2)
                assert (ending.reporter, ending.proven, ending.accused) == (2, False, 0)
                assert ending.text == "Seat 3 reported a bad signature from Seat 1; not proven"
                await honest.wait_finished(10.0)
                assert honest.transcript_path is not None
                outcome = read_records(honest.transcript_path)[-1]["body"]
                assert outcome["status"] == "ended" and outcome["reason"] == "bad_signature"
                assert (outcome["seat"], outcome["accused"], outcome["proven"]) == (2, 0, False)

    run(scenario())


def test_a_delivered_payload_naming_a_member_twice_ends_malformed_naming_the_sender(
    tmp_path: Path,
) -> None:
    """What a relay forwarding the bytes unchanged delivers: the peer side refuses it itself."""

    async def scenario() -> None:
        async with three_at_the_first_round(tmp_path) as clients:
            sender = clients[2]
            assert sender.peer is not None and sender.signing_key is not None
            commit = Commit(sender.peer.table_id, 2, 0, 1, bytes(32))
            frame = to_frame(sign(commit, sender.signing_key))
            text = json.dumps(frame, separators=(",", ":"))
            doubled = text[:-1] + ',"seq":0}'  # "seq" twice, same value: still malformed
            raw = f'{{"op":"deliver","from_seat":2,"payload":{doubled}}}'
            for honest in clients[:2]:
                honest._on_text(raw)
                ending = await next_of(honest, SessionEnded)
                assert isinstance(ending, SessionEnded)
                assert (ending.reason, ending.seat, ending.proven) == (
                    EndReason.MALFORMED,
                    2,
                    True,
                )
                await honest.wait_finished(10.0)
                assert honest.transcript_path is not None
                rejected = [
                    r["body"]
                    for r in read_records(honest.transcript_path)
                    if r["kind"] == "rejected"
                ]
                assert len(rejected) == 1 and rejected[0]["from"] == 2
                assert "'seq' appears twice" in rejected[0]["detail"]

    run(scenario())


def test_a_frame_naming_a_member_twice_outside_the_payload_is_dropped() -> None:
    from pointline.net.protocol._wire import WireError, parse_relay

    for raw in (
        '{"op":"deliver","op":"deliver","from_seat":2,"payload":{}}',
        '{"op":"departed","seat":1,"seat":1,"name":"a"}',
    ):
        try:
            parse_relay(raw)
        except WireError as exc:
            assert "appears twice" in exc.text
        else:
            raise AssertionError(raw)
