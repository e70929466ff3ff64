"""What the desktop build's smoke test asks of the built app (a tool: the playing app never
imports it; ``tools/desktop_build.py build`` runs it, issue 42).

    pointline buildcheck sound                     # play the throw sound to its end
    pointline buildcheck online URL [--ca FILE] [--shot F] [--no-sign-up]
                                                   # the online window signs up on a relay
    pointline buildcheck host                      # host a table: its certificate, two guests
    pointline buildcheck picker FOLDER [--shot F]  # the replay's file dialog on FOLDER

Each prints one JSON line of what it saw and exits 0 if it got there (1 if not). The checks go
through the app's own code (``Sounds``, ``OnlineBridge``, the hosting flow of the
``online-host`` scene, the Stats overlay's Open button), in the built app's own Qt, so that
what the build leaves out (FFmpeg, QtWidgets, ICU's data, plugins) would show here: the smoke
test hears the sound, sees the wss sign-in and the hosted table, and compares the file
dialog's listing with the one the same command gives from the source checkout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["main"]

TIMEOUT_S = 30.0


def _pump_until(condition: Callable[[], bool], what: str, timeout: float = TIMEOUT_S) -> None:
    """Run Qt's events until ``condition`` holds (no asyncio loop running)."""
    from PySide6.QtCore import QCoreApplication, QEventLoop

    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting until {what}")
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)


async def _until(condition: Callable[[], bool], what: str, timeout: float = TIMEOUT_S) -> None:
    """Wait in the qasync loop until ``condition`` holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting until {what}")
        await asyncio.sleep(0.02)  # the polling interval of a wait on a condition


def sound() -> dict[str, Any]:
    """Play the throw sound through ``Sounds`` (QSoundEffect) and wait until it has ended."""
    from pointline.gui.sound import Sounds

    sounds = Sounds()
    sounds.preload()
    report: dict[str, Any] = {"available": sounds.available, "played": False}
    if not sounds.available:
        return report
    _pump_until(sounds.ready, "the sounds are loaded")
    report["played"] = sounds.play("dice")
    _pump_until(sounds.is_playing, "the throw sound starts")
    _pump_until(lambda: not sounds.is_playing(), "the throw sound ends")
    report["ended"] = True
    return report


def _run_online(body: Callable[[Any], Any]) -> dict[str, Any]:
    """Run ``body(loaded_online)`` in a qasync loop with the online window open."""
    from pointline.gui._qasync_core import install

    install()
    import qasync

    from pointline.gui.online.app import load_online

    app = _app()
    app.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)

    async def main() -> dict[str, Any]:
        bridge, report = await body(load_online)
        await bridge.shutdown()
        return dict(report)

    with loop:
        try:
            return dict(loop.run_until_complete(asyncio.wait_for(main(), 90)))
        finally:
            pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
            for task in pending:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))


def online(
    url: str, ca: str | None, shot: str | None = None, sign_up: bool = True
) -> dict[str, Any]:
    """The online window signs up on the relay at ``url`` (``wss://``: trusting ``ca``) and
    reaches the lobby, as a player does after ``pointline --online --relay URL --ca FILE``.
    With ``shot`` the sign-in screen is saved first (the smoke test compares it with the source
    app's: its words drawn with and without ICU's data); without ``sign_up`` it stops there."""
    from pointline.gui.online.bridge import OnlineBridge
    from pointline.gui.tools.online_scenes import held_still

    async def body(load_online: Any) -> tuple[Any, dict[str, Any]]:
        from PySide6.QtGui import QGuiApplication

        QGuiApplication.styleHints().setCursorFlashTime(0)  # the caret shown, not blinking
        bridge: Any = OnlineBridge(url, ca=ca)
        loaded = load_online(bridge, (844, 390))
        loaded.window.show()
        report: dict[str, Any] = {"url": url}
        if shot:
            await held_still(loaded.window)
            report["shot"] = bool(loaded.window.grabWindow().save(shot))
        if not sign_up:
            loaded.window.close()
            return bridge, {**report, "screen": bridge.screen, "room": False}
        bridge.account.signUp(url, "buildcheck", "buildcheck-password")
        await _until(lambda: bridge.screen == "lobby" and not bridge.busy, "in the lobby")
        bridge.lobby.createRoom()
        await _until(lambda: bridge.lobby.roomCode != "" and not bridge.busy, "a room")
        report.update(screen=bridge.screen, room=bool(bridge.lobby.roomCode))
        loaded.window.close()
        return bridge, report

    return _run_online(body)


def host() -> dict[str, Any]:
    """Host a table on loopback (not announced) as the Host button does: the table makes its
    certificate and two guests join it over wss, pinning that certificate."""
    from pointline.gui.online.bridge import OnlineBridge
    from pointline.gui.tools.online_scenes import close_held, prepare_online

    async def body(load_online: Any) -> tuple[Any, dict[str, Any]]:
        bridge: Any = OnlineBridge()
        loaded = load_online(bridge, (844, 390))
        loaded.window.show()
        peers = await prepare_online(bridge, "", "online-host")
        table = bridge.host.table
        report = {
            "hosting": bool(bridge.host.hosting),
            "url": table.url,
            "fingerprint": table.fingerprint,
            "words": list(table.words),
            "seats": len(bridge.lobby.roster),
        }
        for peer in peers:
            await peer.close()
        await close_held()
        loaded.window.close()
        return bridge, report

    return _run_online(body)


def picker(folder: str, shot: str | None) -> dict[str, Any]:
    """Open the replay's file dialog from Stats (the Open button) on ``folder``; the names it
    lists, in its order."""
    from PySide6.QtCore import QObject, QSettings, QUrl

    from pointline.gui.app import load
    from pointline.gui.bridge import TableBridge
    from pointline.gui.extras import extras_of
    from pointline.gui.sound import Sounds
    from pointline.gui.tools.moves import counter_nonces

    _app()
    with tempfile.TemporaryDirectory(prefix="pointline-buildcheck-") as tmp:
        settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
        settings.setValue("reduceMotion", True)
        sounds = Sounds()
        sounds.muted = True
        bridge = TableBridge(counter_nonces(b"buildcheck"), settings=settings, sounds=sounds)
        loaded = load(bridge, (1280, 720))
        window = loaded.window
        window.show()
        extras_of(bridge).openStats()
        button = window.findChild(QObject, "btnOpenReplay")
        if button is None:
            raise RuntimeError("Stats has no Open button (btnOpenReplay)")
        _pump_until(lambda: bool(button.property("visible")), "Stats shows its Open button")
        button.activated.emit()
        _pump_until(lambda: window.findChild(QObject, "replayPicker") is not None, "the picker")
        dialog = window.findChild(QObject, "replayPicker")
        dialog.setProperty("currentFolder", QUrl.fromLocalFile(folder))
        expected = sum(1 for p in Path(folder).iterdir() if p.suffix in (".jsonl", ".json"))
        view = window.findChild(QObject, "fileDialogListView")  # Qt's FileDialog.qml names it
        if view is None:
            raise RuntimeError("the file dialog has no fileDialogListView")

        def listed() -> list[str]:
            # the delegates are the list's visual children (fileDialogDelegate0, 1, ...)
            rows = {}
            for item in view.property("contentItem").childItems():
                name = item.objectName()
                if name.startswith("fileDialogDelegate") and name[18:].isdigit():
                    rows[int(name[18:])] = str(item.property("fileName"))
            return [rows[index] for index in sorted(rows)]

        _pump_until(lambda: len(listed()) == expected, f"the dialog lists {expected} files")
        report: dict[str, Any] = {
            "title": str(dialog.property("title")),
            "listed": listed(),
            "count": int(view.property("count")),
        }
        if shot:  # the dialog's own window where it has one (a popup window), else the table's
            shown_in = view.window() or window
            report["shot"] = bool(shown_in.grabWindow().save(shot))
            report["own_window"] = shown_in is not window
        dialog.setProperty("visible", False)
        window.close()
        del loaded
    return report


def _app() -> Any:
    from pointline.gui.windows import gui_application, prepare_environment

    prepare_environment()
    app = gui_application()
    app.setOrganizationName("Pointline")
    app.setApplicationName("Pointline Table")
    return app


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="pointline buildcheck", description="what the desktop build's smoke test asks"
    )
    sub = parser.add_subparsers(dest="check", required=True)
    sub.add_parser("sound", help="play the throw sound to its end")
    on = sub.add_parser("online", help="the online window signs up on a relay")
    on.add_argument("url")
    on.add_argument("--ca", help="trust this certificate (PEM) for a wss:// relay")
    on.add_argument("--shot", help="save the sign-in screen as a PNG first")
    on.add_argument("--no-sign-up", action="store_true", help="stop at the sign-in screen")
    sub.add_parser("host", help="host a table on loopback; two guests join it")
    pick = sub.add_parser("picker", help="the replay's file dialog on a folder")
    pick.add_argument("folder")
    pick.add_argument("--shot", help="save the window with the dialog open as a PNG")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        if args.check == "sound":
            _app()
            report = sound()
            ok = bool(report.get("ended"))
        elif args.check == "online":
            report = online(args.url, args.ca, args.shot, not args.no_sign_up)
            if args.no_sign_up:
                ok = report["screen"] == "signin" and bool(report.get("shot", True))
            else:
                ok = report["screen"] == "lobby" and bool(report["room"])
        elif args.check == "host":
            report = host()
            ok = bool(report["hosting"]) and report["seats"] == 3
        else:
            report = picker(args.folder, args.shot)
            ok = len(report["listed"]) > 0
    except Exception as error:  # the report says what failed, the exit status that it did
        report, ok = {"error": f"{type(error).__name__}: {error}"}, False
    print(json.dumps({"check": args.check, "ok": ok, **report}), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
