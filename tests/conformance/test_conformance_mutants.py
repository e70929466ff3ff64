"""Suite strength: every deliberately wrong implementation fails the suite, and each kind of
case added for the edges of the protocol kills its own mutant by itself."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from pointline.conformance.mutants import MUTANTS
from pointline.conformance.mutants.__main__ import run_mutant

TARGETED = {
    # mutant: the kind of case (an id filter) that must kill it with no other case's help
    "integral_floats_accepted": "malformed.numbers.amount_1e1",
    "big_integers_as_doubles": "malformed.numbers.amount_2^53+1001",
    "minus_zero_refused": "malformed.numbers.seat_minus_0",
    "new_table_checks_id_first": "malformed.new_table.several.",
    "refused_new_table_keeps_table": "malformed.new_table.refused_drops_the_old_table",
    "reply_unchecked": "malformed.reply.",
    "reply_none_answers_hash": "malformed.reply.none",
    "abort_needs_seat_member": "malformed.abort_without_seat.",
    "empty_choices_refused": "commitment.empty_choices.",
    "dice_reject_from_251": "dice.boundary.",
    "dice_accept_252": "dice.boundary.",
    "canonical_escapes_slash": "canonical.table_id_/",
    "canonical_escapes_del": "canonical.table_id_\\x7f",
    "canonical_escapes_u2028": "canonical.table_id_\\u2028\\u2029",
    "canonical_astral_escaped": "canonical.table_id_\\U0001d11e",
    "guards_reversed_T1": "rows.guard_order.T1.",
    "guards_reversed_T2": "rows.guard_order.T2.",
    "guards_reversed_T13": "rows.guard_order.T13.",
    "guards_reversed_T15": "rows.guard_order.T15.",
    "guards_reversed_T16": "rows.guard_order.T16.",
    "load_accepts_balance_replay": "loading.invalid.",
    "load_accepts_hand_limit": "loading.invalid.",
    "load_accepts_ledger_throws": "loading.invalid.",
    "load_accepts_ending_seat": "loading.invalid.",
    "load_accepts_point_lock": "loading.invalid.",
    "load_accepts_throw_cap": "loading.invalid.",
    "load_accepts_integral_floats": "loading.invalid.raw.",
    "load_forgets_sealed": "loading.valid.",
    "load_accepts_throw_total": "loading.invalid.throw_total",
    "load_accepts_payment": "loading.invalid.",
    "load_accepts_refund": "loading.invalid.refund",
    "load_any_invariant": "loading.invalid.",
    "duplicates_last_wins": "malformed.duplicate.",
    "duplicates_refuse_the_line": "malformed.duplicate.action.",
}


def test_there_are_the_mutants_of_every_kind_of_case() -> None:
    assert len(MUTANTS) >= 65
    assert set(TARGETED) <= set(MUTANTS)


def test_every_mutant_is_killed() -> None:
    # The targeted mutants are killed by a subset of the cases (the test below), so by the whole
    # suite too: running them here again would only double the time.
    others = [name for name in MUTANTS if name not in TARGETED]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run_mutant, others))
    survivors = [name for name, killed, _, _ in results if not killed]
    assert survivors == []


def test_each_new_kind_of_case_kills_its_mutant_alone() -> None:
    def alone(name: str) -> tuple[str, bool, str]:
        _, killed, _, fail = run_mutant(name, extra=["-k", TARGETED[name]])
        return name, killed and TARGETED[name] in fail, fail

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(alone, sorted(TARGETED)))
    assert [(name, fail) for name, ok, fail in results if not ok] == []
