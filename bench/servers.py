"""Real Redis and PostgreSQL servers for ``python -m bench relay_cluster`` and the cluster tests.

Debian's ``redis-server`` and PostgreSQL 15 binaries, started in a fresh temporary folder on a
free loopback port, never a system service, and stopped at the end. PostgreSQL's ``initdb``
and ``postgres`` refuse to run as root (CI runs as root on a fresh machine), so as root they
run as ``nobody`` through ``setpriv`` (util-linux; it execs, so the process is the server
itself) in a folder handed to that user; as a normal user they
run as that user. ``kill()`` is ``kill -9``; ``start()`` again reuses the same data and port.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TypeVar

PG_BIN_DIRS = [Path(f"/usr/lib/postgresql/{v}/bin") for v in (17, 16, 15, 14, 13)]
UNPRIVILEGED = "nobody"


ROOT = Path(__file__).resolve().parents[1]


def child_env() -> dict[str, str]:
    """The environment for a relay or a helper started from here: the checkout first on
    ``PYTHONPATH`` (for ``tests`` and ``bench``), then whatever the caller had there."""
    kept = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *kept])}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def port_free(port: int) -> bool:
    """Whether a server could listen on loopback ``port`` now (nobody holds it)."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def pg_bin(name: str) -> str | None:
    for folder in PG_BIN_DIRS:
        if (folder / name).exists():
            return str(folder / name)
    return shutil.which(name)


def missing() -> str | None:
    """Why the servers cannot run here (None: they can)."""
    if shutil.which("redis-server") is None:
        return "redis-server is not installed (apt-get install redis-server)"
    if pg_bin("initdb") is None or pg_bin("postgres") is None:
        return "PostgreSQL is not installed (apt-get install postgresql)"
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        return "setpriv is missing (util-linux): PostgreSQL cannot run as root"
    return None


class Exited(RuntimeError):
    """The server process ended while it was awaited."""


class _Output(threading.Thread):
    """Reads a server's output to its end (a full pipe would stall the server) and tells when
    the server printed its readiness line."""

    def __init__(self, proc: subprocess.Popen[bytes], stream: IO[bytes], ready: bytes) -> None:
        super().__init__(daemon=True)
        self.proc, self.stream, self.marker = proc, stream, ready
        self.ready = threading.Event()
        self.last = b""
        self.start()

    def run(self) -> None:
        for line in self.stream:
            self.last = line.strip() or self.last
            if self.marker in line:
                self.ready.set()
        self.ready.set()  # the output ended: the server exited (``wait`` says so)

    def wait(self, what: str, timeout: float) -> None:
        """Until the readiness line; ``Exited`` if the server ended first."""
        if not self.ready.wait(timeout):
            raise RuntimeError(f"{what} did not say it was ready within {timeout:g} s")
        if self.proc.poll() is not None:
            raise Exited(f"{what} exited with {self.proc.returncode}: {self.last.decode()}")


def _wait(check: object, what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        try:
            if check():  # type: ignore[operator]
                return
        except Exited:
            raise
        except Exception as exc:
            last = exc
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not come up within {timeout:g} s: {last}")


class Server:
    """A server process in ``folder`` on a free loopback ``port``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the server process and wait until it answers."""
        raise NotImplementedError

    def kill(self) -> None:
        """``kill -9``."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.proc = None


class RedisServer(Server):
    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        assert self.proc.stdout is not None
        _Output(self.proc, self.proc.stdout, b"Ready to accept connections").wait("redis", 15)


class PostgresServer(Server):
    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.data = folder / "data"
        self._as: list[str] = []
        if os.geteuid() == 0:  # initdb and postgres refuse root
            uid, gid = _ids(UNPRIVILEGED)
            self._as = ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--"]
            os.chown(folder, uid, gid)
        initdb = pg_bin("initdb")
        assert initdb is not None
        subprocess.run(
            [
                *self._as,
                initdb,
                "-D",
                str(self.data),
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self._databases = 0

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        postgres = pg_bin("postgres")
        assert postgres is not None
        command = [*self._as, postgres, "-D", str(self.data), "-p", str(self.port)]
        command += ["-k", str(self.folder), "-c", "listen_addresses=127.0.0.1"]
        # fsync off: a killed server loses nothing (the OS still holds every write), only a
        # crash of the whole machine could; commits stay synchronous
        command += ["-c", "fsync=off", "-c", "full_page_writes=off", "-c", "max_connections=200"]
        # small and container-friendly: no large shared memory, none of it in /dev/shm
        command += ["-c", "shared_buffers=16MB", "-c", "dynamic_shared_memory_type=mmap"]
        for attempt in range(50):  # after kill -9 the old server may still hold its port
            _wait(lambda: port_free(self.port), f"port {self.port} to be free", 10)
            self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            assert self.proc.stderr is not None
            output = _Output(self.proc, self.proc.stderr, b"ready to accept connections")
            try:
                output.wait("postgres", 20)
                return
            except Exited:
                if attempt == 49:
                    raise

    def new_database(self) -> str:
        """A fresh empty database; its URL."""
        import psycopg

        self._databases += 1
        name = f"pointline_{os.getpid()}_{self._databases}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def kill(self) -> None:
        """``kill -9`` of the whole server: the postmaster and every backend at once (a backend
        left alone would answer one more query before it notices its postmaster is gone)."""
        if self.proc is None:
            return
        family = [self.proc.pid, *_children(self.proc.pid)]
        for pid in family:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.proc.wait(10)
        self.proc = None
        _wait(lambda: not any(Path(f"/proc/{pid}").exists() for pid in family[1:]), "exit", 10)

    def stop(self) -> None:
        if self.proc is not None:
            pg_ctl = pg_bin("pg_ctl")
            assert pg_ctl is not None
            subprocess.run(
                [*self._as, pg_ctl, "-D", str(self.data), "stop", "-m", "fast", "-w"],
                check=False,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(15)
            if self.proc.poll() is None:
                self.kill()
            self.proc = None


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def _ids(user: str) -> tuple[int, int]:
    import pwd

    entry = pwd.getpwnam(user)
    return entry.pw_uid, entry.pw_gid


@contextlib.contextmanager
def scratch(prefix: str) -> Iterator[Path]:
    """A fresh folder in the system's temporary folder (reachable by ``nobody``, unlike
    pytest's private ``tmp_path``), removed at the end."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


S = TypeVar("S", bound=Server)


@contextlib.contextmanager
def _serving(kind: type[S], prefix: str) -> Iterator[S]:
    """A ``kind`` server in a fresh folder for the duration of the block."""
    with scratch(prefix) as folder:
        server = kind(folder)
        server.start()
        try:
            yield server
        finally:
            server.stop()


def redis_server() -> contextlib.AbstractContextManager[RedisServer]:
    return _serving(RedisServer, "pointline-redis-")


def postgres_server() -> contextlib.AbstractContextManager[PostgresServer]:
    return _serving(PostgresServer, "pointline-pg-")


if __name__ == "__main__":  # a manual check (any user, standard library only): up and down
    with redis_server() as r, postgres_server() as p:
        print(f"uid {os.geteuid()}: {r.url} {p.url()}", file=sys.stderr)
