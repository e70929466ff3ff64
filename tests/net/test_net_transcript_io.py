"""The sans-IO peer hands records out; the client writes them; a disk error ends the session
cleanly (this seat leaves), keeps what was written, and never kills the reader task."""

from __future__ import annotations

import asyncio
import io
import sys
from pathlib import Path
from typing import Any

import pytest

from pointline.kernel import EndReason
from pointline.net.client._relay_client import TranscriptFailed, TranscriptSaved
from pointline.net.client._transcript_file import (
    TranscriptWriteError,
    TranscriptWriter,
    read_records,
)
from pointline.net.protocol._peer import SessionEnded
from pointline.net.protocol._transcript import check_chain
from tests.net.memnet import Net
from tests.net.support import RELAXED, play, random_chooser, relay, run, seated


def test_the_peer_writes_no_file_and_hands_each_record_out_once(tmp_path: Path) -> None:
    net = Net(2, seed=3)
    net.round()
    peer = net.peers[0]
    handed = peer.records()
    assert [r.index for r in handed] == list(range(len(peer.transcript)))
    assert peer.records() == []
    net.round()
    more = peer.records()
    assert more and more[0].index == len(handed)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_writer_that_hits_a_full_disk_fails_once_and_keeps_the_file(tmp_path: Path) -> None:
    net = Net(2, seed=5)
    path = tmp_path / "t.jsonl"
    writer = TranscriptWriter(path)
    writer.write(net.peers[0].records())
    writer._file = open("/dev/full", "ab", buffering=0)  # noqa: SIM115 - the disk fills up
    net.round()
    with pytest.raises(TranscriptWriteError) as caught:
        writer.write(net.peers[0].records())
    assert "could not be written" in caught.value.text and writer.failed
    writer.write(net.peers[0].records())  # failed: nothing more, no second error
    writer.close()
    records = read_records(path)
    assert len(records) == 1 and check_chain(records) is None  # the header stays


@pytest.mark.skipif(
    sys.platform != "linux" or not Path("/dev/full").exists(), reason="needs /dev/full"
)
def test_a_disk_error_mid_session_ends_it_clearly_and_the_reader_lives_on(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with relay(tmp_path) as running:
            a, b = await seated(running.url, 2, "disk", RELAXED)
            try:
                writer = a._writer_file
                assert writer is not None and writer.written >= 1  # the header is on disk
                kept = writer.written
                writer._file = open("/dev/full", "ab", buffering=0)  # noqa: SIM115
                events: list[tuple[float, object]] = []
                other: list[tuple[float, object]] = []
                await asyncio.gather(
                    play(a, random_chooser(1), events, timeout=20),
                    play(b, random_chooser(2), other, timeout=20),
                )
                seen = [e for _, e in events]
                assert isinstance(seen[-1], TranscriptFailed)
                assert "could not be written" in seen[-1].reason
                assert a.transcript_error and a.peer is not None and a.peer.is_finished
                assert SessionEnded(EndReason.DEPARTURE, 0) in seen  # this seat left
                assert SessionEnded(EndReason.DEPARTURE, 0) in [e for _, e in other]
                assert isinstance(other[-1][1], TranscriptSaved)
                assert not a._reader.done()  # the reader task survived the disk error
                await a.signout()  # and still answers: the connection works
                assert a.transcript_path is not None
                records = read_records(a.transcript_path)
                assert len(records) >= kept and check_chain(records) is None
            finally:
                await a.close()
                await b.close()

    run(scenario(), timeout=60)


class _Trickle(io.FileIO):
    """A file whose every write takes at most 7 bytes, as a raw write on a nearly full disk
    may."""

    def write(self, data: Any) -> int:
        return super().write(bytes(data)[:7])


def test_a_write_that_takes_only_part_is_finished_and_the_chain_stays_whole(
    tmp_path: Path,
) -> None:
    net = Net(2, seed=7)
    path = tmp_path / "t.jsonl"
    writer = TranscriptWriter(path)
    writer.write(net.peers[0].records())
    assert writer._file is not None
    writer._file.close()
    writer._file = _Trickle(path, "ab")
    net.round()
    writer.write(net.peers[0].records())
    writer.close()
    records = read_records(path)
    assert len(records) == len(net.peers[0].transcript) > 1
    assert check_chain(records) is None
