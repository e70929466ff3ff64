"""Every z3 proof holds, and a broken rule is reported with a counterexample trace."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pointline.kernel import TRANSITIONS, ActionKind, Phase, When
from pointline.spec import __main__ as spec_main
from pointline.spec import model, proofs

CLAIMS = (
    "Pass never increases after confirmation",
    "Pass never decreases in the point phase",
    "a sealed Don't Pass only decreases, in tens",
    "a removed amount never returns",
    "every amount is a non-negative multiple of 10",
    "hand total is at most 100",
    "never above the balance",
    "throws <= 128 and resolved hands <= 5",
    "points are conserved per seat",
    "deterministic",
    "complete",
    "bounded check",
)


def test_every_proof_is_proved_one_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    code = spec_main.main([])
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert code == 0, out
    assert len(lines) > len(CLAIMS)
    assert all(line.startswith("proved ") for line in lines[:-1]), out
    assert lines[-1].startswith("all proofs hold")
    for claim in CLAIMS:
        assert claim in out


def test_a_broken_rule_gives_a_counterexample(monkeypatch: pytest.MonkeyPatch) -> None:
    """If Roll refunded twice the reduced part, conservation must fail with a trace."""
    key = (Phase.POINT, ActionKind.ROLL, When.ALWAYS)
    good = model.SPEC_ROWS[key]

    def greedy_roll(s: model.TableVars, a: model.ActionVars) -> model.TableVars:
        def change(seat: model.SeatVars) -> model.SeatVars:
            refund = 2 * (seat.dp - seat.draft_dp)
            return replace(seat, balance=seat.balance + refund, dp=seat.draft_dp, sealed=True)

        return model.update_acting(s, a, change)

    monkeypatch.setitem(model.SPEC_ROWS, key, replace(good, effect=greedy_roll))
    results = {p.name: p for p in proofs.prove_inductive()}
    broken = [p for name, p in results.items() if "conserved" in name]
    assert broken and not broken[0].ok
    assert "row point/roll/always breaks it" in broken[0].detail
    assert "before:" in broken[0].detail and "after:" in broken[0].detail


def test_overlapping_rows_are_not_deterministic() -> None:
    keys = [(r.phase, r.kind, r.when) for r in TRANSITIONS]
    assert proofs.prove_deterministic(keys).ok
    extra = (Phase.POINT, ActionKind.THROW, When.NATURAL)
    proof = proofs.prove_deterministic([*keys, extra])
    assert not proof.ok and "both apply" in proof.detail


def test_a_missing_row_is_not_complete() -> None:
    keys = [(r.phase, r.kind, r.when) for r in TRANSITIONS]
    assert proofs.prove_complete(keys).ok
    missing = (Phase.COME_OUT, ActionKind.THROW, When.TWELVE)
    proof = proofs.prove_complete([k for k in keys if k != missing])
    assert not proof.ok and "total 12" in proof.detail
