"""How /stats speaks of Preferans results: whists, contracts by level, misère."""

from __future__ import annotations

from bot.games.base import StatsWords
from bot.ui.i18n import Translate
from storage.rows import UserStats


def _misere(row: UserStats, tr: Translate) -> list[str]:
    return [tr("Misère (made/failed): {made}/{failed}", made=row.misers.made,
               failed=row.misers.failed)]


def words(tr: Translate) -> StatsWords:
    return StatsWords(
        balance=tr("Balance in whists: {total} ({per_game} a game)"),
        won_lost=tr("Whists written: {won} · written on them: {lost}"),
        contracts=tr("Contracts by level (made/failed):"),
        extra=_misere,
    )
