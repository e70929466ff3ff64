"""Render every screenshot scene at the layout check's nine sizes from two checkouts and compare
them pixel by pixel: behaviour unchanged by a reshape shows as no differing pixel.

    git worktree add /tmp/base 88a6ff0
    python tools/compare_scenes.py /tmp/base            # base against this checkout
    python tools/compare_scenes.py /tmp/base --solo     # the solo scenes only (no relay)
    python tools/compare_scenes.py /tmp/base --replay   # the replay scenes only

Each checkout renders in its own interpreter, importing its own code: its top-level folders are
linked as the ``pointline`` namespace (kernel/ -> pointline.kernel, ...) in a temporary folder
put first on ``PYTHONPATH``. The scenes are reached as the screenshots reach them (the solo
scenes with fixed nonces; the online ones against a relay in the same process, with headless
peers); one window per scene is resized through the sizes, as the layout check does.

What may differ from run to run, and how it is handled:

- The online dice derive from the table id the relay draws, the join code is drawn too: both
  come from ``secrets``, which the rendering process seeds (``secrets.token_hex`` and
  ``secrets.choice`` from a fixed ``random.Random``), so the same scene throws the same dice.
- The online session keys (the verification words in the lobby), the relay's port (the
  sign-in screen's address), the transcript's folder and time (the results) and the
  countdown's seconds and the Stats page's session times (the clock's minute) still vary with
  the run, and so do the faces of dice in flight
  (``DiceThrow.qml`` draws them at random). ``--repeat`` renders this checkout a second time:
  a scene that differs between two runs of the same code at any size is reported as varying,
  with both counts, so a difference against the base can be told from the run's own noise.

Prints one line per differing picture (scene, size, differing pixels, their bounding box) and
a summary; exits 0 when no picture differs beyond its own run-to-run variation. Standard library
and PySide6 only; not part of the wheel.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from array import array
from pathlib import Path

PACKAGES = ("kernel", "net", "gui", "spec", "conformance")

RENDER = r"""
import asyncio, importlib, json, os, random, secrets, sys, tempfile
from pathlib import Path

# Only the checkout linked on PYTHONPATH: drop the editable install's finder (it maps every
# pointline package of the checkout it was installed from).
sys.meta_path = [f for f in sys.meta_path if "editable" not in repr(f)]
sys.path_hooks = [h for h in sys.path_hooks if "editable" not in repr(h)]
sys.path = [p for p in sys.path if "__editable__" not in p]
sys.path_importer_cache.clear()
out = Path(sys.argv[1]); which = sys.argv[2]
out.mkdir(parents=True, exist_ok=True)
seeded = random.Random(31)
secrets.token_hex = lambda n=32: seeded.getrandbits(8 * n).to_bytes(n, "big").hex()
secrets.choice = seeded.choice

def first(*names):
    for name in names:
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError:
            continue
    raise ModuleNotFoundError(names)

os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ.setdefault("QT_API", "pyside6")
windows = first("pointline.gui.windows", "pointline.gui.app")
windows.prepare_environment(offscreen=True)
from PySide6.QtCore import QSettings
from PySide6.QtGui import QGuiApplication
app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
app.setQuitOnLastWindowClosed(False)
check = first("pointline.gui.tools.layoutcheck", "pointline.gui.layoutcheck")
scenes = first("pointline.gui.tools.scenes", "pointline.gui.scenes")
moves = first("pointline.gui.tools.moves", "pointline.gui.scenes")
from pointline.gui.app import load
from pointline.gui.bridge import TableBridge
from pointline.gui.sound import Sounds
written = []

def save(scene, size, image):
    path = out / f"{scene}@{size[0]}x{size[1]}.png"
    image.save(str(path))
    written.append(path.name)

if which in ("all", "solo"):
    folder = tempfile.TemporaryDirectory(prefix="pointline-compare-")
    for scene in scenes.SCENES:
        settings = QSettings(str(Path(folder.name) / "s.ini"), QSettings.Format.IniFormat)
        settings.setValue("reduceMotion", scene not in scenes.MOTION_SCENES)
        sounds = Sounds(); sounds.muted = True
        bridge = TableBridge(moves.counter_nonces(scene.encode()), settings=settings, sounds=sounds)
        scenes.prepare(bridge, scene)
        loaded = load(bridge, check.SIZES[0])
        loaded.window.show()
        check._settle(loaded.window)
        scenes.pose(loaded.window, bridge, scene)
        for size in check.SIZES:
            loaded.window.resize(*size)
            check._settle(loaded.window)
            save(scene, size, check._settle(loaded.window, 30))
        loaded.window.close()
        loaded.engine.deleteLater()
        del loaded

if which in ("all", "online"):
    import qasync
    online_scenes = first("pointline.gui.tools.online_scenes", "pointline.gui.online.scenes")
    texts = importlib.import_module("pointline.gui.online.texts")
    online_app = importlib.import_module("pointline.gui.online.app")
    from pointline.gui.online.bridge import OnlineBridge
    accounts = first("pointline.net.relay._accounts", "pointline.net.relay.accounts",
                     "pointline.net.accounts")
    protocol = first("pointline.net.protocol._peer", "pointline.net.protocol.events",
                     "pointline.net.protocol")
    relay = first("pointline.net.relay._server", "pointline.net.relay.server",
                  "pointline.net.relay.relay", "pointline.net.relay")
    folder = tempfile.TemporaryDirectory(prefix="pointline-compare-online-")
    os.environ["POINTLINE_DATA_DIR"] = str(Path(folder.name) / "data")
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)

    async def one(scene, n):
        config = relay.RelayConfig(hash_params=accounts.FAST_HASH)
        async with relay.running_relay(Path(folder.name) / f"r{n}.sqlite3", config=config) as r:
            bridge = OnlineBridge(r.url, timeouts=protocol.Timeouts(),
                                  nonce_source=moves.counter_nonces(b"alice"))
            loaded = online_app.load_online(bridge, check.SIZES[0])
            loaded.window.show()
            peers = await online_scenes.prepare_online(bridge, r.url, scene)
            for _ in range(250):
                if not online_scenes.in_motion(loaded.window.contentItem()):
                    break
                await asyncio.sleep(0.02)
            for size in check.SIZES:
                loaded.window.resize(*size)
                await online_scenes.held_still(loaded.window)
                save(scene, size, loaded.window.grabWindow())
            await bridge.shutdown()
            for c in peers:
                await c.close()
            loaded.window.close()

    async def everything():
        for n, scene in enumerate(texts.ONLINE_SCENES):
            await asyncio.wait_for(one(scene, n), 120)

    with loop:
        loop.run_until_complete(everything())
if which in ("all", "replay"):
    replay_scenes = importlib.import_module("pointline.gui.tools.replay_scenes")
    folder = tempfile.TemporaryDirectory(prefix="pointline-compare-replay-")
    for scene in replay_scenes.REPLAY_SCENES:
        loaded = replay_scenes.load_scene(scene, check.SIZES[0], Path(folder.name))
        for size in check.SIZES:
            loaded.window.resize(*size)
            check._settle(loaded.window, 120)
            save(scene, size, check._settle(loaded.window, 30))
        loaded.window.close()
        loaded.engine.deleteLater()
        del loaded
print(json.dumps(written))
"""


def link_checkout(checkout: Path, folder: Path) -> Path:
    """A folder whose ``pointline/`` links the checkout's top-level packages."""
    namespace = folder / "pointline"
    namespace.mkdir(parents=True)
    for name in PACKAGES:
        if (checkout / name).is_dir():
            (namespace / name).symlink_to((checkout / name).resolve())
    return folder


def render(checkout: Path, out: Path, which: str, work: Path) -> list[str]:
    """Render the scenes of ``checkout`` into ``out``; the names of the pictures written."""
    path = link_checkout(checkout, work / f"path-{out.name}")
    env = {**os.environ, "PYTHONPATH": str(path), "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run(
        [sys.executable, "-c", RENDER, str(out), which],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        raise SystemExit(f"rendering {checkout} failed:\n{run.stderr[-4000:]}")
    names: list[str] = json.loads(run.stdout.strip().splitlines()[-1])
    return names


def difference(a: Path, b: Path) -> tuple[int, tuple[int, int, int, int] | None]:
    """How many pixels differ, and their bounding box (left, top, right, bottom)."""
    from PySide6.QtGui import QImage

    one, two = QImage(str(a)), QImage(str(b))
    if one.size() != two.size():
        return max(one.width() * one.height(), two.width() * two.height()), None
    fmt = QImage.Format.Format_ARGB32
    one, two = one.convertToFormat(fmt), two.convertToFormat(fmt)
    width, height = one.width(), one.height()
    first, second = bytes(one.constBits()), bytes(two.constBits())
    if first == second:
        return 0, None
    stride = one.bytesPerLine()
    count, box = 0, [width, height, -1, -1]
    for row in range(height):
        start = row * stride
        x, y = first[start : start + width * 4], second[start : start + width * 4]
        if x == y:
            continue
        px, py = array("I", x), array("I", y)
        columns = [i for i in range(width) if px[i] != py[i]]
        count += len(columns)
        box = [min(box[0], columns[0]), min(box[1], row), max(box[2], columns[-1]), row]
    return count, (box[0], box[1], box[2], box[3])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", type=Path, help="the checkout to compare against")
    parser.add_argument("--head", type=Path, default=Path.cwd(), help="this checkout (default)")
    parser.add_argument("--out", type=Path, help="keep the pictures here (default: temporary)")
    parser.add_argument("--repeat", action="store_true", help="render the head twice")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--solo", action="store_const", const="solo", dest="which")
    group.add_argument("--online", action="store_const", const="online", dest="which")
    group.add_argument("--replay", action="store_const", const="replay", dest="which")
    args = parser.parse_args(argv)
    which = args.which or "all"
    with tempfile.TemporaryDirectory(prefix="pointline-compare-") as temporary:
        work = Path(temporary)
        out = args.out or work
        base = render(args.base, out / "base", which, work)
        head = render(args.head, out / "head", which, work)
        again = render(args.head, out / "again", which, work) if args.repeat else []
        differing = 0
        names = sorted(set(base) | set(head))
        found = {}
        for name in names:
            if name in base and name in head:
                count, box = difference(out / "base" / name, out / "head" / name)
                noise = difference(out / "head" / name, out / "again" / name)[0] if again else 0
                found[name] = (count, box, noise)
        # A scene that differs between two runs of the same code at any size varies by nature
        # (dice in flight, a countdown, drawn keys): each of its pictures is reported as such.
        varying = {name.split("@")[0] for name, (_, _, noise) in found.items() if noise}
        for name in names:
            if name not in found:
                print(f"{name}: only in {'head' if name in head else 'base'}")
                differing += 1
                continue
            count, box, noise = found[name]
            if count == 0 and noise == 0:
                continue
            if name.split("@")[0] in varying:
                print(f"{name}: {count} px against the base, {noise} px between two runs of head")
                continue
            print(f"{name}: {count} px differ, within {box}")
            differing += 1
        total = len(set(base) | set(head))
        print(f"compared {total} pictures: {differing} differ beyond their run-to-run variation")
        if args.out is None:
            print("(pictures not kept: pass --out DIR to look at them)")
        return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
