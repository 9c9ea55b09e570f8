"""Joker at the bot: the trump choice, the dealer's forbidden bid, joker declarations."""

from __future__ import annotations

from bot.games.base import Example, assemble

PLUGIN = assemble(__name__, title="Joker", commands=("joker",), examples={
    "joker.png": Example(519, 24, ("Nino", "Giorgi", "Tamar", "Levan"))})  # with a premium
