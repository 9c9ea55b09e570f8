"""Preferans scoring speed: whole pulyas scored from finished deal results (deals/s)."""

from __future__ import annotations

import random
import time

from bench.figures import Figure
from engine.games import get_game
from engine.preferans.result import DealResult
from engine.preferans.rules import Rules
from engine.preferans.scoring import Scoresheet

GAMES = {"sochi": 10, "leningrad": 20, "rostov": 10}  # variant: the spec's usual target


def _pulya(rules: Rules, seed: int) -> list[DealResult]:
    """Every deal result of one game played to the end by random legal play."""
    spec = get_game("preferans")
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(rules.players)]
    sheet = Scoresheet(rules, 0)
    results = []
    while not sheet.complete:
        state = spec.new_deal(rules, players, sheet.next_context(), seed=f"{seed}/{len(results)}")
        while not state.finished:
            seat = state.to_act[0]
            state.apply(seat, spec.random_action(state, seat, rng))
        results.append(state.result())
        sheet.add(results[-1])
    return results


def _score(rules: Rules, pulyas: list[list[DealResult]], seconds: float) -> tuple[int, float]:
    """Score the pulyas again and again for ``seconds``, settling each; (deals, elapsed)."""
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for results in pulyas:
            sheet = Scoresheet(rules, 0)
            for result in results:
                sheet.add(result)
            sheet.report()
            deals += len(results)
    return deals, time.perf_counter() - start


def run(quick: bool) -> list[Figure]:
    seconds, games = (0.2, 2) if quick else (3.0, 10)
    figures = []
    for variant, target in GAMES.items():
        rules = Rules.from_dict({"variant": variant, "pool": target})
        pulyas = [_pulya(rules, seed) for seed in range(games)]
        per_game = sum(map(len, pulyas)) / games
        deals, elapsed = _score(rules, pulyas, seconds)
        figures.append(Figure(
            "scoring", f"preferans {variant}: pulya scoring, deals/s", deals / elapsed,
            "deals/s", f"{games} whole games to pool {target}, {per_game:.0f} deals each, with"
            f" report(), scored again and again for {elapsed:.1f} s",
        ))
    return figures
