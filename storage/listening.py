"""A LISTEN on PostgreSQL channels that outlives the server's restarts.

A restart closes the listening connection and with it the notifications: ``renew``, called
whenever the listener is about to wait for one (or every so often), listens again on a new
connection once the server is back (until then the caller polls, or knows that notices sent
meanwhile were not heard)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import asyncpg

from storage.outage import unavailable
from storage.postgres import PostgresDatabase


class Listener:
    def __init__(self, db: PostgresDatabase, channels: dict[str, Callable[[str], None]]) -> None:
        """``channels``: each channel's callback, given each notice's payload."""
        self.db = db
        self._callbacks = {channel: (lambda _c, _p, _ch, payload, heard=heard: heard(payload))
                           for channel, heard in channels.items()}
        self._raw: asyncpg.Connection | None = None

    async def renew(self) -> bool:
        """Listen, unless listening already (the database out of reach: not now). Whether
        it listens anew (notices sent since it last listened were not heard)."""
        if self._raw is not None and _alive(self._raw):
            return False
        await self.close()
        try:
            raw = await self.db.pool.acquire()
        except Exception as exc:
            if not unavailable(exc):
                raise
            return False
        try:
            for channel, callback in self._callbacks.items():
                await raw.add_listener(channel, callback)
        except Exception as exc:
            raw.terminate()
            await self.db.pool.release(raw)
            if not unavailable(exc):
                raise
            return False
        self._raw = raw
        return True

    async def close(self) -> None:
        raw, self._raw = self._raw, None
        if raw is None:
            return
        # Closed by an outage (its pool may have taken it back): nothing to unlisten.
        with contextlib.suppress(Exception):
            for channel, callback in self._callbacks.items():
                await raw.remove_listener(channel, callback)
        with contextlib.suppress(asyncpg.InterfaceError):
            await self.db.pool.release(raw)


def _alive(raw: asyncpg.Connection) -> bool:
    try:
        return not raw.is_closed()
    except asyncpg.InterfaceError:  # the pool took it back when its connection was lost
        return False
