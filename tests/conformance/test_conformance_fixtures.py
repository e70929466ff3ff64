"""The committed fixtures: fresh, hashed, big enough, small enough, and covering the table."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from conformance import generate
from conformance.casebook import split_file
from conformance.fasthash import StateHasher
from conformance.runner import FIXTURES, load_fixtures
from kernel import Table, state_bytes


def test_committed_fixtures_match_a_fresh_generation(tmp_path: Path) -> None:
    files = generate.build()
    committed = {p.name: p.read_bytes() for p in FIXTURES.glob("*.json")}
    assert sorted(files) == sorted(committed)
    stale = [name for name, data in files.items() if committed[name] != data]
    assert stale == [], "run `python -m conformance.generate` and commit the fixtures"
    # The same build, as the generator writes it, reaches every row and every reachable code.
    assert generate.check_coverage() == []


def test_content_hashes_match() -> None:
    fixtures = load_fixtures(FIXTURES)
    assert [p for fx in fixtures for p in fx.problems] == []


def test_a_changed_byte_breaks_the_content_hash(tmp_path: Path) -> None:
    source = FIXTURES / "04_rows.json"
    data = source.read_bytes()
    head, body = split_file(data)
    (tmp_path / "04_rows.json").write_bytes(
        head + b"\n" + body.replace(b'"hash":"', b'"hash":"0', 1)
    )
    problems = [p for fx in load_fixtures(tmp_path) for p in fx.problems]
    assert len(problems) == 1 and "content hash" in problems[0]


def test_size_and_counts() -> None:
    fixtures = load_fixtures(FIXTURES)
    cases = [c for fx in fixtures for c in fx.cases]
    steps = sum(len(c["steps"]) for c in cases)
    size = sum(p.stat().st_size for p in FIXTURES.glob("*.json"))
    assert len(cases) >= 2000
    assert steps >= 100_000
    assert size < 20_000_000
    for case in cases:
        assert case["id"] and case["description"] and case["steps"]
        assert all(r.startswith("R") and 1 <= int(r[1:]) <= 28 for r in case["rules"])
        assert all("expect" in step for step in case["steps"])


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 8), st.integers(0, 2**32), st.text(max_size=8))
def test_incremental_hash_is_the_kernels(seats: int, seed: int, table_id: str) -> None:
    rng = random.Random(seed)
    table = Table(seats, table_id)
    hasher = StateHasher(table)
    while not table.is_over:
        if table.is_chance_turn:
            table.push(rng.choice(list(table.legal_throws())))
        else:
            seat = rng.choice(table.awaiting)
            table.push(rng.choice(table.legal_actions(seat)))
        assert hasher.state_bytes() == state_bytes(table)
