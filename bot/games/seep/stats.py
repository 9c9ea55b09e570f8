"""How /stats speaks of Seep results: bazzis, bids, deal points of the sides."""

from __future__ import annotations

from bot.games.base import StatsWords
from bot.ui.i18n import Translate


def words(tr: Translate) -> StatsWords:
    return StatsWords(
        balance=tr("Balance in bazzis: {total} ({per_game} a game)"),
        won_lost=tr("Deal points of their team: {won} · of the other team: {lost}"),
        contracts=tr("Bids:"),
    )
