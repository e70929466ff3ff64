"""One test per numbered rule (R1..R28), each through the kernel's public API.

Each test also checks that the transition-table row deciding the action names the rule.
"""

from __future__ import annotations

import pytest

from pointline.kernel import (
    HAND_LIMIT,
    HANDS_PER_SESSION,
    STARTING_POINTS,
    THROW_CAP,
    Abort,
    Allocate,
    Code,
    Confirm,
    ContractChanged,
    Contracted,
    EndReason,
    Line,
    MalformedAction,
    Outcome,
    Phase,
    ReduceDontPass,
    Refunded,
    RemoveDontPass,
    Reset,
    Roll,
    Settled,
    Table,
    Throw,
    ThrowSeen,
    Voided,
    competition_ranks,
    replay_balance,
    to_document,
)
from tests.kernel._kernel_support import (
    ALL_THROWS,
    CRAPS,
    NATURALS,
    POINT_NUMBERS,
    assert_rejected,
    come_out,
    dice_for,
    seal_all,
    throw,
)


def on_point(point: int = 6, pass_amount: int = 30, dont_pass_amount: int = 40) -> Table:
    table = Table(1)
    come_out(table, 0, pass_amount, dont_pass_amount)
    table.push(dice_for(point))
    assert table.phase is Phase.POINT and table.point == point
    return table


def test_r01_every_seat_starts_at_1000() -> None:
    for seats in range(1, 9):
        table = Table(seats)
        assert [table.balance(i) for i in range(seats)] == [STARTING_POINTS] * seats
        assert table.returns == (0,) * seats
        assert all(table.ledger_length(i) == 0 for i in range(seats))
    # A new session restores 1,000: nothing carries over from a finished one.
    done = Table(1)
    for _ in range(HANDS_PER_SESSION):
        come_out(done, 0, 100, 0)
        done.push(dice_for(7))
    assert done.balance(0) == STARTING_POINTS + 500
    assert Table(1).balance(0) == STARTING_POINTS


def test_r02_one_to_eight_seats_share_dice_and_point() -> None:
    for bad in (0, 9, -1, "2", 2.0, True):
        with pytest.raises(MalformedAction) as info:
            Table(bad)  # type: ignore[arg-type]
        assert info.value.code == Code.BAD_SEAT.code
    table = Table(3)
    come_out(table, 0, 10, 0)
    come_out(table, 1, 0, 20)
    table.push(Confirm(2))
    assert "R8" in table.row(Throw(2, 4)).rules
    table.push(Throw(2, 4))
    assert table.point == 6
    seen = [table.ledger_since(i, table.ledger_length(i) - 1)[0] for i in range(3)]
    assert all(isinstance(e, ThrowSeen) for e in seen)
    assert seen[0] == seen[1] == seen[2]
    # Independent contracts on the shared throw.
    assert table.contracts(0).pass_amount == 10 and table.contracts(0).dont_pass_amount == 0
    assert table.contracts(1).dont_pass_amount == 20 and table.contracts(2).total == 0
    assert_rejected(table, Roll(3), Code.BAD_SEAT)


def test_r03_amounts_multiples_of_ten_within_hand_and_balance() -> None:
    table = Table(1)
    for amount in (15, 0, -10, 5, 101, "10", 10.0):
        assert_rejected(table, Allocate(0, Line.PASS, amount), Code.BAD_AMOUNT)  # type: ignore[arg-type]
    assert_rejected(table, Allocate(0, "pass"), Code.BAD_LINE)  # type: ignore[arg-type]
    table.push(Allocate(0, Line.PASS, 60))
    table.push(Allocate(0, Line.DONT_PASS, 40))
    assert table.draft(0).total == HAND_LIMIT
    assert "R3" in table.row(Allocate(0, Line.PASS)).rules
    assert_rejected(table, Allocate(0, Line.PASS), Code.HAND_LIMIT)
    assert_rejected(table, Allocate(0, Line.DONT_PASS), Code.HAND_LIMIT)
    # Never above the balance: a seat with 30 points can put at most 30 on the lines.
    poor = Table(1)
    poor._seats[0].balance = 30  # hand-built: from_document refuses it (the ledger says 1,000)
    poor.push(Allocate(0, Line.PASS, 30))
    assert_rejected(poor, Allocate(0, Line.DONT_PASS), Code.OVER_BALANCE)


def test_r04_allocate_adds_to_the_come_out_draft() -> None:
    table = Table(2)
    table.push(Allocate(0, Line.PASS))
    table.push(Allocate(0, Line.PASS))
    table.push(Allocate(0, Line.DONT_PASS, 30))
    assert "R4" in table.row(Allocate(0, Line.PASS)).rules
    assert (table.draft(0).pass_amount, table.draft(0).dont_pass_amount) == (20, 30)
    assert table.draft(1).total == 0  # other seats untouched
    assert table.balance(0) == STARTING_POINTS  # nothing taken before Confirm
    assert table.contracts(0).total == 0


def test_r05_confirm_seals_and_roll_at_come_out_is_rejected() -> None:
    table = Table(2)
    table.push(Allocate(0, Line.PASS, 20))
    assert_rejected(table, Roll(0), Code.CONFIRM_FIRST)
    assert "R5" in table.row(Confirm(0)).rules
    table.push(Confirm(0))
    assert table.is_sealed(0) and table.awaiting == (1,)
    assert table.balance(0) == STARTING_POINTS - 20
    assert table.contracts(0).pass_amount == 20
    assert table.ledger_since(0, 0) == (Contracted(1, 20, 0),)
    for action in (Allocate(0, Line.PASS), Reset(0), Confirm(0)):
        assert_rejected(table, action, Code.SEAT_SEALED)
    assert_rejected(table, Roll(0), Code.CONFIRM_FIRST)


def test_r06_reset_restores_the_last_sealed() -> None:
    table = Table(1)
    assert_rejected(table, Reset(0), Code.NOTHING_TO_RESET)
    table.push(Allocate(0, Line.PASS, 30))
    table.push(Allocate(0, Line.DONT_PASS, 20))
    assert "R6" in table.row(Reset(0)).rules
    table.push(Reset(0))
    assert table.draft(0).total == 0  # at come-out: nothing
    assert_rejected(table, Reset(0), Code.NOTHING_TO_RESET)
    table.push(Allocate(0, Line.DONT_PASS, 40))
    table.push(Confirm(0))
    table.push(dice_for(5))
    table.push(ReduceDontPass(0))
    table.push(ReduceDontPass(0))
    assert table.draft(0).dont_pass_amount == 20
    table.push(Reset(0))
    assert table.draft(0) == table.contracts(0)
    assert table.draft(0).dont_pass_amount == 40
    assert table.balance(0) == STARTING_POINTS - 40


def test_r07_empty_confirm_sits_out_and_dice_still_roll() -> None:
    table = Table(2)
    table.push(Confirm(0))
    come_out(table, 1, 50, 0)
    assert "R7" in table.row(Confirm(1)).rules or "R7" in table.row(Confirm(0)).rules
    table.push(dice_for(7))
    assert table.hands_resolved == 1
    assert table.balance(0) == STARTING_POINTS
    assert table.ledger_since(0, 0)[0] == Contracted(1, 0, 0)
    assert isinstance(table.ledger_since(0, 0)[1], ThrowSeen)
    assert table.balance(1) == STARTING_POINTS + 50
    # A solo seat sitting out still throws.
    solo = Table(1)
    solo.push(Confirm(0))
    assert solo.is_chance_turn
    solo.push(dice_for(8))
    assert solo.throws == 1 and solo.point == 8


def test_r08_a_throw_is_two_faces_only_when_every_seat_sealed() -> None:
    table = Table(2)
    for bad in ((0, 3), (7, 1), (3, -1), (1, 0), ("1", 2), (1.0, 2), (True, 2)):
        assert_rejected(table, Throw(*bad), Code.BAD_DIE)  # type: ignore[arg-type]
    assert list(table.legal_throws()) == [] and not table.is_chance_turn
    assert_rejected(table, Throw(3, 4), Code.AWAITING_SEATS)
    table.push(Confirm(0))
    assert_rejected(table, Throw(3, 4), Code.AWAITING_SEATS)
    table.push(Confirm(1))
    assert table.is_chance_turn and table.awaiting == ()
    assert sorted((t.die1, t.die2) for t in table.legal_throws()) == sorted(ALL_THROWS)
    table.push(Throw(2, 2))
    assert table.throws == 1 and table.awaiting == (0, 1)
    assert_rejected(table, Throw(3, 4), Code.AWAITING_SEATS)
    assert_rejected(table, "throw", Code.BAD_ACTION)  # type: ignore[arg-type]


def test_r09_come_out_seven_or_eleven() -> None:
    for die1, die2 in NATURALS:
        table = Table(2)
        come_out(table, 0, 30, 0)
        come_out(table, 1, 0, 30)
        assert "R9" in table.row(Throw(die1, die2)).rules
        table.push(Throw(die1, die2))
        assert table.balance(0) == STARTING_POINTS + 30  # Pass wins 1:1
        assert table.balance(1) == STARTING_POINTS - 30  # Don't Pass loses
        assert table.hands_resolved == 1 and table.phase is Phase.COME_OUT


def test_r10_come_out_two_three_and_twelve() -> None:
    for die1, die2 in [*CRAPS, (6, 6)]:
        table = Table(2)
        come_out(table, 0, 30, 0)
        come_out(table, 1, 0, 30)
        assert "R10" in table.row(Throw(die1, die2)).rules
        table.push(Throw(die1, die2))
        assert table.balance(0) == STARTING_POINTS - 30  # Pass loses
        expected = STARTING_POINTS if die1 + die2 == 12 else STARTING_POINTS + 30
        assert table.balance(1) == expected  # 12 pushes, 2 and 3 win
        assert table.hands_resolved == 1


def test_r11_point_numbers_become_the_point() -> None:
    for die1, die2 in ALL_THROWS:
        total = die1 + die2
        if total not in POINT_NUMBERS:
            continue
        table = Table(1)
        come_out(table, 0, 20, 30)
        assert "R11" in table.row(Throw(die1, die2)).rules
        table.push(Throw(die1, die2))
        assert table.phase is Phase.POINT and table.point == total
        assert table.contracts(0).pass_amount == 20
        assert table.contracts(0).dont_pass_amount == 30
        assert table.balance(0) == STARTING_POINTS - 50
        assert table.hands_resolved == 0 and not table.is_sealed(0)


def test_r12_point_phase_seats_roll_to_seal_confirm_rejected() -> None:
    table = Table(2)
    come_out(table, 0, 10, 10)
    table.push(Confirm(1))
    table.push(dice_for(9))
    assert_rejected(table, Confirm(0), Code.ALREADY_CONFIRMED)
    assert_rejected(table, Throw(1, 1), Code.AWAITING_SEATS)
    assert "R12" in table.row(Roll(0)).rules
    table.push(Roll(0))
    assert table.is_sealed(0) and table.awaiting == (1,)
    assert_rejected(table, Roll(0), Code.SEAT_SEALED)
    table.push(Roll(1))
    assert table.is_chance_turn


def test_r13_pass_locked_in_the_point_phase() -> None:
    table = on_point()
    assert "R13" in table.row(Allocate(0, Line.PASS)).rules
    assert_rejected(table, Allocate(0, Line.PASS), Code.PASS_LOCKED)
    assert_rejected(table, Allocate(0, Line.DONT_PASS), Code.DONT_PASS_NO_INCREASE)
    # The only way down is on Don't Pass; Pass stays through no-decision throws.
    for total in (2, 3, 11, 12, 4 if table.point != 4 else 5):
        throw(table, total)
        assert table.contracts(0).pass_amount == 30
        assert_rejected(table, Allocate(0, Line.PASS), Code.PASS_LOCKED)


def test_r14_dont_pass_reduce_remove_reset_only_in_point_phase() -> None:
    come = Table(1)
    come.push(Allocate(0, Line.DONT_PASS, 30))
    assert "R14" in come.row(ReduceDontPass(0)).rules
    assert_rejected(come, ReduceDontPass(0), Code.NO_POINT)
    assert_rejected(come, RemoveDontPass(0), Code.NO_POINT)
    table = on_point(pass_amount=10, dont_pass_amount=30)
    for expected in (20, 10, 0):
        table.push(ReduceDontPass(0))
        assert table.draft(0).dont_pass_amount == expected
    assert_rejected(table, ReduceDontPass(0), Code.NOTHING_TO_REDUCE)
    assert_rejected(table, RemoveDontPass(0), Code.NOTHING_TO_REDUCE)
    table.push(Reset(0))
    assert table.draft(0).dont_pass_amount == 30
    table.push(RemoveDontPass(0))
    assert table.draft(0).dont_pass_amount == 0 and table.draft(0).pass_amount == 10
    assert table.contracts(0).dont_pass_amount == 30  # prepared only, not sealed
    pass_only = on_point(pass_amount=10, dont_pass_amount=0)
    assert_rejected(pass_only, ReduceDontPass(0), Code.NOTHING_TO_REDUCE)


def test_r15_sealing_refunds_the_reduction_and_nothing_increases() -> None:
    table = on_point(pass_amount=10, dont_pass_amount=50)
    start = table.ledger_length(0)
    throws = table.throws
    table.push(ReduceDontPass(0))
    table.push(ReduceDontPass(0))
    assert table.balance(0) == STARTING_POINTS - 60  # a prepared reduction refunds nothing yet
    assert "R15" in table.row(Roll(0)).rules
    table.push(Roll(0))
    assert table.balance(0) == STARTING_POINTS - 40
    assert table.contracts(0).dont_pass_amount == 30
    assert table.ledger_since(0, start) == (
        ContractChanged(1, throws + 1, Line.DONT_PASS, 50, 30),
        Refunded(1, throws + 1, 20),
    )
    total = 3 if table.point != 3 else 2
    table.push(dice_for(total))
    # After sealing nothing increases: Reset goes back to 30, not 50, and Allocate is refused.
    table.push(RemoveDontPass(0))
    table.push(Reset(0))
    assert table.draft(0).dont_pass_amount == 30
    assert_rejected(table, Allocate(0, Line.DONT_PASS), Code.DONT_PASS_NO_INCREASE)
    table.push(RemoveDontPass(0))
    table.push(Roll(0))
    table.push(dice_for(12))
    # A removed amount never returns: nothing to reset to, nothing to add.
    assert table.contracts(0).dont_pass_amount == 0
    assert_rejected(table, Reset(0), Code.NOTHING_TO_RESET)
    assert_rejected(table, Allocate(0, Line.DONT_PASS), Code.DONT_PASS_NO_INCREASE)
    # A seat that sat out gets no new contracts in this hand.
    sitter = Table(1)
    sitter.push(Confirm(0))
    sitter.push(dice_for(4))
    assert_rejected(sitter, Allocate(0, Line.DONT_PASS), Code.DONT_PASS_NO_INCREASE)
    assert_rejected(sitter, Allocate(0, Line.PASS), Code.PASS_LOCKED)
    assert_rejected(sitter, ReduceDontPass(0), Code.NOTHING_TO_REDUCE)


def test_r16_win_push_and_loss_payments() -> None:
    cases = [
        (dice_for(7), Outcome.WIN, Outcome.LOSS),
        (dice_for(3), Outcome.LOSS, Outcome.WIN),
        (Throw(6, 6), Outcome.LOSS, Outcome.PUSH),
    ]
    for dice, pass_outcome, dont_outcome in cases:
        table = Table(1)
        come_out(table, 0, 40, 20)
        start = table.ledger_length(0)
        assert "R16" in table.row(dice).rules
        table.push(dice)
        settled = [e for e in table.ledger_since(0, start) if isinstance(e, Settled)]
        assert [(e.line, e.outcome) for e in settled] == [
            (Line.PASS, pass_outcome),
            (Line.DONT_PASS, dont_outcome),
        ]
        factor = {Outcome.WIN: (2, 1), Outcome.PUSH: (1, 0), Outcome.LOSS: (0, -1)}
        for entry in settled:
            back, net = factor[entry.outcome]
            assert entry.returned == back * entry.contract
            assert entry.net == net * entry.contract
        assert table.balance(0) == STARTING_POINTS + sum(e.net for e in settled)


def test_r17_hand_resolution_and_the_next_come_out() -> None:
    table = on_point(point=8, pass_amount=20, dont_pass_amount=10)
    assert "R17" in table.row(dice_for(8)).rules
    throw(table, 8)
    assert table.hands_resolved == 1 and table.hand == 2
    assert table.phase is Phase.COME_OUT and table.point is None
    assert table.contracts(0).total == 0 and table.draft(0).total == 0
    assert not table.is_sealed(0)
    assert_rejected(table, Reset(0), Code.NOTHING_TO_RESET)  # nothing sealed in the new hand
    come_out(table, 0, 10, 0)
    assert table.ledger_since(0, table.ledger_length(0) - 1) == (Contracted(2, 10, 0),)


def test_r18_point_made_and_seven_out() -> None:
    for point in POINT_NUMBERS:
        for total, pass_wins in ((point, True), (7, False)):
            table = on_point(point=point, pass_amount=30, dont_pass_amount=20)
            assert "R18" in table.row(dice_for(total)).rules
            throw(table, total)
            expected = STARTING_POINTS + (30 - 20 if pass_wins else 20 - 30)
            assert table.balance(0) == expected
            assert table.hands_resolved == 1 and table.point is None


def test_r19_other_totals_change_nothing() -> None:
    for point in POINT_NUMBERS:
        for total in range(2, 13):
            if total in (7, point):
                continue
            table = on_point(point=point)
            seal_all(table)
            before = to_document(table)
            start = table.ledger_length(0)
            assert "R19" in table.row(dice_for(total)).rules
            table.push(dice_for(total))
            after = to_document(table)
            assert table.ledger_since(0, start) == (
                ThrowSeen(1, 2, *_faces(total), total, Phase.POINT, point),
            )
            assert after["point"] == before["point"] == point
            for key in ("balance", "contracts", "draft"):
                assert after["seats"][0][key] == before["seats"][0][key]
            assert not table.is_sealed(0) and table.hands_resolved == 0


def _faces(total: int) -> tuple[int, int]:
    dice = dice_for(total)
    return dice.die1, dice.die2


def test_r20_five_resolved_hands_complete_the_session() -> None:
    table = Table(2)
    for hand in range(1, HANDS_PER_SESSION + 1):
        assert table.hand == hand and not table.is_over
        table.push(Confirm(0))  # seat 0 sits every hand out: they still count
        table.push(Confirm(1))
        if hand % 2:
            table.push(dice_for(5))
            throw(table, 7)
        else:
            table.push(dice_for(11))
    assert table.hands_resolved == HANDS_PER_SESSION
    assert table.phase is Phase.COMPLETE and table.is_over and table.ending is None
    assert table.result is not None


def test_r21_result_and_competition_ranks() -> None:
    assert competition_ranks((1100, 1100, 900)) == (1, 1, 3)
    assert competition_ranks((900, 1100, 1100, 1000)) == (4, 1, 1, 3)
    assert competition_ranks((1000,)) == (1,)
    table = Table(3)
    for _ in range(HANDS_PER_SESSION):
        come_out(table, 0, 20, 0)
        come_out(table, 1, 20, 0)
        come_out(table, 2, 0, 20)
        table.push(dice_for(11))
    result = table.result
    assert result is not None
    assert result.final == (1100, 1100, 900)
    assert result.ranks == (1, 1, 3)
    assert result.standings == (0, 1, 2)
    assert result.final == tuple(table.balance(i) for i in range(3))
    live = Table(3)
    assert live.result is None


def _run_throws(table: Table, totals: list[int]) -> None:
    for total in totals:
        throw(table, total)


def test_r22_the_128_throw_cap() -> None:
    # Without completing: 127 no-decision throws after a point, then the 128th ends it.
    table = on_point(point=6, pass_amount=20, dont_pass_amount=10)
    _run_throws(table, [8] * (THROW_CAP - 2))
    assert table.throws == THROW_CAP - 1 and not table.is_over
    start = table.ledger_length(0)
    throw(table, 9)
    assert table.throws == THROW_CAP
    assert table.phase is Phase.ENDED and table.result is None
    assert table.ending is not None and table.ending.reason is EndReason.THROW_CAP
    voids = [e for e in table.ledger_since(0, start) if isinstance(e, Voided)]
    assert {(v.line, v.amount) for v in voids} == {(Line.PASS, 20), (Line.DONT_PASS, 10)}
    assert table.balance(0) == STARTING_POINTS
    assert_rejected(table, Throw(3, 4), Code.SESSION_OVER)
    # Completing on the 128th throw: four hands resolved, the fifth resolves on throw 128.
    done = Table(1)
    for _ in range(4):
        come_out(done, 0, 10, 0)
        done.push(dice_for(7))
    come_out(done, 0, 10, 0)
    done.push(dice_for(4))
    _run_throws(done, [5] * (THROW_CAP - 6))
    assert done.throws == THROW_CAP - 1
    throw(done, 4)
    assert done.throws == THROW_CAP
    assert done.phase is Phase.COMPLETE and done.ending is None
    assert done.result is not None and done.result.final == (STARTING_POINTS + 50,)
    assert not any(isinstance(e, Voided) for e in done.seat(0).ledger)


def test_r23_abort_voids_the_hand_in_flight_with_no_result() -> None:
    reasons = [r for r in EndReason if r is not EndReason.THROW_CAP]
    for reason in reasons:
        for phase in (Phase.COME_OUT, Phase.POINT):
            table = Table(2)
            if phase is Phase.POINT:
                come_out(table, 0, 30, 20)
                table.push(Confirm(1))
                table.push(dice_for(10))
                table.push(ReduceDontPass(0))  # prepared, not sealed: refunds nothing
            else:
                come_out(table, 0, 30, 20)
                table.push(Allocate(1, Line.PASS, 40))  # a draft: never charged
            start = table.ledger_length(0)
            assert "R23" in table.row(Abort(reason, 1)).rules
            table.push(Abort(reason, 1))
            assert table.phase is Phase.ENDED and table.result is None
            assert table.ending is not None
            assert (table.ending.reason, table.ending.seat) == (reason, 1)
            assert table.balance(0) == STARTING_POINTS and table.balance(1) == STARTING_POINTS
            voids = table.ledger_since(0, start)
            assert {(v.line, v.amount, v.reason) for v in voids} == {  # type: ignore[union-attr]
                (Line.PASS, 30, reason),
                (Line.DONT_PASS, 20, reason),
            }
            assert not any(isinstance(e, Voided) for e in table.seat(1).ledger)
            assert table.contracts(0).total == 0 and table.draft(1).total == 0
    assert_rejected(Table(1), Abort(EndReason.THROW_CAP), Code.BAD_REASON)
    assert_rejected(Table(1), Abort("departure"), Code.BAD_REASON)  # type: ignore[arg-type]
    assert_rejected(Table(2), Abort(EndReason.DEPARTURE, 2), Code.BAD_SEAT)
    nobody = Table(1)
    nobody.push(Abort(EndReason.DEADLINE))
    assert nobody.ending is not None and nobody.ending.seat is None


def test_r24_the_ledger_rebuilds_every_balance() -> None:
    table = Table(2)
    come_out(table, 0, 30, 50)
    come_out(table, 1, 0, 20)
    table.push(dice_for(4))
    table.push(ReduceDontPass(0))
    table.push(Roll(0))
    table.push(Roll(1))
    table.push(dice_for(7))
    come_out(table, 0, 10, 0)
    table.push(Confirm(1))
    table.push(Abort(EndReason.BACKGROUND))
    kinds = {type(e) for e in table.seat(0).ledger}
    assert kinds == {Contracted, ThrowSeen, ContractChanged, Refunded, Settled, Voided}
    for seat in range(2):
        assert replay_balance(table.seat(seat).ledger) == table.balance(seat)
        assert table.ledger_since(seat, 0) == table.seat(seat).ledger
    assert table.ledger_since(0, 3) == table.seat(0).ledger[3:]
    assert replay_balance([], start=700) == 700


def test_r25_nothing_is_accepted_once_over() -> None:
    ended = Table(2)
    ended.push(Abort(EndReason.DEPARTURE, 0))
    complete = Table(2)
    for _ in range(HANDS_PER_SESSION):
        seal_all(complete)
        complete.push(dice_for(2))
    assert complete.phase is Phase.COMPLETE
    for table in (ended, complete):
        assert table.is_over and table.awaiting == () and not table.is_chance_turn
        assert list(table.legal_throws()) == []
        for action in (
            Allocate(0, Line.PASS),
            Reset(0),
            Confirm(0),
            ReduceDontPass(1),
            RemoveDontPass(1),
            Roll(0),
            Throw(3, 4),
            Abort(EndReason.DEADLINE),
        ):
            assert "R25" in table.row(action).rules
            assert_rejected(table, action, Code.SESSION_OVER)
        assert table.legal_actions(0) == [] and table.legal_actions(1) == []
