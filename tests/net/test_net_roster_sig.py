"""The relay signs each started roster with its own key; verify --relay-key says who played."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from pointline.net.client._verify_command import main as verify_main
from pointline.net.client._verify_command import verify_transcript
from pointline.net.protocol._keys import public_key_from_hex
from pointline.net.protocol._wire import RosterEntry, parse_relay
from pointline.net.relay._accounts import FAST_HASH, Accounts
from pointline.net.relay._server import sign_roster
from tests.net.support import assert_complete, relay, run, session


def test_the_relay_key_is_made_once_and_printed(tmp_path: Path) -> None:
    db = tmp_path / "relay.sqlite3"
    env = dict(os.environ)
    command = [sys.executable, "-m", "pointline.net.relay", "--print-key", "--db", str(db)]
    first = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    second = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    assert first.returncode == second.returncode == 0, first.stderr
    key = first.stdout.strip()
    assert len(key) == 64 and public_key_from_hex(key)
    assert second.stdout.strip() == key  # kept in the database, not made anew
    accounts = Accounts(db, FAST_HASH)
    assert accounts.relay_key().public_hex == key
    accounts.close()


def test_a_started_frame_carries_a_signature_of_its_roster(tmp_path: Path) -> None:
    accounts = Accounts(tmp_path / "r.db", FAST_HASH)
    key = accounts.relay_key()
    roster = (RosterEntry(0, "ann", "11" * 32), RosterEntry(1, "bob", "22" * 32))
    sig = sign_roster(key, "t1", roster)
    doc = {"op": "started", "code": "ABCDEF", "table_id": "t1", "seat": 0, "id": 3}
    doc |= {"roster": [vars_of(e) for e in roster], "roster_sig": sig}
    frame = parse_relay(json.dumps(doc))
    assert frame.roster_sig == sig and frame.id == 3  # type: ignore[union-attr]
    accounts.close()


def vars_of(entry: RosterEntry) -> dict[str, object]:
    return {"seat": entry.seat, "name": entry.name, "session_key": entry.session_key}


def test_verify_with_the_relay_key_names_the_players(tmp_path: Path) -> None:
    async def scenario() -> tuple[str, list[Path]]:
        async with relay(tmp_path) as running:
            clients, peers = await session(running.url, 3, seed=7, prefix="sig")
            assert_complete(clients, peers)
            paths = [c.transcript_path for c in clients]
            assert all(p is not None for p in paths)
            return running.relay.key.public_hex, [p for p in paths if p is not None]

    key, paths = run(scenario(), timeout=60)
    for path in paths:
        header = json.loads(path.read_text().splitlines()[0])
        assert len(header["body"]["roster_sig"]) == 128
        report = verify_transcript(path, public_key_from_hex(key))
        assert report.ok, report.problem
        assert report.players.startswith("players verified by the relay's signature: Seat 1 sig")
        assert report.players.count("Seat ") == 3 and report.players.endswith("_2")
    assert verify_main([str(paths[0]), "--relay-key", key]) == 0
    other = Accounts(tmp_path / "other.db", FAST_HASH).relay_key().public_hex
    wrong = verify_transcript(paths[0], public_key_from_hex(other))
    assert not wrong.ok and "does not verify" in (wrong.problem or "")
