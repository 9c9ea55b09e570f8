"""Substitute robots (issues 9 and 21): decision time per game, robot deals that finish,
how often the Preferans robots make their contracts and the Joker robots their bids, how
often the Seep robots sweep; and duplicate matches of the Monte-Carlo robots against
the rule-of-thumb ones they replaced."""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from bench import seep_pimc
from bench.duplicate import (
    NEW,
    OLD,
    Table,
    duplicate,
    interval,
    margin,
    percentile,
    seatings,
)
from bench.figures import Figure
from engine.games import GAMES, get_game
from engine.joker import Rules as JokerRules
from engine.joker import State as JokerState
from engine.joker.result import DealContext as JokerContext
from engine.joker.result import DealResult as JokerResult
from engine.joker.robot import montecarlo as joker_montecarlo
from engine.joker.schedule import deal_plan, trump_mode
from engine.joker.scoring import deal_points
from engine.match import Match
from engine.preferans import State as PreferansState
from engine.preferans.bids import MISER, level
from engine.preferans.raspasy_states import raspasy_cost
from engine.preferans.result import DealContext as PreferansContext
from engine.preferans.result import DealResult as PreferansResult
from engine.preferans.robot import heuristic as preferans_heuristic
from engine.preferans.robot.worth import balances
from engine.preferans.rules import Rules as PreferansRules
from engine.robot_budget import DEFAULT
from engine.seep import Rules as SeepRules
from engine.seep import State as SeepState
from engine.seep.result import DealContext as SeepContext
from engine.seep.result import DealResult as SeepResult
from engine.seep.scoring import deal_score

# The Monte-Carlo robots of the duplicate matches think as at the table, but on the clock
# of their own thread: on this shared machine the wall clock would cut their thinking.
ONE_CORE = replace(DEFAULT, clock=time.thread_time)


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


def robot_deals(name: str, deals: int) -> tuple[Timings, list[Any]]:
    """Play ``deals`` deals with robots in every seat (new matches as games end), the
    robots as at the table (wall-clock budget): the seconds of every robot decision and
    every deal's result. An illegal action would raise: the engine checks each one."""
    spec = get_game(name)
    choose = spec.robot.choose
    rules = spec.rules.from_dict({})
    players = [f"P{i}" for i in range(rules.players)]
    rng = random.Random(1)
    times = Timings()
    results = []
    match = Match(spec, rules, players, 0)
    for number in range(deals):
        if match.over:
            match = Match(spec, rules, players, 0)
        state = match.start_deal(seed=f"robots-{number}")
        while not state.finished:
            seat = state.to_act[0]
            view = state.view(state.controller(seat))
            start, cpu = time.perf_counter(), time.thread_time()
            action = choose(view, rules, rng)
            times.wall.append(time.perf_counter() - start)
            times.cpu.append(time.thread_time() - cpu)
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


def _preferans_deal(rules: PreferansRules, number: int) -> PreferansState:
    players = [f"P{i}" for i in range(rules.players)]
    context = PreferansContext(number % rules.players)
    return PreferansState.new(rules, players, context, seed=f"duplicate-{number}")


def _rate(hits: int, count: int) -> float:
    return 100 * hits / count if count else math.nan


def preferans_duplicate(deals: int) -> list[Figure]:
    """The Monte-Carlo robot against the heuristic one, Sochi, three players."""
    rules = PreferansRules.from_dict({})
    robots = {NEW: partial(get_game("preferans").robot.choose, budget=ONE_CORE),
              OLD: preferans_heuristic.choose}
    cost = raspasy_cost(rules, 1)

    def whists(result: PreferansResult) -> list[float]:
        return [float(b) for b in balances(rules, result, cost)]

    margins: list[float] = []
    times = {NEW: Timings(), OLD: Timings()}
    counts: Counter[tuple[str, str]] = Counter()
    for tables in duplicate(lambda n: _preferans_deal(rules, n), rules, robots, deals,
                            seatings(3)):
        margins.append(margin(tables, whists))
        for table in tables:
            for name in robots:
                times[name].add(table, name)
            counts.update(_preferans_counts(table))
    mean, half = interval(margins)
    played = f"{deals} deals x {len(seatings(3))} seatings"
    figures = [
        Figure("robots", "preferans duplicate: new - old, whists per deal", mean, "whists",
               f"95% CI {mean - half:+.2f} .. {mean + half:+.2f}; {played}"),
    ]
    for name in robots:
        figures += [
            Figure("robots", f"preferans duplicate: {name} contracts made",
                   _rate(counts[name, "made"], counts[name, "declared"]), "%",
                   f"of {counts[name, 'declared']} declared"),
            Figure("robots", f"preferans duplicate: {name} misère made",
                   _rate(counts[name, "miser made"], counts[name, "miser"]), "%",
                   f"of {counts[name, 'miser']} declared"),
            Figure("robots", f"preferans duplicate: {name} misère caught",
                   _rate(counts[name, "caught"], counts[name, "defended"]), "%",
                   f"of {counts[name, 'defended']} defended (per defender)"),
            *_decision_times(f"preferans duplicate: {name}", times[name]),
        ]
    return figures


def _joker_deal(rules: JokerRules, number: int) -> JokerState:
    """Deal ``number`` of a game (sizes cycle through the schedule), dealt from a seed."""
    plan = deal_plan(rules)
    pulka, cards = plan[number % len(plan)]
    context = JokerContext(number % len(plan) + 1, pulka, cards, number % rules.players,
                           trump_mode(rules, cards), (0,) * rules.players)
    players = [f"P{i}" for i in range(rules.players)]
    return JokerState.new(rules, players, context, seed=f"duplicate-{number}")


def joker_duplicate(deals: int) -> list[Figure]:
    """The Monte-Carlo robot (not used at the table) against the heuristic one: four
    players, default rules."""
    rules = JokerRules.from_dict({})
    robots = {NEW: partial(joker_montecarlo.choose, budget=ONE_CORE),
              OLD: get_game("joker").robot.choose}

    def points(result: JokerResult) -> list[float]:
        return [float(deal_points(rules, result.pulka, result.cards, b, t))
                for b, t in zip(result.bids, result.tricks, strict=True)]

    margins: list[float] = []
    times = {NEW: Timings(), OLD: Timings()}
    exact: Counter[tuple[str, bool]] = Counter()
    for tables in duplicate(lambda n: _joker_deal(rules, n), rules, robots, deals,
                            seatings(rules.players)):
        margins.append(margin(tables, points))
        for table in tables:
            for name in robots:
                times[name].add(table, name)
            for name, hit in zip(table.seating, exact_bids(table.result), strict=True):
                exact[name, hit] += 1
    mean, half = interval(margins)
    played = f"{deals} deals x {len(seatings(rules.players))} seatings"
    figures = [Figure("robots", "joker duplicate: Monte Carlo - heuristic, points per deal",
                      mean, "points",
                      f"95% CI {mean - half:+.1f} .. {mean + half:+.1f}; {played}")]
    for name in robots:
        figures += [
            Figure("robots", f"joker duplicate: {name} bids made exactly",
                   _rate(exact[name, True], exact[name, True] + exact[name, False]), "%",
                   f"of {exact[name, True] + exact[name, False]} bids"),
            *_decision_times(f"joker duplicate: {name}", times[name]),
        ]
    return figures


def seep_duplicate(deals: int) -> list[Figure]:
    """The Monte-Carlo Seep variant (bench/seep_pimc.py) against the heuristic robot: one
    partnership each, then the other way round."""
    rules = SeepRules.from_dict({})
    robots = {NEW: partial(seep_pimc.choose,
                           budget=replace(seep_pimc.BUDGET, clock=time.thread_time)),
              OLD: get_game("seep").robot.choose}
    teams = [(NEW, OLD, NEW, OLD), (OLD, NEW, OLD, NEW)]

    def scores(result: SeepResult) -> list[float]:
        by_team = deal_score(rules, result)
        return [float(by_team[rules.team(s)]) for s in range(rules.players)]

    def deal(number: int) -> SeepState:
        players = [f"P{i}" for i in range(rules.players)]
        return SeepState.new(rules, players, SeepContext(number % rules.players),
                             seed=f"duplicate-{number}")

    margins: list[float] = []
    times = {NEW: Timings(), OLD: Timings()}
    for tables in duplicate(deal, rules, robots, deals, teams):
        if tables[0].result.void:
            continue
        margins.append(margin(tables, scores))
        for table in tables:
            for name in robots:
                times[name].add(table, name)
    mean, half = interval(margins)
    return [
        Figure("robots", "seep duplicate: Monte Carlo - heuristic, points per deal", mean,
               "points", f"95% CI {mean - half:+.1f} .. {mean + half:+.1f}; {len(margins)} deals"
               " x 2 seatings (not used at the table)"),
        *_decision_times("seep duplicate: Monte Carlo", times[NEW]),
    ]


@dataclass
class Timings:
    """Seconds of robot decisions: on the wall clock and in CPU time of the deciding thread
    (what one core of its own would take; the machine running the bench is shared)."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def add(self, table: Table, name: str) -> None:
        self.wall += table.times[name]
        self.cpu += table.cpu[name]


def _decision_times(label: str, times: Timings) -> list[Figure]:
    wall = (f"wall clock median {1000 * statistics.median(times.wall):.3g} ms, p99 "
            f"{1000 * percentile(times.wall, 0.99):.3g} ms, max {1000 * max(times.wall):.3g} ms")
    return [
        Figure("robots", f"{label} decision median, CPU", 1000 * statistics.median(times.cpu),
               "ms", f"{len(times.cpu)} decisions"),
        Figure("robots", f"{label} decision p99, CPU", 1000 * percentile(times.cpu, 0.99), "ms",
               f"max {1000 * max(times.cpu):.3g} ms; {wall}"),
    ]


def _preferans_counts(table: Table) -> Counter[tuple[str, str]]:
    """Contracts declared and made, misères made and caught, by robot."""
    out: Counter[tuple[str, str]] = Counter()
    result: PreferansResult = table.result
    if result.declarer is None:
        return out
    declarer = table.seating[result.declarer]
    if result.kind == "miser":
        made = result.tricks[result.declarer] == 0
        out[declarer, "miser"] += 1
        out[declarer, "miser made"] += made
        for seat in result.active:
            if seat != result.declarer:
                out[table.seating[seat], "defended"] += 1
                out[table.seating[seat], "caught"] += not made
    else:
        out[declarer, "declared"] += 1
        out[declarer, "made"] += bool(contract_made(result))
    return out


# Deals per game (quick, full) with robots in every seat: the Monte-Carlo robots take far
# longer per decision than the heuristics did. The full table deals and Preferans's
# duplicate match took under 25 CPU minutes together; Joker's, at eight tables a deal,
# slows with the deal's size (24 deals, one game's schedule, took 5.4 minutes).
TABLE_DEALS = {"preferans": (2, 100), "joker": (10, 100), "seep": (40, 1000)}
DUPLICATE_DEALS = {"preferans": (2, 200), "joker": (3, 24), "seep": (2, 40)}


def run(quick: bool) -> list[Figure]:
    figures = []
    for name in GAMES:
        times, results = robot_deals(name, TABLE_DEALS[name][0 if quick else 1])
        figures += [
            *_decision_times(name + ": robot", times),
            Figure("robots", f"{name}: robot deals finished", len(results), "deals",
                   "robots in every seat, every action legal"),
            *SUCCESS[name](results),
        ]
    size = 0 if quick else 1
    figures += preferans_duplicate(DUPLICATE_DEALS["preferans"][size])
    figures += joker_duplicate(DUPLICATE_DEALS["joker"][size])
    figures += seep_duplicate(DUPLICATE_DEALS["seep"][size])
    return figures
