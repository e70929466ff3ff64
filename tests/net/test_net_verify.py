"""``pointline verify``: honest transcripts pass, every kind of tampering is caught."""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pointline.kernel import Choice, EndReason
from pointline.net.client._transcript_file import TranscriptWriter, load_transcript, save_transcript
from pointline.net.client._verify_command import main, verify_transcript
from pointline.net.errors import TranscriptError
from pointline.net.protocol._keys import SigningKey, verification_words
from pointline.net.protocol._messages import encode, parse, sign
from pointline.net.protocol._peer import Peer, roster_signing_bytes
from pointline.net.protocol._transcript import record_hash
from pointline.net.protocol._verify import verify_text
from tests.net.memnet import Net, in_point_phase_with_contracts, random_choice


def honest(tmp_path: Path, seats: int = 2, seed: int = 3) -> tuple[Net, list[Path]]:
    net = Net(seats, seed=seed, choose=random_choice)
    net.run()
    paths = [save_transcript(p.transcript, tmp_path / f"seat{p.seat}.jsonl") for p in net.peers]
    return net, paths


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().split("\n") if line]


def write(path: Path, records: list[dict[str, Any]], rechain: bool = True) -> Path:
    """Write records back; ``rechain`` recomputes index, prev and hash (a careful forger)."""
    if rechain:
        prev = "0" * 64
        for i, doc in enumerate(records):
            doc["index"], doc["prev"] = i, prev
            doc["hash"] = prev = record_hash(i, prev, doc["kind"], doc["body"])
    out = path.with_name("tampered-" + path.name)
    out.write_text("".join(json.dumps(d) + "\n" for d in records))
    return out


def first(records: list[dict[str, Any]], kind: str, **match: Any) -> dict[str, Any]:
    return next(
        d
        for d in records
        if d["kind"] == kind and all(d["body"].get(k) == v for k, v in match.items())
    )


def test_every_honest_transcript_verifies(tmp_path: Path, capsys: Any) -> None:
    net, paths = honest(tmp_path, seats=3)
    for peer, path in zip(net.peers, paths, strict=True):
        report = verify_transcript(path)
        assert report.ok, report.text()
        assert report.status == "complete" and report.receipts == "matched"
        assert report.final == peer.result.final  # type: ignore[union-attr]
        assert report.ranks == peer.result.ranks  # type: ignore[union-attr]
        assert report.throws == peer.table.throws
        assert main([str(path)]) == 0
        assert capsys.readouterr().out.startswith("OK: ")


@pytest.mark.parametrize("fault", ["bad_reveal", "deadline", "background"])
def test_transcripts_of_ended_sessions_verify_with_their_reason(tmp_path: Path, fault: str) -> None:
    net = Net(3, seed=11)
    net.run_until(in_point_phase_with_contracts)
    if fault == "bad_reveal":
        keys = {m.seat: m.public_key for m in net.roster}

        def lie(frame: dict[str, Any]) -> list[Any]:
            if frame["kind"] != "reveal":
                return [frame]
            message = parse(frame, net.table_id, keys)
            return [net.signed(2, replace(message, choice=Choice(0, 0).to_bytes()))]

        net.filters[2] = lie
        expected = (EndReason.BAD_REVEAL, 2)
    elif fault == "deadline":
        net.silent.add(2)
        expected = (EndReason.DEADLINE, 2)
    else:
        net.peers[1].background(net.now)
        expected = (EndReason.BACKGROUND, 1)
    net.run()
    for p in net.honest(2):
        report = verify_transcript(save_transcript(p.transcript, tmp_path / f"s{p.seat}.jsonl"))
        assert report.ok, report.text()
        assert (report.reason, report.seat) == expected


def test_a_flipped_die_is_caught(tmp_path: Path, capsys: Any) -> None:
    _, paths = honest(tmp_path)
    records = load(paths[0])
    throw = first(records, "throw", throw=2)
    d1, d2 = throw["body"]["dice"]
    throw["body"]["dice"] = [d1 % 6 + 1, d2]
    throw["body"]["total"] = d1 % 6 + 1 + d2
    report = verify_transcript(write(paths[0], records))
    assert not report.ok and "derived" in (report.problem or "")
    assert report.record == throw["index"]
    assert main([str(write(paths[0], records))]) == 1
    assert capsys.readouterr().out.startswith("FAIL: ")


def test_an_edit_without_rehashing_breaks_the_chain(tmp_path: Path) -> None:
    _, paths = honest(tmp_path)
    records = load(paths[0])
    first(records, "throw", throw=1)["body"]["dice"][0] ^= 3
    report = verify_transcript(write(paths[0], records, rechain=False))
    assert not report.ok and "hash chain" in (report.problem or "")


def test_a_changed_signature_is_caught(tmp_path: Path) -> None:
    _, paths = honest(tmp_path)
    records = load(paths[0])
    rec = first(records, "received")
    frame = json.loads(rec["body"]["message"])
    frame["sig"] = ("f" if frame["sig"][0] != "f" else "e") + frame["sig"][1:]
    rec["body"]["message"] = json.dumps(frame, sort_keys=True, separators=(",", ":"))
    report = verify_transcript(write(paths[0], records))
    assert not report.ok and "signature" in (report.problem or "")
    assert report.record == rec["index"]


def test_a_resigned_altered_reveal_fails_its_commitment(tmp_path: Path) -> None:
    net, paths = honest(tmp_path)
    records = load(paths[0])
    rec = first(records, "sent")  # seat 0's own first commit ...
    rec = next(
        d for d in records if d["kind"] == "sent" and '"kind":"reveal"' in d["body"]["message"]
    )
    keys = {m.seat: m.public_key for m in net.roster}
    message = parse(rec["body"]["message"], net.table_id, keys)
    altered = sign(replace(message, choice=Choice(0, 0).to_bytes()), net.keys[0])
    if altered == message:  # the seat really chose (0, 0): pick another choice
        altered = sign(replace(message, choice=Choice(10, 0).to_bytes()), net.keys[0])
    rec["body"]["message"] = encode(altered)
    report = verify_transcript(write(paths[0], records))
    assert not report.ok and "does not match its commit" in (report.problem or "")


def test_a_dropped_record_is_caught(tmp_path: Path) -> None:
    _, paths = honest(tmp_path)
    records = load(paths[0])
    victim = first(records, "received")
    kept = [d for d in records if d is not victim]
    assert not verify_transcript(write(paths[0], [dict(d) for d in kept], rechain=False)).ok
    report = verify_transcript(write(paths[0], kept))
    assert not report.ok, "a rechained log missing a message must still fail"


def test_an_edited_final_point_is_caught(tmp_path: Path) -> None:
    _, paths = honest(tmp_path)
    records = load(paths[0])
    outcome = first(records, "outcome")
    outcome["body"]["final"][0] += 10
    report = verify_transcript(write(paths[0], records))
    assert not report.ok and "final points" in (report.problem or "")


def test_edited_ranks_and_receipts_are_caught(tmp_path: Path) -> None:
    _, paths = honest(tmp_path)
    records = load(paths[0])
    first(records, "outcome")["body"]["ranks"] = [9, 9]
    assert not verify_transcript(write(paths[0], records)).ok
    records = load(paths[0])
    first(records, "receipts")["body"]["status"] = "mismatch"
    report = verify_transcript(write(paths[0], records))
    assert not report.ok and "receipts" in (report.problem or "")


def test_a_cut_off_transcript_fails(tmp_path: Path) -> None:
    _, paths = honest(tmp_path)
    records = load(paths[0])
    cut = [d for d in records if d["kind"] not in ("outcome", "receipts")]
    report = verify_transcript(write(paths[0], cut))
    assert not report.ok and "cut off" in (report.problem or "")


def test_an_invented_ending_without_a_notice_fails(tmp_path: Path) -> None:
    _, paths = honest(tmp_path)
    records = load(paths[0])
    last_throw = max(i for i, d in enumerate(records) if d["kind"] == "throw")
    cut = records[:last_throw]  # the last round's messages are in, its throw is not
    throws = sum(1 for d in cut if d["kind"] == "throw")
    cut.append(
        {
            "kind": "outcome",
            "body": {"status": "ended", "throws": throws, "reason": "deadline", "seat": 1},
        }
    )
    report = verify_transcript(write(paths[0], cut))
    assert not report.ok and "abort notice" in (report.problem or "")


def test_unreadable_files_fail(tmp_path: Path, capsys: Any) -> None:
    missing = tmp_path / "nope.jsonl"
    assert main([str(missing)]) == 1
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("not json\n")
    assert not verify_transcript(garbage).ok
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert not verify_transcript(empty).ok
    assert capsys.readouterr().out.startswith("FAIL")


def test_a_writer_puts_every_record_on_disk_as_it_happens(tmp_path: Path) -> None:
    net = Net(2, seed=4)
    path = tmp_path / "live" / "t.jsonl"
    writer = TranscriptWriter(path)
    peer = net.peers[0]
    writer.write(peer.records())
    assert len(path.read_text().splitlines()) == 1  # the header
    assert peer.records() == []  # drained: each record is handed out once
    net.round()
    writer.write(peer.records())
    assert len(path.read_text().splitlines()) == len(peer.transcript)
    peer.background(net.now)
    writer.write(peer.records())
    # the abort path is on disk at once, before close
    assert len(path.read_text().splitlines()) == len(peer.transcript)
    writer.close()
    assert verify_transcript(path).ok
    assert sorted(p.name for p in path.parent.iterdir()) == ["t.jsonl"]


def test_load_round_trips_and_refuses_a_broken_chain(tmp_path: Path) -> None:
    _, paths = honest(tmp_path)
    loaded = load_transcript(paths[0])
    assert loaded.lines() == paths[0].read_text().splitlines()
    records = load(paths[0])
    records[3]["body"]["at"] = 0.5
    with pytest.raises(TranscriptError):
        load_transcript(write(paths[0], records, rechain=False))


def test_the_command_runs_as_a_module_and_lists_verification_words(tmp_path: Path) -> None:
    net, paths = honest(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "pointline.net.client._verify_command", str(paths[1])],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("OK: ")
    for member in net.roster:
        words = " ".join(verification_words(member.public_key))
        assert f"  Seat {member.seat + 1} {member.name}: {words}" in lines


_HONEST: list[dict[str, Any]] = []


def _honest_records() -> list[dict[str, Any]]:
    if not _HONEST:
        net = Net(2, seed=9, choose=random_choice)
        net.run()
        _HONEST.extend(json.loads(line) for line in net.peers[0].transcript.lines())
    return json.loads(json.dumps(_HONEST))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 2000) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


@settings(max_examples=40, deadline=None)
@given(data=st.data(), value=JSON)
def test_any_edited_record_is_rejected_and_verify_never_raises(data: Any, value: object) -> None:
    records = _honest_records()
    index = data.draw(st.integers(0, len(records) - 1))
    body = records[index]["body"]
    key = data.draw(st.sampled_from(sorted(body)))
    if body[key] == value:
        return
    body[key] = value
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.jsonl"
        report = verify_transcript(write(path, records))
    # record times are informational: a number edited to another number changes nothing
    informational = key in ("at", "started_at") and type(value) in (int, float)
    assert report.ok == informational, report.text()


def test_show_prints_every_replayed_throw(tmp_path: Path, capsys: Any) -> None:
    net, paths = honest(tmp_path)
    assert main(["--show", str(paths[0])]) == 0
    out = capsys.readouterr().out.splitlines()
    throws = [line for line in out if line.startswith("throw ")]
    assert len(throws) == net.peers[0].table.throws
    assert out[len(throws)].startswith("OK: ")


def relay_signed_net(
    tmp_path: Path, relay: SigningKey, names: dict[int, str] | None = None
) -> Path:
    """A 2-seat session whose peers got the relay's roster signature; seat 0's transcript."""
    net = Net(2, seed=5)
    sig = relay.sign(roster_signing_bytes(net.table_id, net.roster))
    net.peers = [
        Peer(net.table_id, net.roster, i, net.keys[i], net.timeouts, net.now, roster_sig=sig)
        for i in range(2)
    ]
    net.run()
    return save_transcript(net.peers[0].transcript, tmp_path / "seat0.jsonl")


def test_a_transcript_cut_after_the_outcome_is_incomplete_not_ok(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, paths = honest(tmp_path)
    records = load(paths[0])
    assert records[-1]["kind"] == "receipts"
    report = verify_transcript(paths[0])
    assert report.ok and report.complete
    assert report.text().startswith("OK: ")
    cut = write(tmp_path / "cut.jsonl", records[:-1], rechain=False)
    report = verify_transcript(cut)
    assert report.ok and not report.complete
    assert report.text().startswith("INCOMPLETE: ")
    assert main([str(cut)]) == 2
    assert capsys.readouterr().out.startswith("INCOMPLETE: ")


def test_a_session_stopped_by_a_lost_relay_is_incomplete_in_plain_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pointline.conformance.online.sim import Session

    session = Session(3, seed=16, relay_lost_at=3).run()  # the relay dies as throw 3 opens
    for peer in session.peers:
        path = tmp_path / f"lost{peer.seat}.jsonl"
        path.write_text(session.text(peer.seat))
        report = verify_transcript(path)
        assert report.ok and not report.complete, report.text()
        assert report.reason is EndReason.DEPARTURE and report.seat == peer.seat
        assert report.summary.endswith(
            "ended without a result: the relay was lost after throw 2; every record up to "
            "there checks"
        ), report.summary
        assert main([str(path)]) == 2
        assert capsys.readouterr().out.startswith("INCOMPLETE: ")
    # a seat that saw another seat leave saw the session through to its end: OK
    stayed = Session(2, seed=14, leave_at={1: 2}).run()
    path = tmp_path / "stayer.jsonl"
    path.write_text(stayed.text(0))
    report = verify_transcript(path)
    assert report.ok and report.complete and report.seat == 1, report.text()
    assert "a departure" in report.summary and "relay was lost" not in report.summary
    # and so does the leaver itself: its signed notice and the ending are in its own file
    path = tmp_path / "leaver.jsonl"
    path.write_text(stayed.text(1))
    report = verify_transcript(path)
    assert report.ok and report.complete and report.seat == 1, report.text()
    assert report.summary.endswith(
        "ended without a result: a departure from Seat 2, reported by that seat itself"
    ), report.summary
    assert main([str(path)]) == 0


def test_an_ending_of_another_kind_without_a_notice_is_still_a_discrepancy(
    tmp_path: Path,
) -> None:
    """Only this seat's own departure may stand without its notice (a lost connection)."""
    from pointline.conformance.online.sim import Session

    session = Session(2, seed=16, relay_lost_at=3).run()
    path = tmp_path / "lost.jsonl"
    path.write_text(session.text(0))
    records = load(path)
    records[-1]["body"]["reason"] = "deadline"
    report = verify_transcript(write(tmp_path / "deadline.jsonl", records))
    assert not report.ok and report.record == len(records) - 1, report.text()
    records[-1]["body"].update(reason="departure", seat=1)
    report = verify_transcript(write(tmp_path / "other.jsonl", records))
    assert not report.ok and report.record == len(records) - 1, report.text()


def test_without_the_relay_key_verify_says_who_played_cannot_be_checked(tmp_path: Path) -> None:
    path = relay_signed_net(tmp_path, SigningKey.generate())
    report = verify_transcript(path)
    assert report.ok
    assert "who played cannot be checked without the relay's key" in report.text()
    assert "verified" not in report.text()


def test_with_the_relay_key_verify_names_the_players(tmp_path: Path) -> None:
    relay = SigningKey.generate()
    path = relay_signed_net(tmp_path, relay)
    report = verify_transcript(path, relay.public_key)
    assert report.ok, report.text()
    assert "players verified by the relay's signature: Seat 1 player0, Seat 2 player1" in (
        report.text()
    )
    assert main([str(path), "--relay-key", relay.public_hex]) == 0


def test_a_renamed_player_with_the_chain_recomputed_fails_with_the_relay_key(
    tmp_path: Path,
) -> None:
    relay = SigningKey.generate()
    path = relay_signed_net(tmp_path, relay)
    records = load(path)
    records[0]["body"]["roster"][1]["name"] = "mallory"
    forged = write(tmp_path / "forged.jsonl", records)
    assert verify_transcript(forged).ok  # consistent, but it cannot say who played
    assert "cannot be checked" in verify_transcript(forged).text()
    report = verify_transcript(forged, relay.public_key)
    assert not report.ok
    assert "relay's signature" in (report.problem or "")


def test_a_session_invented_offline_does_not_read_as_verified_players(tmp_path: Path) -> None:
    relay = SigningKey.generate()
    _, paths = honest(tmp_path)  # fresh keys, no relay signature at all
    report = verify_transcript(paths[0], relay.public_key)
    assert report.ok
    assert "verified" not in report.text()
    assert "no relay signature" in report.text()
    forger = SigningKey.generate()  # signed by a key that is not the relay's
    path = relay_signed_net(tmp_path, forger)
    report = verify_transcript(path, relay.public_key)
    assert not report.ok


def test_a_bad_relay_key_argument_is_a_fail_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, paths = honest(tmp_path)
    assert main([str(paths[0]), "--relay-key", "zz"]) == 1
    assert capsys.readouterr().out.startswith("FAIL: --relay-key")


# ---- verify replays through the protocol core (one rule, decided once) ----------------------


def _unrevealed_commit_session() -> Any:
    from pointline.conformance.online.sim import Session

    return Session(3, seed=9, silent={2}).run()  # seat 2 never commits: nobody reveals


def _resigned_own_commit(session: Any, tmp_path: Path, **changes: Any) -> Path:
    records = [json.loads(line) for line in session.lines(0)]
    rec = next(
        d for d in records if d["kind"] == "sent" and '"kind":"commit"' in d["body"]["message"]
    )
    keys = {m.seat: m.public_key for m in session.roster}
    message = parse(rec["body"]["message"], session.table_id, keys)
    rec["body"]["message"] = encode(sign(replace(message, **changes), session.keys[0]))
    return write(tmp_path / "t.jsonl", records)


def test_a_commit_never_revealed_is_checked_for_all_but_its_commitment(tmp_path: Path) -> None:
    session = _unrevealed_commit_session()
    genuine = save_transcript(session.peers[0].transcript, tmp_path / "genuine.jsonl")
    assert verify_transcript(genuine).ok
    other = _resigned_own_commit(session, tmp_path, commitment=b"\x07" * 32)
    assert verify_transcript(other).ok  # without its nonce and choice nobody can recompute it
    for change in ({"throw": 2}, {"seq": 1}):
        report = verify_transcript(_resigned_own_commit(session, tmp_path, **change))
        assert not report.ok, change


def test_verify_decides_each_rule_through_the_protocol_core(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a protocol core with a rule changed (any reveal matches its commitment) writes a
    # transcript of a session that took a reveal of zeros; verify replays it through that same
    # core, so it agrees: the code that played and the code that checks cannot drift apart
    from pointline.conformance.online.sim import Session
    from pointline.net.protocol import _peer as protocol

    monkeypatch.setattr(protocol, "verify_commitment", lambda *args, **kw: True)
    session = Session(2, seed=7)
    done = [False]

    def zero_nonce(frame: dict[str, Any]) -> list[Any]:
        if frame["kind"] != "reveal" or done[0]:
            return [frame]
        done[0] = True
        message = parse(frame, session.table_id, {m.seat: m.public_key for m in session.roster})
        return [json.loads(encode(sign(replace(message, nonce=bytes(32)), session.keys[1])))]

    session.rewrite[1] = zero_nonce
    session.run()
    path = save_transcript(session.peers[0].transcript, tmp_path / "t.jsonl")
    assert verify_transcript(path).ok
    monkeypatch.undo()
    report = verify_transcript(path)  # the real rule refuses the reveal the file holds
    assert not report.ok and "does not match its commit" in (report.problem or "")


def test_names_and_the_table_id_from_the_file_cannot_forge_verifys_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 33 R1: a roster name or table id holding a newline, CR or ESC is printed with
    those characters escaped: every line verify prints is one of its own."""
    from pointline.conformance.online.sim import RELAY_SEED, Session

    names = ("alice\nFAIL: nothing", "bob\x1b[2J\rOK: all good\u2028FAIL: x")
    session = Session(2, seed=3, table_id="t\r\nFAIL: forged", names=names).run()
    path = tmp_path / "names.jsonl"
    path.write_text(session.text(0))
    relay_key = SigningKey.from_bytes(RELAY_SEED).public_hex
    for argv in ([str(path)], [str(path), "--relay-key", relay_key], [str(path), "--show"]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        lines = out.split("\n")
        assert lines[-1] == "" and all(line.isprintable() for line in lines), repr(out)
        assert [line.split(":")[0] for line in lines if line.startswith(("OK", "FAIL"))] == [
            "OK"
        ], out
        assert "Seat 1 alice\\nFAIL: nothing:" in out
        assert "Seat 2 bob\\x1b[2J\\rOK: all good\\u2028FAIL: x:" in out
        assert "table t\\r\\nFAIL: forged," in out
    # a FAIL's own words quote the file too: still one line
    records = load(path)
    records[1]["body"]["message"] = "not json\nOK: forged"
    assert main([str(write(tmp_path / "bad.jsonl", records))]) == 1
    out = capsys.readouterr().out
    assert out.startswith("FAIL: ") and out.count("\n") == 1, repr(out)
    assert all(line.isprintable() for line in out.split("\n")), repr(out)


# ---- verify's words: what a player reads (issue 37, "verify's words") -----------------------
VECTORS = Path(__file__).resolve().parents[2] / "conformance" / "online" / "vectors"
ZERO_BASED = re.compile(r"\bseat \d|\bSeat 0\b|\b(?:sender|reporter|accused|named) \d")
"""A seat said by its 0-based index: people read "Seat 1" for index 0 (``seat_label``)."""
JARGON = re.compile(
    r"\b(?:header|sent|received|rejected|throw|outcome|receipts) records?\b|protocol core"
)
"""A record kind named as such ("not a received record"): verify says what the record holds."""
PYTHON = re.compile(r"(?<!\w)'[^']*'|\bNone\b|\bTrue\b|\bFalse\b|Error\b|errno|\\x|[\[\]{}<>]")
"""A Python repr or error text: quotes around a value, ``None``, a class name, brackets."""
MEMBER_TWICE = re.compile(r"the member '[^']*' appears twice")
"""The strict JSON reader's words for a repeated member, quoted as spec/ONLINE.md §12 ("A
payload that names a member twice") writes them: a member name, not a Python value."""


@functools.cache
def _fail_reports() -> list[tuple[str, str, str | None]]:
    """verify's report on every FAIL vector (read once per test process)."""
    cases = json.loads((VECTORS / "transcripts.json").read_text("utf-8"))["cases"]
    out = []
    for case in cases:
        given = case["input"]
        key = bytes.fromhex(given["relay_key"]) if given.get("relay_key") else None
        report = verify_text(given["transcript"], key)
        if case["expect"]["verdict"] == "FAIL":
            assert not report.ok, case["name"]
            out.append((case["name"], report.text(), report.problem))
    return out


def test_no_fail_report_of_the_vectors_leaks_an_index_jargon_or_python_text() -> None:
    reports = _fail_reports()
    assert len(reports) > 80  # every FAIL vector is read, not a sample
    for name, text, _ in reports:
        assert text.startswith("FAIL: "), name
        assert not ZERO_BASED.search(text), (name, text)
        assert not JARGON.search(text), (name, text)
        assert not PYTHON.search(MEMBER_TWICE.sub("", text)), (name, text)


def test_a_bad_signature_names_the_seat_as_people_count_it() -> None:
    # the player's report: Seat 2's message, so Seat 2's key, never "seat 1"
    problems = {name: problem for name, _, problem in _fail_reports()}
    assert problems["tampered.received.sig_flipped"] == (
        "message from Seat 2 fails (bad signature): the signature does not verify with "
        "Seat 2's key; the transcript has a message received there"
    )
    assert problems["tampered.ended.reporter_changed"] == (
        "the outcome says reporter Seat 2; the replay gives Seat 1"
    )


def test_the_replays_banner_shows_verifys_words(tmp_path: Path) -> None:
    from pointline.gui.replay.model import open_transcript

    cases = json.loads((VECTORS / "transcripts.json").read_text("utf-8"))["cases"]
    case = next(c for c in cases if c["name"] == "tampered.received.sig_flipped")
    path = tmp_path / "flipped.jsonl"
    path.write_text(case["input"]["transcript"], encoding="utf-8")
    verdict = open_transcript(path).verdict
    assert verdict.word == "FAIL"
    assert verdict.sentence == verify_transcript(path).problem
    assert not ZERO_BASED.search(verdict.sentence) and not JARGON.search(verdict.sentence)


# ---- verify on a solo session saved by Stats (issue 37, "verify's words") -------------------
def _solo_file(tmp_path: Path, throws: int = 12) -> tuple[Any, Path]:
    """A solo session played by the app's own ``SoloSession`` and saved by Stats' own store."""
    from pointline.gui.session import SoloSession
    from pointline.gui.stats import StatsStore, record_of
    from pointline.kernel import Allocate, Confirm, Line, Roll

    counter = iter(range(1, 10_000))
    session = SoloSession(lambda: next(counter).to_bytes(32, "big"))
    while session.table.throws < throws and not session.table.is_over:
        if session.table.point is None:
            session.submit(Allocate(0, Line.PASS))
            session.submit(Allocate(0, Line.DONT_PASS))
            session.submit(Confirm(0))
        else:
            session.submit(Roll(0))
    store = StatsStore(tmp_path / "stats")
    assert store.add(record_of(session.table, "abc", reveals=session.reveals))
    (path,) = (tmp_path / "stats").glob("*.json")
    return session, path


def _edited(path: Path, change: Any) -> Path:
    doc = json.loads(path.read_text("utf-8"))
    change(doc)
    out = path.with_name("edited-" + path.name)
    out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return out


def test_verify_checks_a_solo_session_saved_by_stats(tmp_path: Path, capsys: Any) -> None:
    session, path = _solo_file(tmp_path)
    report = verify_transcript(path)
    assert report.ok and report.complete, report.text()
    assert report.throws == session.table.throws and report.seats == 1
    assert report.final == (session.table.balance(0),)
    assert main([str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"OK: solo session abc, table solo: {session.table.throws} throws, ")
    assert "dice derived again from its saved nonce" in out and "no signatures to check" in out
    assert main([str(path), "--show"]) == 0
    shown = capsys.readouterr().out.splitlines()
    first = session.reveals[0].dice
    assert shown[0] == f"throw 1: {first[0]} + {first[1]} = {sum(first)}, derived from its nonce"
    assert len(shown) == session.table.throws + 2  # every throw, then the verdict's two lines


def test_a_solo_session_left_mid_hand_verifies_with_its_voided_points(tmp_path: Path) -> None:
    session, path = _solo_file(tmp_path, throws=3)
    assert not session.table.is_over  # the person left: the hand in flight is voided
    report = verify_transcript(path)
    assert report.ok and report.complete, report.text()
    assert report.status == "ended" and "ended without a result" in report.summary


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            lambda d: d["replay"][2].update(dice=[d["replay"][2]["dice"][0] % 6 + 1, 1]),
            "solo session abc: throw 3: the record says dice ",
        ),
        (
            lambda d: d["replay"][1].update(nonce="00" * 32),
            "solo session abc: throw 2: its nonce and choices do not give the commitment",
        ),
        (
            lambda d: d["replay"][0].update(choices='{"dont_pass":0,"pass":90}'),
            "solo session abc: throw 1: its nonce and choices do not give the commitment",
        ),
        (
            lambda d: d.update(final_points=d["final_points"] + 10),
            "the record says final points ",
        ),
        (lambda d: d.update(throws=d["throws"] + 1), "the record says 13 throws; the replayed"),
        (lambda d: d["replay"].pop(), "the record says 12 throws; the replayed throws give 11"),
        (lambda d: d.update(hands="three"), "damaged: its hands is not a whole number"),
    ],
)
def test_a_damaged_solo_record_fails_in_plain_words(
    tmp_path: Path, capsys: Any, change: Any, words: str
) -> None:
    _, path = _solo_file(tmp_path)
    edited = _edited(path, change)
    assert main([str(edited)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("FAIL: ") and words in out, out
    assert not ZERO_BASED.search(out) and not JARGON.search(out) and not PYTHON.search(out)


def test_a_cut_off_solo_record_says_so_not_that_a_transcript_line_is_bad(
    tmp_path: Path, capsys: Any
) -> None:
    _, path = _solo_file(tmp_path)
    text = path.read_text("utf-8")
    cut = path.with_name("cut.json")
    cut.write_text(text[: len(text) // 2], encoding="utf-8")
    assert main([str(cut)]) == 1
    out = capsys.readouterr().out.strip()
    assert out == (
        "FAIL: a solo session saved by Stats, but damaged: it is not whole JSON "
        "(cut off or damaged)"
    )


def test_a_solo_record_saved_before_replays_were_kept_is_incomplete(
    tmp_path: Path, capsys: Any
) -> None:
    _, path = _solo_file(tmp_path, throws=4)
    older = _edited(path, lambda d: d.pop("replay"))
    assert main([str(older)]) == 2
    assert capsys.readouterr().out.startswith(
        "INCOMPLETE: solo session abc: saved before replays were kept"
    )


def test_a_refused_reveal_is_recorded_with_the_seat_as_people_count_it(tmp_path: Path) -> None:
    """The words a refused frame is recorded with (a ``rejected`` record's ``detail``) are the
    ones verify and the replay quote: Seat 3 for index 2."""
    net = Net(3, seed=11)
    net.run_until(in_point_phase_with_contracts)
    keys = {m.seat: m.public_key for m in net.roster}

    def lie(frame: dict[str, Any]) -> list[Any]:
        if frame["kind"] != "reveal":
            return [frame]
        message = parse(frame, net.table_id, keys)
        return [net.signed(2, replace(message, choice=Choice(0, 0).to_bytes()))]

    net.filters[2] = lie
    net.run()
    path = save_transcript(net.peers[0].transcript, tmp_path / "s0.jsonl")
    (rejected,) = [d for d in load(path) if d["kind"] == "rejected"]
    assert rejected["body"]["detail"] == "Seat 3's reveal does not match its commit"
    assert verify_transcript(path).ok
