"""The peer harness: both reference adapters and the reference verifier pass it, and it
reports a client or verifier that does not speak the protocol as failed, never as passed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pointline.conformance.online.check import load
from pointline.conformance.online.harness import CASES, _views
from pointline.conformance.online.relay_cases import RELAY_CASES

HARNESS = [sys.executable, "-m", "pointline.conformance.online.harness"]


def harness(*args: str, env: dict[str, str], timeout: float = 170.0) -> tuple[int, list[str]]:
    done = subprocess.run(
        [*HARNESS, *args], capture_output=True, text=True, timeout=timeout, env=env, check=False
    )
    return done.returncode, done.stdout.strip().split("\n")


@pytest.mark.timeout(200)
def test_both_reference_adapters_and_the_verifier_pass(
    vectors_env: dict[str, str], vectors: Path
) -> None:
    code, lines = harness(env=vectors_env)
    transcripts = len(load("transcripts", vectors))
    # every case runs against both: a socket client through the harness's own address where
    # the harness must stand between it and the relay (HARNESS.md); none is skipped
    relay = len(RELAY_CASES)  # the reference relay, checked by the relay cases
    failed = [line for line in lines if not line.startswith("ok ")]
    assert lines[-1] == f"{2 * len(CASES) + transcripts + relay} passed, 0 failed", failed
    assert {f"ok relay {case.name}" for case in RELAY_CASES} <= set(lines)
    assert code == 0
    assert {f"ok client {case.name}" for case in CASES} <= set(lines)
    assert {f"ok sans-io {case.name}" for case in CASES} <= set(lines)
    assert not [line for line in lines if line.startswith("skip")]


def test_a_client_that_says_nothing_fails_every_case_it_is_given(
    vectors_env: dict[str, str],
) -> None:
    mute = f"{sys.executable} -c pass"
    code, lines = harness("--client", mute, "--case", "honest", env=vectors_env, timeout=60)
    honest = [case for case in CASES if "honest" in case.name]
    assert lines[-1] == f"0 passed, {len(honest)} failed"
    assert code == 1
    assert all(line.startswith("FAIL client1 honest.") for line in lines[:-1])


def test_a_verifier_that_always_says_ok_fails_the_other_verdicts(
    vectors_env: dict[str, str], tmp_path: Path, vectors: Path
) -> None:
    script = tmp_path / "yes.py"
    script.write_text(
        'import sys\nfor _ in sys.stdin:\n    print(\'{"verdict": "OK"}\', flush=True)\n'
    )
    code, lines = harness("--verifier", f"{sys.executable} {script}", env=vectors_env, timeout=60)
    cases = load("transcripts", vectors)
    ok = sum(case["expect"]["verdict"] == "OK" for case in cases)
    assert lines[-1] == f"{ok} passed, {len(cases) - ok} failed"
    assert code == 1


def test_a_round_line_is_checked_against_the_references_view_of_seat_1() -> None:
    view = {"op": "round", "throw": 2, "phase": "point", "balance": 990, "pass": 10, "dont_pass": 0}
    case = CASES[1]
    assert _views(case, [view], {0: {2: dict(view)}, 2: {}}) is None
    wrong = {**view, "balance": 1000}
    assert "differs from the reference's" in (_views(case, [wrong], {0: {2: view}}) or "")
