"""Seep at the bot: partnerships, the two-step move choice, the bazzi ledger."""

from __future__ import annotations

from bot.games.base import Example, assemble

PLUGIN = assemble(__name__, title="Seep", commands=("seep",), languages=("hi",), examples={
    "seep.png": Example(2, 40, ("Arjun", "Priya", "Vikram", "Meera"), {"bazzis": 3})})
