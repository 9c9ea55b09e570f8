"""The double-dummy solver (issue 21): seconds to solve a full 10-trick position.

Each deal is solved from its first card as a trump contract and a no-trump one
(a random declarer), a misère (a random declarer) and raspasy (one random
player's own tricks) three ways: the talon cards leading tricks 1 and 2 with
three players (a talon card never wins) and with four (the dealer's talon card
may win), and without the talon. With four players the dealer sits out and the
same three hands of ten play, so the contracts and the misère are the same
positions for 3 and 4 players. Times are the CPU time of one solve (it runs on
one core), so the machine's other load does not inflate them; the notes give
the wall-clock maximum too.
"""

from __future__ import annotations

import random
import statistics
import time

from bench.figures import Figure
from engine.cards import Suit, shuffled
from engine.preferans.dds import NOBODY, TALON, Goal, Layout, tricks
from engine.preferans.pack import preferans_deck

Problem = tuple[Layout, Goal]


def _problems(seed: int) -> dict[str, Problem]:
    cards = shuffled(preferans_deck(), seed)
    rng = random.Random(seed)
    hands = (tuple(cards[:10]), tuple(cards[10:20]), tuple(cards[20:30]))
    talon = cards[30:]

    def talon_leads(owner: int) -> Layout:
        return Layout(hands, None, trick=((owner, talon[0]),), talon=(talon[1],),
                      talon_owner=owner, fixed=2)

    return {
        "trump contract": (Layout(hands, rng.choice(list(Suit))), Goal.declarer(rng.randrange(3))),
        "no-trump contract": (Layout(hands, None), Goal.declarer(rng.randrange(3))),
        "misère": (Layout(hands, None), Goal.miser(rng.randrange(3))),
        "raspasy, talon leads, 3 players": (talon_leads(NOBODY), Goal.avoid(rng.randrange(3))),
        "raspasy, talon leads, 4 players": (talon_leads(TALON), Goal.avoid(rng.randrange(3))),
        "raspasy, no talon": (Layout(hands, None), Goal.avoid(rng.randrange(3))),
    }


def _timed(layout: Layout, goal: Goal) -> tuple[float, float]:
    """CPU and wall-clock seconds of one solve."""
    cpu, wall = time.thread_time(), time.perf_counter()
    tricks(layout, goal)
    return time.thread_time() - cpu, time.perf_counter() - wall


def run(quick: bool) -> list[Figure]:
    deals = 10 if quick else 200
    times: dict[str, list[tuple[float, float]]] = {}
    for seed in range(deals):
        for kind, (layout, goal) in _problems(seed).items():
            times.setdefault(kind, []).append(_timed(layout, goal))
    figures = []
    for kind, measured in times.items():
        cpu = [c for c, _ in measured]
        wall = max(w for _, w in measured)
        note = f"{len(cpu)} deals, CPU time; wall clock max {1000 * wall:.0f} ms"
        figures += [
            Figure("solver", f"full deal, {kind}: median", 1000 * statistics.median(cpu), "ms",
                   note),
            Figure("solver", f"full deal, {kind}: max", 1000 * max(cpu), "ms", note),
        ]
    return figures
