"""Scoresheet pictures: milliseconds to draw each README example, PNG encoding included."""

from __future__ import annotations

import statistics
import time

from bench.figures import Figure
from bot.screens.examples import EXAMPLES, played
from bot.screens.sheet import render_sheet


def run(quick: bool) -> list[Figure]:
    repeats = 3 if quick else 30
    figures = []
    for name, (game, example) in EXAMPLES.items():
        match = played(game, example.seed, example.deals, example.players, example.rules)
        start = time.perf_counter()
        picture = render_sheet(match)  # the first one loads the fonts it needs
        first = (time.perf_counter() - start) * 1000
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            render_sheet(match)
            times.append((time.perf_counter() - start) * 1000)
        width, height = picture.size
        figures.append(Figure(
            "pictures", f"{name}: draw, median of {repeats}", statistics.median(times), "ms",
            f"max {max(times):.0f} ms, first {first:.0f} ms; {width}x{height}, "
            f"{len(picture.png) // 1024} KiB",
        ))
    return figures
