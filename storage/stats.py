"""History and statistics: indexed queries over results and per-seat lines, never a replay."""

from __future__ import annotations

from storage import stats_sql
from storage.rows import DealRow, GameRow, UserStats
from storage.sql import Database


class StatsStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def recent_deals(self, chat_id: int, limit: int = 10,
                           thread_id: int | None = None) -> list[DealRow]:
        """The chat's last finished deals, newest first (``thread_id``: of that forum topic's
        tables only)."""
        async with self._db.reading() as conn:
            return await stats_sql.recent_deals(conn, chat_id, limit, thread_id)

    async def recent_games(self, chat_id: int, limit: int = 10,
                           thread_id: int | None = None) -> list[GameRow]:
        """The chat's last finished or aborted games, newest first, with their results
        (``thread_id``: of that forum topic only)."""
        async with self._db.reading() as conn:
            return await stats_sql.recent_games(conn, chat_id, limit, thread_id)

    async def user_stats(self, user_id: int, game: str | None = None) -> list[UserStats]:
        async with self._db.reading() as conn:
            return await stats_sql.user_stats(conn, user_id, game)
