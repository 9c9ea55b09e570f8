"""`python -m bench`: the performance figures (not tests). Prints a table, writes JSON."""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time

from bench import (
    analysis_bench,
    bot_bench,
    engine_bench,
    human_pace,
    keep_bench,
    pictures_bench,
    restore_bench,
    robot_bench,
    saturated,
    scoring_bench,
    solver_bench,
    storage_bench,
    timers_bench,
    webapp_bench,
    workers_bench,
)
from bench.figures import Figure

SECTIONS = {"engine": engine_bench.run, "scoring": scoring_bench.run,
            "storage": storage_bench.run, "restore": restore_bench.run,
            "pictures": pictures_bench.run, "solver": solver_bench.run,
            "robots": robot_bench.run, "bot": bot_bench.run,
            "human": human_pace.run, "saturated": saturated.run,
            "timers": timers_bench.run, "webapp": webapp_bench.run,
            "workers": workers_bench.run, "analysis": analysis_bench.run,
            "keep": keep_bench.run}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--quick", action="store_true", help="small sizes, under a minute")
    parser.add_argument("--out", help="write the figures as JSON to this file")
    parser.add_argument("--only", choices=sorted(SECTIONS), action="append",
                        help="run only these sections")
    args = parser.parse_args(argv)
    figures: list[Figure] = []
    started = time.perf_counter()
    for name, run in SECTIONS.items():
        if args.only and name not in args.only:
            continue
        section = run(quick=args.quick)
        for figure in section:
            print(figure.row(), flush=True)
        figures.extend(section)
    doc = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "quick": args.quick,
        "seconds": round(time.perf_counter() - started, 1),
        "figures": [f.as_dict() for f in figures],
    }
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
