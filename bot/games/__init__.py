"""The games' plugins, one per game of ``engine.games.GAMES``: a game without one stops the
bot at start-up (it could not be shown)."""

from __future__ import annotations

import importlib

from bot.games.base import GamePlugin
from bot.service.drafts import EntryRules
from bot.service.play import Stepper
from engine.games import GAMES


def _load() -> dict[str, GamePlugin]:
    plugins = {}
    for name in GAMES:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            raise RuntimeError(f"the game {name!r} has no plugin: bot/games/{name}/") from exc
        plugin: GamePlugin = module.PLUGIN
        if plugin.name != name:
            raise RuntimeError(f"bot/games/{name}/ is the plugin of {plugin.name!r}")
        plugins[name] = plugin
    return plugins


PLUGINS: dict[str, GamePlugin] = _load()


def plugin(game: str) -> GamePlugin:
    return PLUGINS[game]


def command_games() -> dict[str, str]:
    """Every word that names a game (its name, its command aliases) -> the game."""
    return {word: p.name for p in PLUGINS.values() for word in (p.name, *p.commands)}


class Plugins:
    """The games' UI steps and entry words, for the use cases (``presses.Front``): the same
    for every front end."""

    def stepper(self, game: str) -> Stepper:
        return PLUGINS[game].step

    def entry_rules(self, game: str) -> EntryRules:
        return PLUGINS[game].entry


FRONT = Plugins()
