"""The online harness itself (tests/net/support.py): it seats everyone, with transcripts in the
data folder."""

from __future__ import annotations

from pathlib import Path

from pointline.net.client._relay_client import SessionStarted, TranscriptSaved
from tests.net.support import relay, run, seated


def test_harness_seats_everyone_with_transcripts_in_the_data_folder(
    tmp_path: Path, data_dir: Path
) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            clients = await seated(running.url, 3)
            started = [c.started for c in clients]
            assert all(isinstance(s, SessionStarted) for s in started)
            assert [s.seat for s in started if s] == [0, 1, 2]
            for c in clients:
                assert c.transcript_path is not None
                assert c.transcript_path.parent == data_dir / "transcripts"
            saved = []
            for c in clients:
                await c.close()
                saved += [e for e in c.pending_events() if isinstance(e, TranscriptSaved)]
            assert len(saved) == 3 and all(e.path.exists() for e in saved)

    run(scenario())
