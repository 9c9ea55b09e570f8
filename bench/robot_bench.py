"""Substitute robots (issue 9): decision time per game, robot deals that finish, how
often the Preferans robots make their contracts and the Joker robots their bids, how
often the Seep robots sweep."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench.figures import Figure
from engine.games import GAMES, get_game
from engine.joker.result import DealResult as JokerResult
from engine.match import Match
from engine.preferans.bids import MISER, level
from engine.preferans.result import DealResult as PreferansResult
from engine.seep.result import DealResult as SeepResult


def contract_made(result: PreferansResult) -> bool | None:
    """Whether the declarer made his contract; None when nobody declared (raspasy).

    A contract the defenders let through unplayed (both passed, a half-whist stood)
    is made; a walk-away is not."""
    if result.declarer is None:
        return None
    if result.kind == "walkaway":
        return False
    tricks = result.tricks[result.declarer]
    if result.contract == MISER:
        return tricks == 0
    assert result.contract is not None
    return not result.played or tricks >= level(result.contract)


def exact_bids(result: JokerResult) -> list[bool]:
    """For each seat of a Joker deal, whether it took exactly the tricks it bid."""
    return [b == t for b, t in zip(result.bids, result.tricks, strict=True)]


def robot_deals(name: str, deals: int) -> tuple[list[float], list[Any]]:
    """Play ``deals`` deals with robots in every seat (new matches as games end): the
    seconds of every robot decision and every deal's result. An illegal action would
    raise: the engine checks each one."""
    spec = get_game(name)
    choose = spec.robot.choose
    rules = spec.rules.from_dict({})
    players = [f"P{i}" for i in range(rules.players)]
    rng = random.Random(1)
    times: list[float] = []
    results = []
    match = Match(spec, rules, players, 0)
    for number in range(deals):
        if match.over:
            match = Match(spec, rules, players, 0)
        state = match.start_deal(seed=f"robots-{number}")
        while not state.finished:
            seat = state.to_act[0]
            view = state.view(state.controller(seat))
            start = time.perf_counter()
            action = choose(view, rules, rng)
            times.append(time.perf_counter() - start)
            match.apply(seat, action)
        results.append(state.result())
    return times, results


def _preferans(results: list[PreferansResult]) -> list[Figure]:
    made = [(m, r.played) for r in results if (m := contract_made(r)) is not None]
    played = [m for m, out in made if out]
    return [
        Figure("robots", "preferans: robot contracts made", 100 * statistics.mean(
            m for m, _ in made), "%", f"of {len(made)} contracts, unplayed ones made"),
        Figure("robots", "preferans: robot contracts made, played out",
               100 * statistics.mean(played), "%", f"of {len(played)} played out"),
    ]


def _joker(results: list[JokerResult]) -> list[Figure]:
    exact = [e for r in results for e in exact_bids(r)]
    return [Figure("robots", "joker: robot bids made exactly", 100 * statistics.mean(exact),
                   "%", f"of {len(exact)} bids")]


def _seep(results: list[SeepResult]) -> list[Figure]:
    played = [r for r in results if not r.void]
    return [Figure("robots", "seep: sweeps per robot deal",
                   statistics.mean(sum(map(sum, r.sweeps)) for r in played), "sweeps",
                   f"{len(played)} deals played, {len(results) - len(played)} void (redealt)")]


SUCCESS: dict[str, Callable[[list[Any]], list[Figure]]] = {
    "preferans": _preferans, "joker": _joker, "seep": _seep}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(quick: bool) -> list[Figure]:
    deals = 100 if quick else 1000
    figures = []
    for name in GAMES:
        times, results = robot_deals(name, deals)
        figures += [
            Figure("robots", f"{name}: robot decision median", 1000 * statistics.median(times),
                   "ms", f"{len(times)} decisions"),
            Figure("robots", f"{name}: robot decision p99", 1000 * _percentile(times, 0.99),
                   "ms", f"max {1000 * max(times):.1f} ms"),
            Figure("robots", f"{name}: robot deals finished", len(results), "deals",
                   "robots in every seat, every action legal"),
            *SUCCESS[name](results),
        ]
    return figures
