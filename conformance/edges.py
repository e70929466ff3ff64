"""Cases at the edges of the protocol, added to the topics they belong to (generator only).

Guard order on every row with two or more guards, ``new_table`` with several bad members and
what follows a refused one, ``reply`` values, an Abort without a ``seat`` member, ``hello``
refused mid-session, number tokens sent as written and integers beyond 2^53, table ids that JSON
encoders escape differently, dice vectors that read each rejection boundary byte, commitments
with empty choices.
"""

from __future__ import annotations

import hashlib
from typing import Any

from pointline.conformance.casebook import Case, DiceCase
from pointline.kernel import (
    TRANSITIONS,
    Allocate,
    Confirm,
    Line,
    ReduceDontPass,
    RemoveDontPass,
    Reset,
    Roll,
    Throw,
    commitment,
    dice_seed,
)

__all__ = [
    "BAD_HELLOS",
    "BAD_REPLIES",
    "BOUNDARY_BYTES",
    "DICE_TOKENS",
    "DUPLICATE_ACTIONS",
    "DUPLICATE_REQUESTS",
    "ESCAPED_IDS",
    "LONE_SURROGATES",
    "NUMBER_TOKENS",
    "D",
    "P",
    "abort_without_seat",
    "dice_boundaries",
    "dice_tokens",
    "duplicate_members",
    "empty_choices",
    "guard_order",
    "hellos",
    "new_table_members",
    "numbers",
    "replies",
]

P, D = Line.PASS, Line.DONT_PASS


# ---------------------------------------------------------------------- 04_rows: guard order
def _row_number(phase: str, kind: str) -> int:
    return next(
        i
        for i, row in enumerate(TRANSITIONS, 1)
        if row.phase.value == phase and row.kind.value == kind
    )


def guard_order() -> list[Case]:
    """For every row with two or more guards, states where several fail: the first one in the
    row's order names the error (RULES.md "How an action is decided", step 3)."""
    multi = {i for i, row in enumerate(TRANSITIONS, 1) if len(row.guards) >= 2}
    cases: list[Case] = []

    def case(name: str, phase: str, kind: str, description: str) -> Case:
        n = _row_number(phase, kind)
        c = Case(f"rows.guard_order.T{n}.{name}", f"T{n}: {description}", ("R3", "R5", "R14"))
        c.row_number = n  # type: ignore[attr-defined]
        cases.append(c)
        return c

    # T1 come-out Allocate: seat_sealed, hand_limit, over_balance.
    c = case("sealed_and_over_limit", "come_out", "allocate", "sealed and past 100: seat_sealed")
    c.seal(0, 100, 0)
    c.do(Allocate(0, P, 10), full=True)
    c = case(
        "sealed_over_limit_and_balance",
        "come_out",
        "allocate",
        "sealed, past 100 and past the balance: seat_sealed",
    )
    c.seal(0, 0, 0)
    c.do(Allocate(0, D, 1010), full=True)
    c = case(
        "over_limit_and_balance",
        "come_out",
        "allocate",
        "past 100 and past the balance: hand_limit",
    )
    c.do(Allocate(0, P, 1010), full=True)
    c.do(Allocate(0, D, 2000), full=True)
    # T2 come-out Reset: seat_sealed, nothing_to_reset.
    c = case("sealed_nothing_to_reset", "come_out", "reset", "sealed, draft as sealed")
    c.seal(0, 30, 20)
    c.do(Reset(0), full=True)
    c = case("sat_out_nothing_to_reset", "come_out", "reset", "sat out, empty draft")
    c.seal(0, 0, 0)
    c.do(Reset(0), full=True)
    # T13 point Reset: seat_sealed, nothing_to_reset.
    c = case("rolled_nothing_to_reset", "point", "reset", "rolled, draft as sealed")
    c.seal(0, 30, 20)
    c.throw(6)
    c.ok(Roll(0))
    c.do(Reset(0), full=True)
    # T15, T16 point reduce/remove: seat_sealed, nothing_to_reduce.
    for kind, action in (
        ("reduce_dont_pass", ReduceDontPass),
        ("remove_dont_pass", RemoveDontPass),
    ):
        c = case("pass_only_rolled", "point", kind, "rolled with no Don't Pass: seat_sealed")
        c.seal(0, 50, 0)
        c.throw(8)
        c.ok(Roll(0))
        c.do(action(0), full=True)
        c = case("removed_and_rolled", "point", kind, "Don't Pass removed and rolled")
        c.seal(0, 0, 40)
        c.throw(9)
        c.ok(RemoveDontPass(0))
        c.ok(Roll(0))
        c.throw(6)
        c.ok(Roll(0))
        c.do(action(0), full=True)
    covered = {getattr(c, "row_number", 0) for c in cases}
    assert covered == multi, (covered, multi)
    return cases


# ---------------------------------------------------------------------- 05_malformed
def new_table_members() -> list[Case]:
    """Several bad members of new_table: reply first (a protocol error; the old table stays),
    then seats (bad_seat), then table_id (bad_action). After a refusal for seats or table_id
    there is no table."""
    cases = []
    for seats, table_id, expect in (
        (0, 5, "bad_seat"),
        ("2", None, "bad_seat"),
        (9, ["t"], "bad_seat"),
        (True, 5, "bad_seat"),
        (2, 5, "bad_action"),
    ):
        c = Case(
            f"malformed.new_table.several.seats_{seats!r}.table_id_{table_id!r}",
            f"seats {seats!r} and table id {table_id!r}: {expect} wins; then there is no table",
            ("R2",),
            seats=seats,
            table_id=table_id,
        )
        c.do(Confirm(0))
        c.request({"op": "state"})
        c.request({"op": "new_table", "seats": 1, "table_id": "t"})
        c.ok(Confirm(0))
        cases.append(c)
    c = Case(
        "malformed.new_table.several.reply_first",
        "a bad reply, seats and table id: the reply is refused first and the old table stays",
        ("R2",),
        seats=2,
        table_id="old",
    )
    c.ok(Allocate(0, P, 30))
    c.request({"op": "new_table", "seats": 0, "table_id": 5, "reply": "full"})
    c.do(Confirm(0), full=True)
    cases.append(c)
    c = Case(
        "malformed.new_table.refused_drops_the_old_table",
        "a refused new_table leaves no table, not the one before",
        ("R2",),
        seats=2,
    )
    c.ok(Allocate(0, P, 30))
    c.request({"op": "new_table", "seats": 1, "table_id": 7})
    for action in (Confirm(0), Throw(3, 4)):
        c.do(action)
    c.request({"op": "state"})
    c.request({"op": "new_table", "seats": 2, "table_id": "t"})
    c.do(Confirm(1), full=True)
    cases.append(c)
    for name, written in LONE_SURROGATES:
        c = Case(
            f"malformed.new_table.table_id_{name}",
            f"a table id holding a lone surrogate ({name}) is not Unicode text: bad_action,"
            " then there is no table",
            ("R2",),
        )
        c.raw('{"op":"new_table","seats":1,"table_id":"' + written + '"}')
        c.do(Confirm(0))
        cases.append(c)
    return cases


LONE_SURROGATES: tuple[tuple[str, str], ...] = (
    ("ud800", "\\ud800"),
    ("udc00_after_text", "a\\udc00"),
    ("reversed_pair", "\\udc00\\ud800"),
)
"""Table ids as written in a request line: a lone high or low surrogate, a pair in the wrong
order (JSON escapes that name no character)."""


BAD_REPLIES: tuple[Any, ...] = ("everything", "HASH", "", 7, None, True, ["hash"], {"r": 1})


def replies() -> list[Case]:
    """``reply`` values: a bad one is a protocol error that changes nothing; ``none`` answers
    neither hash nor state."""
    cases = []
    for reply in BAD_REPLIES:
        c = Case(
            f"malformed.reply.{reply!r}",
            f"reply {reply!r} is refused (bad_request) before the action is applied",
            ("R4",),
        )
        c.request(
            {
                "op": "apply",
                "action": {"kind": "allocate", "seat": 0, "line": "pass", "amount": 10},
                "reply": reply,
            }
        )
        c.do(Allocate(0, P, 100), full=True)
        c.request({"op": "new_table", "seats": 3, "table_id": "x", "reply": reply})
        c.ok(Confirm(0))
        cases.append(c)
    c = Case("malformed.reply.none", "reply none answers neither hash nor state", ("R4", "R5"))
    c.request({"op": "new_table", "seats": 1, "table_id": "n", "reply": "none"})
    c.request({"op": "apply", "action": {"kind": "confirm", "seat": 0}, "reply": "none"})
    c.request({"op": "apply", "action": {"kind": "confirm", "seat": 0}, "reply": "none"})
    c.request({"op": "apply", "action": {"kind": "roll", "seat": 0}, "reply": "state"})
    c.request({"op": "apply", "action": {"kind": "throw", "die1": 3, "die2": 4}, "reply": "hash"})
    cases.append(c)
    return cases


def abort_without_seat() -> list[Case]:
    """An Abort with no ``seat`` member names no seat (as ``"seat": null``)."""
    cases = []
    for name, prep in (
        ("come_out", lambda c: c.seal(0, 30, 20)),
        ("point", lambda c: (c.seal_all([(30, 20), (0, 50)]), c.throw(5))),
        ("complete", lambda c: [c.seal_all([(10, 0), (0, 0)]) or c.throw(7) for _ in range(5)]),
    ):
        c = Case(
            f"malformed.abort_without_seat.{name}",
            f"an abort with no seat member ({name}): accepted when live, no seat named",
            ("R23",),
            seats=2,
        )
        prep(c)
        c.do({"kind": "abort", "reason": "departure"}, full=True)
        c.do({"kind": "abort", "reason": "deadline"}, full=True)
        cases.append(c)
    return cases


# ---------------------------------------------------------------------- 05_malformed: hello
BAD_HELLOS: tuple[tuple[str, str], ...] = (
    ("true", "true"),
    ("2.0", "2.0"),
    ("1.0", "1.0"),
    ("string_2", '"2"'),
    ("3", "3"),
    ("0", "0"),
    ("null", "null"),
)
"""``hello`` with a ``protocol`` no implementation speaks, as written (issue 37): JSON ``true``
and ``2.0`` are not the integers 1 and 2."""


def hellos() -> list[Case]:
    """A ``hello`` refused in the middle of a session changes nothing (issue 37, K9): the
    request after it is answered from the same table."""
    cases = []
    for name, token in BAD_HELLOS:
        c = Case(
            f"malformed.hello.protocol_{name}",
            f"hello with protocol {token} is refused (bad_request), and the table stays as it was",
            (),
            seats=2,
        )
        c.do(Allocate(0, P, 30))
        c.raw('{"op":"hello","protocol":' + token + "}")
        c.do(Confirm(0), full=True)
        cases.append(c)
    c = Case(
        "malformed.hello.protocol_missing",
        "hello without a protocol is refused (bad_request), and the table stays as it was",
        (),
        seats=2,
    )
    c.do(Allocate(1, D, 20))
    c.request({"op": "hello"})
    c.do(Confirm(1), full=True)
    cases.append(c)
    return cases


def _raw_action(action: str) -> str:
    return '{"op":"apply","action":' + action + "}"


NUMBER_TOKENS: list[tuple[str, str]] = [
    # Not integers, though their values are: the field's malformed code.
    ("amount_10.0", '{"kind":"allocate","seat":0,"line":"pass","amount":10.0}'),
    ("amount_1e1", '{"kind":"allocate","seat":0,"line":"pass","amount":1e1}'),
    ("amount_1E1", '{"kind":"allocate","seat":0,"line":"dont_pass","amount":1E1}'),
    ("amount_1.0e1", '{"kind":"allocate","seat":0,"line":"pass","amount":1.0e1}'),
    ("amount_100.0", '{"kind":"allocate","seat":0,"line":"pass","amount":100.0}'),
    ("amount_minus_0", '{"kind":"allocate","seat":0,"line":"pass","amount":-0}'),
    ("amount_minus_0.0", '{"kind":"allocate","seat":0,"line":"pass","amount":-0.0}'),
    ("die_3.0", '{"kind":"throw","die1":3.0,"die2":4}'),
    ("die_4e0", '{"kind":"throw","die1":3,"die2":4e0}'),
    ("seat_0.0", '{"kind":"confirm","seat":0.0}'),
    ("seat_1e0", '{"kind":"confirm","seat":1e0}'),
    ("abort_seat_0.0", '{"kind":"abort","reason":"departure","seat":0.0}'),
    # -0 is the integer 0.
    ("seat_minus_0", '{"kind":"confirm","seat":-0}'),
    ("abort_seat_minus_0", '{"kind":"abort","reason":"departure","seat":-0}'),
    # Integers beyond 2^53 are exact: a port that reads them as doubles or wraps them at 2^64
    # decides otherwise.
    ("amount_2^53+1001", '{"kind":"allocate","seat":0,"line":"pass","amount":9007199254741001}'),
    ("amount_10*2^53", '{"kind":"allocate","seat":0,"line":"pass","amount":90071992547409920}'),
    (
        "amount_2^64+10",
        '{"kind":"allocate","seat":0,"line":"pass","amount":18446744073709551626}',
    ),
    (
        "amount_5*2^64+10",
        '{"kind":"allocate","seat":0,"line":"pass","amount":92233720368547758090}',
    ),
    ("seat_2^64", '{"kind":"confirm","seat":18446744073709551616}'),
    ("seat_2^64+1", '{"kind":"confirm","seat":18446744073709551617}'),
    ("die_2^64+3", '{"kind":"throw","die1":18446744073709551619,"die2":3}'),
    ("die_2^53+2", '{"kind":"throw","die1":3,"die2":9007199254740994}'),
]


def _as_written(
    case_id: str,
    description: str,
    rules: tuple[str, ...],
    text: str,
    seats: int = 1,
    sealed: bool = False,
) -> Case:
    """A case that sends one request line as written (every seat sealed first if ``sealed``)
    and then asks for the whole state: a refused request must have changed nothing."""
    c = Case(case_id, description, rules, seats=seats)
    if sealed:
        c.seal_all([(10, 0)] * seats)
    c.raw(text)
    c.request({"op": "state"})
    return c


def numbers() -> list[Case]:
    """Number tokens sent exactly as written (``10.0``, ``1e1``, ``-0``) and big integers."""
    cases = [
        _as_written(
            f"malformed.numbers.{name}",
            f"the token {name.split('_', 1)[1]} sent as written",
            ("R3", "R8"),
            _raw_action(action),
            seats=3,
            sealed='"throw"' in action,
        )
        for name, action in NUMBER_TOKENS
    ]
    for name, text in (
        ("seats_1.0", '{"op":"new_table","seats":1.0,"table_id":"t"}'),
        ("seats_2e0", '{"op":"new_table","seats":2e0,"table_id":"t"}'),
        ("seats_minus_0", '{"op":"new_table","seats":-0,"table_id":"t"}'),
        ("seats_2^64+1", '{"op":"new_table","seats":18446744073709551617,"table_id":"t"}'),
    ):
        c = Case(
            f"malformed.numbers.new_table.{name}",
            f"new_table with {name} sent as written",
            ("R2",),
        )
        c.raw(text)
        c.do(Confirm(0))
        cases.append(c)
    return cases


DUPLICATE_ACTIONS: list[tuple[str, str]] = [
    # A member named twice inside the action: bad_action, whichever value comes first or last.
    ("seat", '{"kind":"confirm","seat":0,"seat":1}'),
    ("kind", '{"kind":"roll","kind":"confirm","seat":0}'),
    ("amount", '{"kind":"allocate","seat":0,"line":"pass","amount":15,"amount":10}'),
    ("line", '{"kind":"allocate","seat":0,"line":"pass","line":"pass","amount":10}'),
]
DUPLICATE_REQUESTS: list[tuple[str, str]] = [
    # A member of the request itself named twice (or twice in an object outside action and
    # state): not a request, bad_request, and nothing is applied or replaced.
    ("reply", '{"op":"apply","action":{"kind":"confirm","seat":0},"reply":"all","reply":"hash"}'),
    ("op", '{"op":"state","op":"apply","action":{"kind":"confirm","seat":0}}'),
    (
        "action",
        '{"op":"apply","action":{"kind":"roll","seat":0},"action":{"kind":"confirm","seat":0}}',
    ),
    ("new_table.seats", '{"op":"new_table","seats":9,"seats":2,"table_id":"t2"}'),
    ("new_table.table_id", '{"op":"new_table","seats":2,"table_id":"a","table_id":"b"}'),
    ("unknown_member", '{"op":"apply","action":{"kind":"confirm","seat":0},"x":{"a":1,"a":2}}'),
]


def duplicate_members() -> list[Case]:
    """Requests that name a member twice (PROTOCOL.md, "Duplicate member names")."""
    actions = [
        _as_written(
            f"malformed.duplicate.action.{name}",
            f"an action naming {name} twice is bad_action, whichever value would win",
            ("R3",),
            _raw_action(action),
            seats=2,
        )
        for name, action in DUPLICATE_ACTIONS
    ]
    requests = [
        _as_written(
            f"malformed.duplicate.request.{name}",
            f"a request naming {name} twice is not a request: bad_request, nothing changes",
            ("R5",),
            text,
        )
        for name, text in DUPLICATE_REQUESTS
    ]
    return actions + requests


# ---------------------------------------------------------------------- 03_canonical
ESCAPED_IDS = (
    "/",
    "a/b</c>",
    "\x7f",
    "\u2028\u2029",
    "𝄞 clef",
    "🎲🎲",
    "\x1f\x7f/\u2028😀",
    "\ufeffbom",
    "\x00nul",
)
"""Table ids that JSON encoders write differently: ``/`` escaped or not, DEL, U+2028/U+2029,
astral characters (one code point, or a surrogate-pair escape), a BOM, NUL."""


# ---------------------------------------------------------------------- 01_dice
BOUNDARY_BYTES = (0, 5, 6, 245, 246, 251, 252, 253, 254, 255)


def dice_boundaries() -> list[DiceCase]:
    """Vectors whose first or second byte read is each byte at a face or rejection boundary:
    251 is the last accepted (face 6), 252 the first rejected, 255 the last."""
    wanted = {(pos, b) for pos in (0, 1) for b in BOUNDARY_BYTES}
    found: dict[tuple[int, int], bytes] = {}
    i = 0
    while len(found) < len(wanted):
        nonce = hashlib.sha256(f"boundary/{i}".encode()).digest()
        i += 1
        seed = dice_seed("t", 1, [nonce])
        block = hashlib.sha256(seed + b"\x00\x00\x00\x00").digest()
        for pos in (0, 1):
            key = (pos, block[pos])
            if key in wanted and key not in found:
                found[key] = nonce
    cases = []
    for (pos, value), nonce in sorted(found.items()):
        c = DiceCase(
            f"dice.boundary.byte{pos}_{value}",
            f"byte {pos} of block 0 is {value} ({'rejected' if value >= 252 else 'a face'})",
            ("R27",),
        )
        c.request(
            {
                "op": "derive_dice",
                "table_id": "t",
                "throw_index": 1,
                "nonces": [nonce.hex()],
                "version": 1,
            }
        )
        cases.append(c)
    return cases


# ---------------------------------------------------------------------- 02_commitment
DICE_TOKENS: tuple[tuple[str, str, str], ...] = (
    # op, member, the token as written: not an integer though its value is whole (bad_input)
    ("derive_dice", "throw_index", "1.0"),
    ("derive_dice", "throw_index", "1e0"),
    ("derive_dice", "version", "1.0"),
    ("derive_dice", "version", "0.0"),
    ("commitment", "throw_index", "1e0"),
    ("commitment", "seat", "0.0"),
    ("commitment", "version", "1.0"),
)


def _dice_text(op: str, member: str | None = None, token: str = "", table_id: str = "t") -> str:
    nonce = hashlib.sha256(b"tokens").hexdigest()
    members = {"table_id": f'"{table_id}"', "throw_index": "1", "version": "1"}
    if op == "derive_dice":
        members["nonces"] = f'["{nonce}"]'
    else:
        members.update(seat="0", nonce=f'"{nonce}"', choices='"7b7d"')
    if member is not None:
        members[member] = token
    return '{"op":"' + op + '",' + ",".join(f'"{k}":{v}' for k, v in members.items()) + "}"


def dice_tokens(op: str) -> list[DiceCase]:
    """``derive_dice`` or ``commitment`` with a number token sent as written (``1.0``, ``0.0``,
    ``1e0``: not integers, ``bad_input``) and with a table id holding a lone surrogate (not
    Unicode text: ``bad_input``, never hashed as U+FFFD; a reveal with it never verifies)."""
    cases = []
    for name, member, token in DICE_TOKENS:
        if name != op:
            continue
        c = DiceCase(
            f"{'dice' if op == 'derive_dice' else 'commitment'}.bad_input.token.{member}_{token}",
            f"{op} with {member} written {token}: not an integer, refused",
            ("R27" if op == "derive_dice" else "R26",),
        )
        c.raw(_dice_text(op, member, token))
        c.raw(_dice_text(op))  # the same written as an integer is taken
        cases.append(c)
    for name, table_id in LONE_SURROGATES:
        c = DiceCase(
            f"{'dice' if op == 'derive_dice' else 'commitment'}.bad_input.table_id_{name}",
            f"{op} with a table id holding a lone surrogate ({name}): refused",
            ("R27" if op == "derive_dice" else "R26",),
        )
        c.raw(_dice_text(op, table_id=table_id))
        if op == "commitment":
            text = _dice_text(op, table_id=table_id)
            digest = commitment("t", 1, 0, hashlib.sha256(b"tokens").digest(), b"{}")
            c.raw(
                text.replace('"op":"commitment"', '"op":"verify_commitment"')[:-1]
                + f',"commitment":"{digest.hex()}"}}'
            )
        cases.append(c)
    return cases


def empty_choices() -> list[DiceCase]:
    """Choices of zero bytes are choices like any other: the length prefix is 0."""
    nonce = hashlib.sha256(b"empty").digest()
    cases = []
    for table_id, index, seat in (("t", 1, 0), ("", 128, 255), ("room", 0xFFFFFFFF, 3)):
        digest = commitment(table_id, index, seat, nonce, b"")
        base = {
            "table_id": table_id,
            "throw_index": index,
            "seat": seat,
            "nonce": nonce.hex(),
            "choices": "",
            "version": 1,
        }
        c = DiceCase(
            f"commitment.empty_choices.{seat}",
            f"empty choices commit and verify (table {table_id!r}, throw {index}, seat {seat})",
            ("R26",),
        )
        c.request({"op": "commitment", **base})
        c.request({"op": "verify_commitment", **base, "commitment": digest.hex()})
        c.request({"op": "verify_commitment", **base, "choices": "00", "commitment": digest.hex()})
        c.request(
            {
                "op": "verify_commitment",
                **base,
                "choices": "",
                "commitment": commitment(table_id, index, seat, nonce, b"\x00").hex(),
            }
        )
        cases.append(c)
    return cases
