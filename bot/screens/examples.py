"""`python -m bot.screens.examples [DIR]`: the README's example pictures, into DIR (docs/).

`--language ka --only joker.png --players ნინო,გიორგი,თამარი,ლევანი` draws one of them
in another language.

Each is drawn from a game played by the engine's random policy from a fixed
seed (as `python -m engine deal --play random` does), so running this again
gives the same pictures.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bot.games import PLUGINS
from bot.games.base import Example
from bot.screens.sheet import render_sheet
from bot.ui.i18n import translator
from engine.__main__ import play_random
from engine.match import Match
from engine.records import replay

# Each game's README pictures (file name -> game and how it is played).
EXAMPLES: dict[str, tuple[str, Example]] = {
    name: (plugin.name, example) for plugin in PLUGINS.values()
    for name, example in plugin.examples.items()}


def played(game: str, seed: int, deals: int, players: Sequence[str],
           rules: Mapping[str, Any] | None = None) -> Match:
    """The match of a random game from ``seed``, its players renamed."""
    record = play_random(game, seed, deals, play=True, rules_data=rules)
    return replay({**record, "players": list(players)})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.screens.examples", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", default="docs", help="the directory (default docs)")
    parser.add_argument("--language", help="labels in this language: NAME-LANG.png")
    parser.add_argument("--only", choices=sorted(EXAMPLES), help="this picture only")
    parser.add_argument("--players", help="the players' names, comma-separated (in the "
                        "language's script, say)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tr = translator(args.language)
    for name, (game, ex) in EXAMPLES.items():
        if args.only not in (None, name):
            continue
        players = args.players.split(",") if args.players else ex.players
        if len(players) != len(ex.players):
            parser.error(f"{name} has {len(ex.players)} players")
        match = played(game, ex.seed, ex.deals, players, ex.rules)
        start = time.perf_counter()
        picture = render_sheet(match, tr)
        elapsed = (time.perf_counter() - start) * 1000
        if args.language:
            name = name.replace(".png", f"-{args.language}.png")
        (out / name).write_bytes(picture.png)
        width, height = picture.size
        print(f"{out / name}: {width}x{height}, {len(picture.png) // 1024} KiB, {elapsed:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
