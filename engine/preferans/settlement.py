"""The settlement (spec section 12): every seat's balance in whists, at any moment.

Exact values are Fractions (thirds with 3 players, quarters with 4); the
``settlement_rounding`` option decides what is shown.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from engine.preferans.rules import Rules

# divisible_by_n: whists each other player gets (or pays) for the 1-point mountain move (12.2)
DIVISIBLE_COMPENSATION = 3


def settle(rules: Rules, pool: Sequence[int], mountain: Sequence[int],
           whists: Sequence[Sequence[int]]) -> list[Fraction]:
    """Exact balances, summing to zero: missing pool turned into mountain (the
    early stop), mountain against the mean at 10 whists a point, whists netted."""
    n = len(pool)
    mountains = [m + rules.k * (rules.pool - p) for p, m in zip(pool, mountain, strict=True)]
    net = [sum(whists[x][y] - whists[y][x] for y in range(n)) for x in range(n)]
    if rules.settlement_rounding == "divisible_by_n":
        _make_divisible(mountains, net)
    mean = Fraction(sum(mountains), n)
    return [net[x] + 10 * (mean - mountains[x]) for x in range(n)]


def _make_divisible(mountains: list[int], net: list[int]) -> None:
    """PrefCount's option: seat 0's mountain moves by one so the sum divides by N,
    and 3 whists per other player compensate the move."""
    n = len(mountains)
    remainder = sum(mountains) % n
    if remainder == 1:
        step = -1  # seat 0 gains: every other player writes 3 on him
    elif remainder == n - 1:
        step = 1  # seat 0 loses: he writes 3 on every other player
    else:
        return
    mountains[0] += step
    for y in range(1, n):
        net[y] -= step * DIVISIBLE_COMPENSATION
        net[0] += step * DIVISIBLE_COMPENSATION


def shown_balances(rules: Rules, pool: Sequence[int], mountain: Sequence[int],
                   whists: Sequence[Sequence[int]]) -> list[int | float]:
    """The balances as reported: ``settlement_rounding`` applied, as JSON numbers."""
    return [as_number(b) for b in rounded(rules, settle(rules, pool, mountain, whists))]


def rounded(rules: Rules, balances: Sequence[Fraction]) -> list[Fraction]:
    """``integer``: largest remainder (ties to the lower seat), still summing to zero."""
    if rules.settlement_rounding != "integer":
        return list(balances)
    floors = [math.floor(b) for b in balances]
    order = sorted(range(len(balances)), key=lambda x: (floors[x] - balances[x], x))
    for x in order[: -sum(floors)]:
        floors[x] += 1
    return [Fraction(f) for f in floors]


def as_number(value: Fraction) -> int | float:
    """JSON form: a whole value as an int, any other rounded to two decimals."""
    if value.denominator == 1:
        return int(value)
    return float(round(value, 2))
