"""The app's entry file for the deploy tools (pyside6-deploy, pyside6-android-deploy).

Both tools want a ``main.py`` in the project folder; it only starts the ``pointline`` command.
Installed from a wheel, the same command is the ``pointline`` script.

In the desktop build (Nuitka standalone) the binary is ``dist/pointline.dist/pointline``, so no
folder there may be called ``pointline``: the QML module ships as ``qml/`` next to the binary
(pysidedeploy.spec) and is pointed at here, before the app loads it. The build ships no
QtWidgets: qasync gets QGuiApplication in its place (gui/_qasync_core.py).
"""

import sys
from pathlib import Path


def _use_bundled_qml() -> None:
    if "__compiled__" not in globals():
        return
    import pointline.gui.windows

    pointline.gui.windows.QML_DIR = Path(sys.executable).resolve().parent / "qml"


if __name__ == "__main__":
    _use_bundled_qml()
    from pointline.gui._qasync_core import install

    install()  # before anything imports qasync (where QtWidgets is absent: the build)
    from pointline.gui.cli import main

    sys.exit(main())
