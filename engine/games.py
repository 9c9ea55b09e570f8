"""The registry: game name -> its GameSpec. Adding a game is a package plus one line."""

from __future__ import annotations

from engine import joker, preferans, seep
from engine.base import GameSpec

GAMES: dict[str, GameSpec] = {spec.name: spec for spec in (preferans.SPEC, seep.SPEC, joker.SPEC)}


def get_game(name: object) -> GameSpec:
    """The spec of a registered game; KeyError with a readable message otherwise."""
    if not isinstance(name, str) or name not in GAMES:
        raise KeyError(f"unknown game {name!r}: expected one of {', '.join(sorted(GAMES))}")
    return GAMES[name]
