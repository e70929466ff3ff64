"""The runner: passes on the reference, and turns crashes, garbage and hangs into failures."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FAKE = Path(__file__).resolve().parent / "fake_impl.py"


def run(*args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pointline.conformance.runner", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def counts3(proc: subprocess.CompletedProcess[str]) -> tuple[int, int, int]:
    """(passed, failed, not run) from the last line, ``N passed, N failed[, N not run]``."""
    last = proc.stdout.strip().splitlines()[-1]
    match = re.fullmatch(r"(\d+) passed, (\d+) failed(?:, (\d+) not run)?", last)
    assert match, last
    return int(match[1]), int(match[2]), int(match[3] or 0)


def counts(proc: subprocess.CompletedProcess[str]) -> tuple[int, int]:
    passed, failed, not_run = counts3(proc)
    assert not_run == 0, proc.stdout[-2000:]
    return passed, failed


def fake(mode: str) -> str:
    return f"{sys.executable} {FAKE} {mode}"


def test_reference_passes_the_whole_suite_with_reports(tmp_path: Path) -> None:
    junit, report = tmp_path / "r.xml", tmp_path / "r.json"
    proc = run("--junit", str(junit), "--json", str(report))
    assert proc.returncode == 0, proc.stdout[-3000:]
    passed, failed = counts(proc)
    assert failed == 0 and passed >= 2000
    doc = json.loads(report.read_text())
    assert doc["passed"] == passed and doc["failed"] == 0
    assert doc["implementation"]["implementation"] == "pointline-reference"
    suites = ET.parse(junit).getroot()
    assert sum(int(s.get("tests", "0")) for s in suites) == passed
    assert all(s.get("failures") == "0" for s in suites)


def test_filter_selects_cases() -> None:
    proc = run("-k", "rows.1seat.fresh.")
    assert proc.returncode == 0
    passed, failed = counts(proc)
    assert (passed, failed) == (21, 0)


@pytest.mark.parametrize("mode", ["crash", "garbage", "hang"])
def test_broken_implementation_is_reported_and_restarted(mode: str, tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    proc = run(
        "--impl",
        fake(mode),
        "-k",
        "rows.1seat.point.throw_1",
        "--timeout",
        "1",
        "--json",
        str(report),
        timeout=120,
    )
    assert proc.returncode == 1
    passed, failed = counts(proc)
    assert (passed, failed) == (0, 3)
    doc = json.loads(report.read_text())
    messages = [c["message"] for c in doc["cases"] if not c["passed"]]
    word = {"crash": "exited", "garbage": "garbage", "hang": "hang"}[mode]
    assert all(word in m for m in messages), messages[:3]
    # Every failing case names the step it stopped at: the first throw or the fourth action.
    assert all(c["step"] is not None for c in doc["cases"] if not c["passed"])
    assert "FAIL " in proc.stdout and "first diverging step" in proc.stdout


def test_refused_handshake_fails_everything_without_hanging() -> None:
    proc = run("--impl", fake("refuse"), "-k", "rows.1seat.", timeout=60)
    assert proc.returncode == 1
    passed, failed = counts(proc)
    assert passed == 0 and failed > 0
    assert "handshake" in proc.stdout


def test_silent_implementation_times_out() -> None:
    proc = run("--impl", fake("silent"), "-k", "dice.faces.1", "--timeout", "0.5", timeout=60)
    assert proc.returncode == 1
    assert counts(proc) == (0, 6)


def test_missing_command_is_a_failure_not_a_crash() -> None:
    proc = run("--impl", "/nonexistent/impl --flag", "-k", "dice.faces.11")
    assert proc.returncode == 1
    assert counts(proc) == (0, 1)
    assert "cannot start" in proc.stdout


def test_max_failures_stops_early_and_counts_not_run(tmp_path: Path) -> None:
    impl = f"{sys.executable} -m pointline.conformance.mutants.adapter dice_modulo_bias"
    report = tmp_path / "r.json"
    proc = run("--impl", impl, "--max-failures", "1", "-k", "dice.", "--json", str(report))
    assert proc.returncode == 1
    passed, failed, not_run = counts3(proc)
    selected = run("-k", "dice.", "-q")
    (total, _) = counts(selected)
    # The summary reads "N passed, N failed, N not run" and the three add up to the selection.
    assert failed == 1 and not_run > 0 and passed + failed + not_run == total
    assert proc.stdout.strip().splitlines()[-1] == f"{passed} passed, 1 failed, {not_run} not run"
    assert f"{not_run} case(s) not run" in proc.stdout
    doc = json.loads(report.read_text())
    assert (doc["passed"], doc["failed"], doc["not_run"]) == (passed, failed, not_run)
    assert doc["not_run_stopped"] == not_run and doc["not_run_protocol"] == {}


def test_a_version_1_implementation_runs_version_1_topics_and_is_told_what_it_skipped(
    tmp_path: Path,
) -> None:
    # The fake refuses "hello 2" as version 1 requires; the runner starts it again with
    # "hello 1", runs every version-1 case and reports the version-2 topic as not run.
    report, junit = tmp_path / "r.json", tmp_path / "r.xml"
    proc = run(
        "--impl",
        fake("v1only"),
        "-k",
        "rows.1seat.fresh.",
        "-k",
        "loading.",
        "--json",
        str(report),
        "--junit",
        str(junit),
    )
    assert proc.returncode == 0, proc.stdout[-3000:]
    passed, failed, not_run = counts3(proc)
    assert (passed, failed) == (21, 0) and not_run > 0
    assert "not run: they need protocol 2, the implementation speaks 1" in proc.stdout
    assert f"not run, the implementation speaks protocol 1: 15_loading ({not_run})" in proc.stdout
    doc = json.loads(report.read_text())
    assert doc["protocol"] == 1 and doc["not_run_protocol"] == {"15_loading": not_run}
    skipped = [s for s in ET.parse(junit).getroot() if s.get("name") == "15_loading"]
    assert skipped and skipped[0].get("skipped") == str(not_run)


@pytest.mark.parametrize("answer", ["1", "true", "2.0", "3"])
def test_a_handshake_answering_another_protocol_than_asked_fails(answer: str) -> None:
    # Asked for 2, the fake answers another version (1 included: it would skip the loading
    # topic), a boolean or a float: the handshake fails, every case with it.
    proc = run("--impl", f"{fake('answers')} {answer}", "-k", "rows.1seat.fresh.", timeout=60)
    assert proc.returncode == 1
    passed, failed = counts(proc)
    assert passed == 0 and failed > 0
    assert f"handshake: protocol {json.loads(answer)!r}, want 2" in proc.stdout


def test_the_reference_asked_for_protocol_1_behaves_as_version_1() -> None:
    proc = run("--protocol", "1", "-k", "loading.", "-k", "rows.1seat.fresh.")
    assert proc.returncode == 0
    passed, failed, not_run = counts3(proc)
    assert (passed, failed) == (21, 0) and not_run > 0


def test_divergence_shows_expected_actual_and_a_diff() -> None:
    impl = f"{sys.executable} -m pointline.conformance.mutants.adapter push_pays_as_win"
    proc = run("--impl", impl, "-k", "rows.1seat.sealed.throw_12")
    assert proc.returncode == 1
    out = proc.stdout
    assert "first diverging step" in out and "expected:" in out and "actual:" in out
    assert "--- expected" in out and "+++ actual" in out and '"balance"' in out


def test_no_fixtures_is_an_error_not_a_green_run(tmp_path, monkeypatch, capsys) -> None:
    from pointline.conformance import runner

    monkeypatch.chdir(tmp_path)
    assert runner.main(["--fixtures", str(tmp_path), "-q"]) == 2
    err = capsys.readouterr().err
    assert "no conformance fixtures in" in err and "tox -e conformance" in err
    assert "--fixtures DIR" in err and "sdist" in err and "passed" not in err


def test_an_installed_wheel_without_fixtures_says_where_to_get_them(
    tmp_path, monkeypatch, capsys
) -> None:
    """As from an app wheel: the package's fixtures folder is empty and the working directory
    is no checkout. The runner and the mutants both refuse, never "0/59 killed"."""
    from pointline.conformance import runner
    from pointline.conformance.mutants import __main__ as mutants

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(runner, "FIXTURES", tmp_path / "fixtures")
    assert runner.main(["-q"]) == 2
    err = capsys.readouterr().err
    assert "ship in the source repository and its sdist" in err and "--fixtures DIR" in err
    assert mutants.main([]) == 2
    captured = capsys.readouterr()
    assert "--fixtures DIR" in captured.err and "killed" not in captured.out
