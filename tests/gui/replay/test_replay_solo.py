"""Solo sessions watched again from Stats: the saved nonces and commitments re-derive the dice;
an older record says plainly it was saved before replays were kept; a solo replay loads no net."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from pointline.gui.replay.errors import ReplayCode, ReplayError
from pointline.gui.replay.solo import NOT_KEPT, open_solo
from pointline.gui.session import SoloSession
from pointline.gui.stats import SessionRecord, record_of
from pointline.kernel import Allocate, Confirm, Line, Roll, derive_dice


def _played(throws: int = 12) -> tuple[SoloSession, SessionRecord]:
    counter = iter(range(1, 10_000))
    session = SoloSession(lambda: next(counter).to_bytes(32, "big"))
    while session.table.throws < throws and not session.table.is_over:
        if session.table.point is None:
            session.submit(Allocate(0, Line.PASS))
            session.submit(Allocate(0, Line.DONT_PASS))
            session.submit(Confirm(0))
        else:
            session.submit(Roll(0))
    return session, record_of(session.table, "abc", reveals=session.reveals)


def test_a_saved_solo_session_replays_every_throw_and_says_there_are_no_signatures() -> None:
    session, record = _played()
    again = SessionRecord.from_json(json.loads(json.dumps(record.to_json())))
    watched = open_solo(again)
    assert watched.verdict.word == "OK" and watched.solo
    assert "no signatures" in watched.verdict.vouch_text
    assert len(watched.throws) == session.table.throws
    for throw, reveal in zip(watched.throws, session.reveals, strict=True):
        assert (throw.trace.die1, throw.trace.die2) == reveal.dice
        assert reveal.dice == derive_dice("solo", reveal.throw_index, [reveal.nonce])
        assert throw.reveals[0].commitment_ok
    final = watched.view(len(watched.throws), 0)
    assert final.balance == session.table.balance(0)


def test_an_older_record_says_it_was_saved_before_replays_were_kept() -> None:
    _, record = _played(3)
    doc = record.to_json()
    del doc["replay"], doc["table_id"]
    older = SessionRecord.from_json(doc)
    assert older.replay is None
    with pytest.raises(ReplayError) as caught:
        open_solo(older)
    assert caught.value.code is ReplayCode.NO_REPLAY and caught.value.text == NOT_KEPT


def test_an_altered_nonce_fails_at_its_throw_and_shows_the_throws_before() -> None:
    _, record = _played(6)
    assert record.replay is not None
    saved = list(record.replay)
    saved[3] = replace(saved[3], nonce="00" * 32)
    watched = open_solo(replace(record, replay=tuple(saved)))
    assert watched.verdict.word == "FAIL"
    assert watched.verdict.sentence.startswith("throw 4:")
    assert [t.throw for t in watched.throws] == [1, 2, 3]


def test_a_solo_replay_loads_no_net_module() -> None:
    code = (
        "import sys, json\n"
        "from tests.gui.replay.test_replay_solo import _played\n"
        "from pointline.gui.replay.solo import open_solo\n"
        "from pointline.gui.replay.bridge import ReplayBridge\n"
        "import pointline.gui.replay.app\n"
        "_, r = _played(5); ReplayBridge(open_solo(r)).forward()\n"
        "bad = [m for m in sys.modules if m.startswith('pointline.net') "
        "and m not in ('pointline.net', 'pointline.net.paths', 'pointline.net.errors')]\n"
        "print(json.dumps(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_the_replay_and_verify_give_a_damaged_record_the_same_verdict(tmp_path: Path) -> None:
    """One check (``kernel.check_solo``) for the replay's banner and ``pointline verify``: an
    edited final point, which every throw still agrees with, fails both in the same words."""
    from pointline.net.client import verify_transcript

    _, record = _played(6)
    edited = replace(record, final_points=record.final_points + 10)
    watched = open_solo(edited)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(edited.to_json(), indent=1) + "\n", encoding="utf-8")
    report = verify_transcript(path)
    assert watched.verdict.word == "FAIL" and not report.ok
    assert watched.verdict.sentence.startswith("the record says final points ")
    assert report.problem == f"solo session abc: {watched.verdict.sentence}"
    assert len(watched.throws) == 6  # every throw agrees: all are shown
