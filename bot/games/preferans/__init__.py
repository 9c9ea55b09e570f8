"""Preferans at the bot: the pulya, the talon and discard, whists, open play."""

from __future__ import annotations

from bot.games.base import Example, assemble
from bot.games.preferans.analysis import analysis_text
from bot.games.preferans.paper import settle_text

PLUGIN = assemble(__name__, title="Preferans", commands=("pref", "preferans"),
                  settle_text=settle_text, analysis=analysis_text, examples={
                      "pulya-3p.png": Example(3, 80, ("Anna", "Boris", "Clara")),
                      "pulya-4p.png": Example(3, 80, ("Anna", "Boris", "Clara", "Dmitri"),
                                              {"players": 4}),
                  })
