"""A relay that dies: before the room starts, the wait ends at once; mid-session, the headless
player says the relay connection was lost (the README's words); a request cut short and a
refused port read as plain words, never websockets' or the system's own text (issue 33
R4-R6)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from websockets.asyncio.server import ServerConnection, serve

from pointline.kernel import Choice
from pointline.net.client._headless import main
from pointline.net.client._relay_client import ClientError, RelayClient
from pointline.net.client._verify_command import verify_transcript
from pointline.net.protocol._events import RoundOpened, Thrown, Timeouts
from tests.net.support import PASSWORD, run

LOST_BEFORE_START = "The relay connection was lost before the session started."
RELAXED_CHOICE = Choice(10, 0)
PATIENT = Timeouts(confirm=300.0, response=300.0, session=900.0, receipts=300.0)
"""The test's own player never reaches a deadline before the relay is killed, however slow
the machine: the session can only end by the lost relay."""
MACHINE = ("Errno", "no close frame", "connection lost (", "Seat 0", "reported by that seat")


class Proc:
    """A child process whose output lines are read as they come."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: list[str] = []

    async def line_matching(self, pattern: str, timeout: float = 30.0) -> re.Match[str]:
        assert self.proc.stdout is not None
        async with asyncio.timeout(timeout):
            while True:
                line = (await self.proc.stdout.readline()).decode()
                assert line, f"the process ended early: {self.lines}"
                self.lines.append(line)
                found = re.search(pattern, line)
                if found:
                    return found

    async def rest(self, timeout: float) -> str:
        """Everything it prints until it exits within ``timeout`` seconds."""
        out, _ = await asyncio.wait_for(self.proc.communicate(), timeout)
        return "".join(self.lines) + out.decode()


async def spawn(*args: str) -> Proc:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env=dict(os.environ),
    )
    return Proc(proc)


@asynccontextmanager
async def relay_process(tmp_path: Path) -> AsyncIterator[tuple[Proc, str]]:
    relay = await spawn("-m", "pointline.net.relay", "--port", "0", "--db", str(tmp_path / "r.db"))
    try:
        url = (await relay.line_matching(r"(ws://\S+)")).group(1)
        yield relay, url
    finally:
        if relay.proc.returncode is None:
            relay.proc.kill()
        await relay.proc.wait()


def kill(proc: Proc) -> None:
    os.kill(proc.proc.pid, signal.SIGKILL)  # as a crash does: no close frame, no goodbye


def headless(url: str, name: str, *more: str) -> list[str]:
    return ["-m", "pointline.net.client", "--url", url, "--name", name, "--signup", *more]


def test_a_relay_killed_before_the_start_ends_both_waits_at_once(
    tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R4: the creator waiting for people and a joiner waiting for the start both stop at
    once with the README's words, long before their --wait (600 s by default)."""

    monkeypatch.setenv("POINTLINE_PASSWORD", PASSWORD)

    async def scenario() -> None:
        async with relay_process(tmp_path) as (relay, url):
            creator = await spawn(*headless(url, "alice", "--seats", "3"))
            code = (await creator.line_matching(r"room code: (\w+)")).group(1)
            joiner = await spawn(*headless(url, "bob", "--join", code))
            await joiner.line_matching(r"joined room")
            await creator.line_matching(r"2 in the room")
            kill(relay)
            outs = await asyncio.gather(creator.rest(10), joiner.rest(10))
            for proc, out in zip((creator, joiner), outs, strict=True):
                assert proc.proc.returncode == 2, out
                assert f"pointline-client: {LOST_BEFORE_START}" in out, out
                assert "Nobody else joined" not in out
                assert not any(m in out for m in MACHINE), out

    run(scenario(), timeout=60)


def test_a_relay_killed_mid_session_reads_as_the_lost_relay_connection(
    tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R5: the headless player says the relay connection was lost, not a departure from its
    own seat; its transcript reads INCOMPLETE, the relay was lost."""

    monkeypatch.setenv("POINTLINE_PASSWORD", PASSWORD)

    async def scenario() -> None:
        async with relay_process(tmp_path) as (relay, url):
            player = await spawn(*headless(url, "carol"))
            code = (await player.line_matching(r"room code: (\w+)")).group(1)
            other = await RelayClient.connect(url, PATIENT)
            try:
                await other.signup("dave", PASSWORD)
                await other.join_room(code)
                await other.wait_started(20)
                async with asyncio.timeout(20):  # dave commits throw 1 only, then waits
                    async for event in other.events():
                        peer = other.peer
                        if isinstance(event, RoundOpened) and event.throw == 1 and peer:
                            other.commit(RELAXED_CHOICE)
                        if isinstance(event, Thrown):
                            break
                await player.line_matching(r"throw 1: ")
                kill(relay)
                out = await player.rest(15)
            finally:
                await other.close()
            assert player.proc.returncode == 1, out
            assert "session ended without a result: the relay connection was lost" in out, out
            assert not any(m in out for m in MACHINE), out
            saved = re.search(r"transcript saved: (\S+)", out)
            assert saved is not None, out
            report = verify_transcript(saved.group(1))
            assert report.text().startswith("INCOMPLETE: "), report.text()
            assert "the relay was lost after throw 1;" in report.summary

    run(scenario(), timeout=60)


@pytest.fixture
def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_refused_port_reads_as_plain_words(
    free_port: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """R6: nothing listens there: no "[Errno 111]", no "Connect call failed"."""
    argv = ["--url", f"ws://127.0.0.1:{free_port}", "--name", "erin", "--password", PASSWORD]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == (
        f"pointline-client: Cannot reach the relay at ws://127.0.0.1:{free_port}: nothing "
        "answers at that address and port (is the relay running?).\n"
    )


def test_a_request_cut_short_by_a_dropped_connection_reads_as_plain_words() -> None:
    """R6: the connection drops (no close frame) while a request waits for its answer: the
    error says the relay connection was lost, not websockets' "no close frame received"."""

    async def scenario() -> None:
        got: list[ServerConnection] = []

        async def handler(ws: ServerConnection) -> None:
            got.append(ws)
            await ws.recv()  # the sign-in arrives; the relay dies before it answers
            ws.transport.abort()

        async with serve(handler, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            client = await RelayClient.connect(f"ws://127.0.0.1:{port}")
            with pytest.raises(ClientError) as caught:
                await client.signin("frank", PASSWORD)
            await client.close()
        assert caught.value.text == "The relay connection was lost."
        assert client.connection_lost

    run(scenario(), timeout=20)


def test_a_missing_certificate_file_reads_as_plain_words(tmp_path: Path) -> None:
    """R6: a --ca file that is not there or holds no certificate: no "[Errno 2]", no SSL
    library text."""
    from pointline.net.client._connection import tls_client_context

    missing, junk = tmp_path / "missing.pem", tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    expected = {
        missing: f"Cannot read the certificate file {missing}: there is no such file.",
        junk: f"Cannot read the certificate file {junk}: it holds no certificate in PEM form.",
    }
    for path, words in expected.items():
        with pytest.raises(ClientError) as caught:
            tls_client_context(str(path))
        assert caught.value.text == words
