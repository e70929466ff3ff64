"""The window's shell, written once (issue 38, gui/shell.py): one per window, shared by its
screens, each property with its own notify signal that fires only on a change."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from pointline.gui.app import attach_online, load
from pointline.gui.bridge import TableBridge
from pointline.gui.shell import SHELL_PROPERTIES, Shell
from pointline.gui.tools.scenes import counter_nonces
from pointline.gui.windows import shell_of
from tests.gui.online_support import on_qt_loop, until

NOTCH = {"top": 47, "right": 0, "bottom": 34, "left": 0}


def _count(shell: Shell) -> Counter[str]:
    seen: Counter[str] = Counter()
    for name in SHELL_PROPERTIES:
        signal = f"{name}Changed"
        getattr(shell, signal).connect(lambda signal=signal: seen.update([signal]))
    return seen


def test_each_shell_property_notifies_alone_and_only_on_a_change(qapp: Any) -> None:
    shell = Shell()
    seen = _count(shell)
    shell.setWindowMode("theater")
    shell.setWindowMode("theater")
    assert seen == Counter({"windowModeChanged": 1})
    seen.clear()
    shell.set_insets(NOTCH)
    shell.set_insets(dict(NOTCH))
    shell.set_help(True)
    shell.set_paused(True)
    shell.set_paused(True)
    assert seen == Counter({"insetsChanged": 1, "helpOpenChanged": 1, "pausedChanged": 1})
    seen.clear()
    assert shell.toggle_mute() == "Sound off." and shell.muted
    assert seen == Counter({"mutedChanged": 1})


def test_a_window_mode_outside_the_three_is_refused_and_changes_nothing(qapp: Any) -> None:
    shell = Shell()
    seen = _count(shell)
    with pytest.raises(ValueError, match="window mode is one of"):
        shell.setWindowMode("kiosk")
    assert shell.windowMode == "standard" and seen == Counter()
    shell.cycleWindowMode()
    shell.cycleWindowMode()
    shell.cycleWindowMode()
    assert shell.windowMode == "standard" and seen == Counter({"windowModeChanged": 3})


def test_the_solo_table_reads_its_shell_on_itself(qapp: Any, tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    bridge = TableBridge(counter_nonces(b"shell"), settings=settings)
    seen: list[str] = []
    bridge.pausedChanged.connect(lambda: seen.append("paused"))
    bridge.escape()  # pauses: the shell's pause, read on the bridge (Main.qml does)
    assert bridge.paused and bridge.shell.paused and seen == ["paused"]
    assert bridge.reason("confirm") != ""  # nothing can be submitted while paused
    bridge.resume()
    assert not bridge.paused and bridge.reason("confirm") == ""
    bridge.toggleMute()
    assert bridge.muted and settings.value("muted", type=bool) is True  # remembered


@on_qt_loop()
async def test_every_screen_of_the_window_shares_its_shell(qapp: Any, tmp_path: Path) -> None:
    """A mode, the sound and the insets chosen on one screen hold on the others (before the
    shell, the online screens came up in Standard with their own sound and insets)."""
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    settings.setValue("reduceMotion", True)
    bridge = TableBridge(counter_nonces(b"shell"), settings=settings)
    loaded = load(bridge, (1280, 720))
    loaded.window.show()
    try:
        assert shell_of(loaded.window) is bridge.shell  # the window carries the shell
        bridge.setWindowMode("theater")
        bridge.set_insets(NOTCH)
        online = attach_online(qapp, loaded, "ws://127.0.0.1:9", None)
        bridge.playOnline()
        await until(lambda: bool(online), 5, "online screens")
        net = online[0].bridge
        assert net.shell is bridge.shell
        assert net.windowMode == "theater" and loaded.window.property("windowMode") == "theater"
        assert net.insets == NOTCH
        net.toggleMute()  # muted online: muted for the whole app, and remembered
        assert bridge.muted and bridge.sounds.muted
        assert settings.value("muted", type=bool) is True
        net.cycleWindowMode()
        net.leave()
        await until(lambda: loaded.window.property("screen") == "solo", 5, "solo back")
        assert bridge.windowMode == "fullscreen" and bridge.muted
        assert loaded.window.property("windowMode") == "fullscreen"
    finally:
        loaded.window.close()
