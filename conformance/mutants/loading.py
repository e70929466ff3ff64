"""Mutants of ``load_state`` and the inputs around it (issue 33, K1-K6): the order of the
checks, each part of the payment and refund checks, the ranges and tens of ledger entries,
number tokens and lone surrogates in the dice inputs, the version a session agreed on; and
(issue 37) an ending's members, ``hello`` with ``true``, ``2.0`` or refused, and comparisons R28
does not make. Each is the reference adapter with one kernel function swapped while it answers
one request (the adapter is one process answering one request at a time), or one method
changed. Listed in the package's ``MUTANTS``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from pointline.conformance.adapter import Adapter, has_twice
from pointline.conformance.errors import ProtocolError
from pointline.conformance.mutants.edges import _integral_floats, _skipping
from pointline.conformance.mutants.kit import Registry
from pointline.kernel import (
    BadState,
    Invariant,
    Table,
    canonical,
    invariants,
)
from pointline.kernel.actions import ActionKind
from pointline.kernel.ledger import (
    ContractChanged,
    Contracted,
    Entry,
    Refunded,
    Settled,
    ThrowSeen,
    Voided,
)
from pointline.kernel.rules import row_for
from pointline.kernel.values import NET_MULTIPLE, RETURNED_MULTIPLE, Line

__all__ = ["mutant"]

mutant = Registry()
"""The mutants of this module, registered as each is defined (``MUTANTS`` in the package)."""

Broken = tuple[Invariant, str] | None


@contextmanager
def _swapped(module: Any, name: str, value: Any) -> Iterator[None]:
    old = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, old)


def _loading_with(module: Any, name: str, value: Any) -> type[Adapter]:
    """An adapter whose ``load_state`` runs with ``module.name`` swapped for ``value``."""

    class Swapped(Adapter):
        def load_table(self, doc: Any) -> Table:
            with _swapped(module, name, value):
                return super().load_table(doc)

    return Swapped


# ---------------------------------------------------------------------- K1: the order of checks
def _table_tests(table: Table, reverse: bool = False) -> Broken:
    tests = invariants._TABLE_TESTS[::-1] if reverse else invariants._TABLE_TESTS
    for invariant, test in tests:
        words = test(table)
        if words is not None:
            return invariant, words
    return None


def _seat_checks(
    table: Table, by_check: bool = False, replay_first: bool = False, totals_first: bool = False
) -> Broken:
    checks = list(invariants._PER_SEAT)
    if replay_first:  # the balance replayed before the ledger is read
        replay = next(c for c in checks if c.invariant is Invariant.BALANCE_REPLAY)
        checks.remove(replay)
        checks.insert(0, replay)
    if totals_first:  # the ledger read before its throws are counted
        count = next(c for c in checks if c.invariant is Invariant.LEDGER_THROWS)
        checks.remove(count)
        checks.insert(checks.index(next(c for c in checks if c.seat_test is None)) + 1, count)
    ledger_check = next(c for c in checks if c.seat_test is None)
    checks = [c for c in checks if c.seat_test is not None or c is ledger_check]

    def one(check: invariants.Check, s: Any) -> Broken:
        if check.seat_test is not None:
            words = check.seat_test(table, s)
            return None if words is None else (check.invariant, words)
        contracts = (s.contracts.pass_amount, s.contracts.dont_pass_amount)
        return invariants.ledger_broken(s.ledger, contracts)

    pairs = (
        [(c, s) for c in checks for s in table.seats]
        if by_check
        else [(c, s) for s in table.seats for c in checks]
    )
    for check, s in pairs:
        broken = one(check, s)
        if broken is not None:
            return broken
    return None


def _order(
    reverse: bool = False,
    seats_first: bool = False,
    by_check: bool = False,
    replay: bool = False,
    totals: bool = False,
) -> Callable[[Table], Broken]:
    def broken(table: Table) -> Broken:
        parts: list[Callable[[], Broken]] = [
            lambda: _table_tests(table, reverse),
            lambda: _seat_checks(table, by_check, replay, totals),
        ]
        for part in parts[::-1] if seats_first else parts:
            found = part()
            if found is not None:
                return found
        return None

    return broken


for _name, _text, _variant in (
    ("load_table_checks_reversed", "the table's checks made last first", {"reverse": True}),
    ("load_seats_before_table", "the seats' checks made before the table's", {"seats_first": True}),
    (
        "load_check_by_check",
        "each seat check made on every seat before the next check (not seat by seat)",
        {"by_check": True},
    ),
    (
        "load_replay_before_ledger",
        "the balance replayed before the ledger is read",
        {"replay": True},
    ),
    (  # issue 37, K8
        "load_throw_total_before_ledger_throws",
        "the ledger read (throw totals first) before its throws are counted",
        {"totals": True},
    ),
):
    mutant(_name, f"load_state: {_text}")(
        _loading_with(canonical, "invariant_broken", _order(**_variant))
    )


_REFERENCE_LEDGER = invariants.ledger_broken


def _totals_first(ledger: tuple[Entry, ...] | list[Entry], contracts: Any = None) -> Broken:
    """Every throw's total checked over the whole ledger, then the rest: not one reading."""
    for entry in ledger:
        if isinstance(entry, ThrowSeen) and entry.total != entry.die1 + entry.die2:
            return Invariant.THROW_TOTAL, "total"
    return _REFERENCE_LEDGER(ledger, contracts)


mutant("load_ledger_read_per_check", "load_state checks every throw total before any payment")(
    _loading_with(invariants, "ledger_broken", _totals_first)
)


@mutant("load_duplicates_after_shape", "a member named twice is looked for after the shape")
class DuplicatesAfterShape(Adapter):
    def load_state(self, request: dict[str, Any]) -> dict[str, Any]:
        state = request.get("state")
        if has_twice(state):
            try:
                canonical.from_document(state)
            except BadState as error:
                if error.invariant is Invariant.SHAPE:
                    self.table = self.hasher = None
                    return self.bad_state(error)
        return super().load_state(request)


# ---------------------------------------------------------------------- K2, K6: the ledger
def _ledger(**off: bool) -> Callable[..., Broken]:
    """``invariants.ledger_broken`` with the parts named in ``off`` left out (or changed)."""

    def broken(ledger: tuple[Entry, ...] | list[Entry], contracts: Any = None) -> Broken:
        in_play = {Line.PASS: 0, Line.DONT_PASS: 0}
        last: ThrowSeen | None = None
        reduced: tuple[int, int] | None = None
        for entry in ledger:
            if isinstance(entry, ThrowSeen):
                if entry.total != entry.die1 + entry.die2:
                    return Invariant.THROW_TOTAL, "total"
                last = entry
            elif isinstance(entry, Contracted):
                in_play = {Line.PASS: entry.pass_amount, Line.DONT_PASS: entry.dont_pass_amount}
            elif isinstance(entry, ContractChanged):
                line_ok = off.get("refund_line") or entry.line is Line.DONT_PASS
                before_ok = off.get("refund_before") or entry.before == in_play[Line.DONT_PASS]
                if not (line_ok and before_ok):
                    return Invariant.REFUND, "not in play"
                lower = entry.after <= entry.before if off.get("refund_equal") else None
                if not (lower if lower is not None else 0 <= entry.after < entry.before):
                    return Invariant.REFUND, "comes down"
                in_play[Line.DONT_PASS] = entry.after
                reduced = (entry.throw, entry.before - entry.after)
                continue
            elif isinstance(entry, Refunded):
                if reduced is not None and (off.get("refund_throw") or reduced[0] == entry.throw):
                    expected: int | None = reduced[1]
                else:
                    expected = None if off.get("orphan_any") else 0
                if off.get("orphan_0_refused") and reduced is None:
                    return Invariant.REFUND, "orphan"
                if expected is not None and entry.amount != expected:
                    return Invariant.REFUND, "amount"
            elif isinstance(entry, Settled):
                problem = _payment(entry, in_play[entry.line], last, off)
                if problem:
                    return Invariant.PAYMENT, problem
                if not off.get("settled_stays"):
                    in_play[entry.line] = 0
            elif isinstance(entry, Voided):
                if entry.amount != in_play[entry.line] or not (entry.amount or off.get("void_0")):
                    return Invariant.CONTRACTS_IN_PLAY, "void"
                if not off.get("void_stays"):
                    in_play[entry.line] = 0
            if not off.get("reduction_stays"):
                reduced = None
        if contracts is not None and contracts != (in_play[Line.PASS], in_play[Line.DONT_PASS]):
            return Invariant.CONTRACTS_IN_PLAY, "contracts"
        return None

    return broken


def _payment(entry: Settled, contract: int, last: ThrowSeen | None, off: dict[str, bool]) -> str:
    if entry.contract != contract:
        return "contract"
    if not contract and not off.get("contract_0"):
        return "nothing in play"
    if last is None or (last.throw != entry.throw and not off.get("payment_throw")):
        return "throw"
    row = row_for(last.phase, ActionKind.THROW, last.total, last.point)
    outcome = row.pass_outcome if entry.line is Line.PASS else row.dont_pass_outcome
    if outcome is None or outcome is not entry.outcome:
        return "outcome"
    if entry.returned != contract * RETURNED_MULTIPLE[outcome]:
        return "returned"
    if entry.net != contract * NET_MULTIPLE[outcome] and not off.get("payment_net"):
        return "net"
    return ""


for _name, _text, _part in (
    (
        "load_payment_ignores_throw",
        "a settlement on another throw than the one just recorded",
        "payment_throw",
    ),
    ("load_payment_ignores_net", "a settlement whose net is wrong (returned right)", "payment_net"),
    (
        "load_settled_stays_in_play",
        "a line settled twice (the first leaves it in play)",
        "settled_stays",
    ),
    (
        "load_void_stays_in_play",
        "a settlement after a void (the void leaves it in play)",
        "void_stays",
    ),
    ("load_settles_nothing", "a settled line with a contract of 0", "contract_0"),
    ("load_voids_nothing", "a void of 0 with nothing in play (issue 37, K10)", "void_0"),
    ("load_refund_ignores_line", "a reduction of Pass", "refund_line"),
    ("load_refund_ignores_before", "a reduction from another amount than in play", "refund_before"),
    ("load_refund_allows_no_change", "a reduction that lowers nothing", "refund_equal"),
    ("load_refund_ignores_throw", "a refund on another throw than its reduction", "refund_throw"),
    ("load_refund_remembers", "a refund after other entries than its reduction", "reduction_stays"),
    ("load_orphan_refund_any", "a refund of any amount with no reduction", "orphan_any"),
    (
        "load_orphan_refund_0_refused",
        "(refuses) a refund of 0 with no reduction",
        "orphan_0_refused",
    ),
):
    mutant(_name, f"load_state accepts {_text}")(
        _loading_with(invariants, "ledger_broken", _ledger(**{_part: True}))
    )
mutant("load_accepts_contracts_in_play", "load_state accepts contracts not in play")(
    type(
        "Load_in_play",
        (Adapter,),
        {"load_table": staticmethod(_skipping(Invariant.CONTRACTS_IN_PLAY))},
    )
)


# ---------------------------------------------------------------------- K3, K5: entry ranges
def _schema(change: Callable[[str, Any], Any]) -> dict[str, Any]:
    """The reader's entry schema with each member's reading changed by ``change``."""
    return {
        kind: (cls, tuple((key, change(key, read)) for key, read in fields))
        for kind, (cls, fields) in canonical._ENTRY_BY_KIND.items()
    }


for _name, _text, _change in (
    (
        "load_entry_ranges_unchecked",
        "an entry's hand and throw of any size",
        lambda key, read: (0, 1 << 31) if key in ("hand", "throw") else read,
    ),
    (
        "load_ledger_tens_unchecked",
        "ledger amounts that are not multiples of 10",
        lambda key, read: read[:2] if isinstance(read, tuple) and len(read) == 3 else read,
    ),
    (
        "load_total_range_unchecked",
        "a throw entry's total outside 2..12",
        lambda key, read: (0, 1 << 31) if key == "total" else read,
    ),
):
    mutant(_name, f"load_state accepts {_text}")(
        _loading_with(canonical, "_ENTRY_BY_KIND", _schema(_change))
    )
mutant("load_throw_phase_unchecked", "load_state accepts a throw entry in any phase, any point")(
    _loading_with(canonical, "_thrown_where", lambda entry: None)
)


# ---------------------------------------------------------------------- K4, K5: inputs
@mutant("dice_integral_floats", "derive_dice and commitment take 1.0 or 1e0 for 1")
class DiceFloats(Adapter):
    def derive_dice(self, request: dict[str, Any]) -> dict[str, Any]:
        return super().derive_dice(_integral_floats(request))

    def commitment(self, request: dict[str, Any]) -> dict[str, Any]:
        return super().commitment(_integral_floats(request))


def _as_fffd(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)


@mutant("new_table_surrogate_replaced", "new_table takes a lone surrogate in the id as U+FFFD")
class NewTableSurrogate(Adapter):
    def make_table(self, seats: Any, table_id: Any) -> Table:
        return super().make_table(seats, _as_fffd(table_id))


@mutant("dice_surrogate_replaced", "derive_dice and commitment hash a lone surrogate as U+FFFD")
class DiceSurrogate(Adapter):
    def derive_dice(self, request: dict[str, Any]) -> dict[str, Any]:
        return super().derive_dice(dict(request, table_id=_as_fffd(request.get("table_id"))))

    def commitment(self, request: dict[str, Any]) -> dict[str, Any]:
        return super().commitment(dict(request, table_id=_as_fffd(request.get("table_id"))))


@mutant("hello_answers_1", "hello answers protocol 1 whatever it is asked (and speaks 2)")
class HelloAnswers1(Adapter):
    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        return dict(super().hello(request), protocol=1)


@mutant("load_state_in_protocol_1", "a session that agreed protocol 1 still answers load_state")
class LoadStateInProtocol1(Adapter):
    def __init__(self, name: str = "pointline-reference") -> None:
        super().__init__(name)
        self.since = {}


# ---------------------------------------------------------------------- issue 37: K7, K9
_REFERENCE_OPT_INT = canonical._opt_int


def _missing_is_null(doc: dict[str, Any], key: str) -> int | None:
    """``canonical._opt_int`` reading a missing ``seat`` (only an ending has one) as null."""
    return None if key == "seat" and key not in doc else _REFERENCE_OPT_INT(doc, key)


mutant("load_missing_seat_is_null", "load_state reads an ending without seat as seat null")(
    _loading_with(canonical, "_opt_int", _missing_is_null)
)


@mutant("hello_takes_true", "hello takes protocol true for 1")
class HelloTakesTrue(Adapter):
    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("protocol") is True:
            return dict(super().hello(dict(request, protocol=1)), protocol=True)
        return super().hello(request)


@mutant("hello_takes_integral_floats", "hello takes protocol 2.0 for 2 (and 1.0 for 1)")
class HelloTakesFloats(Adapter):
    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        version = request.get("protocol")
        if isinstance(version, float) and version.is_integer():
            return dict(super().hello(dict(request, protocol=int(version))), protocol=version)
        return super().hello(request)


@mutant("refused_hello_drops_the_table", "a refused hello drops the table")
class RefusedHelloDropsTable(Adapter):
    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            return super().hello(request)
        except ProtocolError:
            self.table = self.hasher = None
            raise


@mutant("refused_hello_sets_the_version", "a refused hello still sets the version it names")
class RefusedHelloSetsVersion(Adapter):
    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        version = request.get("protocol")
        if isinstance(version, int | float):
            self.protocol = int(version)
        return super().hello(request)


# ---------------------------------------------------------------------- issue 37: not compared
class _Stricter(Adapter):
    """The reference with one more comparison of a loaded ledger, which R28 does not make
    (PROTOCOL.md, "What load_state does not compare"); a document it fails is refused naming
    ``ledger_throws`` (any refusal of a document the suite loads kills it)."""

    def extra(self, table: Table) -> str | None:
        return None

    def load_table(self, doc: Any) -> Table:
        table = super().load_table(doc)
        words = self.extra(table)
        if words is not None:
            raise BadState(Invariant.LEDGER_THROWS, words)
        return table


@mutant("load_checks_entry_numbers", "load_state refuses ledger entries numbered out of order")
class ChecksEntryNumbers(_Stricter):
    def extra(self, table: Table) -> str | None:
        for s in table.seats:
            throws = [e for e in s.ledger if isinstance(e, ThrowSeen)]
            if [e.throw for e in throws] != list(range(1, len(throws) + 1)):
                return "throws out of order"
            hands = [e.hand for e in s.ledger]
            if hands != sorted(hands):
                return "hands out of order"
        return None


@mutant("load_checks_void_reason", "load_state refuses a void whose reason is not the ending's")
class ChecksVoidReason(_Stricter):
    def extra(self, table: Table) -> str | None:
        reason = None if table.ending is None else table.ending.reason
        for s in table.seats:
            if any(isinstance(e, Voided) and e.reason is not reason for e in s.ledger):
                return "a void's reason is not the ending's"
        return None


@mutant("load_checks_hands_resolved", "load_state refuses hands_resolved other than the ledgers'")
class ChecksHandsResolved(_Stricter):
    def extra(self, table: Table) -> str | None:
        for s in table.seats:
            hands = {e.hand for e in s.ledger if isinstance(e, Settled)}
            last = max(hands, default=0)
            if table.hands_resolved < last:
                return "fewer hands resolved than the ledger settles"
        return None
