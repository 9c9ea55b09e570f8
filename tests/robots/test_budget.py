"""The robots' budget: at most so many deals, none that would end past the time on the
budget's clock, and always the fewest it looks at."""

from __future__ import annotations

import itertools
import random

from engine.robot_budget import FEWEST, Budget


def _count(budget: Budget, hidden: bool = True) -> int:
    return sum(1 for _ in budget.deals(lambda rng: rng.random(), random.Random(0), hidden))


def test_the_samples_bound_the_deals_without_a_clock() -> None:
    assert _count(Budget(samples=7, seconds=None)) == 7
    assert _count(Budget(samples=7, seconds=None), hidden=False) == 1


def test_the_budget_reads_its_own_clock() -> None:
    """A clock one second further on at each reading: two deals of a second each, then
    a third would end past 2.5 s."""
    ticks = itertools.count()
    budget = Budget(samples=50, seconds=2.5, clock=lambda: float(next(ticks)))
    assert _count(budget) == FEWEST
    assert _count(Budget(samples=50, seconds=1000.0, clock=lambda: 0.0)) == 50


def test_no_deal_that_fits_stops_the_sampling() -> None:
    deals = Budget(samples=5, seconds=None).deals(lambda rng: None, random.Random(0))
    assert list(deals) == []
