"""Playing solo loads no networking code (issue 31, item 1): a fresh interpreter starts the app
offscreen as ``pointline`` does, plays one solo hand through the table's own slots, and finds
nothing of ``pointline.net`` loaded but the package and its leaf modules that do no networking
(the error classes and the data paths). Everything else under ``pointline.net`` — the protocol,
the client, the relay, whatever folder they live in — is forbidden, and so are the libraries
only online play needs."""

from __future__ import annotations

import os

from tests.gui.script_run import run_json

NET_LEAVES = frozenset({"pointline.net", "pointline.net.errors", "pointline.net.paths"})
"""What solo may load of ``pointline.net``: the package, its errors and the data paths (leaf
modules: they import nothing of ours beyond the kernel, and no networking)."""
ONLINE_ONLY = ("websockets", "nacl", "qasync")
"""Libraries that only online play (or the app's asyncio loop for it) needs."""

PLAY_A_SOLO_HAND = """
import json, sys
from pointline.gui.app import attach_online, gui_application, load, prepare_environment
prepare_environment()
from PySide6.QtCore import QEventLoop, QTimer
from pointline.gui.bridge import TableBridge
from pointline.gui.extras import extras_of
from pointline.gui.session import fresh_nonce
app = gui_application()
bridge = TableBridge(fresh_nonce)
extras_of(bridge).start()  # as gui.app.run: the data folder's records, the guide at first launch
loaded = load(bridge)
first = QEventLoop()
loaded.window.frameSwapped.connect(first.quit)
QTimer.singleShot(3000, first.quit)
first.exec()
attach_online(app, loaded, None, None)  # Play online is wired, not pressed
if extras_of(bridge).guideOpen:
    extras_of(bridge).skipGuide()
table = bridge.table
pressed = 0
while table.hands_resolved == 0 and pressed < 300:
    if table.phase.value == "come_out":
        assert bridge.act("allocate") and bridge.act("confirm")
    else:
        assert bridge.act("roll")
    pressed += 1
    bridge.skipMoment()
    app.processEvents()
extras_of(bridge).record_if_in_play()
print(json.dumps({
    "hands": table.hands_resolved,
    "throws": table.throws,
    "window": loaded.window.isVisible(),
    "modules": sorted(sys.modules),
}))
"""


def test_a_solo_hand_loads_no_networking_code(tmp_path) -> None:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "QT_API": "pyside6",
        "POINTLINE_DATA_DIR": str(tmp_path),
    }
    report = run_json(PLAY_A_SOLO_HAND, [], env, timeout=120)
    assert report["hands"] == 1 and report["throws"] >= 1 and report["window"]
    modules = report["modules"]
    assert "pointline.gui.session" in modules and "pointline.kernel.dice" in modules
    net = {m for m in modules if m == "pointline.net" or m.startswith("pointline.net.")}
    assert net <= NET_LEAVES, sorted(net - NET_LEAVES)
    loaded = [m for m in modules if m.split(".")[0] in ONLINE_ONLY]
    assert not loaded, loaded
