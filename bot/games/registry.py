"""The games the bot hosts: game name -> its GameUI (one line per game)."""

from __future__ import annotations

from bot.games import joker, preferans, seep
from bot.games.base import GameUI

GAME_UIS: dict[str, GameUI] = {ui.name: ui for ui in (preferans.UI, seep.UI, joker.UI)}
