"""The table is driven by kernel.rules.TRANSITIONS: the row ``Table.row`` reports for any
action in any phase is the very row of the data, and push/rejection follow that row."""

from __future__ import annotations

from pointline.kernel import (
    HANDS_PER_SESSION,
    THROW_CAP,
    TRANSITIONS,
    Abort,
    Action,
    Allocate,
    Confirm,
    EndReason,
    Line,
    Phase,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    Table,
    Then,
    Throw,
    row_for,
)
from tests.kernel._kernel_support import come_out, dice_for, seal_all


def _tables() -> list[Table]:
    fresh = Table(2)
    tables = [fresh]
    for point in (4, 5, 6, 8, 9, 10):
        table = Table(2)
        come_out(table, 0, 10, 20)
        table.push(Confirm(1))
        table.push(dice_for(point))
        tables.append(table)
    ended = Table(2)
    ended.push(Abort(EndReason.DEPARTURE, 0))
    complete = Table(2)
    for _ in range(5):
        seal_all(complete)
        complete.push(dice_for(7))
    return [*tables, ended, complete]


def _actions() -> list[Action]:
    return [
        Allocate(0, Line.PASS),
        Allocate(0, Line.DONT_PASS),
        Reset(0),
        Confirm(0),
        ReduceDontPass(0),
        RemoveDontPass(0),
        Roll(0),
        Abort(EndReason.BAD_REVEAL),
        *(Throw(a, b) for a in range(1, 7) for b in range(1, 7)),
    ]


def test_every_phase_and_action_maps_to_its_row_of_the_data() -> None:
    seen = set()
    for table in _tables():
        for action in _actions():
            total = action.total if isinstance(action, Throw) else 0
            expected = row_for(table.phase, action.kind, total, table.point)
            row = table.row(action)
            assert row is expected
            seen.add(id(row))
    assert seen == {id(row) for row in TRANSITIONS}  # every row is reachable


def test_push_follows_the_row() -> None:
    """A rejecting row rejects with its code; an accepting row whose guards hold applies."""
    sealed = _tables()
    for table in sealed:
        if not table.is_over:
            seal_all(table)
    for table in [*_tables(), *sealed]:
        for action in _actions():
            row = table.row(action)
            code = table.rejection(action)
            if row.reject is not None:
                guard_codes = {g.code for g in row.guards}
                assert code is row.reject or code in guard_codes
            elif code is None:
                trial = table.copy()
                trial.push(action)
                if isinstance(action, Throw):
                    assert trial.throws == table.throws + 1
            else:
                assert code in {g.code for g in row.guards}
    assert Phase.POINT in {t.phase for t in _tables()}


def test_would_throw_is_true_exactly_for_the_legal_actions_that_seal() -> None:
    """``would_throw`` agrees with what pushing does: the seat goes from open to sealed."""
    sealed = _tables()
    for table in sealed:
        if not table.is_over:
            seal_all(table)
    answers = set()
    for table in [*_tables(), *sealed]:
        for action in _actions():
            seat = getattr(action, "seat", None)
            if not table.is_legal(action) or isinstance(action, (Throw, Abort)):
                expected = False
            else:
                assert isinstance(seat, int)
                trial = table.copy()
                trial.push(action)
                expected = not table.is_sealed(seat) and trial.is_sealed(seat)
            assert table.would_throw(action) is expected, (table.phase, action)
            answers.add(expected)
    assert answers == {True, False}


def test_would_throw_names_confirm_and_roll_and_refuses_the_rest() -> None:
    table = Table(2)
    assert table.would_throw(Confirm(0))
    assert not table.would_throw(Roll(0))  # illegal at come-out
    assert not table.would_throw(Allocate(0, Line.PASS))
    assert not table.would_throw(Confirm(5))  # no such seat: malformed, never raises
    assert not table.would_throw(Allocate(0, Line.PASS, 15))
    come_out(table, 0, 0, 20)
    assert not table.would_throw(Confirm(0))  # already sealed
    table.push(Confirm(1))
    assert not table.would_throw(dice_for(7))
    table.push(dice_for(6))
    assert table.would_throw(Roll(0)) and table.would_throw(Roll(1))
    assert not table.would_throw(ReduceDontPass(0))
    assert not table.would_throw(Confirm(0))


def _after(table: Table, then: Then) -> set[Phase]:
    """The phases a row's ``then`` allows after it applies to ``table``."""
    capped = table.throws + 1 >= THROW_CAP
    if then is Then.STAY:
        return {table.phase}
    if then in (Then.POINT, Then.SAME_POINT):
        return {Phase.ENDED} if capped else {Phase.POINT}
    if then is Then.NEXT_HAND:
        if table.hands_resolved + 1 == HANDS_PER_SESSION:
            return {Phase.COMPLETE}
        return {Phase.ENDED} if capped else {Phase.COME_OUT}
    return {Phase.ENDED}


def test_the_phase_after_an_accepted_action_is_the_rows_then() -> None:
    """The next phase is data in the table (``Transition.then``), and push follows it."""
    sealed = _tables()
    for table in sealed:
        if not table.is_over:
            seal_all(table)
    near_cap = Table(1)
    come_out(near_cap, 0, 10, 0)
    near_cap.push(dice_for(6))
    while near_cap.throws < THROW_CAP - 1:
        seal_all(near_cap)
        near_cap.push(dice_for(8))
    seal_all(near_cap)
    four = Table(1)
    for _ in range(4):
        seal_all(four)
        four.push(dice_for(7))
    seal_all(four)
    thens = set()
    for table in [*_tables(), *sealed, near_cap, four]:
        for action in _actions():
            row = table.row(action)
            if not table.is_legal(action):
                continue
            assert row.then is not None
            trial = table.copy()
            trial.push(action)
            assert trial.phase in _after(table, row.then), (table.phase, action, row.then)
            thens.add(row.then)
    assert thens == set(Then)
    assert all((row.then is None) == (row.effect is None) for row in TRANSITIONS)


def _ill_formed() -> list[object]:
    """Actions no state makes legal, each ill formed in one way ``Table`` checks."""
    return [
        Allocate(0, "pass"),  # type: ignore[arg-type]
        Allocate(0, Line.PASS, 15),
        Allocate(0, Line.PASS, 0),
        Allocate(0, Line.PASS, True),
        Allocate(2, Line.PASS),
        Allocate("0", Line.PASS),  # type: ignore[arg-type]
        Confirm(-1),
        Roll(True),
        Reset(8),
        ReduceDontPass(None),  # type: ignore[arg-type]
        RemoveDontPass(2),
        Throw(0, 3),
        Throw(3, 7),
        Throw(True, 3),
        Abort(EndReason.THROW_CAP),
        Abort(EndReason.DEPARTURE, 5),
        object(),
        (3, 4),
    ]


def test_each_ill_formed_action_gets_its_own_code_in_every_phase() -> None:
    """The form checks are the phase's lookup (``kernel._steps.LOOKUPS``), which ``push`` and
    the readers share, so their agreement alone cannot catch a wrong one: every phase refuses
    each ill-formed action with the code of what is wrong with it, before any rule of the phase
    (a die of 7 after the session is over is ``bad_die``, not ``session_over``)."""
    from pointline.kernel import Code, MalformedAction, state_bytes

    expected = dict(zip(map(id, ill := _ill_formed()), _ILL_FORMED_CODES, strict=True))
    sealed = _tables()
    for table in sealed:
        if not table.is_over:
            seal_all(table)
    phases = set()
    for table in [*_tables(), *sealed]:
        phases.add(table.phase)
        before = state_bytes(table)
        for action in ill:
            code = Code(expected[id(action)])
            try:
                table.push(action)  # type: ignore[arg-type]
            except MalformedAction as error:
                assert error.code is code, (table.phase, action, error.code)
            else:
                raise AssertionError(f"{action!r} was taken in {table.phase}")
            assert table.rejection(action) is code  # type: ignore[arg-type]
            assert not table.would_throw(action)  # type: ignore[arg-type]
        assert state_bytes(table) == before
    assert phases == set(Phase)


_ILL_FORMED_CODES = (
    "bad_line",
    "bad_amount",
    "bad_amount",
    "bad_amount",
    "bad_seat",
    "bad_seat",
    "bad_seat",
    "bad_seat",
    "bad_seat",
    "bad_seat",
    "bad_seat",
    "bad_die",
    "bad_die",
    "bad_die",
    "bad_reason",
    "bad_seat",
    "bad_action",
    "bad_action",
)
"""The code of each action of ``_ill_formed``, in its order (tables of 2 seats)."""


def test_push_refuses_exactly_as_rejection_says_and_changes_nothing() -> None:
    """``push`` and the readers (``rejection`` through ``Table._resolve``) find the deciding step
    by the one lookup of ``kernel._steps.LOOKUPS``: for every action, legal, illegal or ill
    formed, in every phase, ``push`` raises the very code ``rejection`` gives, or applies when it
    gives None."""
    from pointline.kernel import RulesError, state_bytes

    sealed = _tables()
    for table in sealed:
        if not table.is_over:
            seal_all(table)
    checked = 0
    for table in [*_tables(), *sealed]:
        for action in [*_actions(), *_ill_formed()]:
            code = table.rejection(action)  # type: ignore[arg-type]
            before = state_bytes(table)
            trial = table.copy()
            try:
                trial.push(action)  # type: ignore[arg-type]
            except RulesError as error:
                assert error.code is code, (table.phase, action)
                assert state_bytes(trial) == before
                checked += 1
            else:
                assert code is None, (table.phase, action)
    assert checked > 200
