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
    _entry_index,
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


# ---------------------------------------------------------------------- helpers for issue 33
def _nth(seat: int, kind: str, n: int, key: str, change: Callable[[Any], Any]) -> Any:
    """Change member ``key`` of seat ``seat``'s ``n``-th (from 0) ledger entry of type ``kind``."""

    def edit(doc: Any) -> None:
        entries = [e for e in doc["seats"][seat]["ledger"] if e["type"] == kind]
        entries[n][key] = change(entries[n][key])

    return edit


def _append(seat: int, entry: dict[str, Any], balance: int = 0) -> Callable[[Any], None]:
    """Append ``entry`` to seat ``seat``'s ledger and move its balance by ``balance`` (so the
    ledger still replays to it)."""

    def edit(doc: Any) -> None:
        doc["seats"][seat]["ledger"].append(dict(entry))
        doc["seats"][seat]["balance"] += balance

    return edit


def _balance(seat: int, change: int) -> Callable[[Any], None]:
    def edit(doc: Any) -> None:
        doc["seats"][seat]["balance"] += change

    return edit


def _refund_after_the_throw(doc: Any) -> None:
    """Seat 0's refund moved after the throw that follows its reduction."""
    ledger = doc["seats"][0]["ledger"]
    refund = ledger.pop(_entry_index(doc, 0, "refunded"))
    ledger.append(refund)


_SETTLED_PASS_WIN = {
    "type": "settled",
    "hand": 1,
    "throw": 1,
    "line": "pass",
    "contract": 10,
    "outcome": "win",
    "returned": 20,
    "net": 10,
}

ORDER: list[tuple[str, Callable[[], Any], str, Invariant]] = [
    # K1: which check names a document that breaks two (PROTOCOL.md, "load_state")
    (
        "order.shape_before_point",
        _with(_point, _all(put("point", 7), put("throws", -1))),
        "throws must be",
        Inv.SHAPE,
    ),
    (
        "order.shape_before_not_canonical",
        _with(_fresh, _all(put("comment", "x"), put("phase", "paused"))),
        "bad phase",
        Inv.SHAPE,
    ),
    (
        "order.point_before_resolved_hands",
        _with(_fresh, _all(put("point", 6), put("hands_resolved", 1))),
        "the point is",
        Inv.POINT,
    ),
    (
        "order.complete_before_ending",
        _with(_fresh, _all(put("hands_resolved", 5), put("throws", 5), put("phase", "ended"))),
        "complete exactly when",
        Inv.COMPLETE,
    ),
    (
        "order.ending_seat_before_seat_checks",
        _with(
            _ended,
            _all(put("ending.seat", 2), put("seats.0.draft", {"pass": 15, "dont_pass": 0})),
        ),
        "which this table does not have",
        Inv.ENDING_SEAT,
    ),
    (
        "order.throw_cap_before_seat_checks",
        _with(_live_at_128, _balance(0, 10)),
        "fewer than 128 throws",
        Inv.THROW_CAP,
    ),
    (
        "order.units_before_hand_limit",
        _with(_fresh, put("seats.0.draft", {"pass": 55, "dont_pass": 55})),
        "multiple of 10",
        Inv.UNITS,
    ),
    (
        "order.seat_0_balance_before_seat_1_point_lock",
        _with(
            lambda: _point(2),
            _all(_balance(0, 10), put("seats.1.draft", {"pass": 40, "dont_pass": 20})),
        ),
        "seat 0: the balance",
        Inv.BALANCE_REPLAY,
    ),
    (
        "order.ledger_throws_before_throw_total",
        # issue 37, K8: the one throw entry left (1 + 2) is given the total 4, so the document
        # breaks both ledger_throws (1 throw entry, 2 throws) and throw_total
        _with(_refunded, _all(_drop_throw(0), _nth(0, "throw", 0, "total", lambda v: v + 1))),
        "the ledger records 1 throws",
        Inv.LEDGER_THROWS,
    ),
    (
        "order.payment_before_throw_total",
        _with(
            lambda: _hands(2),
            _all(_pay(0, 20, returned=40, net=20), _nth(0, "throw", 1, "total", lambda v: v + 1)),
        ),
        "ledger entry 2: Pass win on 10 returns 20",
        Inv.PAYMENT,
    ),
    (
        "order.throw_total_before_payment",
        _with(
            lambda: _hands(2),
            _all(_nth(0, "throw", 0, "total", lambda v: v + 1), _pay(0, 20, returned=40, net=20)),
        ),
        "ledger entry 1: a throw of 3 and 4 totals 7, not 8",
        Inv.THROW_TOTAL,
    ),
    (
        "order.refund_before_payment",
        _with(
            _refunded,
            _all(_refund(20), _append(0, dict(_SETTLED_PASS_WIN, throw=2, hand=1), 20)),
        ),
        "a refund of 20",
        Inv.REFUND,
    ),
    (
        "order.payment_before_balance_replay",
        _with(lambda: _hands(1), _nth(0, "settled", 0, "returned", lambda v: v + 20)),
        "returns 20 (net 10), not 40",
        Inv.PAYMENT,
    ),
    (
        "order.contracts_in_play_before_balance_replay",
        _with(
            _sealed,
            _all(
                put("seats.0.contracts", {"pass": 40, "dont_pass": 10}),
                put("seats.0.draft", {"pass": 40, "dont_pass": 10}),
                _balance(0, 10),
            ),
        ),
        "the contracts are 40/10",
        Inv.CONTRACTS_IN_PLAY,
    ),
]

PARTS: list[tuple[str, Callable[[], Any], str, Invariant]] = [
    # K2: each part of the payment and refund checks broken alone (the balance still replays)
    (
        "payment.on_another_throw",
        _with(lambda: _hands(2), _nth(0, "settled", 1, "throw", lambda v: 1)),
        "settled on throw 1, which is not the throw just recorded",
        Inv.PAYMENT,
    ),
    (
        "payment.net_alone",
        _with(lambda: _hands(1), _nth(0, "settled", 0, "net", lambda v: v + 10)),
        "returns 20 (net 10), not 20 (net 20)",
        Inv.PAYMENT,
    ),
    (
        "payment.settled_twice",
        _with(lambda: _hands(1), _append(0, _SETTLED_PASS_WIN, 20)),
        "Pass settled as 10 with 0 in play",
        Inv.PAYMENT,
    ),
    (
        "payment.after_a_void",
        _with(
            _ended,
            _all(
                _ledger(0, 1, "die1", 3),
                _ledger(0, 1, "total", 7),
                _append(0, dict(_SETTLED_PASS_WIN, contract=30, returned=60, net=30), 60),
            ),
        ),
        "Pass settled as 30 with 0 in play",
        Inv.PAYMENT,
    ),
    (
        "payment.contract_0",
        _with(
            lambda: _hands(1),
            _append(
                0,
                dict(
                    _SETTLED_PASS_WIN,
                    line="dont_pass",
                    contract=0,
                    outcome="loss",
                    returned=0,
                    net=0,
                ),
            ),
        ),
        "Don't Pass settled with nothing in play",
        Inv.PAYMENT,
    ),
    (
        "refund.line_pass",
        _with(_refunded, _nth(0, "contract_changed", 0, "line", lambda v: "pass")),
        "only the Don't Pass in play (20) changes",
        Inv.REFUND,
    ),
    (
        "refund.before_alone",
        _with(
            _refunded,
            _all(
                _nth(0, "contract_changed", 0, "before", lambda v: 30),
                _nth(0, "contract_changed", 0, "after", lambda v: 20),
            ),
        ),
        "only the Don't Pass in play (20) changes",
        Inv.REFUND,
    ),
    (
        "refund.not_lowered",
        _with(
            _refunded,
            _all(
                _nth(0, "contract_changed", 0, "after", lambda v: 20),
                _refund(0),
                put("seats.0.contracts.dont_pass", 20),
            ),
        ),
        "Don't Pass only comes down",
        Inv.REFUND,
    ),
    (
        "refund.on_another_throw",
        _with(_refunded, _nth(0, "refunded", 0, "throw", lambda v: 1)),
        "a refund of 10 where the reduction just recorded is 0",
        Inv.REFUND,
    ),
    (
        "refund.not_just_after_the_change",
        _with(_refunded, _refund_after_the_throw),
        "a refund of 10 where the reduction just recorded is 0",
        Inv.REFUND,
    ),
    (
        "refund.orphan_non_zero",
        _with(
            lambda: _hands(1),
            _append(0, {"type": "refunded", "hand": 1, "throw": 1, "amount": 10}, 10),
        ),
        "a refund of 10 where the reduction just recorded is 0",
        Inv.REFUND,
    ),
]

RANGES: list[tuple[str, Callable[[], Any], str, Invariant]] = [
    # K3 and K5: an entry's hand, throw, phase and point, totals, and every ledger amount in tens
    ("entry.hand_0", _with(_sealed, _ledger(0, 0, "hand", 0)), "hand must be", Inv.SHAPE),
    ("entry.hand_6", _with(_sealed, _ledger(0, 0, "hand", 6)), "hand must be", Inv.SHAPE),
    ("entry.throw_0", _with(_point, _ledger(0, 1, "throw", 0)), "throw must be", Inv.SHAPE),
    ("entry.throw_129", _with(_point, _ledger(0, 1, "throw", 129)), "throw must be", Inv.SHAPE),
    (
        "entry.refund_throw_0",
        _with(_refunded, _ledger(0, 3, "throw", 0)),
        "throw must be",
        Inv.SHAPE,
    ),
    (
        "entry.throw_phase_complete",
        _with(_point, _ledger(0, 1, "phase", "complete")),
        "not in complete",
        Inv.SHAPE,
    ),
    (
        "entry.throw_point_7",
        _with(_refunded, _ledger(0, 4, "point", 7)),
        "not in point with point 7",
        Inv.SHAPE,
    ),
    (
        "entry.throw_come_out_with_a_point",
        _with(_point, _ledger(0, 1, "point", 6)),
        "not in come_out with point 6",
        Inv.SHAPE,
    ),
    (
        "entry.throw_on_the_point_without_one",
        _with(_refunded, _ledger(0, 4, "point", None)),
        "not in point with point None",
        Inv.SHAPE,
    ),
    ("entry.total_13", _with(_point, _ledger(0, 1, "total", 13)), "total must be", Inv.SHAPE),
    ("entry.total_1", _with(_point, _ledger(0, 1, "total", 1)), "total must be", Inv.SHAPE),
    (
        "tens.contracted_15",
        _with(_fresh, _contracted(15, 15, 970, True)),
        "pass must be a multiple of 10",
        Inv.SHAPE,
    ),
    (
        "tens.net_15",
        _with(lambda: _hands(1), _ledger(0, 2, "net", 15)),
        "net must be a multiple of 10",
        Inv.SHAPE,
    ),
    (
        "tens.net_minus_15",
        _with(_lost_dont_pass, _ledger(0, 2, "net", -15)),
        "net must be a multiple of 10",
        Inv.SHAPE,
    ),
    (
        "tens.returned_25",
        _with(lambda: _hands(1), _all(_ledger(0, 2, "returned", 25), _balance(0, 5))),
        "returned must be a multiple of 10",
        Inv.SHAPE,
    ),
    (
        "tens.refund_15",
        _with(_refunded, _ledger(0, 3, "amount", 15)),
        "amount must be a multiple of 10",
        Inv.SHAPE,
    ),
    (
        "tens.reduction_after_15",
        _with(_refunded, _ledger(0, 2, "after", 15)),
        "after must be a multiple of 10",
        Inv.SHAPE,
    ),
    (
        "tens.voided_25",
        _with(_ended, _ledger(0, 2, "amount", 25)),
        "amount must be a multiple of 10",
        Inv.SHAPE,
    ),
]

DOC_DEFECTS: list[tuple[str, Callable[[], Any], str, Invariant]] = [
    # K6: where an extra member is found, a void and the contracts tied to the ledger
    (
        "extra.seat_member",
        _with(_fresh, put("seats.0.note", "x")),
        "not canonical",
        Inv.NOT_CANONICAL,
    ),
    (
        "extra.ending_member",
        _with(_ended, put("ending.note", "x")),
        "not canonical",
        Inv.NOT_CANONICAL,
    ),
    (
        "extra.draft_member",
        _with(_fresh, put("seats.0.draft.note", 0)),
        "names exactly pass and dont_pass",
        Inv.SHAPE,
    ),
    (
        "extra.result_member",
        _with(lambda: _hands(5), put("result.note", "x")),
        "not canonical",
        Inv.NOT_CANONICAL,
    ),
    (
        "missing_result",
        _with(_fresh, put("result", _DELETE)),
        "not canonical",
        Inv.NOT_CANONICAL,
    ),
    (
        "contracts_not_in_play",
        _with(
            _sealed,
            _all(
                put("seats.0.contracts", {"pass": 40, "dont_pass": 10}),
                put("seats.0.draft", {"pass": 40, "dont_pass": 10}),
            ),
        ),
        "the contracts are 40/10 (Pass/Don't Pass), the ledger's in play 30/20",
        Inv.CONTRACTS_IN_PLAY,
    ),
    (
        "contracts_on_the_point_not_in_play",
        _with(
            _point,
            _all(
                put("seats.0.contracts", {"pass": 30, "dont_pass": 10}),
                put("seats.0.draft", {"pass": 30, "dont_pass": 10}),
            ),
        ),
        "the ledger's in play 30/20",
        Inv.CONTRACTS_IN_PLAY,
    ),
    (
        "void_not_the_contract",
        _with(_ended, _all(_ledger(0, 2, "amount", 20), _balance(0, -10))),
        "a void of 20 where 30 is in play",
        Inv.CONTRACTS_IN_PLAY,
    ),
    (
        "void_of_nothing",
        _with(
            _ended,
            _append(
                0, {"type": "voided", "hand": 1, "line": "pass", "amount": 0, "reason": "departure"}
            ),
        ),
        "a void of 0 where 0 is in play",
        Inv.CONTRACTS_IN_PLAY,
    ),
]


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
    (
        "contracts_of_15",
        _with(
            _fresh,
            _all(
                _contracted(10, 10, 980, True),
                put("seats.0.contracts", {"pass": 15, "dont_pass": 15}),
                put("seats.0.draft", {"pass": 15, "dont_pass": 15}),
            ),
        ),
        "multiple of 10",
        Inv.UNITS,
    ),
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
        "a void of 20 where 30 is in play",
        Inv.CONTRACTS_IN_PLAY,
    ),
    (
        "contracted_changed",
        _with(
            _sealed,
            _all(
                _edit_entry(0, "contracted", "pass", lambda v: v + 10),
                put("seats.0.contracts.pass", 40),
                put("seats.0.draft.pass", 40),
            ),
        ),
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
    # issue 37, K7: both members of an ending are read, so one left out is shape
    ("ending_without_seat", _with(_ended, put("ending.seat", _DELETE)), "missing seat", Inv.SHAPE),
    (
        "ending_without_reason",
        _with(_ended, put("ending.reason", _DELETE)),
        "bad reason",
        Inv.SHAPE,
    ),
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
    *ORDER,
    *PARTS,
    *RANGES,
    *DOC_DEFECTS,
]

_FRESH_TEXT = dumps(to_document(Table(1, "t"))).decode()
_COMPLETE_TEXT = dumps(to_document(_hands(5))).decode()
assert '"final":[1050,' in _COMPLETE_TEXT and '"ranks":[1,' in _COMPLETE_TEXT
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
    # a number in result with a fraction: result is compared, not read (issue 33, K6)
    (
        "result_final_1050.0",
        _COMPLETE_TEXT.replace('"final":[1050,', '"final":[1050.0,'),
        "not canonical",
        Inv.NOT_CANONICAL,
    ),
    (
        "result_ranks_1e0",
        _COMPLETE_TEXT.replace('"ranks":[1,', '"ranks":[1e0,'),
        "not canonical",
        Inv.NOT_CANONICAL,
    ),
    (
        "table_id_lone_surrogate",
        _FRESH_TEXT.replace('"table_id":"t"', '"table_id":"t\\ud800"'),
        "Unicode text",
        Inv.SHAPE,
    ),
]
