"""The invalid state documents of the loading topic: each breaks one check and names the
sub-code (``Invariant``) it must be refused with, and the words the reference's message must hold
(the generator checks both; the fixtures hold the sub-code only). Generator only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pointline.conformance._positions import (
    _DELETE,
    _all,
    _contracted,
    _drop_throw,
    _edit_entry,
    _ended,
    _fresh,
    _hands,
    _ledger,
    _live_at_128,
    _lost_dont_pass,
    _pay,
    _point,
    _point_after_six,
    _refund,
    _refunded,
    _result_of,
    _rolled,
    _sealed,
    _settle_on_last_throw,
    _table,
    _with,
    put,
)
from pointline.kernel import (
    Invariant,
    Table,
    to_document,
)
from pointline.kernel import canonical_bytes as dumps

__all__ = ["INVALID", "RAW_INVALID", "_FRESH_TEXT"]

Inv = Invariant

INVALID: list[tuple[str, Callable[[], Any], str, Invariant]] = [
    # the invariants of R28, each broken alone
    (
        "resolved_before_thrown",
        _with(_fresh, put("hands_resolved", 1)),
        "1 resolved hands",
        Inv.RESOLVED_HANDS,
    ),
    (
        "complete_after_4_hands",
        _with(lambda: _hands(4), _all(put("phase", "complete"), _result_of)),
        "complete exactly when",
        Inv.COMPLETE,
    ),
    (
        "live_after_5_hands",
        _with(lambda: _hands(5), _all(put("phase", "come_out"), put("result", None))),
        "complete exactly when",
        Inv.COMPLETE,
    ),
    (
        "ended_without_ending",
        _with(_fresh, put("phase", "ended")),
        "has an ending exactly when",
        Inv.ENDING,
    ),
    (
        "ending_while_live",
        _with(_fresh, put("ending", {"reason": "departure", "seat": None})),
        "has an ending exactly when",
        Inv.ENDING,
    ),
    (
        "ending_names_seat_2_of_2",
        _with(_ended, put("ending.seat", 2)),
        "which this table does not have",
        Inv.ENDING_SEAT,
    ),
    (
        "live_at_throw_128",
        lambda: to_document(_live_at_128()),
        "fewer than 128 throws",
        Inv.THROW_CAP,
    ),
    (
        "draft_of_15",
        _with(_fresh, put("seats.0.draft", {"pass": 15, "dont_pass": 0})),
        "multiple of 10",
        Inv.UNITS,
    ),
    ("contracts_of_15", _with(_fresh, _contracted(15, 15, 970, True)), "multiple of 10", Inv.UNITS),
    (
        "draft_of_110",
        _with(_fresh, put("seats.0.draft", {"pass": 60, "dont_pass": 50})),
        "at most 100 points",
        Inv.HAND_LIMIT,
    ),
    (
        "contracts_of_110",
        _with(_fresh, _contracted(60, 50, 890, True)),
        "at most 100 points",
        Inv.HAND_LIMIT,
    ),
    (
        "draft_once_ended",
        _with(_ended, put("seats.1.draft", {"pass": 10, "dont_pass": 0})),
        "nothing is on the lines",
        Inv.OVER_IS_EMPTY,
    ),
    (
        "sealed_once_complete",
        _with(lambda: _hands(5), put("seats.0.sealed", True)),
        "nothing is on the lines",
        Inv.OVER_IS_EMPTY,
    ),
    (
        "confirmed_draft_differs",
        _with(_sealed, put("seats.0.draft", {"pass": 20, "dont_pass": 20})),
        "a confirmed come-out draft equals",
        Inv.CONFIRMED_DRAFT,
    ),
    (
        "contracts_before_confirm",
        _with(_fresh, _contracted(10, 0, 990, False)),
        "before Confirm the hand has no contracts",
        Inv.NO_CONTRACTS_BEFORE_CONFIRM,
    ),
    (
        "draft_above_balance",
        _with(
            _fresh,
            _all(
                _contracted(0, 0, 50, False),
                put("seats.0.ledger.0.pass", 950),
                put("seats.0.draft", {"pass": 60, "dont_pass": 0}),
            ),
        ),
        "never above the balance",
        Inv.DRAFT_WITHIN_BALANCE,
    ),
    (
        "pass_raised_on_the_point",
        _with(_point, put("seats.0.draft", {"pass": 40, "dont_pass": 20})),
        "Pass is locked",
        Inv.POINT_LOCK,
    ),
    (
        "pass_lowered_on_the_point",
        _with(_point, put("seats.0.draft", {"pass": 20, "dont_pass": 20})),
        "Pass is locked",
        Inv.POINT_LOCK,
    ),
    (
        "dont_pass_raised_on_the_point",
        _with(_point, put("seats.0.draft", {"pass": 30, "dont_pass": 30})),
        "Don't Pass only comes down",
        Inv.POINT_LOCK,
    ),
    (
        "reduction_left_after_roll",
        _with(_rolled, put("seats.0.draft", {"pass": 30, "dont_pass": 10})),
        "a sealed roll leaves no reduction",
        Inv.ROLLED_NOTHING_PREPARED,
    ),
    (
        "throws_not_in_ledger",
        _with(_fresh, put("throws", 1)),
        "the ledger records 0 throws",
        Inv.LEDGER_THROWS,
    ),
    (
        "a_seat_missed_a_throw",
        _with(lambda: _point(2), _drop_throw(1)),
        "seat 1: the ledger",
        Inv.LEDGER_THROWS,
    ),
    # balances checked by replaying the ledger (R24)
    (
        "balance_1010",
        _with(_fresh, put("seats.0.balance", 1010)),
        "replays to",
        Inv.BALANCE_REPLAY,
    ),
    (
        "balance_off_on_seat_2",
        _with(lambda: _point(3), put("seats.2.balance", 960)),
        "seat 2: the balance",
        Inv.BALANCE_REPLAY,
    ),
    (
        "settled_returned_changed",
        _with(lambda: _hands(2), _edit_entry(0, "settled", "returned", lambda v: v + 20)),
        "returns 20 (net 10), not 40",
        Inv.PAYMENT,
    ),
    (
        "refund_changed",
        _with(_refunded, _edit_entry(0, "refunded", "amount", lambda v: v + 10)),
        "a refund of 20 where the reduction just recorded is 10",
        Inv.REFUND,
    ),
    (
        "voided_changed",
        _with(_ended, _edit_entry(0, "voided", "amount", lambda v: v - 10)),
        "replays to",
        Inv.BALANCE_REPLAY,
    ),
    (
        "contracted_changed",
        _with(_sealed, _edit_entry(0, "contracted", "pass", lambda v: v + 10)),
        "replays to",
        Inv.BALANCE_REPLAY,
    ),
    # a ledger that disagrees with itself while it replays to the balance (#18)
    (
        "throw_total_not_the_dice",
        _with(_point, _edit_entry(0, "throw", "total", lambda v: v + 1)),
        "totals 6, not 7",
        Inv.THROW_TOTAL,
    ),
    (
        "win_returning_three_times",
        _with(lambda: _hands(1), _pay(0, 10, returned=30, net=20)),
        "returns 20 (net 10), not 30",
        Inv.PAYMENT,
    ),
    (
        "loss_paid_as_a_push",
        _with(_lost_dont_pass, _pay(0, 20, outcome="push", returned=20, net=0)),
        "settled as push, but a 7 there gives loss",
        Inv.PAYMENT,
    ),
    (
        "settled_on_more_than_the_contract",
        _with(lambda: _hands(1), _pay(0, 20, contract=20, returned=40, net=20)),
        "settled as 20 with 10 in play",
        Inv.PAYMENT,
    ),
    (
        "settled_on_a_throw_that_decides_nothing",
        _with(_point_after_six, _settle_on_last_throw),
        "but a 6 there does not settle",
        Inv.PAYMENT,
    ),
    (
        "refund_larger_than_the_reduction",
        _with(_refunded, _refund(20)),
        "a refund of 20 where the reduction just recorded is 10",
        Inv.REFUND,
    ),
    (
        "refund_smaller_than_the_reduction",
        _with(_refunded, _refund(0)),
        "a refund of 0 where the reduction just recorded is 10",
        Inv.REFUND,
    ),
    (
        "reduction_raising_dont_pass",
        _with(
            _refunded, _all(_edit_entry(0, "contract_changed", "after", lambda v: 30), _refund(0))
        ),
        "Don't Pass only comes down",
        Inv.REFUND,
    ),
    (
        "reduction_from_a_contract_not_in_play",
        _with(_refunded, _edit_entry(0, "contract_changed", "before", lambda v: v + 10)),
        "only the Don't Pass in play (20) changes",
        Inv.REFUND,
    ),
    # the document itself
    ("version_2", _with(_fresh, put("version", 2)), "not a version 1", Inv.SHAPE),
    ("version_true", _with(_fresh, put("version", True)), "not a version 1", Inv.SHAPE),
    ("version_string", _with(_fresh, put("version", "1")), "not a version 1", Inv.SHAPE),
    ("no_version", _with(_fresh, put("version", _DELETE)), "not a version 1", Inv.SHAPE),
    ("no_seats", _with(_fresh, put("seats", [])), "1 to 8 seats", Inv.SHAPE),
    (
        "nine_seats",
        _with(lambda: _table(8), lambda d: d["seats"].append(d["seats"][0])),
        "1 to 8 seats",
        Inv.SHAPE,
    ),
    ("table_id_number", _with(_fresh, put("table_id", 5)), "table_id is a string", Inv.SHAPE),
    ("phase_unknown", _with(_fresh, put("phase", "paused")), "bad phase", Inv.SHAPE),
    ("point_7", _with(_point, put("point", 7)), "the point is", Inv.POINT),
    ("point_missing_on_the_point", _with(_point, put("point", None)), "the point is", Inv.POINT),
    ("point_at_the_come_out", _with(_fresh, put("point", 6)), "the point is", Inv.POINT),
    ("throws_129", _with(_fresh, put("throws", 129)), "throws must be", Inv.SHAPE),
    ("throws_negative", _with(_fresh, put("throws", -1)), "throws must be", Inv.SHAPE),
    ("hands_6", _with(_fresh, put("hands_resolved", 6)), "hands_resolved must be", Inv.SHAPE),
    ("ending_a_string", _with(_ended, put("ending", "departure")), "ending is null or", Inv.SHAPE),
    (
        "ending_reason_unknown",
        _with(_ended, put("ending.reason", "quit")),
        "bad reason",
        Inv.SHAPE,
    ),
    ("ending_seat_string", _with(_ended, put("ending.seat", "0")), "seat must be", Inv.SHAPE),
    ("seat_not_object", _with(_fresh, put("seats.0", [])), "a seat is an object", Inv.SHAPE),
    (
        "draft_missing_line",
        _with(_fresh, put("seats.0.draft.dont_pass", _DELETE)),
        "names",
        Inv.SHAPE,
    ),
    ("contracts_extra_line", _with(_fresh, put("seats.0.contracts.field", 0)), "names", Inv.SHAPE),
    ("balance_boolean", _with(_fresh, put("seats.0.balance", True)), "balance must be", Inv.SHAPE),
    (
        "sealed_number",
        _with(_fresh, put("seats.0.sealed", 0)),
        "sealed is true or false",
        Inv.SHAPE,
    ),
    ("ledger_not_list", _with(_fresh, put("seats.0.ledger", {})), "ledger is a list", Inv.SHAPE),
    (
        "entry_unknown_type",
        _with(_sealed, _ledger(0, 0, "type", "bonus")),
        "unknown ledger entry type",
        Inv.SHAPE,
    ),
    (
        "entry_extra_member",
        _with(_sealed, _ledger(0, 0, "note", "x")),
        "not canonical",
        Inv.NOT_CANONICAL,
    ),
    (
        "entry_missing_member",
        _with(_point, _ledger(0, 1, "point", _DELETE)),
        "missing point",
        Inv.SHAPE,
    ),
    ("entry_die_7", _with(_point, _ledger(0, 1, "die1", 7)), "die1 must be", Inv.SHAPE),
    (
        "stale_result",
        _with(_fresh, put("result", {"final": [1000], "ranks": [1]})),
        "not canonical",
        Inv.NOT_CANONICAL,
    ),
    (
        "wrong_ranks",
        _with(lambda: _hands(5), put("result.ranks", [1, 1])),
        "not canonical",
        Inv.NOT_CANONICAL,
    ),
    (
        "no_result_when_complete",
        _with(lambda: _hands(5), put("result", None)),
        "not canonical",
        Inv.NOT_CANONICAL,
    ),
    ("extra_member", _with(_fresh, put("comment", "x")), "not canonical", Inv.NOT_CANONICAL),
    ("missing_ending", _with(_fresh, put("ending", _DELETE)), "not canonical", Inv.NOT_CANONICAL),
    ("state_list", lambda: [], "not a version 1", Inv.SHAPE),
    ("state_null", lambda: None, "not a version 1", Inv.SHAPE),
]

_FRESH_TEXT = dumps(to_document(Table(1, "t"))).decode()
RAW_INVALID: list[tuple[str, str, str, Invariant]] = [
    # number tokens that are not integers, though their values are: refused (R28)
    (
        "version_1.0",
        _FRESH_TEXT.replace('"version":1', '"version":1.0'),
        "not a version 1",
        Inv.SHAPE,
    ),
    (
        "balance_1e3",
        _FRESH_TEXT.replace('"balance":1000', '"balance":1e3'),
        "balance must be",
        Inv.SHAPE,
    ),
    (
        "balance_1000.0",
        _FRESH_TEXT.replace('"balance":1000', '"balance":1000.0'),
        "balance must be",
        Inv.SHAPE,
    ),
    ("throws_0.0", _FRESH_TEXT.replace('"throws":0', '"throws":0.0'), "throws must be", Inv.SHAPE),
    # big integers are exact: 2^64 + 1000 is not 1000
    (
        "balance_2^64+1000",
        _FRESH_TEXT.replace('"balance":1000', f'"balance":{2**64 + 1000}'),
        "balance must be",
        Inv.SHAPE,
    ),
    (
        "table_id_lone_surrogate",
        _FRESH_TEXT.replace('"table_id":"t"', '"table_id":"t\\ud800"'),
        "Unicode text",
        Inv.SHAPE,
    ),
]
