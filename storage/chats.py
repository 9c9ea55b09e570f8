"""Chats and users: languages, time zones and quiet hours, display names."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Collection, Mapping
from typing import Any, TypeVar

from storage import tables_sql as sql
from storage.errors import NotFound
from storage.rows import UNSET, ChatRow, Unset, UserRow
from storage.sql import Conn, Database

T = TypeVar("T")
# The columns of users and of chats in one shape, so that one read returns rows of both
# (``ChatStore.get_many``): each row reads as a ``UserRow`` or a ``ChatRow``.
_USER_COLUMNS = ("id, display_name, username, language, has_started_bot, NULL AS time_zone,"
                 " NULL AS quiet_hours, NULL AS table_defaults, NULL AS title")
_CHAT_COLUMNS = ("id, NULL AS display_name, username, language, 0 AS has_started_bot,"
                 " time_zone, quiet_hours, table_defaults, title")


class ChatStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def save_chat(
        self, chat_id: int, *, language: str | Unset | None = UNSET,
        time_zone: str | Unset | None = UNSET, quiet_hours: str | Unset | None = UNSET,
        table_defaults: Mapping[str, Any] | Unset = UNSET, title: str | Unset | None = UNSET,
        username: str | Unset | None = UNSET,
    ) -> ChatRow:
        """Create the chat if new and change the given settings (``quiet_hours`` "23:00-08:00")
        or what Telegram shows of it (a group's ``title`` and public ``username``)."""
        values = {**sql.chat_values(language, time_zone, quiet_hours, table_defaults),
                  **sql.changes(title=title, username=username)}
        return await self._db.write(lambda conn: sql.save_chat(conn, chat_id, values))

    async def get_chat(self, chat_id: int) -> ChatRow | None:
        return await self._find(sql.load_chat, chat_id)

    async def save_user(
        self, user_id: int, *, display_name: str | Unset = UNSET,
        username: str | Unset | None = UNSET, language: str | Unset | None = UNSET,
        has_started_bot: bool | Unset = UNSET,
    ) -> UserRow:
        """Create the user if new (a display name is then required) and change the given fields."""
        values = sql.changes(display_name=display_name, username=username, language=language,
                             has_started_bot=has_started_bot)
        return await self._db.write(lambda conn: sql.save_user(conn, user_id, values))

    async def get_user(self, user_id: int) -> UserRow | None:
        return await self._find(sql.load_user, user_id)

    async def get_many(self, user_ids: Collection[int], chat_ids: Collection[int]
                       ) -> tuple[dict[int, UserRow], dict[int, ChatRow]]:
        """The stored ones of these users and chats, in one read (a worker's unit of work
        reads those it uses anew at its start)."""
        if not user_ids and not chat_ids:
            return {}, {}
        users = (f"SELECT 'u' AS kind, {_USER_COLUMNS} FROM users"
                 f" WHERE id IN ({', '.join('?' * len(user_ids))})")
        chats = (f"SELECT 'c' AS kind, {_CHAT_COLUMNS} FROM chats"
                 f" WHERE id IN ({', '.join('?' * len(chat_ids))})")
        query = " UNION ALL ".join(
            part for part, ids in ((users, user_ids), (chats, chat_ids)) if ids)
        async with self._db.reading() as conn:
            rows = await conn.fetch(query, (*user_ids, *chat_ids))
        return ({row["id"]: UserRow.of(row) for row in rows if row["kind"] == "u"},
                {row["id"]: ChatRow.of(row) for row in rows if row["kind"] == "c"})

    async def find_user(self, username: str) -> UserRow | None:
        """The user with this Telegram username (any case, with or without the @)."""
        async with self._db.reading() as conn:
            row = await conn.fetchone("SELECT * FROM users WHERE lower(username) = lower(?)"
                                " ORDER BY updated_at DESC LIMIT 1", (username.lstrip("@"),))
            return None if row is None else UserRow.of(row)

    async def any_user(self) -> bool:
        """Some user is stored: a process ran on this database before."""
        async with self._db.reading() as conn:
            return await conn.fetchone("SELECT 1 FROM users LIMIT 1") is not None

    async def _find(
        self, load: Callable[[Conn, int], Awaitable[T]], key: int
    ) -> T | None:
        async with self._db.reading() as conn:
            try:
                return await load(conn, key)
            except NotFound:
                return None

    async def migrate_chat(self, old_id: int, new_id: int) -> bool:
        """Group -> supergroup: move the chat, its settings and all its tables to ``new_id``.

        Idempotent (Telegram reports a migration from both sides): False when
        there is nothing left under ``old_id``. If ``new_id`` already has a row,
        the old chat's settings replace it.
        """
        async def move(conn: Conn) -> bool:
            old = await conn.fetchone("SELECT * FROM chats WHERE id = ?", (old_id,))
            if old is None or old_id == new_id:
                return False
            if await sql.open_table_id(conn, old_id) is not None:
                await sql.refuse_second_table(conn, new_id)
            await conn.execute(
                "INSERT INTO chats (id, language, time_zone, quiet_hours, table_defaults,"
                " title, created_at, updated_at) SELECT ?, language, time_zone, quiet_hours,"
                " table_defaults, title, created_at, ? FROM chats WHERE id = ?"
                " ON CONFLICT(id) DO UPDATE SET language = excluded.language,"
                " time_zone = excluded.time_zone, quiet_hours = excluded.quiet_hours,"
                " table_defaults = excluded.table_defaults,"
                " title = COALESCE(chats.title, excluded.title), updated_at = excluded.updated_at",
                (new_id, time.time(), old_id),
            )
            await conn.execute("UPDATE game_tables SET chat_id = ? WHERE chat_id = ?",
                               (new_id, old_id))
            await conn.execute("DELETE FROM chats WHERE id = ?", (old_id,))
            return True

        return await self._db.write(move)
