"""How /stats speaks of Joker results: points, bids taken exactly."""

from __future__ import annotations

from bot.games.base import StatsWords
from bot.ui.i18n import Translate


def words(tr: Translate) -> StatsWords:
    return StatsWords(
        balance=tr("Balance in points: {total} ({per_game} a game)"),
        won_lost=tr("Points won: {won} · lost: {lost}"),
        contracts=tr("Bids by tricks (taken exactly/not):"),
    )
