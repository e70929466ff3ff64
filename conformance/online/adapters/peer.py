"""The sans-IO adapter: ``net.protocol._peer.Peer`` behind the stdio interface, with no sockets.

It answers ``hello`` with ``"transport": "stdio"``, so the harness opens the relay connection
for it and carries every relay frame as a ``wire`` line. The clock is ``time.monotonic``; the
only waiting is on stdin, until the peer's next deadline.

    python -m pointline.conformance.online.adapters.peer [--mutant NAME]
"""

from __future__ import annotations

import os
import select
import sys
import time
from pathlib import Path
from typing import Any

from pointline.conformance.online import stdio
from pointline.conformance.online.adapters.options import adapter_options
from pointline.kernel import Choice
from pointline.net.client._transcript_file import save_transcript
from pointline.net.errors import RosterError
from pointline.net.protocol._keys import SigningKey
from pointline.net.protocol._peer import Peer, Timeouts, roster_from_wire
from pointline.net.protocol._relay_json import decode_relay

__all__ = ["Adapter", "main"]


class Adapter:
    def __init__(self) -> None:
        self.peer: Peer | None = None
        self.key = SigningKey.generate()
        self.play: dict[str, Any] = {}
        self.token = ""
        self.path: Path | None = None
        self.done = False
        self.requests: dict[int, dict[str, Any]] = {}
        self.received = 0  # deliver frames of the room (resume's count)
        self.sends: list[dict[str, Any]] = []  # every send of the room, for a resume
        self.resuming = False

    def wire(self, frame: dict[str, Any]) -> None:
        if "id" in frame:
            self.requests[frame["id"]] = frame  # sent again after a redirect
        if frame.get("op") == "send":
            self.sends.append(frame)
            if self.resuming:
                return  # sent after resumed, by the relay's count
        stdio.emit({"op": "wire", "frame": frame})

    def on_line(self, doc: dict[str, Any]) -> None:
        op = doc.get("op")
        if op == "hello":
            stdio.emit({"op": "hello", "interface": stdio.INTERFACE, "transport": "stdio"})
        elif op == "play":
            self.play = doc
            self.wire({"op": "signup", "name": doc["name"], "password": doc["password"], "id": 1})
        elif op == "choose" and self.peer is not None:
            if self.peer.is_live and not self.peer.has_committed:  # else the round is over
                self.peer.commit(Choice(doc["pass"], doc["dont_pass"]), time.monotonic())
                self.after()
        elif op == "leave" and self.peer is not None:
            self.peer.depart(self.peer.seat, time.monotonic())  # my notice, then the ending
            self.after()
            self.wire({"op": "leave"})
        elif op == "wire":
            self.on_frame(doc["frame"])
        elif op == "dropped":
            # the connection died with no close frame; the harness carries a fresh one: take
            # the seat back (ONLINE.md "A blip is not a departure")
            self.resuming = True
            resume = {
                "op": "resume",
                "token": self.token,
                "code": self.play["code"],
                "session_key": self.key.public_hex,
                "received": self.received,
                "id": 3,
            }
            stdio.emit({"op": "wire", "frame": resume})
        elif op == "closed" and self.peer is not None:
            # the harness lost this client's relay connection: my own departure, no notice
            self.peer.lose_connection(time.monotonic())
            self.after()

    def on_frame(self, frame: dict[str, Any]) -> None:
        op, now = frame.get("op"), time.monotonic()
        if op == "signed_in":
            self.token = frame["token"]
            self.wire(
                {
                    "op": "join_room",
                    "token": self.token,
                    "code": self.play["code"],
                    "session_key": self.key.public_hex,
                    "id": 2,
                }
            )
        elif op == "redirect" and frame.get("id") in self.requests:
            # the harness, our connection, now reaches the relay at `url`: the same request
            # again (ONLINE.md §9, "Relay cluster"; HARNESS.md)
            self.wire(self.requests[frame["id"]])
        elif op == "room":
            stdio.emit({"op": "joined", "seat": frame["seat"]})
        elif op == "error":
            stdio.emit({"op": "error", "code": frame["code"], "message": frame["message"]})
        elif op == "started" and self.peer is None:
            t = self.play.get("timeouts") or {}
            timeouts = Timeouts(**t) if t else Timeouts()
            try:
                self.peer = Peer(
                    frame["table_id"],
                    roster_from_wire(frame["roster"]),
                    frame["seat"],
                    self.key,
                    timeouts,
                    now,
                    roster_sig=bytes.fromhex(frame["roster_sig"]),
                )
            except RosterError as error:  # not started: say so, leave the room (HARNESS.md)
                stdio.emit({"op": "error", "code": error.code, "message": error.text})
                self.wire({"op": "leave"})
                self.done = True
                return
            folder = self.play.get("transcript_dir")
            if folder:
                self.path = Path(folder) / f"{frame['table_id']}-seat{frame['seat']}.jsonl"
            stdio.emit({"op": "started", "table_id": frame["table_id"], "seat": frame["seat"]})
            self.after()
        elif op == "resumed":
            self.resuming = False
            for again in self.sends[frame["received"] :]:
                stdio.emit({"op": "wire", "frame": again})
        elif op == "deliver" and self.peer is not None:
            self.received += 1
            self.peer.receive(frame["payload"], frame["from_seat"], now)
            self.after()
        elif op == "departed" and self.peer is not None:
            self.peer.depart(frame["seat"], now)
            self.after()

    def after(self) -> None:
        peer = self.peer
        assert peer is not None
        for payload in peer.outgoing():
            self.wire({"op": "send", "payload": payload})
        events = peer.events()
        if peer.is_finished and self.path is not None:
            save_transcript(peer.transcript, self.path)
        for event in events:
            for line in stdio.lines_for(peer, event, str(self.path) if self.path else None):
                stdio.emit(line)
                self.done = self.done or line["op"] in ("complete", "ended")

    def timeout(self) -> float | None:
        if self.peer is None or self.peer.is_finished:
            return None
        deadline = self.peer.next_deadline()
        return None if deadline is None else max(0.0, deadline - time.monotonic())


def main(argv: list[str] | None = None) -> int:
    adapter_options("peer", argv)
    adapter, buffer, fd = Adapter(), b"", sys.stdin.fileno()
    while True:
        wait = adapter.timeout()
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            assert adapter.peer is not None
            adapter.peer.tick(time.monotonic())
            adapter.after()
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            return 0
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            if line.strip():
                # a wire line's frame is a relay frame: a payload that names a member twice
                # is kept as such (ONLINE.md "Peer-side trust"), never silently one value
                adapter.on_line(decode_relay(line.decode("utf-8"))[0])


if __name__ == "__main__":
    sys.exit(main())
