"""Deal analysis (issue 34): CPU seconds to analyse one finished Preferans deal (every card
against the double-dummy solver, par, whist costs), median and p99, by kind of deal.

The deals are dealt from seeds and played by random legal cards (Sochi, 3 players), so
every kind comes up and the play is far from best: many costly cards, each priced.
"""

from __future__ import annotations

import statistics
import time

from bench.figures import Figure
from engine.__main__ import play_random
from engine.games import get_game
from engine.records import new_match


def _timed_deals(seed: int, deals: int) -> list[tuple[str, float]]:
    record = play_random("preferans", seed, deals, play=True)
    match = new_match(record)
    spec = match.spec
    out = []
    for deal in record["deals"]:
        context = match.sheet.next_context()
        cpu = time.thread_time()
        found = spec.analyse(match.rules, match.players, context, deal)
        seconds = time.thread_time() - cpu
        out.append((found["kind"] if found and found["played"] else "not played", seconds))
        match.start_deal(deal=deal)
        for item in deal["actions"]:
            match.apply(*spec.decode_action(item))
    return out


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def run(quick: bool) -> list[Figure]:
    assert get_game("preferans").analyse is not None
    timed: dict[str, list[float]] = {}
    for seed in range(3 if quick else 20):
        for kind, seconds in _timed_deals(seed, 10):
            timed.setdefault(kind, []).append(seconds)
            timed.setdefault("every deal", []).append(seconds)
    figures = []
    for kind, seconds in sorted(timed.items()):
        note = f"{len(seconds)} deals, CPU time, random play"
        figures += [Figure("analysis", f"one deal, {kind}: median",
                           1000 * statistics.median(seconds), "ms", note),
                    Figure("analysis", f"one deal, {kind}: p99", 1000 * _p99(seconds), "ms", note)]
    return figures
