"""The seat-1 process of ``bench/host.py``: a Qt application (offscreen) on qasync's event loop,
as the app runs, playing seat 1 of one 8-seat session, with a 16 ms QTimer whose lateness is
recorded while the session is played.

    python bench/_host_app.py host DATA_DIR           # + the relay in this process (HostedTable)
    python bench/_host_app.py host DATA_DIR hosted    # ... hashing at the hosted relay's cost
    python bench/_host_app.py peer DATA_DIR URL CERT  # seat 1 only; the relay runs elsewhere

It prints ``url URL``, ``cert PATH`` and ``code CODE`` once the room is open, waits until eight
are seated, starts, plays (``steady_choice``) and prints one JSON line: this seat's round
latencies (s) and the timer's lateness samples (s).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

SEATS = 8
TICK_MS = 16
PLAYING = [False]
"""The timer's lateness counts only while the session is played (not the start-up)."""


async def _seat(mode: str, data: Path, argv: list[str]) -> dict[str, Any]:
    from pointline.net.client import RelayClient, RosterChanged, pinned_tls_context, steady_choice
    from pointline.net.protocol import RoundOpened, Thrown
    from pointline.net.relay import FAST_HASH, LOOPBACK_TESTS, RelayConfig

    table = None
    if mode == "host":
        from pointline.net.hosting import HostedTable

        seated = asyncio.Event()
        from pointline.net.hosting import HOSTED_HASH

        cost = HOSTED_HASH if argv[:1] == ["hosted"] else FAST_HASH
        config = RelayConfig(hash_params=cost, **LOOPBACK_TESTS)  # 8 sign-ups from one address
        table = HostedTable(
            "Bench table",
            "benchhost",
            "127.0.0.1",
            folder=data / "host",
            config=config,
            on_seats=lambda n: seated.set() if n >= SEATS else None,
        )
        await table.open()
        assert table.client is not None and table.certificate is not None
        client, url, cert = table.client, table.url, str(table.certificate.cert_path)
        code = table.code
    else:
        url, cert = argv[0], argv[1]
        pem = Path(cert).read_text()
        client = await RelayClient.connect(url, ssl_context=pinned_tls_context(pem))
        await client.signup(f"host{os.getpid()}", "bench-password")  # one relay, many sessions
        code = (await client.create_room()).code
    print(f"url {url}\ncert {cert}\ncode {code}", flush=True)
    if table is not None:
        await asyncio.wait_for(seated.wait(), 120)
    else:
        while len(client.roster) < SEATS:
            event = await asyncio.wait_for(client.next_event(), 120)
            assert isinstance(event, RosterChanged) or event is not None
    await client.start()
    PLAYING[0] = True
    loop = asyncio.get_running_loop()
    opened: dict[int, float] = {}
    rounds: list[float] = []
    async for event in client.events():
        peer = client.peer
        if isinstance(event, RoundOpened) and peer is not None and not peer.is_finished:
            opened[event.throw] = loop.time()
            client.commit(steady_choice(peer.table, peer.seat))
        elif isinstance(event, Thrown) and event.throw in opened:
            rounds.append(loop.time() - opened[event.throw])
    PLAYING[0] = False
    if table is not None:
        await table.close()
    else:
        await client.close()
    return {"rounds": rounds}


def main() -> int:
    import qasync
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QGuiApplication

    mode, data, rest = sys.argv[1], Path(sys.argv[2]), sys.argv[3:]
    app = QGuiApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    lateness: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        if PLAYING[0]:
            lateness.append(max(0.0, now - last[0] - TICK_MS / 1000))
        last[0] = now

    timer = QTimer()
    timer.setInterval(TICK_MS)
    timer.timeout.connect(tick)
    timer.start()
    with loop:
        result = loop.run_until_complete(_seat(mode, data, rest))
    timer.stop()
    result["lateness"] = lateness
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
