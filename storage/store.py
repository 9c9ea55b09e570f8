"""``Storage``: the one database, split by concern. All SQL is behind it.

The database is a SQLite file (the default) or a PostgreSQL server (``postgresql://``
URL, for several worker processes); the stores are the same SQL on either
(storage/sql.py).

Games are known here only as record data (records.md): the service replays
records with the engine; storage never imports it.

- ``chats``: chats and users (languages, time zones, quiet hours);
- ``tables``: a table from lobby to end (seats, rules, settings, status, the ids of
  the messages it keeps up to date, its timer);
- ``log``: the action log, each deal's result and statistics, records out and in;
- ``stats``: history and statistics, without replay;
- ``ratings``: each rated game's rating changes, current ratings and leaderboards;
- ``votes``: the questions put to a table's players;
- ``timers``: each table's next turn-timer event, by when it is due (storage/timers.py);
- ``marks``: what the bot learned of Telegram (the menus set, where it may not pin);
- ``analyses``: finished deals' analyses, cached with their results.

Each action is stored (``log.append``) under the table's lock before anyone is
told of it; if ``append`` raises, the caller's match is ahead of the log and must
be rebuilt from ``log.record``.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self

from storage.analyses import AnalysisStore
from storage.chats import ChatStore
from storage.log import LogStore
from storage.marks import MarkStore
from storage.ratings import RatingStore
from storage.sql import Database
from storage.stats import StatsStore
from storage.tables import TableStore
from storage.timers import TimerStore
from storage.votes import VoteStore

DEFAULT_PATH = "./cardtable.db"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(location: str) -> bool:
    return location.startswith(POSTGRES_SCHEMES)


class Storage:
    """Chats, users, tables, the action log, results, statistics, votes and timers in one
    database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.chats = ChatStore(db)
        self.tables = TableStore(db)
        self.log = LogStore(db)
        self.stats = StatsStore(db)
        self.ratings = RatingStore(db)
        self.votes = VoteStore(db)
        self.timers = TimerStore(db)
        self.marks = MarkStore(db)
        self.analyses = AnalysisStore(db)

    @classmethod
    async def open(cls, location: str = DEFAULT_PATH) -> Storage:
        """Open (or create) the database, a file path or a PostgreSQL URL, and run its
        migrations; SchemaTooNew if it is newer."""
        if is_postgres(location):
            from storage.postgres import PostgresDatabase  # asyncpg only where it is used

            return cls(await PostgresDatabase.open(location))
        from storage.sqlite import SqliteDatabase

        return cls(await SqliteDatabase.open(location))

    async def close(self) -> None:
        await self.db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()
