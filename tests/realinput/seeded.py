"""The real ``pointline`` command with reproducible dice, for the real-input tests.

    python -m tests.realinput.seeded LABEL [pointline arguments]

Every nonce the solo table draws is SHA-256 of LABEL and a counter (``counter_nonces``, as the
screenshots' scenes use), so a test knows which throws end a hand; everything else is the CLI.
"""

from __future__ import annotations

import sys

from pointline.gui import session
from pointline.gui.cli import main
from pointline.gui.tools.moves import counter_nonces

if __name__ == "__main__":
    session.fresh_nonce = counter_nonces(sys.argv[1].encode())
    sys.exit(main(sys.argv[2:]))
