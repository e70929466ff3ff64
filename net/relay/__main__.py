"""``python -m pointline.net.relay``: the ``pointline-relay`` command (``net.relay.cli``)."""

import sys

from pointline.net.relay.cli import main

sys.exit(main())
