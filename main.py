"""The app's entry file for the deploy tools (pyside6-deploy, pyside6-android-deploy).

Both tools want a ``main.py`` in the project folder; it only starts the ``pointline`` command.
Installed from a wheel, the same command is the ``pointline`` script.
"""

import sys

from pointline.gui.cli import main

if __name__ == "__main__":
    sys.exit(main())
