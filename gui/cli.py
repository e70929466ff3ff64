"""The `pointline` command: the solo table, `verify FILE`, or `--screenshot` of a scene."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["main", "parser", "qt_app_data_dir", "use_qt_data_dir"]

DEFAULT_SCENE = "come-out-draft"


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"size is WIDTHxHEIGHT, e.g. 1280x720, not {text!r}"
        ) from None
    if not (200 <= w <= 8000 and 200 <= h <= 8000):
        raise argparse.ArgumentTypeError("width and height are 200 to 8000 pixels")
    return w, h


def _font_scale(text: str) -> float:
    from pointline.gui.device import FONT_SCALES

    low, high = FONT_SCALES
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(
            f"the text size is a factor from {low} to {high}, e.g. 1.3, not {text!r}"
        )
    return value


def parser() -> argparse.ArgumentParser:
    from pointline.gui.online.texts import DEFAULT_RELAY

    p = argparse.ArgumentParser(
        prog="pointline",
        description="Pointline Table: a pass-line dice table with free fictional points "
        "(no money, no prizes). With no arguments, opens the solo table.",
        epilog="pointline verify FILE checks a saved session (an online transcript, or a solo "
        "session from Stats); pointline replay FILE watches it again.",
    )
    p.add_argument("--screenshot", metavar="FILE", help="render a scene offscreen to a PNG")
    p.add_argument(
        "--size",
        type=_size,
        action="append",
        metavar="WxH",
        help="window size (1280x720): the app's one window (also before replay FILE), a "
        "--screenshot, or repeated for --check-layout",
    )
    p.add_argument(
        "--check-layout",
        action="store_true",
        help="render every scene offscreen at each --size (default: ten phone to 1440p "
        "sizes; a phone size as a phone: touch, its own safe-area insets, one window mode; "
        "the others in every window mode), print each one's design figures (felt share, main "
        "action, smallest text, lowest contrast) and list overlaps, cut text, small touch "
        "targets, low contrast, lines through labels, uneven sibling boxes, line boxes that "
        "jump and, on a phone, what lies under a bar, text under 11 pt, a felt under half "
        "the screen sideways and a main action out of the thumb's reach",
    )
    p.add_argument(
        "--font-scale",
        type=_font_scale,
        metavar="FACTOR",
        help="with --check-layout: check every screen at this system text size (1.3: a "
        "phone's text at 130%%; default: the system's own)",
    )
    p.add_argument(
        "--scene",
        metavar="SCENE",
        help=f"with --screenshot: the scene to render (default {DEFAULT_SCENE}; a wrong name "
        "lists them)",
    )
    p.add_argument(
        "--online",
        action="store_true",
        help="play online: sign in to a relay, create or join a room (2-8 people)",
    )
    p.add_argument(
        "--relay",
        default=DEFAULT_RELAY,
        metavar="URL",
        help=f"the relay address for --online (default {DEFAULT_RELAY})",
    )
    p.add_argument(
        "--ca",
        metavar="FILE",
        help="with --online: trust this certificate (PEM) for a self-signed wss:// relay",
    )
    p.add_argument(
        "--exit-after-first-frame", action="store_true", help="quit after the first frame"
    )
    return p


def qt_app_data_dir() -> str:
    """Qt's writable folder for this app's files (Android: the app's private files folder)."""
    from PySide6.QtCore import QStandardPaths

    return QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)


def use_qt_data_dir() -> None:
    """Where there is no home folder (Android, iOS), save transcripts in Qt's app data folder.

    The net layer never imports Qt, so the folder is handed over here, as a callable that is
    asked only when a transcript is first written (after the app object exists).
    """
    from pointline.net import paths

    paths.set_app_data_dir(qt_app_data_dir)


def _replay_args(args: list[str]) -> list[str] | None:
    """The arguments of ``pointline replay`` when ``args`` asks for it: ``replay`` may come
    after the options every screen of the one window takes (``--size``), as in ``pointline
    --size 390x844 replay FILE``; those options go to the replay's own parser. None otherwise."""
    at = 0
    while at < len(args):
        word = args[at]
        if word == "replay":
            return args[:at] + args[at + 1 :]
        if word == "--size":
            at += 2
        elif word.startswith("--size="):
            at += 1
        else:
            return None
    return None


def _replay(argv: list[str]) -> int:
    """``pointline replay FILE``: open the app straight on a transcript or solo session."""
    p = argparse.ArgumentParser(
        prog="pointline replay",
        description="Watch a saved session again: what verify proves, then throw by throw.",
    )
    p.add_argument("file", help="an online transcript (.jsonl) or a solo session from Stats")
    p.add_argument(
        "--size",
        type=_size,
        action="append",
        metavar="WxH",
        help="window size (1280x720), before or after replay: e.g. a phone's 390x844",
    )
    args = p.parse_args(argv)
    from pointline.gui.replay.app import run_replay

    return run_replay(args.file, args.size[-1] if args.size else None)


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["verify"]:
        try:
            from pointline.net.client import verify_main
        except ImportError as error:
            print(
                f"pointline verify is not available: net.client is missing ({error})",
                file=sys.stderr,
            )
            return 2
        return int(verify_main(args_list[1:]) or 0)
    replay_args = _replay_args(args_list)
    if replay_args is not None:
        return _replay(replay_args)
    if args_list[:1] == ["buildcheck"]:  # the desktop build's smoke test (tools/desktop_build.py)
        from pointline.gui.tools.buildcheck import main as buildcheck

        return buildcheck(args_list[1:])
    p = parser()
    args = p.parse_args(args_list)
    if args.check_layout:
        from pointline.gui.tools.layoutcheck import main as check_layout

        return check_layout(args.size or [], args.font_scale)
    size = args.size[-1] if args.size else (1280, 720)
    scene = DEFAULT_SCENE if args.scene is None else args.scene
    if args.screenshot or args.scene is not None:
        # The scenes are tools the playing app never imports: loaded only when asked for.
        from pointline.gui.online.texts import ONLINE_SCENES
        from pointline.gui.tools.replay_scenes import REPLAY_SCENES
        from pointline.gui.tools.scenes import SCENES

        if scene not in SCENES + ONLINE_SCENES + REPLAY_SCENES:
            p.error(
                f"argument --scene: invalid choice: {scene!r} (choose from "
                f"{', '.join(SCENES + ONLINE_SCENES + REPLAY_SCENES)})"
            )
    if args.screenshot:
        if scene in REPLAY_SCENES:
            from pointline.gui.tools.replay_scenes import screenshot_replay

            return screenshot_replay(args.screenshot, size, scene)
        if scene in ONLINE_SCENES:
            from pointline.gui.tools.online_scenes import screenshot_online

            return screenshot_online(args.screenshot, size, scene)
        from pointline.gui.tools.scenes import screenshot

        return screenshot(args.screenshot, size, scene)
    from pointline.gui.preflight import check

    use_qt_data_dir()
    if not check():
        return 1
    live_size = args.size[-1] if args.size else None  # the window's own size otherwise
    if args.online:
        from pointline.gui.online.app import run_online

        return run_online(args.relay, args.ca, live_size)
    from pointline.gui.app import run

    return run(
        exit_after_first_frame=args.exit_after_first_frame,
        relay=args.relay,
        ca=args.ca,
        size=live_size,
    )


if __name__ == "__main__":
    sys.exit(main())
