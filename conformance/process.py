"""The implementation under test as a process: started, greeted, fed requests over stdin with
a window of requests in flight, and read back line by line with a time limit. A crash, garbage
on stdout, a wrong ``id`` or a hang is an ``ImplFailure`` (standard library only)."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from typing import IO, Any

from pointline.conformance.codec import PROTOCOL, PROTOCOLS
from pointline.conformance.errors import ImplFailure

__all__ = ["WINDOW", "Implementation", "default_command"]

WINDOW = 32
"""Requests sent ahead of the responses read (well inside any pipe buffer)."""
_EOF = object()


def default_command() -> list[str]:
    return [sys.executable, "-m", "pointline.conformance.adapter"]


class Implementation:
    """A running implementation: requests out on stdin, responses in from stdout."""

    def __init__(self, argv: list[str], timeout: float, protocol: int = PROTOCOL) -> None:
        self.argv = argv
        self.timeout = timeout
        self.max_protocol = protocol
        self.protocol: int | None = None
        """The version agreed on at the first handshake (kept for every restart)."""
        self.proc: subprocess.Popen[bytes] | None = None
        self.lines: queue.Queue[Any] = queue.Queue()
        self.stderr: deque[str] = deque(maxlen=30)
        self.next_id = 0
        self.hello: dict[str, Any] | None = None
        self.starts = 0

    # ------------------------------------------------------------------ process
    def start(self) -> None:
        """Start the implementation and shake hands.

        The first start asks for the newest protocol; an implementation that refuses it is
        started again and asked for protocol 1 (a version-1 adapter refuses any other). Every
        later start asks for the version agreed on then."""
        want = self.protocol or self.max_protocol
        reply = self._launch(want)
        refused = not isinstance(reply, dict) or reply.get("ok") is not True
        if refused and self.protocol is None and want > 1:
            want = 1
            reply = self._launch(want)
        if not isinstance(reply, dict) or reply.get("ok") is not True:
            raise ImplFailure(f"handshake refused: {reply!r}")
        got = reply.get("protocol")
        # The version answered is the one asked for, as a JSON integer: another version (older
        # or newer), ``true`` or ``1.0`` is a failed handshake, never a version agreed on.
        if type(got) is not int or got not in PROTOCOLS or got != want:
            raise ImplFailure(f"handshake: protocol {got!r}, want {want}")
        if self.protocol is not None and got != self.protocol:
            raise ImplFailure(f"handshake: protocol {got!r}, agreed on {self.protocol} before")
        self.protocol = got
        self.hello = {k: reply.get(k) for k in ("implementation", "language", "version")}

    def _launch(self, protocol: int) -> Any:
        """A fresh process and its answer to ``hello`` for ``protocol``."""
        self.stop()
        env = dict(os.environ)
        self.lines = queue.Queue()
        self.starts += 1
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                start_new_session=True,
            )
        except OSError as error:
            raise ImplFailure(f"cannot start {shlex.join(self.argv)}: {error}") from None
        assert self.proc.stdout is not None and self.proc.stderr is not None
        threading.Thread(
            target=self._read, args=(self.proc.stdout, self.lines), daemon=True
        ).start()
        threading.Thread(target=self._drain, args=(self.proc.stderr,), daemon=True).start()
        return self.call([{"op": "hello", "protocol": protocol}])[0]

    @staticmethod
    def _read(stream: IO[bytes], lines: queue.Queue[Any]) -> None:
        for line in stream:
            lines.put(line)
        lines.put(_EOF)

    def _drain(self, stream: IO[bytes]) -> None:
        for line in stream:
            self.stderr.append(line.decode("utf-8", "replace").rstrip())

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, 9)
            except OSError:
                proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)

    def _tail(self) -> str:
        return ("; stderr: " + " | ".join(list(self.stderr)[-5:])) if self.stderr else ""

    # ------------------------------------------------------------------ requests
    def send(self, request: dict[str, Any]) -> int:
        if self.proc is None or self.proc.stdin is None:
            raise ImplFailure("the implementation is not running")
        self.next_id += 1
        raw = request.get("raw")
        if isinstance(raw, str):  # sent as written: number tokens such as 1e1, -0 or 10.0
            data = f'{{"id":{self.next_id},{raw[1:]}'
        else:
            data = json.dumps(
                dict(request, id=self.next_id), separators=(",", ":"), ensure_ascii=False
            )
        try:
            self.proc.stdin.write(data.encode("utf-8") + b"\n")
            self.proc.stdin.flush()
        except OSError:
            raise ImplFailure(self._exited("while reading requests")) from None
        return self.next_id

    def _exited(self, when: str) -> str:
        code = self.proc.poll() if self.proc else None
        return f"the implementation exited ({code}) {when}{self._tail()}"

    def receive(self, want: int) -> dict[str, Any]:
        """The response to request ``want`` (earlier, abandoned responses are skipped)."""
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0.0))
            except queue.Empty:
                raise ImplFailure(
                    f"no response within {self.timeout:g} s (hang){self._tail()}"
                ) from None
            if line is _EOF:
                if self.proc is not None:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        self.proc.wait(timeout=1)
                raise ImplFailure(self._exited("before answering"))
            try:
                response = json.loads(line)
            except ValueError:
                text = line[:200].decode("utf-8", "replace").rstrip()
                raise ImplFailure(
                    f"garbage on stdout (not one JSON object a line): {text!r}"
                ) from None
            if not isinstance(response, dict) or type(response.get("id")) is not int:
                raise ImplFailure(f"a response without an integer id: {str(response)[:200]}")
            if response["id"] < want:
                continue
            if response["id"] != want:
                raise ImplFailure(f"response id {response['id']} where {want} was due")
            return response

    def call(self, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return list(self.stream(requests))

    def stream(self, requests: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        """Responses in order, with up to ``WINDOW`` requests in flight."""
        ids: deque[int] = deque()
        sent = 0
        for _ in range(len(requests)):
            while sent < len(requests) and len(ids) < WINDOW:
                ids.append(self.send(requests[sent]))
                sent += 1
            yield self.receive(ids.popleft())
