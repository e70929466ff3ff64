"""``python -m pointline.net.relay``: the ``pointline-relay`` command (``net.relay._cli``)."""

import sys

from pointline.net.relay._cli import main

sys.exit(main())
