"""Broken implementations for the runner's own tests: ``python fake_impl.py MODE``.

``crash`` exits on its fourth table action, ``garbage`` writes a non-JSON line for every
throw, ``hang`` stops answering at the first throw, ``refuse`` refuses the handshake,
``silent`` never answers anything, ``v1only`` speaks protocol 1 only (it refuses a hello for any
other version, as a version-1 adapter must), ``answers VALUE`` accepts every hello but answers
``protocol`` with the JSON ``VALUE`` (``1``, ``true``, ``1.0``) whatever was asked.
"""

from __future__ import annotations

import json
import os
import sys
import time

from pointline.conformance.adapter import Adapter


def main() -> None:
    mode = sys.argv[1]
    adapter = Adapter(name=f"fake-{mode}")
    applied = 0
    for line in sys.stdin:
        request = json.loads(line)
        if mode == "silent":
            time.sleep(3600)  # on purpose: a hung adapter (the runner's timeout ends it)
        wrong_version = mode == "v1only" and request.get("protocol") != 1
        if (mode == "refuse" or wrong_version) and request.get("op") == "hello":
            out = {
                "id": request["id"],
                "ok": False,
                "error": {"code": "bad_request", "class": "protocol"},
            }
            print(json.dumps(out), flush=True)
            continue
        is_throw = (
            request.get("op") == "apply" and (request.get("action") or {}).get("kind") == "throw"
        )
        if request.get("op") == "apply":
            applied += 1
        if mode == "crash" and applied == 4:
            print("fake: crashing now", file=sys.stderr, flush=True)
            os._exit(3)
        if mode == "garbage" and is_throw:
            print("this is not JSON", flush=True)
            continue
        if mode == "hang" and is_throw:
            time.sleep(3600)  # on purpose: an adapter that hangs mid-run (killed by the runner)
        response = adapter.handle(request)
        if mode == "answers" and request.get("op") == "hello":
            response["protocol"] = json.loads(sys.argv[2])
        print(json.dumps(response), flush=True)


if __name__ == "__main__":
    main()
