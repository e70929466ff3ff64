"""Kernel throughput: throws per second over whole sessions back to back.

(a) one seat with 10 on each line every hand; (b) eight seats with mixed contracts.
Dice come from a fixed pseudo-random sequence made before timing, so the kernel is timed alone.
A bare loop drawing the same dice without any state is printed as the ceiling for comparison.
"""

from __future__ import annotations

import random
import time

from kernel import Allocate, Confirm, Line, Phase, ReduceDontPass, Roll, Table, Throw


def _dice(n: int, seed: int) -> list[Throw]:
    rng = random.Random(seed)
    pool = [Throw(a, b) for a in range(1, 7) for b in range(1, 7)]
    return [pool[rng.randrange(36)] for _ in range(n)]


def one_seat(dice: list[Throw]) -> int:
    throws = 0
    i = 0
    n = len(dice)
    a_pass, a_dp, confirm, roll = (
        Allocate(0, Line.PASS),
        Allocate(0, Line.DONT_PASS),
        Confirm(0),
        Roll(0),
    )
    while i < n:
        table = Table(1)
        push = table.push
        while not table.is_over and i < n:
            if table.phase is Phase.COME_OUT:
                push(a_pass)
                push(a_dp)
                push(confirm)
            else:
                push(roll)
            push(dice[i])
            i += 1
            throws += 1
    return throws


def eight_seats(dice: list[Throw]) -> int:
    throws = 0
    i = 0
    n = len(dice)
    while i < n:
        table = Table(8, "bench")
        push = table.push
        while not table.is_over and i < n:
            if table.phase is Phase.COME_OUT:
                for seat in range(8):
                    for _ in range(seat % 4):
                        push(Allocate(seat, Line.PASS if seat % 2 else Line.DONT_PASS))
                    if seat % 3 == 0:
                        push(Allocate(seat, Line.DONT_PASS, 20))
                    push(Confirm(seat))
            else:
                for seat in range(8):
                    if (
                        seat % 3 == 0
                        and table.contracts(seat).dont_pass_amount
                        and i % 2
                    ):
                        push(ReduceDontPass(seat))
                    push(Roll(seat))
            push(dice[i])
            i += 1
            throws += 1
    return throws


def bare_loop(dice: list[Throw]) -> int:
    throws = 0
    for throw in dice:
        if throw.die1 + throw.die2 == 7:
            throws += 1
        else:
            throws += 1
    return throws


def measure(name: str, fn: object, dice: list[Throw]) -> float:
    assert callable(fn)
    best = 0.0
    for _ in range(3):
        start = time.perf_counter()
        throws = fn(dice)
        rate = throws / (time.perf_counter() - start)
        best = max(best, rate)
    print(f"{name:<40} {best:>12,.0f} throws/s")
    return best


def main() -> None:
    dice = _dice(300_000, 1)
    a = measure("(a) one seat, 10 on each line", one_seat, dice)
    b = measure("(b) eight seats, mixed contracts", eight_seats, _dice(60_000, 2))
    bare = measure("bare loop over the same dice, no state", bare_loop, dice)
    print(f"(a) against the 250,000 throws/s goal: {a / 250_000:.2f}x")
    print(f"(a) as a share of the bare loop: {a / bare:.1%}; (b)/(a): {b / a:.2f}")


if __name__ == "__main__":
    main()
