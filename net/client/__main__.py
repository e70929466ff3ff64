"""``python -m pointline.net.client``: the headless player, ``pointline-client``
(``net.client.headless``)."""

import sys

from pointline.net.client.headless import main

sys.exit(main())
