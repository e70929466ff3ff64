"""The table: 1 to 8 seats sharing one pair of dice, one point and one session.

``Table`` is stepped by ``push``; every step is decided by one row of
``kernel.rules.TRANSITIONS``. A rejected action raises ``MalformedAction`` or
``IllegalAction`` and leaves the table exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from pointline.kernel.actions import (
    Abort,
    Action,
    ActionKind,
    Allocate,
    Confirm,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    SeatAction,
    Throw,
)
from pointline.kernel.errors import IllegalAction, MalformedAction
from pointline.kernel.ledger import (
    ContractChanged,
    Contracted,
    Entry,
    Refunded,
    Settled,
    ThrowSeen,
    Voided,
)
from pointline.kernel.rules import (
    TRANSITIONS,
    Code,
    Effect,
    Guard,
    Transition,
    When,
)
from pointline.kernel.values import (
    ABORT_REASONS,
    HAND_LIMIT,
    HANDS_PER_SESSION,
    MAX_SEATS,
    MIN_SEATS,
    STARTING_POINTS,
    THROW_CAP,
    UNIT,
    EndReason,
    Line,
    Outcome,
    Phase,
)

# Enum members bound once: looking one up on its class (``Phase.COMPLETE``) goes through the
# enum metaclass and costs several times a plain global on the hot path.
_PASS, _DP = Line.PASS, Line.DONT_PASS
_COME_OUT, _COMPLETE, _ENDED = Phase.COME_OUT, Phase.COMPLETE, Phase.ENDED


@dataclass(frozen=True, slots=True)
class Contracts:
    """Amounts on the two lines."""

    pass_amount: int = 0
    dont_pass_amount: int = 0

    @property
    def total(self) -> int:
        return self.pass_amount + self.dont_pass_amount

    def on(self, line: Line) -> int:
        return self.pass_amount if line is _PASS else self.dont_pass_amount


@dataclass(frozen=True, slots=True)
class SeatState:
    """A snapshot of one seat: balance, open draft, current contracts and ledger."""

    seat: int
    balance: int
    draft: Contracts
    contracts: Contracts
    sealed: bool
    ledger: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class Ending:
    """Why a session ended without a result, and the seat it names (if any)."""

    reason: EndReason
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Result:
    """A completed session: final points per seat and their competition ranks (1, 1, 3)."""

    final: tuple[int, ...]
    ranks: tuple[int, ...]

    @property
    def standings(self) -> tuple[int, ...]:
        """Seats ranked highest first; tied seats keep seat order."""
        return tuple(sorted(range(len(self.final)), key=lambda s: (-self.final[s], s)))


def competition_ranks(points: tuple[int, ...]) -> tuple[int, ...]:
    """Rank 1 for the highest; tied seats share a rank and the next rank skips (1, 1, 3)."""
    return tuple(1 + sum(1 for other in points if other > mine) for mine in points)


class _Seat:
    __slots__ = ("balance", "dp", "draft_dp", "draft_pass", "ledger", "pass_", "sealed")

    def __init__(self) -> None:
        self.balance = STARTING_POINTS
        self.draft_pass = 0
        self.draft_dp = 0
        self.pass_ = 0
        self.dp = 0
        self.sealed = False
        self.ledger: list[Entry] = []

    def clone(self) -> _Seat:
        other = _Seat()
        other.balance = self.balance
        other.draft_pass = self.draft_pass
        other.draft_dp = self.draft_dp
        other.pass_ = self.pass_
        other.dp = self.dp
        other.sealed = self.sealed
        other.ledger = list(self.ledger)
        return other


_LIVE = (Phase.COME_OUT, Phase.POINT)


def _candidates(seat: int) -> tuple[SeatAction, ...]:
    """Every seat action ``legal_actions`` considers, in button order."""
    return (
        Allocate(seat, _PASS),
        Allocate(seat, _DP),
        Reset(seat),
        Confirm(seat),
        ReduceDontPass(seat),
        RemoveDontPass(seat),
        Roll(seat),
    )


_CANDIDATES = tuple(_candidates(seat) for seat in range(MAX_SEATS))
_ALL_THROWS = tuple(Throw(d1, d2) for d1 in range(1, 7) for d2 in range(1, 7))
"""Actions are immutable values, so each seat's candidates are made once."""
_POINTS: tuple[int | None, ...] = (None, 4, 5, 6, 8, 9, 10)
_CLASS_OF_KIND: dict[ActionKind, type] = {
    ActionKind.ALLOCATE: Allocate,
    ActionKind.RESET: Reset,
    ActionKind.CONFIRM: Confirm,
    ActionKind.REDUCE_DONT_PASS: ReduceDontPass,
    ActionKind.REMOVE_DONT_PASS: RemoveDontPass,
    ActionKind.ROLL: Roll,
    ActionKind.THROW: Throw,
    ActionKind.ABORT: Abort,
}
_ACTION_TYPES = frozenset(_CLASS_OF_KIND.values())

_RETURNED = {Outcome.WIN: 2, Outcome.PUSH: 1, Outcome.LOSS: 0}
"""What a settled line gives back, as a multiple of its contract (R16)."""
_NET = {Outcome.WIN: 1, Outcome.PUSH: 0, Outcome.LOSS: -1}
"""A settled line's net, as a multiple of its contract (R16)."""

RunFn = Callable[["Table", Any, Any], None]
"""A step's guards then its effect (or its rejection): raises, or applies the row."""
TestFn = Callable[["Table", Any, Any], "Code | None"]
"""A step's guards then its rejection code: what ``run`` would raise, without applying."""
EntryFn = Callable[["Table", Any], None]
CheckFn = Callable[["Table", Any], "Code | None"]


class _Step:
    """A row of the transition table compiled into the functions that check and apply it.

    ``run`` and ``test`` are generated from the row at import: its guards in order (each an
    expression of ``_GUARD_SOURCE``), then its effect or its rejection code.
    """

    __slots__ = ("checks", "effect", "reject", "row", "run", "settles", "test")

    def __init__(self, row: Transition) -> None:
        self.row = row
        self.checks: tuple[tuple[Guard, Code], ...] = tuple((g, g.code) for g in row.guards)
        self.effect = row.effect
        self.reject = row.reject
        po, do = row.pass_outcome, row.dont_pass_outcome
        self.settles = (
            None
            if po is None or do is None
            else (po, _RETURNED[po], _NET[po], do, _RETURNED[do], _NET[do])
        )
        self.run: RunFn = _step_function(self, raising=True)
        self.test: TestFn = _step_function(self, raising=False)


class Table:
    """A pass-line table of 1 to 8 seats sharing the dice, for one session of five hands.

    Seats are numbered from 0. ``push`` applies an action; ``legal_actions`` lists what a seat
    may do now; ``awaiting`` lists the seats the dice wait for.
    """

    __slots__ = (
        "_check",
        "_ending",
        "_phase",
        "_phase_key",
        "_point",
        "_push",
        "_resolved",
        "_seats",
        "_steps",
        "_throws",
        "table_id",
    )

    def __init__(self, seats: int = 1, table_id: str = "solo") -> None:
        if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
            raise MalformedAction(Code.BAD_SEAT.code, f"a table has 1 to 8 seats, not {seats!r}")
        if not isinstance(table_id, str):
            raise MalformedAction(Code.BAD_ACTION.code, "the table id is a string")
        self.table_id = table_id
        self._seats = [_Seat() for _ in range(seats)]
        self._enter(_COME_OUT)
        self._point: int | None = None
        self._throws = 0
        self._resolved = 0
        self._ending: Ending | None = None

    # ----------------------------------------------------------------- reading the table
    @property
    def seat_count(self) -> int:
        return len(self._seats)

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def point(self) -> int | None:
        """The point while it is on, else None."""
        return self._point

    @property
    def throws(self) -> int:
        """Throws made so far in this session (at most 128)."""
        return self._throws

    @property
    def hands_resolved(self) -> int:
        return self._resolved

    @property
    def hand(self) -> int:
        """The number of the hand in play, 1 to 5 (5 once the session is complete)."""
        return min(self._resolved + 1, HANDS_PER_SESSION)

    @property
    def is_over(self) -> bool:
        """Terminal: the session completed or ended without a result."""
        phase = self._phase
        return phase is _COMPLETE or phase is _ENDED

    @property
    def ending(self) -> Ending | None:
        """Why the session ended without a result, or None."""
        return self._ending

    @property
    def result(self) -> Result | None:
        """The result of a completed session, else None."""
        if self._phase is not _COMPLETE:
            return None
        final = tuple(s.balance for s in self._seats)
        return Result(final, competition_ranks(final))

    @property
    def returns(self) -> tuple[int, ...]:
        """Each seat's points won or lost so far against the 1,000 it started with."""
        return tuple(s.balance - STARTING_POINTS for s in self._seats)

    def balance(self, seat: int) -> int:
        return self._seats[seat].balance

    def seat(self, seat: int) -> SeatState:
        s = self._seats[seat]
        return SeatState(
            seat=seat,
            balance=s.balance,
            draft=Contracts(s.draft_pass, s.draft_dp),
            contracts=Contracts(s.pass_, s.dp),
            sealed=s.sealed,
            ledger=tuple(s.ledger),
        )

    @property
    def seats(self) -> tuple[SeatState, ...]:
        return tuple(self.seat(i) for i in range(len(self._seats)))

    def contracts(self, seat: int) -> Contracts:
        """The seat's current (sealed) contracts."""
        s = self._seats[seat]
        return Contracts(s.pass_, s.dp)

    def draft(self, seat: int) -> Contracts:
        """The seat's open draft: what it would seal now."""
        s = self._seats[seat]
        return Contracts(s.draft_pass, s.draft_dp)

    def is_sealed(self, seat: int) -> bool:
        return self._seats[seat].sealed

    def ledger_since(self, seat: int, start: int) -> tuple[Entry, ...]:
        """The seat's ledger entries from index ``start`` on."""
        return tuple(self._seats[seat].ledger[start:])

    def ledger_length(self, seat: int) -> int:
        return len(self._seats[seat].ledger)

    @property
    def awaiting(self) -> tuple[int, ...]:
        """Seats that have not sealed their choices for the next throw (none once over)."""
        if self.is_over:
            return ()
        return tuple(i for i, s in enumerate(self._seats) if not s.sealed)

    @property
    def is_chance_turn(self) -> bool:
        """Every seat has sealed: the next action is a throw of the dice."""
        return not self.is_over and all(s.sealed for s in self._seats)

    def copy(self) -> Table:
        other = Table.__new__(Table)
        other.table_id = self.table_id
        other._seats = [s.clone() for s in self._seats]
        other._phase = self._phase
        other._phase_key = self._phase_key
        other._steps = self._steps
        other._push = self._push
        other._check = self._check
        other._point = self._point
        other._throws = self._throws
        other._resolved = self._resolved
        other._ending = self._ending
        return other

    # ----------------------------------------------------------------- legality
    def _resolve(self, action: Action) -> tuple[_Step, _Seat | None]:
        """The step that decides ``action`` now, and the seat it names; raises if ill formed."""
        cls = type(action)
        if cls is Throw:
            d1, d2 = action.die1, action.die2  # type: ignore[union-attr]
            if type(d1) is not int or type(d2) is not int or not (1 <= d1 <= 6 and 1 <= d2 <= 6):
                raise MalformedAction(Code.BAD_DIE.code, Code.BAD_DIE.text)
            by_point = _THROW_STEPS.get(self._phase_key)
            if by_point is None:
                return self._steps[Throw], None
            return by_point[self._point][d1 + d2], None
        step = self._steps.get(cls)
        if step is None:
            raise MalformedAction(Code.BAD_ACTION.code, f"not an action: {action!r}")
        if cls is Abort:
            reason = action.reason  # type: ignore[union-attr]
            if type(reason) is not EndReason or reason not in ABORT_REASONS:
                raise MalformedAction(Code.BAD_REASON.code, Code.BAD_REASON.text)
            seat = action.seat  # type: ignore[union-attr]
            if seat is not None and (type(seat) is not int or not 0 <= seat < len(self._seats)):
                raise MalformedAction(Code.BAD_SEAT.code, Code.BAD_SEAT.text)
            return step, None
        seat = action.seat  # type: ignore[union-attr]
        if type(seat) is not int or not 0 <= seat < len(self._seats):
            raise MalformedAction(Code.BAD_SEAT.code, Code.BAD_SEAT.text)
        if cls is Allocate:
            if type(action.line) is not Line:  # type: ignore[union-attr]
                raise MalformedAction(Code.BAD_LINE.code, Code.BAD_LINE.text)
            amount = action.amount  # type: ignore[union-attr]
            if type(amount) is not int or amount <= 0 or amount % UNIT:
                raise MalformedAction(Code.BAD_AMOUNT.code, Code.BAD_AMOUNT.text)
        return step, self._seats[seat]

    def row(self, action: Action) -> Transition:
        """The row of the transition table that decides ``action`` now.

        Raises ``MalformedAction`` when the action is ill formed (then no row applies).
        """
        return self._resolve(action)[0].row

    def rejection(self, action: Action) -> Code | None:
        """The code ``push`` would reject ``action`` with now, or None if it is legal."""
        check = self._check.get(type(action))
        if check is None:
            return Code.BAD_ACTION
        return check(self, action)

    def is_legal(self, action: Action) -> bool:
        return self.rejection(action) is None

    def legal_actions(self, seat: int) -> list[SeatAction]:
        """What ``seat`` may do now, in button order (Allocate Pass, Allocate Don't Pass, …)."""
        candidates = _CANDIDATES[seat] if type(seat) is int and 0 <= seat < MAX_SEATS else None
        if candidates is None:
            candidates = _candidates(seat)
        check = self._check
        return [a for a in candidates if check[type(a)](self, a) is None]

    def legal_throws(self) -> Iterator[Throw]:
        """All 36 throws when the dice are due, else none."""
        if self.is_chance_turn:
            yield from _ALL_THROWS

    # ----------------------------------------------------------------- stepping
    def push(self, action: Action) -> None:
        """Apply ``action``, or raise ``MalformedAction``/``IllegalAction`` and change nothing."""
        try:
            entry = self._push[type(action)]
        except KeyError:
            raise MalformedAction(Code.BAD_ACTION.code, f"not an action: {action!r}") from None
        entry(self, action)

    def _enter(self, phase: Phase) -> None:
        self._phase = phase
        key = phase._value_
        self._phase_key = key
        self._steps = _STEPS[key]
        self._push = _PUSH[key]
        self._check = _CHECK[key]

    def _void(self, ending: Ending) -> None:
        hand = self.hand
        reason = ending.reason
        for s in self._seats:
            if s.pass_:
                s.ledger.append(Voided(hand, _PASS, s.pass_, reason))
                s.balance += s.pass_
            if s.dp:
                s.ledger.append(Voided(hand, _DP, s.dp, reason))
                s.balance += s.dp
            s.pass_ = s.dp = s.draft_pass = s.draft_dp = 0
            s.sealed = False
        self._point = None
        self._enter(_ENDED)
        self._ending = ending


# ---------------------------------------------------------------------- guards and effects
# Each guard of kernel.rules.Guard is one Python expression over the table ``t``, the named
# seat ``s`` and the action ``a``; each effect of kernel.rules.Effect is one function. At import
# every row is compiled into code that checks its guards in order and then applies its effect.

_GUARD_SOURCE: dict[Guard, str] = {
    Guard.SEAT_OPEN: "not s.sealed",
    Guard.WITHIN_HAND_LIMIT: "s.draft_pass + s.draft_dp + a.amount <= HAND_LIMIT",
    Guard.WITHIN_BALANCE: "s.draft_pass + s.draft_dp + a.amount <= s.balance",
    Guard.LINE_IS_DONT_PASS: "a.line is DONT_PASS",
    Guard.DONT_PASS_PREPARED: "s.draft_dp >= UNIT",
    Guard.DRAFT_CHANGED: "s.draft_pass != s.pass_ or s.draft_dp != s.dp",
    Guard.EVERY_SEAT_SEALED: "all(map(SEALED, t._seats))",
}

_SEE_THROW = (
    "n = t._throws + 1",
    "t._throws = n",
    "d1 = a.die1",
    "d2 = a.die2",
    "hand = t._resolved + 1",
    "seen = NEW(ThrowSeen, (hand, n, d1, d2, d1 + d2, t._phase, t._point))",
    "for x in t._seats:",
    "    x.ledger.append(seen)",
    "    x.sealed = False",
)
"""Every throw: count it, write it to every seat's ledger, open every seat again.

Ledger entries are built with ``tuple.__new__`` (``NEW``) directly: the named tuples' own
``__new__`` is Python code, and a throw makes one entry per seat."""
_CAP = ("if n >= THROW_CAP:", "    t._void(CAP_ENDING)")
"""After a throw that did not complete the session: the 128th ends it without a result."""

_EFFECT_SOURCE: dict[Effect, tuple[str, ...]] = {
    Effect.ADD_TO_DRAFT: (
        "if a.line is PASS:",
        "    s.draft_pass += a.amount",
        "else:",
        "    s.draft_dp += a.amount",
    ),
    Effect.RESTORE_DRAFT: ("s.draft_pass = s.pass_", "s.draft_dp = s.dp"),
    Effect.SEAL_CONTRACTS: (
        "p = s.pass_ = s.draft_pass",
        "d = s.dp = s.draft_dp",
        "s.ledger.append(NEW(Contracted, (t._resolved + 1, p, d)))",
        "s.balance -= p + d",
        "s.sealed = True",
    ),
    Effect.PREPARE_REDUCTION: ("s.draft_dp -= UNIT",),
    Effect.PREPARE_REMOVAL: ("s.draft_dp = 0",),
    Effect.SEAL_ROLL: (
        "reduced = s.dp - s.draft_dp",
        "if reduced:",
        "    hand = t._resolved + 1",
        "    throw = t._throws + 1",
        "    s.ledger.append(NEW(ContractChanged, (hand, throw, DONT_PASS, s.dp, s.draft_dp)))",
        "    s.ledger.append(NEW(Refunded, (hand, throw, reduced)))",
        "    s.balance += reduced",
        "    s.dp = s.draft_dp",
        "s.sealed = True",
    ),
    Effect.SETTLE_HAND: (
        *_SEE_THROW,
        # PO/DO: each line's outcome; PR/DR: returned and PN/DN: net, as contract multiples.
        "for x in t._seats:",
        "    amount = x.pass_",
        "    if amount:",
        "        x.ledger.append(",
        "            NEW(Settled, (hand, n, PASS, amount, PO, amount * PR, amount * PN))",
        "        )",
        "        x.balance += amount * PR",
        "    amount = x.dp",
        "    if amount:",
        "        x.ledger.append(",
        "            NEW(Settled, (hand, n, DONT_PASS, amount, DO, amount * DR, amount * DN))",
        "        )",
        "        x.balance += amount * DR",
        "    x.pass_ = x.dp = x.draft_pass = x.draft_dp = 0",
        "t._point = None",
        "t._resolved = hand",
        "if hand == HANDS_PER_SESSION:",
        "    t._enter(COMPLETE)",
        "    return",
        "t._enter(COME_OUT)",
        *_CAP,
    ),
    Effect.ESTABLISH_POINT: (*_SEE_THROW, "t._point = d1 + d2", "t._enter(POINT)", *_CAP),
    Effect.KEEP_POINT: (*_SEE_THROW, *_CAP),
    Effect.VOID_HAND: ("t._void(Ending(a.reason, a.seat))",),
}
"""Each effect of ``kernel.rules.Effect`` as the statements that apply it (over ``t``, ``s``,
``a``; a settling row binds its outcomes and multiples as constants)."""


# ---------------------------------------------------------------------- compiling the rows
_NAMESPACE: dict[str, Any] = {
    "IllegalAction": IllegalAction,
    "MalformedAction": MalformedAction,
    "HAND_LIMIT": HAND_LIMIT,
    "UNIT": UNIT,
    "DONT_PASS": Line.DONT_PASS,
    "Line": Line,
    "EndReason": EndReason,
    "ABORT_REASONS": ABORT_REASONS,
    "SEALED": attrgetter("sealed"),
    "PASS": Line.PASS,
    "NEW": tuple.__new__,
    "Contracted": Contracted,
    "ContractChanged": ContractChanged,
    "Refunded": Refunded,
    "Settled": Settled,
    "ThrowSeen": ThrowSeen,
    "Ending": Ending,
    "CAP_ENDING": Ending(EndReason.THROW_CAP),
    "THROW_CAP": THROW_CAP,
    "HANDS_PER_SESSION": HANDS_PER_SESSION,
    "COME_OUT": Phase.COME_OUT,
    "POINT": Phase.POINT,
    "COMPLETE": Phase.COMPLETE,
    **{f"C_{c.name}": c for c in Code},
    **{f"C_{c.name}_code": c.code for c in Code},
    **{f"C_{c.name}_text": c.text for c in Code},
}


def _fail(code: Code, raising: bool, error: str) -> str:
    if raising:
        return f"raise {error}(C_{code.name}_code, C_{code.name}_text)"
    return f"return C_{code.name}"


def _validation(cls: type, raising: bool) -> list[str]:
    """Lines that reject an ill-formed action of class ``cls`` and bind the seat ``s``."""

    def fail(code: Code) -> str:
        return _fail(code, raising, "MalformedAction")

    if cls is Throw:
        return [
            "d1 = a.die1",
            "d2 = a.die2",
            "if type(d1) is not int or type(d2) is not int or not (1 <= d1 <= 6 and 1 <= d2 <= 6):",
            f"    {fail(Code.BAD_DIE)}",
            "s = None",
        ]
    if cls is Abort:
        return [
            "reason = a.reason",
            "if type(reason) is not EndReason or reason not in ABORT_REASONS:",
            f"    {fail(Code.BAD_REASON)}",
            "seat = a.seat",
            "if seat is not None and (type(seat) is not int or not 0 <= seat < len(t._seats)):",
            f"    {fail(Code.BAD_SEAT)}",
            "s = None",
        ]
    lines = [
        "seat = a.seat",
        "if type(seat) is not int or not 0 <= seat < len(t._seats):",
        f"    {fail(Code.BAD_SEAT)}",
    ]
    if cls is Allocate:
        lines += [
            "if type(a.line) is not Line:",
            f"    {fail(Code.BAD_LINE)}",
            "amount = a.amount",
            "if type(amount) is not int or amount <= 0 or amount % UNIT:",
            f"    {fail(Code.BAD_AMOUNT)}",
        ]
    return [*lines, "s = t._seats[seat]"]


def _row_lines(step: _Step, raising: bool) -> list[str]:
    """The row's guards in order, then its effect (``raising``) or its verdict (testing)."""
    lines: list[str] = []
    for guard, code in step.checks:
        lines += [
            f"if not ({_GUARD_SOURCE[guard]}):",
            f"    {_fail(code, raising, 'IllegalAction')}",
        ]
    if not raising:
        return [*lines, "return REJECT"]
    if step.effect is None:
        assert step.reject is not None
        return [*lines, _fail(step.reject, True, "IllegalAction")]
    return [*lines, *_EFFECT_SOURCE[step.effect]]


def _bindings(step: _Step) -> dict[str, Any]:
    """The constants a row's code refers to: its verdict and its settlement figures."""
    bound: dict[str, Any] = {"REJECT": step.reject}
    if step.settles is not None:
        for key, value in zip(("PO", "PR", "PN", "DO", "DR", "DN"), step.settles, strict=True):
            bound[key] = value
    return bound


def _define(name: str, args: str, body: list[str], **bound: Any) -> Any:
    source = f"def {name}({args}):\n" + "".join(f"    {line}\n" for line in body)
    namespace = {**_NAMESPACE, **bound}
    exec(compile(source, f"<kernel.table row {name}>", "exec"), namespace)
    return namespace[name]


def _name(row: Transition) -> str:
    return f"{row.phase.value}_{row.kind.value}_{row.when.name.lower()}"


def _step_function(step: _Step, raising: bool) -> Any:
    """A step's own ``(t, s, a)``: guards, then its effect (``raising``) or its verdict."""
    kind = "run" if raising else "test"
    return _define(
        f"{kind}_{_name(step.row)}",
        "t, s, a",
        _row_lines(step, raising),
        **_bindings(step),
    )


def _entry(cls: type, step: _Step, raising: bool) -> Any:
    """``(t, a)`` for one phase and action class: validation, then the row inline."""
    body = _validation(cls, raising) + _row_lines(step, raising)
    kind = "push" if raising else "check"
    return _define(
        f"{kind}_{_name(step.row)}",
        "t, a",
        body,
        **_bindings(step),
    )


def _throw_entry(phase: Phase, slots: dict[int | None, list[_Step]], raising: bool) -> Any:
    """``(t, a)`` for a throw in a live phase: validation, then the row for point and total."""
    verdict = "" if raising else "return "
    body = [*_validation(Throw, raising), f"{verdict}BY_TOTAL[t._point][d1 + d2](t, None, a)"]
    by_total = {
        point: [None if step is _NO_STEP else step.run if raising else step.test for step in row]
        for point, row in slots.items()
    }
    kind = "push" if raising else "check"
    return _define(f"{kind}_{phase.value}_throw", "t, a", body, BY_TOTAL=by_total)


def _compile() -> tuple[
    dict[str, dict[type, _Step]],
    dict[str, dict[int | None, list[_Step]]],
    dict[str, dict[type, EntryFn]],
    dict[str, dict[type, CheckFn]],
]:
    """Index the rows: one step per (phase, action class), and per (phase, point, total) for
    throws in live phases. Fails at import if two rows ever apply at once or one is missing.
    Then bind, per phase and action class, the compiled entry that ``push`` and
    ``rejection`` call."""
    steps: dict[str, dict[type, _Step]] = {p.value: {} for p in Phase}
    throws: dict[str, dict[int | None, list[_Step]]] = {}
    for row in TRANSITIONS:
        cls = _CLASS_OF_KIND[row.kind]
        step = _Step(row)
        if row.kind is ActionKind.THROW and row.when is not When.ALWAYS:
            by_point = throws.setdefault(row.phase.value, {})
            for point in _POINTS if row.phase is Phase.POINT else (None,):
                slots = by_point.setdefault(point, [_NO_STEP] * 13)
                for total in range(2, 13):
                    if row.when.holds(total, point):
                        if slots[total] is not _NO_STEP:
                            raise AssertionError(f"two rows for {row.phase} {point} {total}")
                        slots[total] = step
        else:
            if cls in steps[row.phase.value]:
                raise AssertionError(f"two rows for {row.phase} {row.kind}")
            steps[row.phase.value][cls] = step
    for phase in Phase:
        for kind, cls in _CLASS_OF_KIND.items():
            live_throw = kind is ActionKind.THROW and phase.value in throws
            if not live_throw and cls not in steps[phase.value]:
                raise AssertionError(f"no row for {phase} {kind}")
    for by_point in throws.values():
        for slots in by_point.values():
            if any(slot is _NO_STEP for slot in slots[2:]):
                raise AssertionError("a throw total without a row")
    push: dict[str, dict[type, EntryFn]] = {}
    check: dict[str, dict[type, CheckFn]] = {}
    for phase in Phase:
        key = phase.value
        push[key] = {cls: _entry(cls, step, True) for cls, step in steps[key].items()}
        check[key] = {cls: _entry(cls, step, False) for cls, step in steps[key].items()}
        if key in throws:
            push[key][Throw] = _throw_entry(phase, throws[key], True)
            check[key][Throw] = _throw_entry(phase, throws[key], False)
    return steps, throws, push, check


_NO_STEP = object.__new__(_Step)
_STEPS, _THROW_STEPS, _PUSH, _CHECK = _compile()
