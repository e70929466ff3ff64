"""The online peer harness: a real relay on loopback, reference peers, and a foreign client
driven through the stdio interface of ``HARNESS.md``; a foreign verifier over the transcript
vectors. Prints one line per case and ``N passed, N failed``; exit 0 when none failed.

    python -m pointline.conformance.online.harness                  # both reference adapters
    python -m pointline.conformance.online.harness --client "CMD"   # a port's client
    python -m pointline.conformance.online.harness --verifier "CMD" # a port's verifier
    python -m pointline.conformance.online.harness --relay "CMD"    # a port's relay
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

from pointline.conformance.online import stdio
from pointline.conformance.online.check import load
from pointline.conformance.online.relay_harness import REFERENCE_RELAY, run_relay
from pointline.conformance.online.sim import legal_choice, random_choice
from pointline.kernel import UNIT, Choice, EndReason
from pointline.net.client._relay_client import RelayClient
from pointline.net.client._verify_command import verify_transcript
from pointline.net.protocol._keys import SigningKey
from pointline.net.protocol._messages import AbortNotice, parse, sign, to_frame
from pointline.net.protocol._peer import RoundOpened, Thrown, Timeouts
from pointline.net.relay._accounts import FAST_HASH
from pointline.net.relay._server import LOOPBACK_TESTS, RelayConfig, running_relay

__all__ = [
    "CASES",
    "FOREIGN",
    "PASSWORD",
    "PYTHON",
    "REFERENCE_CLIENTS",
    "REFERENCE_VERIFIER",
    "RELAXED",
    "TIMEOUTS",
    "Case",
    "Foreign",
    "choose",
    "main",
    "run_case",
    "run_clients",
    "run_verifier",
]

TIMEOUTS = Timeouts(confirm=3.0, response=2.0, session=60.0, receipts=2.0)
"""Short deadlines for the fault cases (the reference peers and the client get the same ones):
long enough for a loaded machine's round trip, short enough for a quick run."""
RELAXED = Timeouts(confirm=10.0, response=5.0, session=60.0, receipts=5.0)
"""For the sessions that must complete: no honest round may ever reach a deadline."""
RECEIPTS = Timeouts(confirm=10.0, response=5.0, session=60.0, receipts=2.0)
"""For the sessions that complete and then meet a fault in the receipt exchange."""
PASSWORD = "harness-password"
PYTHON = [sys.executable, "-m"]
REFERENCE_CLIENTS = {
    "client": [*PYTHON, "pointline.conformance.online.adapters.client"],
    "sans-io": [*PYTHON, "pointline.conformance.online.adapters.peer"],
}
REFERENCE_VERIFIER = [*PYTHON, "pointline.conformance.online.adapters.verifier"]
FOREIGN = 1
"""The foreign client always takes seat 1 (it joins the room a reference peer created)."""


@dataclass(frozen=True)
class Case:
    name: str
    seats: int
    behave: dict[int, str] = field(default_factory=dict)
    ending: tuple[str, int | None] | None = None
    """(reason, seat) the foreign client must end with; None: the session completes."""
    reporter: int | None = None
    proven: bool | None = None
    limit: float = 12.0
    timeouts: Timeouts = TIMEOUTS
    leave_at: int | None = None
    """The throw whose ``round`` line the harness answers with ``leave`` (the client leaves)."""
    receipts: str = "matched"
    """The receipts the client must report when the session completes."""
    grace: float | None = None
    """Seconds the client may still take once every reference peer has finished (the
    receipts cases: its receipts deadline and a margin), so that a client that never ends
    fails then, not at ``limit``."""
    lying_roster: bool = False
    """The harness (carrying the client's frames) shows another key at the client's seat in
    ``started``: the client must not start, and says ``error`` ``bad_roster``."""
    lose_at: int | None = None
    """The throw whose ``round`` line makes the harness drop the client's relay connection
    (HARNESS.md: a stdio client is told ``closed``; a socket client's socket is closed)."""
    repeat_member: bool = False
    """The harness delivers seat 2's first commit to the client with its ``seq`` named twice
    (an earlier 9, then the real one), as a relay that forwards bytes unchanged may (ONLINE.md
    "Peer-side trust"): the client refuses it, and its ``rejected`` record keeps both."""
    redirect: bool = False
    """The harness answers the client's first ``join_room`` with ``redirect`` (ONLINE.md §9,
    "Relay cluster"): the client must send the same request again over the new connection."""
    cut_at: int | None = None
    """The throw whose ``round`` line makes the harness cut the client's relay connection with
    no close frame either way, the relay holding the seat (ONLINE.md "A blip is not a
    departure"): a stdio client is told ``dropped`` and gets a fresh connection, a socket
    client's socket dies and it reconnects; it must take its seat back with ``resume``."""

    @property
    def carried(self) -> bool:
        """Whether the harness must sit between the client and the relay (a socket client
        then connects to the harness's own loopback relay address, which forwards)."""
        return (
            self.lying_roster
            or self.lose_at is not None
            or self.redirect
            or self.repeat_member
            or self.cut_at is not None
        )


CASES = (
    Case("honest.seats_2", 2, limit=30.0, timeouts=RELAXED),
    Case("honest.seats_3", 3, limit=30.0, timeouts=RELAXED),
    Case("fault.bad_signature", 3, {2: "flip_sig"}, ("bad_signature", 2), FOREIGN, True),
    Case("fault.replay", 3, {2: "replay"}, ("replay", 2), FOREIGN, True),
    Case("fault.bad_reveal", 3, {2: "bad_reveal"}, ("bad_reveal", 2), FOREIGN, True),
    # the client's own deadline or seat 0's notice of the same deadline may come first
    Case("fault.withheld_reveal", 3, {2: "withhold_reveal"}, ("deadline", 2), None, False),
    Case("fault.withheld_reveal.alone", 2, {0: "withhold_reveal"}, ("deadline", 0), FOREIGN, False),
    Case("fault.deadline", 3, {0: "silent", 2: "silent"}, ("deadline", 0), FOREIGN, False),
    # the accusation is not proven: the session ends naming the accuser, the accused is kept
    Case("fault.false_blame", 3, {2: "false_blame"}, ("bad_signature", 2), 2, False),
    # a departure, not a deadline: no round may reach one on a loaded machine (at load 8 the
    # client missed the 3 s confirm deadline of round 2 once and its round line differed)
    Case("fault.departure", 3, {2: "leave"}, ("departure", 2), None, False, timeouts=RELAXED),
    # the client under test leaves: its own file reads as its departure (OK), not a lost relay
    Case("self.leave", 2, {}, ("departure", 1), FOREIGN, False, leave_at=2),
    # each `rejected` code (ONLINE.md §8): the ending it gives, proven, this seat reporting;
    # the code itself is in the client's transcript, which the reference verify replays
    Case("rejected.malformed", 3, {2: "extra_member"}, ("malformed", 2), FOREIGN, True),
    Case("rejected.wrong_table", 3, {2: "other_table"}, ("non_member", 2), FOREIGN, True),
    Case("rejected.non_member", 3, {2: "seat_outside"}, ("non_member", 2), FOREIGN, True),
    Case("rejected.wrong_throw", 3, {2: "commit_throw_2"}, ("replay", 2), FOREIGN, True),
    # the app of seat 2 goes to the background: its own notice names itself, not proven
    Case("ending.background", 3, {2: "background"}, ("background", 2), 2, False),
    # each receipts outcome (§6): the completed result stands whatever the exchange gives
    Case(
        "receipts.mismatch",
        2,
        {0: "lie_receipt"},
        None,
        limit=30.0,
        timeouts=RECEIPTS,
        grace=RECEIPTS.receipts + 4.0,
        receipts="mismatch",
    ),
    Case(
        "receipts.withheld",
        2,
        {0: "withhold_receipt"},
        None,
        limit=30.0,
        timeouts=RECEIPTS,
        grace=RECEIPTS.receipts + 4.0,
        receipts="incomplete",
    ),
    Case(
        "receipts.wrong_throws",
        2,
        {0: "receipt_throws"},
        None,
        limit=30.0,
        timeouts=RECEIPTS,
        grace=RECEIPTS.receipts + 4.0,
        receipts="incomplete",
    ),
    # the roster failure line (HARNESS.md): a roster that fails its check starts no session
    Case("roster.not_my_key", 2, {}, ("bad_roster", None), lying_roster=True),
    # a payload naming a member twice (ONLINE.md §8 `frame`): malformed, and the rejected
    # record keeps both members, so the client's transcript verifies OK
    Case("rejected.repeated_member", 3, {}, ("malformed", 2), FOREIGN, True, repeat_member=True),
    # the client's own relay connection is lost (ONLINE.md §7): its departure, no notice; its
    # transcript reads INCOMPLETE, "the relay was lost"
    Case("self.lost_connection", 2, {}, ("departure", 1), FOREIGN, False, lose_at=2),
    # a cluster's redirect (ONLINE.md §9): the client asks again where it was sent, then plays
    Case("join.redirect", 2, {0: "leave"}, ("departure", 0), None, False, redirect=True),
    # a blip (ONLINE.md "A blip is not a departure"): the connection dies with no close frame,
    # the client takes its seat back with resume, sends again what the relay had not taken,
    # and the session completes with matched receipts
    Case("resume.cut_mid_session", 2, limit=30.0, timeouts=RELAXED, cut_at=2),
)
TARGET = {
    "bad_reveal": "reveal",
    "lie_receipt": "receipt",
    "withhold_receipt": "receipt",
    "receipt_throws": "receipt",
}
"""The kind of frame a misbehaving reference peer changes (its first commit otherwise)."""


def choose(view: dict[str, Any], rng: random.Random) -> Choice:
    """A legal choice from a ``round`` line (any split at come-out, any reduction later). At
    come-out the client never sits out while it can play: a hand with a point then shows its
    contracts in the point rounds' lines, which is where a wrong ``balance`` shows."""
    come_out = view["phase"] == "come_out"
    choice = legal_choice(come_out, view["balance"], view["pass"], view["dont_pass"], rng)
    if come_out and choice == Choice(0, 0) and view["balance"] >= UNIT:
        return Choice(UNIT, 0)
    return choice


def _misbehave(client: RelayClient, how: str) -> Callable[[dict[str, Any]], list[dict[str, Any]]]:
    state = {"done": False, "muted": False}

    def resign(payload: dict[str, Any], **changes: Any) -> dict[str, Any]:
        peer, key = client.peer, client.signing_key
        assert peer is not None and key is not None
        message = parse(payload, peer.table_id, {m.seat: m.public_key for m in peer.roster})
        return to_frame(sign(replace(message, **changes), key))

    def rewrite(payload: dict[str, Any]) -> list[dict[str, Any]]:
        kind = payload["kind"]
        if state["muted"] or how == "silent":
            return []
        if how == "withhold_reveal" and kind == "reveal":
            state["muted"] = True
            return []
        if state["done"] or kind != TARGET.get(how, "commit"):
            return [payload]
        state["done"] = True
        if how == "extra_member":
            return [{**payload, "extra": True}]
        if how == "other_table":
            return [resign(payload, table="t9")]
        if how == "seat_outside":
            return [resign(payload, seat=7)]
        if how == "commit_throw_2":
            return [resign(payload, throw=2)]
        if how == "lie_receipt":
            return [resign(payload, final=tuple(p + 10 for p in payload["final"]))]
        if how == "withhold_receipt":
            return []
        if how == "receipt_throws":
            return [resign(payload, throws=payload["throws"] + 1)]
        if how == "flip_sig":
            sig = payload["sig"]
            return [{**payload, "sig": ("1" if sig[0] == "0" else "0") + sig[1:]}]
        if how == "replay":
            return [payload, payload]
        if how == "bad_reveal":
            return [resign(payload, nonce=b"\x00" * 32)]
        if how == "false_blame":
            peer, key = client.peer, client.signing_key
            assert peer is not None and key is not None
            notice = AbortNotice(
                peer.table_id, peer.seat, payload["seq"], EndReason.BAD_SIGNATURE, 0
            )
            state["muted"] = True
            return [to_frame(sign(notice, key))]
        return [payload]

    return rewrite


async def _reference(
    client: RelayClient, how: str | None, seed: str, thrown: list[Any], views: dict[int, Any]
) -> None:
    rng = random.Random(seed)
    if how is not None and how != "leave":
        setattr(client, "outbound", _misbehave(client, how))  # noqa: B010 - one instance lies
    async for event in client.events():
        peer = client.peer
        if isinstance(event, Thrown):
            thrown.append([event.die1, event.die2])
        if isinstance(event, RoundOpened) and peer is not None and not peer.is_finished:
            views[event.throw] = stdio.view(peer, event.throw, FOREIGN)
            if how == "leave" and event.throw == 2:
                await client.leave()
                continue
            if how == "background" and event.throw == 2:
                client.background()
                continue
            if how != "silent":
                client.commit(random_choice(peer.table, peer.seat, rng))


class Foreign:
    """The client under test: a subprocess speaking the stdio interface."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            if line.strip():
                try:
                    self.lines.put_nowait(json.loads(line))
                except ValueError:
                    self.lines.put_nowait(
                        {"op": "bad_line", "text": line[:200].decode("utf-8", "replace")}
                    )
        self.lines.put_nowait(None)

    def send(self, doc: dict[str, Any]) -> None:
        self.send_text(json.dumps(doc))

    def send_text(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((line + "\n").encode())

    async def next(self) -> dict[str, Any]:
        doc = await self.lines.get()
        if doc is None:
            raise _Failure("the client closed its output")
        return doc

    async def close(self) -> None:
        if self.proc.returncode is None:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            try:
                await asyncio.wait_for(self.proc.wait(), 3.0)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        self.reader.cancel()


class _Failure(Exception):
    """A case fails: raised and caught inside this module, its words the case's verdict."""


async def _all_finished(clients: list[RelayClient], limit: float, done: asyncio.Event) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.gather(*(client.wait_finished(limit) for client in clients))
        done.set()


async def _next(foreign: Foreign, refs_done: asyncio.Event, grace: float | None) -> dict[str, Any]:
    """The client's next line; with ``grace``, a failure once the reference peers have all
    finished and ``grace`` seconds more have passed without it."""
    if grace is None:
        return await foreign.next()

    async def late() -> None:
        await refs_done.wait()
        await asyncio.sleep(grace)

    line, timer = asyncio.ensure_future(foreign.next()), asyncio.ensure_future(late())
    done, _ = await asyncio.wait({line, timer}, return_when=asyncio.FIRST_COMPLETED)
    timer.cancel()
    if line in done:
        return line.result()
    line.cancel()
    raise _Failure(f"the client said nothing within {grace:g} s of the other seats finishing")


def _lie(case: Case, frame: dict[str, Any]) -> dict[str, Any]:
    """A relay frame on its way to the client; for ``lying_roster``, ``started`` shows a fresh
    key at the client's seat."""
    if case.lying_roster and frame.get("op") == "started":
        fake = SigningKey.generate().public_hex
        frame["roster"] = [
            {**m, "session_key": fake} if m.get("seat") == frame.get("seat") else m
            for m in frame["roster"]
        ]
    return frame


class _Carrier:
    """The harness between the client and the relay. For a ``stdio`` client it holds the relay
    socket and carries every frame as a ``wire`` line; for a socket client (only in the cases
    that need it, ``Case.carried``) it is a loopback relay address that forwards each
    connection to the relay. Either way it can change ``started`` (``lying_roster``), answer
    the first ``join_room`` with ``redirect`` to a fresh connection, and drop the client's
    connection (``drop``)."""

    def __init__(self, case: Case, url: str, foreign: Foreign | None) -> None:
        self.case, self.url, self.foreign = case, url, foreign
        self.redirected = self.asked_again = self.repeated = False
        self.links: list[tuple[Any, Any, list[asyncio.Task[None]]]] = []
        """(the client's socket or None for stdio, the relay socket, the pumping tasks)."""
        self.server: Any = None
        self.address = url

    async def start(self) -> None:
        if self.foreign is not None:
            await self._link(None)
            return
        self.server = await serve(self._accept, "127.0.0.1", 0, compression=None)
        port = next(iter(self.server.sockets)).getsockname()[1]
        self.address = f"ws://127.0.0.1:{port}"

    async def _link(self, client: Any) -> Any:
        relay = await connect(self.url, compression=None)

        async def down() -> None:
            with contextlib.suppress(ConnectionClosed):
                async for message in relay:
                    frame = _lie(self.case, json.loads(message))
                    text = self._repeat(frame) or json.dumps(frame)
                    if client is None:
                        assert self.foreign is not None
                        self.foreign.send_text(f'{{"op":"wire","frame":{text}}}')
                    else:
                        await client.send(text)
            if client is not None:
                await client.close()

        tasks = [asyncio.create_task(down())]
        self.links.append((client, relay, tasks))
        return relay

    async def _accept(self, client: Any) -> None:
        relay = await self._link(client)
        with contextlib.suppress(ConnectionClosed):
            async for message in client:
                frame = json.loads(message)
                if self._redirects(frame):
                    moved = {"op": "redirect", "url": f"{self.address}/moved", "id": frame["id"]}
                    await client.send(json.dumps(moved))
                    continue
                await relay.send(message)
        await relay.close()

    def _repeat(self, frame: dict[str, Any]) -> str | None:
        """For ``repeat_member``: seat 2's first commit as text naming ``seq`` twice."""
        payload = frame.get("payload")
        if (
            not self.case.repeat_member
            or self.repeated
            or frame.get("op") != "deliver"
            or frame.get("from_seat") != 2
            or not isinstance(payload, dict)
            or payload.get("kind") != "commit"
        ):
            return None
        self.repeated = True
        twice = '{"seq":9,' + json.dumps(payload)[1:]
        return f'{{"op":"deliver","from_seat":2,"payload":{twice}}}'

    def _redirects(self, frame: dict[str, Any]) -> bool:
        if not self.case.redirect or frame.get("op") != "join_room":
            return False
        if self.redirected:
            self.asked_again = True  # the same request, where the redirect sent it
            return False
        self.redirected = True
        return "id" in frame

    async def from_stdio(self, frame: dict[str, Any]) -> None:
        """A ``wire`` line of a stdio client: to the relay, or answered with ``redirect``
        once the harness has connected afresh (the client sends the request again)."""
        if self._redirects(frame):
            await self.drop(tell=False)
            await self._link(None)
            assert self.foreign is not None
            redirect = {"op": "redirect", "url": self.url, "id": frame["id"]}
            self.foreign.send({"op": "wire", "frame": redirect})
            return
        if self.links:
            with contextlib.suppress(ConnectionClosed):
                await self.links[-1][1].send(json.dumps(frame))

    async def cut(self) -> None:
        """Kill the client's relay connection with no close frame either way (the relay holds
        the seat): a stdio client is told ``dropped`` and its next lines go over a fresh
        connection; a socket client's socket dies and it connects again."""
        links, self.links = self.links, []
        for client, relay, tasks in links:
            for task in tasks:
                task.cancel()
            relay.transport.abort()
            if client is not None:
                client.transport.abort()
        if self.foreign is not None:
            await self._link(None)
            self.foreign.send({"op": "dropped"})

    async def drop(self, tell: bool = True) -> None:
        """Lose the client's relay connection: the relay sees it close (the others get
        ``departed``); a stdio client is told ``closed``, a socket client's socket closes."""
        links, self.links = self.links, []
        for client, relay, tasks in links:
            for task in tasks:
                task.cancel()
            await relay.close()
            if client is not None:
                await client.close()
        if tell and self.foreign is not None:
            self.foreign.send({"op": "closed"})

    async def close(self) -> None:
        await self.drop(tell=False)
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


async def run_case(case: Case, command: list[str], url: str, tag: str, folder: Path) -> str | None:
    """Play ``case``; None when the foreign client did what it must, else why not."""
    refs: dict[int, RelayClient] = {}
    thrown: dict[int, list[Any]] = {}
    views: dict[int, dict[int, Any]] = {}
    rounds: list[dict[str, Any]] = []
    proc = await asyncio.create_subprocess_exec(
        *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    foreign = Foreign(proc)
    refs_done = asyncio.Event()
    carrier: _Carrier | None = None
    tasks: list[asyncio.Task[None]] = []
    try:
        async with asyncio.timeout(case.limit):
            refs[0] = await RelayClient.connect(url, timeouts=case.timeouts)
            await refs[0].signup(f"{tag}r0", PASSWORD)
            room = await refs[0].create_room()
            foreign.send({"op": "hello", "interface": 1})
            hello = await foreign.next()
            if hello.get("op") != "hello" or hello.get("transport") not in ("socket", "stdio"):
                return f"the client's hello is {hello!r}"
            if hello["transport"] == "stdio" or case.carried:
                stdio_client = hello["transport"] == "stdio"
                carrier = _Carrier(case, url, foreign if stdio_client else None)
                await carrier.start()
            foreign.send(
                {
                    "op": "play",
                    "relay": url if carrier is None else carrier.address,
                    "name": f"{tag}f",
                    "password": PASSWORD,
                    "code": room.code,
                    "timeouts": case.timeouts.to_document(),
                    "transcript_dir": str(folder),
                }
            )
            rng = random.Random(f"{tag}/{case.name}")
            final: dict[str, Any] | None = None
            dice: list[Any] = []
            started = False
            while final is None:
                line = await _next(foreign, refs_done, case.grace)
                op = line.get("op")
                if op == "wire" and carrier is not None and carrier.foreign is not None:
                    await carrier.from_stdio(line["frame"])
                elif op == "joined":
                    if line.get("seat") != FOREIGN:
                        return f"the client joined as seat {line.get('seat')!r}, not {FOREIGN}"
                    for s in range(2, case.seats):
                        refs[s] = await RelayClient.connect(url, timeouts=case.timeouts)
                        await refs[s].signup(f"{tag}r{s}", PASSWORD)
                        await refs[s].join_room(room.code)
                    while len(refs[0].roster) < case.seats:
                        await refs[0].next_event(10.0)
                    for s, client in refs.items():
                        thrown[s], views[s] = [], {}
                        tasks.append(
                            asyncio.create_task(
                                _reference(
                                    client,
                                    case.behave.get(s),
                                    f"{tag}/{s}",
                                    thrown[s],
                                    views[s],
                                )
                            )
                        )
                    finished = _all_finished(list(refs.values()), case.limit, refs_done)
                    tasks.append(asyncio.create_task(finished))
                    await refs[0].start()
                elif op == "started":
                    started = True
                elif op == "round" and line.get("throw") == case.leave_at:
                    foreign.send({"op": "leave"})
                elif op == "round" and line.get("throw") == case.cut_at and carrier:
                    await carrier.cut()
                    rounds.append(line)
                    c = choose(line, rng)
                    foreign.send(
                        {"op": "choose", "pass": c.pass_amount, "dont_pass": c.dont_pass_amount}
                    )
                elif op == "round" and line.get("throw") == case.lose_at and carrier:
                    await carrier.drop()  # then the usual answer, which an ended client ignores
                    c = choose(line, rng)
                    foreign.send(
                        {"op": "choose", "pass": c.pass_amount, "dont_pass": c.dont_pass_amount}
                    )
                elif op == "round":
                    rounds.append(line)
                    c = choose(line, rng)
                    foreign.send(
                        {"op": "choose", "pass": c.pass_amount, "dont_pass": c.dont_pass_amount}
                    )
                elif op == "throw":
                    dice.append(line.get("dice"))
                elif op in ("complete", "ended"):
                    final = line
                elif op == "error" and case.lying_roster:
                    if started or line.get("code") != "bad_roster":
                        return f"the client should not start, and say bad_roster: {line!r:.200}"
                    return None
                elif op == "error":
                    return f"the client reports an error: {line.get('code')}: {line.get('message')}"
                else:
                    return f"unexpected line {line!r:.200}"
            if not started:
                return "the client never said the session started"
            if case.redirect and not (carrier is not None and carrier.asked_again):
                return "the client did not send its join_room again after the redirect"
            for client in refs.values():
                await client.wait_finished(case.limit)
    except _Failure as failure:
        return str(failure)
    except TimeoutError:
        return f"the session did not end within {case.limit:g} s"
    finally:
        for task in tasks:
            task.cancel()
        for client in refs.values():
            await client.close()
        if carrier is not None:
            await carrier.close()
        await foreign.close()
    return _judge(case, final, dice, refs, thrown) or _views(case, rounds, views)


def _views(
    case: Case, rounds: list[dict[str, Any]], views: dict[int, dict[int, Any]]
) -> str | None:
    """Each ``round`` line of the client shows what the reference reconstructs for seat 1."""
    honest = [s for s in views if s not in case.behave]
    for line in rounds if honest else []:
        throw = line.get("throw")
        expected = views[honest[0]].get(throw) if type(throw) is int else None
        if expected is not None and line != expected:
            return f"the client's round line {line} differs from the reference's {expected}"
    return None


def _judge(
    case: Case,
    final: dict[str, Any],
    dice: list[Any],
    refs: dict[int, RelayClient],
    thrown: dict[int, list[Any]],
) -> str | None:
    honest = [s for s in refs if s not in case.behave]
    if honest and dice != thrown[honest[0]][: len(dice)]:
        return f"the client's dice {dice} differ from the reference's {thrown[honest[0]]}"
    if case.ending is None:
        # a reference that lies only in its receipt still computed the true result itself
        peer = refs[honest[0] if honest else 0].peer
        assert peer is not None
        result = peer.result
        if final.get("op") != "complete" or result is None:
            return f"the session should complete, the client says {final!r:.300}"
        if final.get("final") != list(result.final) or final.get("ranks") != list(result.ranks):
            return f"final {final.get('final')} ranks {final.get('ranks')}, reference {result}"
        if final.get("receipts") != case.receipts:
            return f"receipts {final.get('receipts')!r}, not {case.receipts}"
        if case.receipts == "matched" and any(
            c.peer is None
            or c.peer.receipt_status is None
            or c.peer.receipt_status.value != "matched"
            for c in refs.values()
        ):
            return "a reference peer's receipts did not match the client's"
    else:
        got = (final.get("reason"), final.get("seat"))
        if final.get("op") != "ended" or got != case.ending:
            return f"the client should end {case.ending}, it says {final!r:.300}"
        if case.reporter is not None and final.get("reporter") != case.reporter:
            return f"reporter {final.get('reporter')!r}, expected seat {case.reporter}"
        if case.proven is not None and final.get("proven") is not case.proven:
            return f"proven {final.get('proven')!r}, expected {case.proven}"
    path = final.get("transcript")
    if path:
        report = verify_transcript(path)
        # a completed session whose receipts did not match reads INCOMPLETE (ONLINE.md §8), and
        # so does a session that stopped where the client's own connection was lost
        complete = (case.ending is not None or case.receipts == "matched") and not case.lose_at
        if not (report.ok and report.complete == complete):
            want = "OK" if complete else "INCOMPLETE"
            return f"the client's transcript should verify {want}: {report.text()[:300]}"
    return None


async def run_clients(
    commands: dict[str, list[str]], only: str | None, fail_fast: bool
) -> tuple[int, int]:
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="online-harness-") as tmp:
        config = RelayConfig(hash_params=FAST_HASH, **LOOPBACK_TESTS)
        async with running_relay(Path(tmp) / "relay.sqlite3", config=config) as relay:
            for label, command in commands.items():
                for number, case in enumerate(CASES):
                    if only is not None and only not in case.name:
                        continue
                    folder = Path(tmp) / f"{label}-{number}"
                    folder.mkdir()
                    tag = f"{label[:3]}{number}"
                    problem = await run_case(case, command, relay.url, tag, folder)
                    if problem is None:
                        passed += 1
                        print(f"ok {label} {case.name}", flush=True)
                    else:
                        failed += 1
                        print(f"FAIL {label} {case.name}: {problem}", flush=True)
                        if fail_fast:
                            return passed, failed
    return passed, failed


def run_verifier(command: list[str], fail_fast: bool) -> tuple[int, int]:
    """Every transcript vector through a foreign verifier, one line at a time: its verdicts
    must be ours (a verifier that stops answering fails the rest)."""
    cases = load("transcripts")
    proc = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8"
    )
    assert proc.stdin is not None and proc.stdout is not None
    passed = failed = 0
    try:
        for case in cases:
            got: object = None
            try:
                line = {
                    "transcript": case["input"]["transcript"],
                    "relay_key": case["input"]["relay_key"],
                }
                proc.stdin.write(json.dumps(line) + "\n")
                proc.stdin.flush()
                answer = json.loads(proc.stdout.readline())
                got = answer.get("verdict") if isinstance(answer, dict) else None
            except (OSError, ValueError):
                pass
            want = case["expect"]["verdict"]
            if got == want:
                passed += 1
                continue
            failed += 1
            print(f"FAIL verify {case['name']}: {got!r}, expected {want}", flush=True)
            if fail_fast:
                break
    finally:
        with contextlib.suppress(OSError):
            proc.stdin.close()
        try:
            proc.wait(5.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    print(f"verify: {passed} of {len(cases)} transcript vectors agree", flush=True)
    return passed, failed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pointline.conformance.online.harness")
    parser.add_argument(
        "--client",
        action="append",
        metavar="COMMAND",
        help="a client speaking HARNESS.md over stdio (repeatable)",
    )
    parser.add_argument(
        "--verifier",
        metavar="COMMAND",
        help="a verifier: one transcript line in, one verdict line out",
    )
    parser.add_argument(
        "--relay",
        metavar="COMMAND",
        help="a relay, started as COMMAND --port PORT --data FOLDER --test-profile (HARNESS.md)",
    )
    parser.add_argument("--case", help="only the cases whose name holds this text")
    parser.add_argument("--fail-fast", action="store_true", help="stop at the first failure")
    args = parser.parse_args(argv)
    verifier: list[str] | None = REFERENCE_VERIFIER
    relay: list[str] | None = REFERENCE_RELAY
    if args.client is None and args.verifier is None and args.relay is None:
        clients = dict(REFERENCE_CLIENTS)
    else:
        clients = {f"client{i + 1}": shlex.split(c) for i, c in enumerate(args.client or [])}
        verifier = shlex.split(args.verifier) if args.verifier else None
        relay = shlex.split(args.relay) if args.relay else None
    passed = failed = 0
    if relay is not None:
        passed, failed = asyncio.run(run_relay(relay, args.case, args.fail_fast))
    if clients and not (args.fail_fast and failed):
        p, f = asyncio.run(run_clients(clients, args.case, args.fail_fast))
        passed, failed = passed + p, failed + f
    if verifier is not None and not (args.fail_fast and failed):
        p, f = run_verifier(verifier, args.fail_fast)
        passed, failed = passed + p, failed + f
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
