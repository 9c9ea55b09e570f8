"""Duplicate matches: the same deals played by two robots with the seats rotated.

Every deal is played at one table per seating of one robot against the others,
each seat in turn (so each seat is held by the new robot at some tables and by
the old one at the others), and the cards favour neither. A deal's margin is the
new robot's average score per seat minus the old robot's; the margins of
independent deals give the mean and its 95% confidence interval.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.base import DealState

Choose = Callable[[Any, Any, random.Random], str]
NEW, OLD = "new", "old"


@dataclass
class Table:
    """One deal played out: the result, who sat where, the seconds of each decision (wall
    clock, and the CPU time of the deciding thread)."""

    result: Any
    seating: tuple[str, ...]
    times: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)


def seatings(seats: int) -> list[tuple[str, ...]]:
    """Every seating where one robot sits alone against the other (for three seats, every
    seating with both robots at the table)."""
    return [s for s in itertools.product((NEW, OLD), repeat=seats)
            if s.count(NEW) in (1, seats - 1)]


def play_table(state: DealState, rules: Any, seating: tuple[str, ...],
               robots: dict[str, Choose], seed: int) -> Table:
    """Play ``state`` to its end with ``seating[seat]``'s robot deciding for each seat (the
    controller's robot in open play)."""
    rng = random.Random(seed)
    table = Table(None, seating, {name: [] for name in robots}, {name: [] for name in robots})
    while not state.finished:
        seat = state.to_act[0]
        decider = state.controller(seat)
        name = seating[decider]
        start, cpu = time.perf_counter(), time.thread_time()
        action = robots[name](state.view(decider), rules, rng)
        table.times[name].append(time.perf_counter() - start)
        table.cpu[name].append(time.thread_time() - cpu)
        state.apply(seat, action)
    table.result = state.result()
    return table


def duplicate(deal: Callable[[int], DealState], rules: Any, robots: dict[str, Choose],
              deals: int, tables: list[tuple[str, ...]]) -> Iterator[list[Table]]:
    """For each deal number, the deal played at every seating of ``tables``."""
    for number in range(deals):
        yield [play_table(deal(number), rules, seating, robots, number) for seating in tables]


def margin(tables: list[Table], scores: Callable[[Any], list[float]]) -> float:
    """The new robot's mean score per seat minus the old robot's, over one deal's tables."""
    got: dict[str, list[float]] = {NEW: [], OLD: []}
    for table in tables:
        for name, score in zip(table.seating, scores(table.result), strict=False):
            got[name].append(score)
    return statistics.mean(got[NEW]) - statistics.mean(got[OLD])


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval (normal approximation)."""
    mean = statistics.mean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
