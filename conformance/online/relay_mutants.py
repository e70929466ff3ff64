"""Deliberately wrong reference relays, each made at run time by monkeypatching (never by editing
a file) in the relay's own process, and each killed by a small subset of the relay cases.

    python -m pointline.conformance.online.relay_mutants            # every relay mutant, kills
    python -m pointline.conformance.online.relay_mutants NAME ...   # only these
    python -m pointline.conformance.online.relay_mutants --serve NAME RELAY-ARGS...
                                                # (internal) the reference relay as mutant NAME
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from pointline.conformance.online.registry import set_attr
from pointline.conformance.online.relay_harness import run_relay

__all__ = ["RELAY_MUTANTS", "RelayMutant", "run_relay_mutants", "serve"]

AT_ONCE: Final = 24
"""Mutant relays checked at once (each a relay process; the cases mostly wait)."""
STARTING_AT_ONCE: Final = 4
"""How many mutant relays may be starting at once: 23 Pythons importing side by side on a
loaded 2-core machine took over the 30 s start deadline (a 'FAIL relay start' is no kill)."""


@dataclass(frozen=True, slots=True)
class RelayMutant:
    text: str
    cases: str
    """The relay cases that must catch it: those whose name holds this text."""
    patch: Callable[[], None]


RELAY_MUTANTS: dict[str, RelayMutant] = {}


def _mutant(name: str, text: str, cases: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    def register(patch: Callable[[], None]) -> Callable[[], None]:
        RELAY_MUTANTS[name] = RelayMutant(text, cases, patch)
        return patch

    return register


def _with(action: Any, **changes: Any) -> Any:
    return replace(action, **changes)


@_mutant(
    "forward_before_start",
    "a send from a seated member is forwarded before the room has started",
    "relay.forward.not_started",
)
def _forward_before_start() -> None:
    from pointline.net.relay import _core

    original = _core.RelayCore._forward

    def forward(self: Any, conn: int, payload: Any, raw: Any) -> Any:
        room = self.rooms.room_of(conn)
        if room is not None and not room.started:
            room.table_id = "unstarted"  # forwarded as if started
            try:
                return original(self, conn, payload, raw)
            finally:
                room.table_id = None
        return original(self, conn, payload, raw)

    set_attr(_core.RelayCore, "_forward", forward)


@_mutant(
    "forward_to_sender",
    "a send is delivered to its sender as well",
    "relay.forward.unchanged",
)
def _forward_to_sender() -> None:
    from pointline.net.relay import _core

    original = _core.RelayCore._forward

    def forward(self: Any, conn: int, payload: Any, raw: Any) -> Any:
        actions: list[Any] = original(self, conn, payload, raw)
        return [_with(a, conns=(*a.conns, conn)) for a in actions]

    set_attr(_core.RelayCore, "_forward", forward)


@_mutant(
    "deliver_wrong_seat",
    "deliver names the seat after the sender's as from_seat",
    "relay.forward.unchanged",
)
def _deliver_wrong_seat() -> None:
    from pointline.net.relay import _core

    original = _core.RelayCore._forward

    def forward(self: Any, conn: int, payload: Any, raw: Any) -> Any:
        wrong = b'"from_seat":1'  # seat s becomes 1s (seat 1: 11)
        actions: list[Any] = original(self, conn, payload, raw)
        return [_with(a, data=a.data.replace(b'"from_seat":', wrong, 1)) for a in actions]

    set_attr(_core.RelayCore, "_forward", forward)


@_mutant(
    "signin_deadline_missed",
    "a socket that never signs in is never closed (the sign-in deadline is missed)",
    "relay.limits.signin_deadline",
)
def _signin_deadline_missed() -> None:
    from pointline.net.relay import _core

    original = _core.RelayCore.opened

    def opened(self: Any, address: str, now: float, accepted: float | None = None) -> int:
        conn: int = original(self, address, now, accepted)
        self.sessions[conn].signin_by = float("inf")  # its deadline never comes
        return conn

    set_attr(_core.RelayCore, "opened", opened)


@_mutant(
    "room_cap_nine",
    "the room cap counts one too many: a ninth member is seated",
    "relay.rooms.cap_eight",
)
def _room_cap_nine() -> None:
    from pointline.net.relay import _rooms

    set_attr(_rooms, "MAX_MEMBERS", 9)


@_mutant(
    "burst_counts_wrong",
    "the frame budget's burst is the sustained rate (100), not twice it",
    "relay.limits.rate",
)
def _burst_counts_wrong() -> None:
    from pointline.net.relay import _core

    original = _core.TokenBucket.__init__

    def init(self: Any, rate: float, burst: float, now: float) -> None:
        original(self, rate, rate, now)

    set_attr(_core.TokenBucket, "__init__", init)


@_mutant(
    "roster_wrong_bytes",
    "the roster is signed over the wrong bytes (without the table id)",
    "relay.start.roster_sig",
)
def _roster_wrong_bytes() -> None:
    from pointline.net.relay import _core

    original = vars(_core)["roster_signing_bytes"]

    def signing_bytes(table_id: str, members: Any, host: str | None) -> bytes:
        return bytes(original("", members, host))

    set_attr(_core, "roster_signing_bytes", signing_bytes)


@_mutant(
    "started_id_to_everyone",
    "every member's started carries the creator's request id",
    "relay.start.roster_sig",
)
def _started_id_to_everyone() -> None:
    from pointline.net.relay import _core

    original = vars(_core)["Started"]

    def started(*args: Any) -> Any:
        code, table_id, seat, roster, sig, answer, host = args
        return original(code, table_id, seat, roster, sig, answer if answer else 1, host)

    set_attr(_core, "Started", started)


@_mutant(
    "departure_unannounced",
    "a member leaving a started room is not announced to the others",
    "relay.leave.departed",
)
def _departure_unannounced() -> None:
    from pointline.net.relay import _core

    original = _core.RelayCore.leave

    def leave(self: Any, conn: int) -> list[Any]:
        room = self.rooms.room_of(conn)
        actions = original(self, conn)
        return [] if room is not None and room.started else actions

    set_attr(_core.RelayCore, "leave", leave)


@_mutant(
    "resume_forgets_missed",
    "a seat taken back with resume is not sent the deliveries it missed",
    "relay.resume.held",
)
def _resume_forgets_missed() -> None:
    from pointline.net.relay import _rooms

    set_attr(_rooms.Room, "missed", lambda self, seat, received: [])


@_mutant(
    "resume_forgets_departures",
    "a seat taken back with resume is not sent the departures announced while it was held",
    "relay.resume.departed",
)
def _resume_forgets_departures() -> None:
    from pointline.net.relay import _rooms

    set_attr(_rooms.Member, "departures", property(lambda self: [], lambda self, value: None))


@_mutant(
    "signout_keeps_token",
    "signout answers signed_out but the token stays live",
    "relay.tokens.signout",
)
def _signout_keeps_token() -> None:
    from pointline.net.relay import _accounts

    set_attr(_accounts.Accounts, "signout", lambda self, token: self.lookup(token) is not None)


@_mutant(
    "signin_count_one_more",
    "the per-connection sign-in count lets an eleventh attempt through",
    "relay.limits.signin_limited",
)
def _signin_count_one_more() -> None:
    from pointline.net.relay import _core

    original = _core.RelayCore.__init__

    def init(self: Any, *args: Any, **kw: Any) -> None:
        original(self, *args, **kw)
        self.auth.limit += 1

    set_attr(_core.RelayCore, "__init__", init)


@_mutant(
    "slow_reader_kept",
    "a reader that stops reading is never cut (its frames pile up)",
    "relay.limits.slow_reader",
)
def _slow_reader_kept() -> None:
    from pointline.net.relay import _core

    set_attr(_core.RelayCore, "outbox", lambda self, conn, frames, since, now: [])


@_mutant(
    "connection_cap_one_more",
    "the cap on open sockets counts one too few: a 65th socket is served",
    "relay.limits.connection_cap",
)
def _connection_cap_one_more() -> None:
    from pointline.net.relay import _conn

    original = _conn.ConnectionGate.admit

    def admit(self: Any, address: str) -> str | None:
        self.total -= 1
        try:
            refusal: str | None = original(self, address)
            return refusal
        finally:
            self.total += 1

    set_attr(_conn.ConnectionGate, "admit", admit)


@_mutant(
    "key_new_each_start",
    "the relay makes a new key each time it starts (not kept in its data folder)",
    "relay.key.restart",
)
def _key_new_each_start() -> None:
    from pointline.net.protocol._keys import SigningKey
    from pointline.net.relay import _accounts

    key = SigningKey.generate()
    set_attr(_accounts.Accounts, "relay_key", lambda self: key)


@_mutant(
    "stop_closes_normally",
    "the relay stops with close code 1000 (normal), not 1001 (going away)",
    "relay.stop.going_away",
)
def _stop_closes_normally() -> None:
    from websockets.asyncio.server import Server

    original = Server.close

    def close(self: Any, close_connections: bool = True, code: int = 1000, reason: str = "") -> Any:
        return original(self, close_connections, 1000, reason)

    set_attr(Server, "close", close)


@_mutant(
    "bad_frame_without_id",
    "a bad_frame never carries the refused frame's id, even when the id was valid",
    "relay.frames.bad_frame",
)
def _bad_frame_without_id() -> None:
    from pointline.net.relay import _core

    original = vars(_core)["error"]

    def error(code: Any, message: str, request_id: Any = None, retry_after: Any = None) -> Any:
        if code.value == "bad_frame":
            request_id = None
        return original(code, message, request_id, retry_after)

    set_attr(_core, "error", error)


@_mutant(
    "names_compare_exactly",
    "sign-in compares account names with their case (ALICE is not alice)",
    "relay.signin.key_printed",
)
def _names_compare_exactly() -> None:
    from pointline.net.protocol._wire import ErrorCode
    from pointline.net.relay import _accounts

    original = _accounts.Accounts.signin

    def signin(self: Any, name: str, password: str, address: str = "") -> tuple[str, str]:
        stored, token = original(self, name, password, address)
        if stored != name:
            raise _accounts.AccountError(ErrorCode.BAD_CREDENTIALS, "wrong name or password")
        return stored, token

    set_attr(_accounts.Accounts, "signin", signin)


@_mutant(
    "room_before_token",
    "join_room looks the room up before the token (a dead token to no room is no_room)",
    "relay.frames.bad_token",
)
def _room_before_token() -> None:
    from pointline.net.protocol._wire import ErrorCode, JoinRoom, WireError
    from pointline.net.relay import _core

    original = _core.RelayCore.request

    def request(self: Any, conn: int, frame: Any) -> Any:
        if isinstance(frame, JoinRoom) and self.rooms.get(frame.code) is None:
            raise WireError(ErrorCode.NO_ROOM, "no room with that code")
        return (yield from original(self, conn, frame))

    set_attr(_core.RelayCore, "request", request)


@_mutant(
    "token_before_key",
    "a room request's token is checked before its session key's form (bad_token, not bad_key)",
    "relay.frames.bad_token",
)
def _token_before_key() -> None:
    from pointline.net.protocol import _wire
    from pointline.net.relay import _core

    check_key = _wire.check_key
    set_attr(_wire, "check_key", lambda key: key)  # parsed without its form
    original = _core.RelayCore.request

    def request(self: Any, conn: int, frame: Any) -> Any:
        if isinstance(frame, (_wire.CreateRoom, _wire.JoinRoom, _wire.Resume)):
            yield from self._account(conn, frame.token)
            check_key(frame.session_key)  # then bad_key
        return (yield from original(self, conn, frame))

    set_attr(_core.RelayCore, "request", request)


@_mutant(
    "key_form_unchecked",
    "a session key of any form is taken (no bad_key): upper-case hex makes a room",
    "relay.rooms.create_join",
)
def _key_form_unchecked() -> None:
    from pointline.net.protocol import _wire

    set_attr(_wire, "check_key", lambda key: key)


@_mutant(
    "account_before_started",
    "a join checks duplicate_account before room_started",
    "relay.rooms.refusals",
)
def _account_before_started() -> None:
    from pointline.net.protocol._wire import ErrorCode
    from pointline.net.relay import _rooms

    original = _rooms.Rooms.join

    def join(self: Any, conn: int, name: str, session_key: str, code: str) -> Any:
        room = None if self.room_of(conn) is not None else self.get(code)  # in_room first
        if room is not None and any(m.name.casefold() == name.casefold() for m in room.members):
            raise _rooms.RoomError(ErrorCode.DUPLICATE_ACCOUNT, "this account already has a seat")
        return original(self, conn, name, session_key, code)

    set_attr(_rooms.Rooms, "join", join)


@_mutant(
    "max_size_ignored",
    "a frame over --max-size is taken (the cap is 16 MiB whatever the flag says)",
    "relay.limits.max_size",
)
def _max_size_ignored() -> None:
    from pointline.net.relay import _core

    original = _core.RelayConfig.__init__

    def init(self: Any, *args: Any, **kw: Any) -> None:
        original(self, *args, **kw)
        object.__setattr__(self, "max_size", 16 * 1024 * 1024)

    set_attr(_core.RelayConfig, "__init__", init)


# ------------------------------------------------------------------------------ running


def serve(name: str, relay_args: list[str]) -> int:
    """The reference relay, as mutant ``name``, with the relay command line ``relay_args``."""
    RELAY_MUTANTS[name].patch()
    from pointline.net.relay._cli import main

    return main(relay_args)


async def run_relay_mutants(names: Sequence[str]) -> dict[str, tuple[bool, str]]:
    """Each mutant relay against its case subset (at most ``AT_ONCE`` at a time): name ->
    (killed, what the harness printed)."""
    slots = asyncio.Semaphore(AT_ONCE)
    starts = asyncio.Semaphore(STARTING_AT_ONCE)

    async def one(name: str) -> tuple[str, tuple[bool, str]]:
        command = [sys.executable, "-m", "pointline.conformance.online.relay_mutants"]
        lines: list[str] = []
        async with slots:
            _, failed = await run_relay(
                [*command, "--serve", name],
                RELAY_MUTANTS[name].cases,
                True,
                lines.append,
                starts,
            )
        return name, (failed > 0, "\n".join(lines))

    return dict(await asyncio.gather(*(one(n) for n in names)))


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--serve"] and len(argv) >= 2:
        return serve(argv[1], argv[2:])
    parser = argparse.ArgumentParser(prog="python -m pointline.conformance.online.relay_mutants")
    parser.add_argument("names", nargs="*", help="only these mutants")
    args = parser.parse_args(argv)
    names = args.names or list(RELAY_MUTANTS)
    results = asyncio.run(run_relay_mutants(names))
    for name in names:
        killed, _ = results[name]
        m = RELAY_MUTANTS[name]
        print(f"{'killed' if killed else 'SURVIVED'} {name} ({m.cases}): {m.text}")
    survivors = [n for n in names if not results[n][0]]
    print(f"{len(names) - len(survivors)}/{len(names)} killed")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
