"""Hypothesis stateful tests: random legal and illegal actions and throws on 1-8 seats.

A step is one action offered to the kernel (a seat's choice, a throw, an abort; legal or
not, well formed or not). After every step the card's invariants are checked and the step
must agree with ``rejection``/``is_legal``; a rejected action must change nothing.
``legal_actions`` is checked against ``is_legal`` for the seats a step touched, and for every
seat after each hypothesis rule, where one seat's listed actions are also pushed on a copy.

Most rules offer one action; ``burst`` offers several, chosen by a seeded ``random.Random``
(the seed is drawn by hypothesis, so runs replay and shrink by seed), which keeps hypothesis'
own cost per step low enough for 50,000 steps in the default ("ci") profile over the eight seat
counts; the "large" profile runs ten times more.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from pointline.kernel import (
    HAND_LIMIT,
    HANDS_PER_SESSION,
    STARTING_POINTS,
    THROW_CAP,
    UNIT,
    Abort,
    Action,
    Allocate,
    Confirm,
    EndReason,
    IllegalAction,
    Line,
    MalformedAction,
    Phase,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    Table,
    Throw,
    replay_balance,
    state_bytes,
)
from pointline.spec.crosscheck import ghost_counts
from tests.kernel._kernel_support import conserved

STEPS_PER_SEAT_COUNT = 6_250
"""8 × 6,250 = 50,000 steps in the ci profile (scaled with the profile's max_examples)."""

KINDS = (Allocate, Reset, Confirm, ReduceDontPass, RemoveDontPass, Roll)
AMOUNTS = (10, 10, 10, 20, 30, 50, 100, 0, 15, -10)
LINES: tuple[Any, ...] = (Line.PASS, Line.DONT_PASS, Line.DONT_PASS, "pass")
REASONS: tuple[Any, ...] = (*EndReason, "gone")
CANDIDATES = [
    [
        Allocate(seat, Line.PASS),
        Allocate(seat, Line.DONT_PASS),
        Reset(seat),
        Confirm(seat),
        ReduceDontPass(seat),
        RemoveDontPass(seat),
        Roll(seat),
    ]
    for seat in range(8)
]


def _fingerprint(table: Table) -> tuple[Any, ...]:
    """Everything a push could change; ledgers are append-only, so their lengths suffice."""
    seats = tuple(
        (
            table.balance(i),
            table.draft(i),
            table.contracts(i),
            table.is_sealed(i),
            table.ledger_length(i),
        )
        for i in range(table.seat_count)
    )
    return (table.phase, table.point, table.throws, table.hands_resolved, table.ending, seats)


class TableMachine(RuleBasedStateMachine):
    seat_count = 1
    steps = 0
    rule_steps = 0
    sessions = 0
    examples = 0
    codes_seen: ClassVar[set[str]] = set()
    ends_seen: ClassVar[set[str]] = set()

    def __init__(self) -> None:
        super().__init__()
        self.table = Table(self.seat_count)
        self._track()

    def _track(self) -> None:
        n = self.table.seat_count
        self.read = [0] * n
        self.losses = [0] * n
        self.wins = [0] * n
        self.hand_seen = [-1] * n
        self.pass_on_point: list[int | None] = [None] * n
        self.dp_sealed: list[int | None] = [None] * n
        self.rejections = 0

    # ------------------------------------------------------------------ one step
    def _attempt(self, action: Action, touched: Iterable[int] = ()) -> None:
        """Offer ``action``: it must be pushed exactly when ``rejection`` says it is legal,
        and a rejection must change nothing. Then the invariants must hold."""
        TableMachine.steps += 1
        table = self.table
        code = table.rejection(action)
        assert table.is_legal(action) is (code is None)
        if code is None:
            table.push(action)
            if isinstance(action, (Throw, Abort)):
                touched = range(table.seat_count)
        else:
            TableMachine.codes_seen.add(code.code)
            self.rejections += 1
            full = self.rejections % 64 == 1
            before = state_bytes(table) if full else _fingerprint(table)
            error_type = MalformedAction if code.malformed else IllegalAction
            try:
                table.push(action)
            except error_type as error:
                assert error.code == code.code
            else:
                raise AssertionError(f"{action!r} was pushed though rejected with {code}")
            after = state_bytes(table) if full else _fingerprint(table)
            assert after == before
        self.card_invariants()
        for seat in touched:
            if 0 <= seat < table.seat_count:
                self._legal_agrees(seat)

    def _legal_agrees(self, seat: int) -> None:
        table = self.table
        legal = table.legal_actions(seat)
        assert legal == [a for a in CANDIDATES[seat] if table.is_legal(a)]
        if table.is_over or table.is_sealed(seat):
            assert legal == []

    # ------------------------------------------------------------------ choosing actions
    def _legal_choice(self, pick: int) -> None:
        """One of the legal actions of some seat still open (most steps make progress)."""
        awaiting = self.table.awaiting
        if not awaiting:
            self._attempt(Confirm(pick % self.table.seat_count), (pick % self.table.seat_count,))
            return
        seat = awaiting[pick % len(awaiting)]
        options = self.table.legal_actions(seat)
        assert options, f"an open seat always has a legal action: seat {seat}"
        self._attempt(options[(pick >> 3) % len(options)], (seat,))

    def _seal(self, pick: int) -> None:
        """Seal an open seat (Confirm or Roll), or every open seat, so that throws come often."""
        awaiting = self.table.awaiting
        if not awaiting:
            self._attempt(Roll(pick % self.table.seat_count))
            return
        chosen = awaiting if pick & 1 else (awaiting[(pick >> 1) % len(awaiting)],)
        for seat in chosen:
            sealing = Confirm(seat) if self.table.phase is Phase.COME_OUT else Roll(seat)
            self._attempt(sealing, (seat,))

    def _any_seat_action(self, pick: int) -> None:
        """Any seat action at all, legal or not, well formed or not (seats -1..8)."""
        pick, kind = divmod(pick, len(KINDS))
        pick, seat = divmod(pick, 10)
        amount, line = divmod(pick, len(LINES))
        cls = KINDS[kind]
        seat -= 1
        action = (
            cls(seat, LINES[line], AMOUNTS[amount % len(AMOUNTS)]) if cls is Allocate else cls(seat)
        )
        self._attempt(action, (seat,))

    def _throw(self, pick: int) -> None:
        self._attempt(Throw(1 + pick % 36 // 6, 1 + pick % 6))

    def _any_throw(self, pick: int) -> None:
        """Dice -1..8 and 0..9: mostly malformed, sometimes a real throw."""
        pick %= 100
        self._attempt(Throw(pick // 10 - 1, pick % 10))

    def _abort(self, pick: int) -> None:
        """Rarely an abort (with a valid or invalid reason or seat); else only ask about it."""
        pick, reason = divmod(pick, len(REASONS))
        pick, seat = divmod(pick, 11)
        action = Abort(REASONS[reason], None if seat == 10 else seat - 1)
        if pick % 200 == 0:
            self._attempt(action)
        else:
            TableMachine.steps += 1
            assert self.table.is_legal(action) is (self.table.rejection(action) is None)

    @initialize()
    def start(self) -> None:
        TableMachine.examples += 1
        TableMachine.sessions += 1

    # Few draws per rule (decoded by the methods above) keep hypothesis' own cost low.
    @rule(which=st.integers(0, 5), pick=st.integers(0, (1 << 20) - 1))
    def one_step(self, which: int, pick: int) -> None:
        """One step of one kind: legal choice, seal, any seat action, throw, any throw, abort."""
        chooser = (
            self._legal_choice,
            self._seal,
            self._any_seat_action,
            self._throw,
            self._any_throw,
            self._abort,
        )[which]
        chooser(pick)

    @rule(seed=st.integers(0, (1 << 32) - 1), length=st.integers(4, 24))
    def burst(self, seed: int, length: int) -> None:
        """Several steps chosen by a seeded generator, weighted towards play that progresses."""
        rng = random.Random(seed)
        choosers = (
            (self._legal_choice, 30),
            (self._seal, 25),
            (self._throw, 20),
            (self._any_seat_action, 12),
            (self._any_throw, 5),
            (self._abort, 8),
        )
        methods = [m for m, _ in choosers]
        weights = [w for _, w in choosers]
        for method in rng.choices(methods, weights, k=length):
            if self.table.is_over:
                break
            method(rng.getrandbits(20))

    @precondition(lambda self: self.table.is_over)
    @rule()
    def new_session(self) -> None:
        """Over: a new session restores 1,000 points (ledger fully replayed first)."""
        self.check_replay()
        ending = self.table.ending
        TableMachine.ends_seen.add("complete" if ending is None else ending.reason.value)
        TableMachine.steps += 1
        TableMachine.sessions += 1
        self.table = Table(self.seat_count)
        self._track()
        assert all(self.table.balance(i) == STARTING_POINTS for i in range(self.seat_count))

    # ------------------------------------------------------------------ invariants
    def card_invariants(self) -> None:
        """After every step: amounts, limits, locks within a hand, conservation."""
        table = self.table
        assert 0 <= table.throws <= THROW_CAP
        assert 0 <= table.hands_resolved <= HANDS_PER_SESSION
        live = not table.is_over
        on_point = table.phase is Phase.POINT
        assert on_point is (table.point is not None)
        chance = table.is_chance_turn
        assert chance is (live and not table.awaiting)
        hand = table.hands_resolved
        for i in range(table.seat_count):
            draft, held, balance = table.draft(i), table.contracts(i), table.balance(i)
            # Amounts: non-negative multiples of 10, at most 100 a hand.
            for v in (
                draft.pass_amount,
                draft.dont_pass_amount,
                held.pass_amount,
                held.dont_pass_amount,
                balance,
            ):
                assert v >= 0 and v % UNIT == 0
            assert draft.total <= HAND_LIMIT and held.total <= HAND_LIMIT
            if not live:
                assert held.total == 0 and draft.total == 0
            if on_point:
                assert draft.pass_amount == held.pass_amount
                assert draft.dont_pass_amount <= held.dont_pass_amount
            # Within a hand: Pass never changes on the point, Don't Pass never grows once sealed.
            if self.hand_seen[i] != hand:
                self.hand_seen[i] = hand
                self.pass_on_point[i] = None
                self.dp_sealed[i] = None
            if on_point:
                seen = self.pass_on_point[i]
                assert seen is None or seen == held.pass_amount, "Pass changed on the point"
                self.pass_on_point[i] = held.pass_amount
            if on_point or table.is_sealed(i):
                sealed = self.dp_sealed[i]
                assert sealed is None or held.dont_pass_amount <= sealed, "Don't Pass grew"
                self.dp_sealed[i] = held.dont_pass_amount
            # Conservation, with losses and net wins read from the ledger as it grows.
            lost, won = ghost_counts(table.ledger_since(i, self.read[i]))
            self.losses[i] += lost
            self.wins[i] += won
            self.read[i] = table.ledger_length(i)
            assert balance + held.total + self.losses[i] - self.wins[i] == STARTING_POINTS

    @invariant()
    def after_each_rule(self) -> None:
        """Every seat's legal_actions agree with is_legal; one seat's are pushed on a copy."""
        TableMachine.rule_steps += 1
        table = self.table
        self.card_invariants()
        assert (next(iter(table.legal_throws()), None) is not None) is table.is_chance_turn
        n = table.seat_count
        for seat in range(n):
            self._legal_agrees(seat)
        for action in table.legal_actions(TableMachine.rule_steps % n):
            trial = table.copy()
            trial.push(action)

    def check_replay(self) -> None:
        for i in range(self.table.seat_count):
            assert replay_balance(self.table.seat(i).ledger) == self.table.balance(i)
            assert conserved(self.table, i) == STARTING_POINTS

    def teardown(self) -> None:
        self.check_replay()


def _machine_for(seats: int) -> type[TableMachine]:
    return type(f"Table{seats}SeatMachine", (TableMachine,), {"seat_count": seats})


@pytest.mark.parametrize("seats", range(1, 9))
def test_stateful_table(seats: int) -> None:
    scale = max(1, settings().max_examples // 100)
    wanted = STEPS_PER_SEAT_COUNT * scale
    TableMachine.steps = TableMachine.rule_steps = 0
    TableMachine.sessions = TableMachine.examples = 0
    TableMachine.codes_seen = set()
    TableMachine.ends_seen = set()
    # Runs vary in length; size each round from the steps per run seen so far.
    rounds = 0
    per_run = 600.0
    while TableMachine.steps < wanted:
        rounds += 1
        assert rounds <= 40, "the state machine stopped making steps"
        left = wanted - TableMachine.steps
        run_state_machine_as_test(
            _machine_for(seats),
            settings=settings(
                settings(),
                max_examples=max(1, math.ceil(left / per_run)),
                stateful_step_count=100,
                deadline=None,
                suppress_health_check=list(HealthCheck),
            ),
        )
        # Overestimate the steps per run, so that rounds approach the target from below.
        per_run = max(20.0, 2 * TableMachine.steps / max(1, TableMachine.examples))
    print(
        f"{seats} seats: {TableMachine.steps} steps in {TableMachine.rule_steps} rule steps,"
        f" {TableMachine.examples} runs, {TableMachine.sessions} sessions;"
        f" ends {sorted(TableMachine.ends_seen)}; {len(TableMachine.codes_seen)} codes"
    )
    assert TableMachine.steps >= wanted
    # The runs really explore: many kinds of rejection, and sessions that complete.
    assert len(TableMachine.codes_seen) >= 12, sorted(TableMachine.codes_seen)
    assert "complete" in TableMachine.ends_seen
