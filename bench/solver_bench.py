"""The double-dummy solver (issue 21): seconds to solve a full 10-trick position.

Each deal is solved three ways from its first card: a trick contract (a random
declarer and strain), a misère (a random declarer) and a Sochi raspasy (the
first talon card turned, the second still to lead; one random player's own
tricks). Times are for one solve on one core, the machine's other load included.
"""

from __future__ import annotations

import random
import statistics
import time

from bench.figures import Figure
from engine.cards import Suit, preferans_deck, shuffled
from engine.preferans.dds import NOBODY, Goal, Layout, tricks

Problem = tuple[Layout, Goal]


def _problems(seed: int) -> dict[str, Problem]:
    cards = shuffled(preferans_deck(), seed)
    rng = random.Random(seed)
    hands = (tuple(cards[:10]), tuple(cards[10:20]), tuple(cards[20:30]))
    talon = cards[30:]
    strain = rng.choice([*Suit, None])
    return {
        "contract": (Layout(hands, strain), Goal.declarer(rng.randrange(3))),
        "misère": (Layout(hands, None), Goal.miser(rng.randrange(3))),
        "raspasy": (Layout(hands, None, trick=((NOBODY, talon[0]),), talon=(talon[1],),
                           fixed=2), Goal.avoid(rng.randrange(3))),
    }


def _timed(layout: Layout, goal: Goal) -> float:
    start = time.perf_counter()
    tricks(layout, goal)
    return time.perf_counter() - start


def run(quick: bool) -> list[Figure]:
    deals = 20 if quick else 200
    times: dict[str, list[float]] = {}
    for seed in range(deals):
        for kind, (layout, goal) in _problems(seed).items():
            times.setdefault(kind, []).append(_timed(layout, goal))
    figures = []
    for kind, seconds in times.items():
        note = f"{len(seconds)} deals, max {1000 * max(seconds):.1f} ms"
        figures.append(Figure("solver", f"full deal, {kind}: median", 1000 * statistics.median(
            seconds), "ms", note))
    return figures
