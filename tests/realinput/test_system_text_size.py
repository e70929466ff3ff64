"""The app follows a real desktop's text size (issue 39): under X (Xvfb), a KDE desktop whose
font is set to 13 pt (its default is 10) gives the table 130% text, read by Qt's own KDE theme
from the desktop's configuration, no POINTLINE_FONT_SCALE involved. (A phone's: Qt's Android
and iOS themes hand the system's text size over the same way, as the application font:
tests/gui/test_gui_text_size.py.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.realinput.driver import RealX

PROBE = """
from PySide6.QtGui import QGuiApplication
app = QGuiApplication([])
from pointline.gui.bridge import TableBridge
print(QGuiApplication.platformName(), QGuiApplication.font().pointSizeF(), TableBridge().fontScale)
"""


def test_a_desktop_font_of_13_pt_on_kde_gives_130_percent_text(
    real_x: RealX, tmp_path: Path
) -> None:
    config = tmp_path / "home" / ".config"
    config.mkdir(parents=True)
    (config / "kdeglobals").write_text(
        "[General]\nfont=Noto Sans,13,-1,5,400,0,0,0,0,0,0,0,0,0,0,1\n", encoding="utf-8"
    )
    env = {
        k: v
        for k, v in real_x.env().items()
        if not k.startswith(("XDG_CONFIG", "POINTLINE_FONT", "QT_QPA"))
    }
    env.update(
        HOME=str(tmp_path / "home"),
        QT_QPA_PLATFORM="xcb",
        XDG_CURRENT_DESKTOP="KDE",
        KDE_SESSION_VERSION="5",
        POINTLINE_DATA_DIR=str(tmp_path / "data"),
    )
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["xcb", "13.0", "1.3"], (done.stdout, done.stderr)
