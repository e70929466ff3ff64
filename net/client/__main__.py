"""``python -m pointline.net.client``: the headless player, ``pointline-client``
(``net.client._headless``)."""

import sys

from pointline.net.client._headless import main

sys.exit(main())
