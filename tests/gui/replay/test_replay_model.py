"""The replay model against ``pointline verify``: for every transcript vector the verdict, its
sentence and the first broken record; for the genuine sessions the seat view at every throw
against each line of ``verify --show`` (the seats_2 session holds Don't Pass reductions and
their refunds)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pointline.gui.replay.errors import ReplayCode, ReplayError
from pointline.gui.replay.model import UNCHECKED_NAMES, Session, Vouch, open_transcript
from pointline.kernel import Phase, verify_commitment
from pointline.net.client._verify_command import main as verify_main
from pointline.net.protocol._keys import public_key_from_hex

VECTORS = Path(__file__).parents[3] / "conformance" / "online" / "vectors" / "transcripts.json"
CASES: list[dict[str, Any]] = json.loads(VECTORS.read_text(encoding="utf-8"))["cases"]
GENUINE = [c for c in CASES if c["name"].startswith("genuine")]


def _write(tmp_path: Path, case: dict[str, Any]) -> Path:
    path = tmp_path / "t.jsonl"
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write(case["input"]["transcript"])
    return path


def _verify(capsys: pytest.CaptureFixture[str], path: Path, key: str | None) -> list[str]:
    argv = [str(path), "--show"] + (["--relay-key", key] if key else [])
    verify_main(argv)
    return capsys.readouterr().out.splitlines()


def _open(path: Path, key: str | None) -> Session:
    return open_transcript(path, public_key_from_hex(key) if key else None)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_verdict_sentence_and_record_are_verifys(
    case: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, key = _write(tmp_path, case), case["input"]["relay_key"]
    session = _open(path, key)
    out = _verify(capsys, path, key)
    verdict = session.verdict
    assert verdict.word == case["expect"]["verdict"].split()[0] or verdict.word == "INCOMPLETE"
    if verdict.word != "FAIL":
        summary = out[len(session.throws)]
        assert summary == f"{verdict.word}: {verdict.sentence}"
        said = out[len(session.throws) + 1]
        assert verdict.vouch_text == (said if key else UNCHECKED_NAMES)
        assert key or "--relay-key" in said  # the terminal keeps verify's own words
        seats = out[len(session.throws) + 2 :]
        assert seats == [f"  Seat {s.seat + 1} {s.name}: {s.words}" for s in verdict.seats]
        hosted = "host" in json.loads(case["input"]["transcript"].split("\n", 1)[0])["body"]
        assert verdict.vouch is (
            Vouch.NONE if not key else Vouch.HOST if hosted else Vouch.RELAY
        ), case["name"]
        return
    (line,) = out
    if verdict.note and verdict.record is None and "damaged" in verdict.note:
        number = re.search(r"line (\d+)", verdict.note)
        assert line.startswith("FAIL: ") and number is not None
        assert f"line {number.group(1)} " in line  # verify names the same line
        return
    where = f"record {verdict.record}: " if verdict.record is not None else ""
    assert line == f"FAIL: {where}{verdict.sentence}"


FLAG = re.compile(r"(?<![\w-])--[a-z]")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_no_command_line_flag_reaches_the_replay_screen(
    case: dict[str, Any], tmp_path: Path
) -> None:
    """verify's "who played cannot be checked without the relay's key (--relay-key)" is for a
    terminal: the replay says it in plain words, and no verdict text names a flag."""
    verdict = _open(_write(tmp_path, case), None).verdict
    shown = [verdict.sentence, verdict.vouch_text, verdict.note]
    assert [text for text in shown if FLAG.search(text)] == []
    if verdict.word != "FAIL":
        assert (verdict.vouch, verdict.vouch_text) == (Vouch.NONE, UNCHECKED_NAMES)


def test_a_hosted_tables_host_vouches_for_the_names(tmp_path: Path) -> None:
    """The host's relay signed the roster with the host's name: with that key the replay says
    the host vouches for the names; without it nobody does (the mark is not checked); a changed
    host name fails the signature."""
    by_name = {c["name"]: c for c in CASES}
    case = by_name["genuine.complete.hosted.relay_key"]
    verdict = _open(_write(tmp_path, case), case["input"]["relay_key"]).verdict
    assert verdict.vouch is Vouch.HOST
    assert verdict.vouch_text.startswith(
        "the names are vouched for by the table's host, player1, whose relay signed the roster: "
    )
    assert _open(_write(tmp_path, case), None).verdict.vouch is Vouch.NONE
    renamed = by_name["tampered.hosted.host_renamed.relay_key"]
    assert _open(_write(tmp_path, renamed), renamed["input"]["relay_key"]).verdict.word == "FAIL"


SHOW_LINE = re.compile(
    r"throw (?P<throw>\d+): (?P<d1>\d) \+ (?P<d2>\d) = (?P<total>\d+) at (?P<before>.+?), "
    r"then (?P<after>.+?); (?P<hands>\d+) hands? resolved; points (?P<points>.+)"
)


@pytest.mark.parametrize("case", GENUINE, ids=[c["name"] for c in GENUINE])
def test_seat_view_at_every_throw_matches_verify_show(
    case: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, key = _write(tmp_path, case), case["input"]["relay_key"]
    session = _open(path, key)
    show = [line for line in _verify(capsys, path, key) if line.startswith("throw ")]
    assert len(show) == len(session.throws)
    for step, (throw, line) in enumerate(zip(session.throws, show, strict=True), start=1):
        views = [session.view(step, s) for s in range(session.seats)]
        before = session.view(step - 1, session.me)
        # verify --show's line, read back: dice, the phase before and after, hands, points
        said = SHOW_LINE.fullmatch(line)
        assert said is not None, line
        d1, d2 = throw.trace.die1, throw.trace.die2
        assert (int(said["throw"]), int(said["d1"]), int(said["d2"])) == (throw.throw, d1, d2)
        assert int(said["total"]) == d1 + d2
        assert said["before"] == (f"point {before.point}" if before.pointPhase else "the come-out")
        after = views[0]
        if after.pointPhase:
            assert said["after"] == f"point {after.point}"
        elif after.comeOut:
            assert said["after"] == "the next come-out"
        else:  # five hands played, or an ending with no result (the throw cap)
            ended = "the end of the session" if after.phase == "complete" else "no result"
            assert said["after"] == ended
        assert int(said["hands"]) == session.table_at(step).hands_resolved
        points = re.findall(r"Seat (\d+) (-?[\d,]+?)(?=, Seat |$)", said["points"])
        assert [(int(k), int(v.replace(",", ""))) for k, v in points] == [
            (s + 1, view.balance) for s, view in enumerate(views)
        ]
        for s, view in enumerate(views):  # the contracts shown are the ones each seat sealed
            reveal = throw.reveals[s]
            assert (view.contractPass, view.contractDontPass) == (
                reveal.choice.pass_amount,
                reveal.choice.dont_pass_amount,
            )
            assert reveal.commitment_ok and reveal.commitment is not None
            assert verify_commitment(
                reveal.commitment,
                session.table_id,
                throw.throw,
                s,
                reveal.nonce,
                reveal.choice.to_bytes(),
            )


def test_a_session_with_dont_pass_reductions_shows_their_refunds(tmp_path: Path) -> None:
    (case,) = [c for c in GENUINE if c["name"] == "genuine.complete.seats_2"]
    session = _open(_write(tmp_path, case), None)
    reduced = [
        (t, s)
        for t in session.throws
        for s in range(session.seats)
        if t.before.phase is Phase.POINT
        and t.sealed.contracts(s).dont_pass_amount < t.before.contracts(s).dont_pass_amount
    ]
    assert reduced
    for throw, seat in reduced:  # the reduction is refunded before the dice settle
        assert throw.refund(seat) > 0
        assert throw.sealed.balance(seat) - throw.before.balance(seat) == throw.refund(seat)
    assert all(t.refund(s) == 0 for t in session.throws for s in range(2) if (t, s) not in reduced)


def test_a_fail_shows_no_throw_from_the_break_on(tmp_path: Path) -> None:
    broken = [c for c in CASES if c["name"] == "tampered.unchained.throw_edited"]
    session = _open(_write(tmp_path, broken[0]), None)
    assert session.verdict.word == "FAIL" and session.throws == ()


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00", ReplayCode.FOREIGN),
        (b'{"hello": "world"}\n', ReplayCode.FOREIGN),
        (b"name,score\nann,3\n", ReplayCode.FOREIGN),
    ],
)
def test_a_foreign_file_is_a_typed_error_in_plain_words(
    tmp_path: Path, content: bytes, code: ReplayCode
) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(content)
    with pytest.raises(ReplayError) as caught:
        open_transcript(path)
    assert caught.value.code is code
    assert caught.value.text == "This file is not a Pointline session transcript."


def test_a_missing_file_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(ReplayError) as caught:
        open_transcript(tmp_path / "gone.jsonl")
    assert caught.value.code is ReplayCode.UNREADABLE and "Errno" not in caught.value.text


def test_a_damaged_transcript_says_which_line(tmp_path: Path) -> None:
    text = GENUINE[1]["input"]["transcript"]
    path = tmp_path / "d.jsonl"
    path.write_text(text[: len(text) - 40], encoding="utf-8")
    session = open_transcript(path)
    lines = text.count("\n")
    assert session.verdict.word == "FAIL" and session.verdict.code is ReplayCode.DAMAGED
    assert (
        session.verdict.note == f"This transcript is damaged: line {lines} is not a whole record."
    )
    assert "char" not in session.verdict.sentence and "Expecting" not in session.verdict.sentence


def test_a_newer_version_says_so(tmp_path: Path) -> None:
    (case,) = [c for c in CASES if c["name"] == "tampered.header.version_2"]
    session = _open(_write(tmp_path, case), None)
    assert session.verdict.word == "FAIL" and session.verdict.code is ReplayCode.NEWER
    assert session.verdict.note == (
        "This file was written by a newer Pointline (protocol version 2); this app reads version 1."
    )
