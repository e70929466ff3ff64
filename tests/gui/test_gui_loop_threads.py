"""The app's asyncio loop (qasync inside Qt) keeps its socket notifiers to its own thread.

A ``QSocketNotifier`` may be enabled or disabled only on its own thread. Removing a reader from
another thread made Qt print "QSocketNotifier: Socket notifiers cannot be enabled or disabled
from another thread" and leave the notifier registered; once its
socket closed, the GUI thread's dispatcher found it invalid on every pass ("Invalid socket N")
and the app stopped answering: the spin of one Orca run, whose notifier was QtMultimedia's
(tests/gui/test_gui_sound_overlap.py); these pin the same for the loop's own notifiers. Each
case runs in a fresh interpreter: on qasync's plain loop it crashes, spins or never runs the
call there, not in the test process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.gui.script_run import ROOT

SCRIPT = r"""
import asyncio, json, socket, sys, threading
from PySide6.QtCore import qInstallMessageHandler
from PySide6.QtGui import QGuiApplication

messages = []
qInstallMessageHandler(lambda mode, context, text: messages.append(text[:120]))
app = QGuiApplication([])
case = sys.argv[1]
if sys.argv[2] == "plain":  # qasync's own loop, as the app had it
    import qasync
    make = lambda: qasync.QEventLoop(app)
else:
    from pointline.gui._qasync_core import event_loop
    make = lambda: event_loop(app)
loop = make()
asyncio.set_event_loop(loop)
report = {}


def in_thread(fn):
    worker = threading.Thread(target=fn, name="worker")
    worker.start()
    worker.join()


async def turns(n=20):
    # let the loop (and Qt's dispatcher, which polls every socket) go round n times
    for _ in range(n):
        await asyncio.sleep(0)


async def remove_reader_elsewhere():
    a, b = socket.socketpair()
    fd = a.fileno()
    loop.add_reader(fd, lambda: None)

    def elsewhere():
        report["removed"] = loop.remove_reader(fd)
        a.close()

    in_thread(elsewhere)
    while fd in loop._read_notifiers:  # the removal reaches the loop's own thread
        await asyncio.sleep(0)
    await turns()
    b.close()


async def call_soon_elsewhere():
    ran = []
    in_thread(lambda: loop.call_soon(lambda: ran.append(threading.current_thread().name)))
    while not ran:
        await asyncio.sleep(0)
    report["ran_on"] = ran[0]


async def watch():
    from PySide6.QtCore import qWarning
    from pointline.gui._qasync_core import watch_socket_notifiers

    lines = []
    watch_socket_notifiers(lines.append)
    qWarning("QSocketNotifier: Socket notifiers cannot be enabled or disabled from another thread")
    for _ in range(1000):
        qWarning("QSocketNotifier: Invalid socket 31 and type 'Read', disabling...")
    qWarning("something else")
    report["lines"] = lines


cases = {
    "watch": watch,
    "remove_reader": remove_reader_elsewhere,
    "call_soon": call_soon_elsewhere,
}
with loop:
    loop.run_until_complete(asyncio.wait_for(cases[case](), 20))
report["qt"] = messages
print(json.dumps(report))
"""


def run_case(case: str, loop: str = "app") -> dict[str, object]:
    """Run one case in a fresh interpreter; its JSON report (fails if it hangs or crashes)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    try:
        run = subprocess.run(
            [sys.executable, "-c", SCRIPT, case, loop],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except subprocess.TimeoutExpired as hung:
        err = hung.stderr.decode(errors="replace") if isinstance(hung.stderr, bytes) else ""
        raise AssertionError(f"{case}: the loop spun (no answer in 60 s)\n{err[-2000:]}") from None
    assert run.returncode == 0, f"{case}: exit {run.returncode}\n{run.stderr[-3000:]}"
    report: dict[str, object] = json.loads(run.stdout.strip().splitlines()[-1])
    return report


def qt_lines(report: dict[str, object]) -> list[str]:
    qt = report["qt"]
    assert isinstance(qt, list)
    return [str(m) for m in qt]


def test_a_reader_removed_from_another_thread_leaves_no_stale_notifier() -> None:
    report = run_case("remove_reader")
    assert report["removed"] is True, "remove_reader still says it removed the reader"
    lines = qt_lines(report)
    assert not [m for m in lines if "another thread" in m], lines
    # the socket was closed before the loop's thread took the reader off: Qt's dispatcher sees
    # it invalid once and disables the notifier on its own thread (no more: no spin)
    assert len([m for m in lines if "Invalid socket" in m]) <= 1, lines


def test_call_soon_from_another_thread_runs_on_the_loops_thread() -> None:
    report = run_case("call_soon")
    assert report["ran_on"] == "MainThread"
    assert qt_lines(report) == [], "no timer started off its thread"


def test_the_first_notifier_warning_names_every_threads_stack_and_a_flood_is_counted() -> None:
    report = run_case("watch")
    lines = report["lines"]
    assert isinstance(lines, list)
    first, stacks, *rest = (str(line) for line in lines)
    assert first.startswith("QSocketNotifier: Socket notifiers cannot be enabled or disabled")
    assert "(thread 'MainThread')" in first
    assert "Current thread" in stacks and "in watch" in stacks, stacks
    invalid = "QSocketNotifier: Invalid socket 31 and type 'Read', disabling..."
    assert rest == [invalid] * 3 + [f"{invalid} ({n} times)" for n in (10, 100, 1000)]
    assert qt_lines(report) == ["something else"], "other messages pass on to the handler before"
