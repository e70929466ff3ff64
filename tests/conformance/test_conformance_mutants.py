"""Suite strength: every deliberately wrong implementation fails the suite, and each kind of
case added for the edges of the protocol kills its own mutant by itself."""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pointline.conformance.mutants import MUTANTS
from pointline.conformance.mutants.__main__ import run_mutant
from tests.paths import FIXTURES

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
    # issue 33, K1: the order of load_state's checks
    "load_table_checks_reversed": "loading.invalid.order.point_before_resolved_hands",
    "load_seats_before_table": "loading.invalid.order.ending_seat_before_seat_checks",
    "load_check_by_check": "loading.invalid.order.seat_0_balance_before_seat_1",
    "load_replay_before_ledger": "loading.invalid.order.payment_before_balance_replay",
    "load_ledger_read_per_check": "loading.invalid.order.payment_before_throw_total",
    "load_duplicates_after_shape": "loading.invalid.duplicate.before_shape",
    # K2 and K6: each part of the payment, refund and in-play checks
    "load_payment_ignores_throw": "loading.invalid.payment.on_another_throw",
    "load_payment_ignores_net": "loading.invalid.payment.net_alone",
    "load_settled_stays_in_play": "loading.invalid.payment.settled_twice",
    "load_void_stays_in_play": "loading.invalid.payment.after_a_void",
    "load_settles_nothing": "loading.invalid.payment.contract_0",
    "load_refund_ignores_line": "loading.invalid.refund.line_pass",
    "load_refund_ignores_before": "loading.invalid.refund.before_alone",
    "load_refund_allows_no_change": "loading.invalid.refund.not_lowered",
    "load_refund_ignores_throw": "loading.invalid.refund.on_another_throw",
    "load_refund_remembers": "loading.invalid.refund.not_just_after_the_change",
    "load_orphan_refund_any": "loading.invalid.refund.orphan_non_zero",
    "load_orphan_refund_0_refused": "loading.valid.orphan_refund_of_0",
    "load_accepts_contracts_in_play": "loading.invalid.contracts_not_in_play",
    # K3 and K5: ranges and tens of ledger entries
    "load_entry_ranges_unchecked": "loading.invalid.entry.hand_",
    "load_ledger_tens_unchecked": "loading.invalid.tens.",
    "load_total_range_unchecked": "loading.invalid.entry.total_",
    "load_throw_phase_unchecked": "loading.invalid.entry.throw_",
    # K4 and K5: number tokens and lone surrogates in the inputs, the version agreed on
    "dice_integral_floats": "dice.bad_input.token.",
    "new_table_surrogate_replaced": "malformed.new_table.table_id_",
    "dice_surrogate_replaced": "dice.bad_input.table_id_",
    "hello_answers_1": "rows.1seat.fresh.",
    "load_state_in_protocol_1": "loading.protocol_1_has_no_load_state",
    # issue 37: K7 (an ending's members are read), K8 (the order of the ledger's checks), K9 (a
    # refused hello changes nothing), the protocol tokens, and what load_state does not compare
    "load_missing_seat_is_null": "loading.invalid.ending_without_seat",
    "load_throw_total_before_ledger_throws": "loading.invalid.order.ledger_throws_before_throw",
    "hello_takes_true": "malformed.hello.protocol_true",
    "hello_takes_integral_floats": "malformed.hello.protocol_2.0",
    "refused_hello_drops_the_table": "malformed.hello.",
    "refused_hello_sets_the_version": "loading.refused_hello_keeps_the_version",
    "load_checks_entry_numbers": "loading.valid.entry_numbers_out_of_order",
    "load_checks_void_reason": "loading.valid.void_reason_not_the_ending",
    "load_checks_hands_resolved": "loading.valid.hands_resolved_not_the_ledgers",
    "load_voids_nothing": "loading.invalid.void_of_nothing",  # K10: a void is above 0
}
TOPIC_OF = {
    "dice.": "01_dice",
    "commitment.": "02_commitment",
    "canonical.": "03_canonical",
    "rows.": "04_rows",
    "malformed.": "05_malformed",
    "loading.": "15_loading",
}
"""The topic file holding every case a targeted filter names: each targeted run reads that file
alone (reading and hashing all 14 MB of fixtures took most of each run's time)."""


def test_there_are_the_mutants_of_every_kind_of_case() -> None:
    assert len(MUTANTS) >= 103
    assert set(TARGETED) <= set(MUTANTS)


def test_every_mutant_is_killed() -> None:
    # The targeted mutants are killed by a subset of the cases (the test below), so by the whole
    # suite too: running them here again would only double the time.
    others = [name for name in MUTANTS if name not in TARGETED]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run_mutant, others))
    survivors = [name for name, killed, _, _ in results if not killed]
    assert survivors == []


def _topic_folder(case_filter: str, root: Path) -> Path:
    """A folder holding only the topic file of the cases ``case_filter`` names."""
    topic = next(t for prefix, t in TOPIC_OF.items() if case_filter.startswith(prefix))
    folder = root / topic
    if not folder.exists():
        folder.mkdir()
        shutil.copyfile(FIXTURES / f"{topic}.json", folder / f"{topic}.json")
    return folder


def test_each_new_kind_of_case_kills_its_mutant_alone(tmp_path: Path) -> None:
    folders = {name: _topic_folder(TARGETED[name], tmp_path) for name in TARGETED}

    def alone(name: str) -> tuple[str, bool, str]:
        _, killed, _, fail = run_mutant(name, extra=["-k", TARGETED[name]], fixtures=folders[name])
        return name, killed and TARGETED[name] in fail, fail

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(alone, sorted(TARGETED)))
    assert [(name, fail) for name, ok, fail in results if not ok] == []
