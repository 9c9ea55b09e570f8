"""Engine speed for every registered game: actions/s, random full deals/s and full games/s."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from bench.figures import Figure
from engine.games import GAMES
from engine.match import Match


@dataclass
class _Count:
    deals: int = 0
    actions: int = 0
    games: int = 0
    elapsed: float = 0.0


def _random_play(name: str, seconds: float) -> _Count:
    """Deal and play random deals from seeds for ``seconds`` (and at least one whole game:
    a new match as soon as one is over)."""
    spec = GAMES[name]
    rules = spec.rules.from_dict({})
    rng = random.Random(1)
    players = [f"P{i}" for i in range(rules.players)]
    count = _Count()
    match = Match(spec, rules, players, 0)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or not count.games:
        if match.over:
            count.games += 1
            match = Match(spec, rules, players, 0)
        match.start_deal(seed=count.deals)
        state = match.state
        assert state is not None
        while not state.finished:
            seat = state.to_act[0]
            match.apply(seat, spec.random_action(state, seat, rng))
            count.actions += 1
        count.deals += 1
    count.elapsed = time.perf_counter() - start
    return count


def run(quick: bool) -> list[Figure]:
    seconds = 0.3 if quick else 5.0
    figures = []
    for name in GAMES:
        count = _random_play(name, seconds)
        figures.append(Figure("engine", f"{name}: actions/s (legal_actions + apply)",
                              count.actions / count.elapsed, "actions/s",
                              f"random legal play from seeds for {count.elapsed:.1f} s"))
        figures.append(Figure("engine", f"{name}: random full deals/s",
                              count.deals / count.elapsed, "deals/s",
                              f"deal, play and score; {count.deals} deals"))
        figures.append(Figure("engine", f"{name}: random full games/s",
                              count.games / count.elapsed, "games/s",
                              f"default rules, about {count.deals / count.games:.0f} deals a game; "
                              f"{count.games} games"))
    return figures
