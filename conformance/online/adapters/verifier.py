"""The reference verifier behind the harness's verifier interface: each stdin line
``{"transcript": TEXT, "relay_key": HEX or null}`` gets one stdout line
``{"verdict": "OK" | "INCOMPLETE" | "FAIL"}``.

    python -m pointline.conformance.online.adapters.verifier [--mutant NAME]
"""

from __future__ import annotations

import json
import sys

from pointline.conformance.online import stdio
from pointline.conformance.online.adapters.options import adapter_options

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    adapter_options("verifier", argv)
    from pointline.conformance.online.transcripts import verdict

    for line in sys.stdin:
        if line.strip():
            doc = json.loads(line)
            stdio.emit({"verdict": verdict(doc["transcript"], doc.get("relay_key"))})
    return 0


if __name__ == "__main__":
    sys.exit(main())
