"""`python -m bench`: the performance figures (not tests). Prints a table, writes JSON."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
import time
import traceback

from bench import lanes
from bench.figures import Figure

# section -> its module in bench/ (imported when it runs: a lane imports only its own)
SECTIONS = {"engine": "engine_bench", "scoring": "scoring_bench", "storage": "storage_bench",
            "restore": "restore_bench", "pictures": "pictures_bench", "solver": "solver_bench",
            "robots": "robot_bench", "bot": "bot_bench", "human": "human_pace",
            "saturated": "saturated", "timers": "timers_bench", "webapp": "webapp_bench",
            "workers": "workers_bench", "analysis": "analysis_bench", "keep": "keep_bench"}


def _run(name: str, quick: bool) -> list[Figure]:
    section: list[Figure] = importlib.import_module(f"bench.{SECTIONS[name]}").run(quick=quick)
    return section


def _cpu() -> float:
    """This process's CPU seconds and those of its children that have ended."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes, under a minute: the sections in lanes at once")
    parser.add_argument("--serial", action="store_true",
                        help="the sections one after another in this process (--quick's lanes)")
    parser.add_argument("--out", help="write the figures as JSON to this file")
    parser.add_argument("--only", choices=sorted(SECTIONS), action="append",
                        help="run only these sections, in this order")
    args = parser.parse_args(argv)
    names = list(dict.fromkeys(args.only or SECTIONS))  # in the order given
    started = time.perf_counter()
    # each section's start and end (epoch seconds) and CPU seconds (its child processes' too)
    spans: dict[str, tuple[float, float, float]] = {}
    figures: list[tuple[str, Figure]] = []  # (its section, the figure)
    failed: list[str] = []
    if args.quick and not args.serial and len(names) > 1:
        figures, spans, failed = lanes.run(names)
        for _, figure in figures:
            print(figure.row(), flush=True)
    else:
        for name in names:
            begun, cpu = time.time(), _cpu()
            try:
                section = _run(name, args.quick)
            except Exception:  # the next sections still run; the exit status tells
                traceback.print_exc()
                failed.append(name)
                continue
            spans[name] = (begun, time.time(), round(_cpu() - cpu, 1))
            for figure in section:
                print(figure.row(), flush=True)
            figures.extend((name, figure) for figure in section)
    seconds = time.perf_counter() - started
    print(Figure("bench", "whole run, wall clock", seconds, "s",
                 f"{len(names)} sections" + (", --quick" if args.quick else "")).row())
    doc = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "quick": args.quick,
        "seconds": round(seconds, 1),
        "sections": spans,
        "failed": failed,
        "figures": [{**f.as_dict(), "part": name} for name, f in figures],
    }
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1)
    if failed:
        print(f"bench: failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
