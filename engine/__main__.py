"""Command line: replay records, deal and play random games, print and settle sheets.

    python -m engine replay FILE|-
    python -m engine sheet FILE|-
    python -m engine settle FILE|-
    python -m engine analyse FILE|-
    python -m engine deal --game preferans --seed N [--play random] [--deals K] [--rules JSON]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Mapping
from typing import Any

from engine.base import RecordError, RulesError
from engine.games import GAMES, get_game
from engine.match import Match
from engine.records import analyse, parse_json, replay


def _read(path: str) -> dict[str, Any]:
    if path == "-":
        return parse_json(sys.stdin.read())
    try:
        with open(path, encoding="utf-8") as fh:
            return parse_json(fh.read())
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None


def play_random(game: str, seed: int, deals: int, *, play: bool,
                rules_data: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A record of ``deals`` deals dealt from ``seed``; played by random legal choices if asked."""
    spec = get_game(game)
    rules = spec.rules.from_dict(rules_data)
    rng = random.Random(f"{seed}/play")
    players = [f"P{i + 1}" for i in range(rules.players)]
    match = Match(spec, rules, players, spec.first_dealer(rules, 0, rng))
    for k in range(deals):
        if match.over:
            break
        match.start_deal(seed=f"{seed}/{k}")
        if not play:
            break
        while match.in_deal:
            state = match.state
            assert state is not None
            seat = state.to_act[0]
            match.apply(seat, spec.random_action(state, seat, rng))
    return match.record()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, text in (("replay", "replay a record, print the output document"),
                       ("sheet", "replay a record, print the scoresheet as text"),
                       ("settle", "settle a scoresheet document"),
                       ("analyse", "every deal of a record against the double-dummy solver")):
        sub.add_parser(name, help=text).add_argument("file", help="a JSON file, or - for stdin")
    deal = sub.add_parser("deal", help="deal (and optionally play) random deals as a record")
    deal.add_argument("--game", required=True, choices=sorted(GAMES))
    deal.add_argument("--seed", required=True, type=int)
    deal.add_argument("--play", choices=["random"])
    deal.add_argument("--deals", type=int, default=1)
    deal.add_argument("--rules", default="{}",
                      help='rules options as a JSON object, e.g. \'{"players": 4}\'')
    args = parser.parse_args(argv)
    try:
        if args.command == "deal":
            doc: Any = play_random(args.game, args.seed, args.deals, play=args.play == "random",
                                   rules_data=parse_json(args.rules))
        elif args.command == "settle":
            sheet = _read(args.file)
            spec = get_game(sheet.get("game"))
            if spec.settle is None:
                raise RecordError(f"{spec.name} has no sheet documents")
            doc = spec.settle(sheet)
        elif args.command == "analyse":
            doc = analyse(_read(args.file))
        else:
            match = replay(_read(args.file))
            if args.command == "sheet":
                print(match.spec.sheet_text(match))
                return 0
            doc = match.report()
    except (RecordError, RulesError, KeyError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) else str(exc)
        print(f"error: {message}", file=sys.stderr)
        return 2
    json.dump(doc, sys.stdout, ensure_ascii=False, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
