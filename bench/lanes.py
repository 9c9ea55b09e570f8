"""``--quick``'s sections in lanes that run at once, each lane a process running its sections
one after another: one lane after another takes about four minutes, as the bot's paces, the
human pace, the saturated token, the keeper's taps and the workers' join wait on clocks
more than they compute; in lanes, the quick run takes about what its CPU time on two cores
does (about 95 s of it).

A figure measured while another lane ran says beside which sections in its note (and
whether its lane ran at the lower priority): a time on the wall clock (a latency, a rate)
may be longer for it; CPU times and counts change much less.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.figures import Figure

# Lanes of about equal time, each with a section that mostly waits (on Telegram's limits, a
# human pace, a sped-up clock, the workers' join). The first ``FIRST`` lanes hold the figures
# that most need the machine (the bot's paces on a clock sped up 15 times, the workers' cards
# a second and join, the human-pace and the Mini App's latencies); the others (the robots'
# CPU times, the saturated token's waits, the keeper's taps on a sped-up clock) run at a
# lower CPU and disk priority (nice, ionice), beside them.
LANES = (  # alone, on a shared 2-core machine: 49, 49, 41, 39, 30, 24 and 16 s
    ("bot", "engine", "scoring", "pictures", "solver", "analysis", "timers"),
    ("workers",),
    ("human", "storage", "restore"),
    ("webapp",),
    ("saturated",),
    ("keep",),
    ("robots",),
)
FIRST = 4
LOWER = ("nice", "-n", "10", "ionice", "-c", "2", "-n", "7")


def run(names: list[str]) -> tuple[list[tuple[str, Figure]],
                                   dict[str, tuple[float, float, float]], list[str]]:
    """The figures of ``names`` (in that order, each with its section), measured in lanes at
    once; each section's start, end (epoch seconds) and CPU seconds; the sections that
    failed. A section that fails beside the others (a loaded machine can starve a sped-up
    clock) runs once more, alone, after them."""
    lanes = [[name for name in lane if name in names] for lane in LANES]
    lanes += [[name] for name in names if not any(name in lane for lane in LANES)]
    lower = [i >= FIRST for i, lane in enumerate(lanes) if lane]
    docs = _lanes([lane for lane in lanes if lane], lower)
    failed = [name for doc in docs for name in doc["failed"]]
    again = (_lanes([failed], [False])[0] if failed
             else {"sections": {}, "figures": [], "failed": []})
    spans = {name: (tuple(span), i) for i, doc in enumerate(docs)
             for name, span in doc["sections"].items()}
    figures = []
    for name in names:
        if name in again["sections"]:
            said = "--quick: measured alone, after failing beside the other lanes"
            figures += [(name, _said(f, said)) for f in _figures_of([again], name)]
            continue
        if name not in spans:
            continue
        (start, end, _), lane = spans[name]
        beside = [other for other, ((o_start, o_end, _), o_lane) in spans.items()
                  if o_lane != lane and o_start < end and start < o_end]
        said = f"--quick: measured beside {', '.join(beside)}" if beside else ""
        if said and lower[lane]:
            said += " (at a lower priority than the bot's, workers', human pace's, Mini App's)"
        figures += [(name, _said(f, said)) for f in _figures_of(docs, name)]
    ran = {name: span for name, (span, _) in spans.items()} | {
        name: tuple(span) for name, span in again["sections"].items()}
    return figures, ran, again["failed"]


def _lanes(lanes: list[list[str]], lower: list[bool]) -> list[dict[str, Any]]:
    """Each lane's JSON document (bench/__main__.py), the lanes run at once (those of
    ``lower`` at a lower priority); a lane that ended without one failed in every section it
    had not finished."""
    with tempfile.TemporaryDirectory(prefix="bench_lanes") as tmp:
        outs = [Path(tmp) / f"lane{i}.json" for i in range(len(lanes))]
        children = [subprocess.Popen(
            [*(LOWER if lowered else ()), sys.executable, "-m", "bench", "--quick", "--serial",
             "--out", str(out), *(arg for name in lane for arg in ("--only", name))],
            stdout=subprocess.DEVNULL) for lane, out, lowered in zip(lanes, outs, lower,
                                                                     strict=True)]
        for child in children:
            child.wait()
        return [json.loads(out.read_text(encoding="utf-8")) if out.exists()
                else {"sections": {}, "figures": [], "failed": lane}
                for lane, out in zip(lanes, outs, strict=True)]


def _figures_of(docs: list[dict[str, Any]], name: str) -> list[Figure]:
    return [Figure(**{k: v for k, v in found.items() if k != "part"})
            for doc in docs for found in doc["figures"] if found["part"] == name]


def _said(figure: Figure, said: str) -> Figure:
    if not said:
        return figure
    note = f"{figure.note}; {said}" if figure.note else said
    return Figure(figure.section, figure.name, figure.value, figure.unit, note)
