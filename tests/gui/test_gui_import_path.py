"""The relay loads only when a player hosts; the layout check only when asked for.

Issue 16 (finding 9) kept the relay out of the app; issue 32 brings it in for a player who hosts
a table (``pointline.net.hosting`` runs it in the app's own loop), so both builds now carry it
(tools/desktop_build.py checks the desktop plan), but the app's start and every window of it
still import none of it: only ``pointline.net.hosting``, loaded when the host taps Host, does.
``pointline --check-layout`` and ``--screenshot`` import gui.tools (the scenes, the layout
check) only when asked for.
"""

from __future__ import annotations

import json
import os

from tests.gui.script_run import run_python

APP_MODULES = """
import importlib, json, pkgutil, sys
import pointline.gui
from pointline.gui.cli import main
code = main(["--exit-after-first-frame"])
at_start = sorted(m for m in sys.modules if m.startswith("pointline."))
# every module a window of the app can reach: all of gui but its tools and the layout arithmetic
def walk(path, prefix):  # walk_packages would import gui.tools itself to look inside it
    for info in pkgutil.iter_modules(path, prefix):
        if info.name in ("pointline.gui.tools", "pointline.gui.layoutmath"):
            continue
        module = importlib.import_module(info.name)
        if info.ispkg:
            walk(module.__path__, info.name + ".")
walk(pointline.gui.__path__, "pointline.gui.")
every = sorted(m for m in sys.modules if m.startswith("pointline."))
print(json.dumps({"code": code, "at_start": at_start, "every": every}))
"""

RELAY_SIDE = (
    "pointline.net.relay._server",
    "pointline.net.relay._cli",
    "pointline.net.relay._conn",
    "pointline.net.relay._frames",
    "pointline.net.relay._rooms",
    "pointline.net.relay._accounts",
    "pointline.net.relay._store",
    "pointline.net.relay._store_pg",
    "pointline.net.relay._cluster",
    "pointline.net.relay._presence",
    "pointline.net.relay._announce",
    "pointline.net.hosting",
)


def test_the_app_imports_no_relay_and_no_tools() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = run_python(["-c", APP_MODULES], env)
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["code"] == 0
    assert "pointline.gui.app" in report["at_start"]  # the solo app did start
    assert "pointline.gui.online.bridge" in report["every"]  # and the online window's modules
    for name in (*report["at_start"], *report["every"]):
        assert name not in RELAY_SIDE, name
        assert not name.startswith(("pointline.gui.layout", "pointline.gui.tools")), name


def test_hosting_is_what_brings_the_relay_in() -> None:
    code = (
        "import json, sys\n"
        "import pointline.net.hosting\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('pointline.net.relay',"
        " 'pointline.net.relay._accounts', 'argon2', 'zeroconf')))))\n"
    )
    run = run_python(["-c", code], dict(os.environ))
    loaded = json.loads(run.stdout.strip().splitlines()[-1])
    for name in (
        "pointline.net.relay._server",
        "pointline.net.relay._accounts",
        "argon2",
        "zeroconf",
    ):
        assert name in loaded, name
