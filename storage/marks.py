"""What the bot learned of Telegram that every process and the next start should know too:
the digest of the command menus it set (set again only when they change: once per deploy),
the groups where it may not pin. A mark is a key and a text."""

from __future__ import annotations

from storage.sql import Conn, Database


class MarkStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, key: str) -> str | None:
        async with self._db.reading() as conn:
            row = await conn.fetchone("SELECT value FROM marks WHERE key = ?", (key,))
            return None if row is None else str(row["value"])

    async def put(self, key: str, value: str) -> None:
        async def put(conn: Conn) -> None:
            await conn.execute("INSERT INTO marks (key, value) VALUES (?, ?) ON CONFLICT (key)"
                               " DO UPDATE SET value = excluded.value", (key, value))

        await self._db.write(put)

    async def drop(self, key: str) -> None:
        async def drop(conn: Conn) -> None:
            await conn.execute("DELETE FROM marks WHERE key = ?", (key,))

        await self._db.write(drop)
