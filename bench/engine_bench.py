"""Engine speed for every registered game: actions/s and random full deals/s."""

from __future__ import annotations

import random
import time

from bench.figures import Figure
from engine.games import GAMES
from engine.match import Match


def _random_deals(name: str, seconds: float) -> tuple[int, int, float]:
    """Deal and play random deals from seeds for ``seconds``; (deals, actions, elapsed)."""
    spec = GAMES[name]
    rules = spec.rules.from_dict({})
    rng = random.Random(1)
    players = [f"P{i}" for i in range(rules.players)]
    deals = actions = 0
    match = Match(spec, rules, players, 0)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if match.over:
            match = Match(spec, rules, players, 0)
        match.start_deal(seed=deals)
        state = match.state
        assert state is not None
        while not state.finished:
            seat = state.to_act[0]
            match.apply(seat, spec.random_action(state, seat, rng))
            actions += 1
        deals += 1
    return deals, actions, time.perf_counter() - start


def run(quick: bool) -> list[Figure]:
    seconds = 1.0 if quick else 5.0
    figures = []
    for name in GAMES:
        deals, actions, elapsed = _random_deals(name, seconds)
        figures.append(Figure("engine", f"{name}: actions/s (legal_actions + apply)",
                              actions / elapsed, "actions/s", "random legal play from seeds"))
        figures.append(Figure("engine", f"{name}: random full deals/s", deals / elapsed,
                              "deals/s", "deal, play and score"))
    return figures
