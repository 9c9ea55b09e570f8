"""A LISTEN on a PostgreSQL channel that outlives the server's restarts.

A restart closes the listening connection and with it the notifications: ``renew``, called
whenever the listener is about to wait for one, listens again on a new connection once the
server is back (until then the caller polls)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import asyncpg

from storage.outage import unavailable
from storage.postgres import PostgresDatabase


class Listener:
    def __init__(self, db: PostgresDatabase, channel: str, notified: Callable[..., None]) -> None:
        self.db = db
        self.channel = channel
        self.notified = notified
        self._raw: asyncpg.Connection | None = None

    async def renew(self) -> None:
        """Listen, unless listening already (the database out of reach: not now)."""
        if self._raw is not None and _alive(self._raw):
            return
        await self.close()
        try:
            raw = await self.db.pool.acquire()
        except Exception as exc:
            if not unavailable(exc):
                raise
            return
        try:
            await raw.add_listener(self.channel, self.notified)
        except Exception as exc:
            raw.terminate()
            await self.db.pool.release(raw)
            if not unavailable(exc):
                raise
            return
        self._raw = raw

    async def close(self) -> None:
        raw, self._raw = self._raw, None
        if raw is None:
            return
        # Closed by an outage (its pool may have taken it back): nothing to unlisten.
        with contextlib.suppress(Exception):
            await raw.remove_listener(self.channel, self.notified)
        with contextlib.suppress(asyncpg.InterfaceError):
            await self.db.pool.release(raw)


def _alive(raw: asyncpg.Connection) -> bool:
    try:
        return not raw.is_closed()
    except asyncpg.InterfaceError:  # the pool took it back when its connection was lost
        return False
