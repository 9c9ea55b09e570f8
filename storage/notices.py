"""Notices between the processes of several workers, through PostgreSQL's LISTEN/NOTIFY: a
notice sent inside a transaction is delivered when (and only if) it commits.

- ``TABLES``: tables a unit of work changed (their ids, comma-separated): every process that
  serves the Mini App draws them anew;
- ``TAPS``: the answer to a Mini App tap a worker did in the table's lane (JSON), for the
  process that took the tap's request.
"""

from __future__ import annotations

from collections.abc import Callable

import asyncpg

from storage.postgres import PostgresDatabase
from storage.sql import Conn

TABLES = "cardtable_tables"
TAPS = "cardtable_taps"


async def notify(conn: Conn, channel: str, payload: str) -> None:
    await conn.execute("SELECT pg_notify(?, ?)", (channel, payload))


class Listener:
    """One connection of ``db`` held to hear ``channels`` (each notice's payload to its
    callback), from ``start`` to ``stop``."""

    def __init__(self, db: PostgresDatabase, channels: dict[str, Callable[[str], None]]) -> None:
        self.db = db
        self.channels = channels
        self._raw: asyncpg.Connection | None = None
        self._callbacks = {channel: (lambda _c, _p, _ch, payload, heard=heard: heard(payload))
                           for channel, heard in channels.items()}

    async def start(self) -> None:
        raw = await self.db.pool.acquire()
        for channel, callback in self._callbacks.items():
            await raw.add_listener(channel, callback)
        self._raw = raw

    async def stop(self) -> None:
        raw, self._raw = self._raw, None
        if raw is None:
            return
        for channel, callback in self._callbacks.items():
            await raw.remove_listener(channel, callback)
        await self.db.pool.release(raw)
