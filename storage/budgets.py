"""Per-chat call budgets shared by the worker processes, in PostgreSQL.

Each call to a chat is a row (``chat_calls``): a sliding window counts the rows of the
last ``period`` seconds on the server's clock, under the chat's own advisory lock
(never one lock for every chat). A call counts from when it was answered; until then
from ``IN_FLIGHT`` seconds ahead, so that a worker killed before the answer leaves a
row that still counts, and then expires.

PostgreSQL rather than Redis: the workers need PostgreSQL anyway, the budget is a few
dozen small transactions a second at Telegram's own limits (about 30 calls a second in
all), and one service fewer to run, secure and back up.
"""

from __future__ import annotations

from storage.inbox import NOW
from storage.sql import Conn, Database

IN_FLIGHT = 10.0
IN_FLIGHT_POLL = 0.05  # seconds to look again when the window is full of calls in flight
LOCK_CLASS = 7119  # the advisory locks' first key: (LOCK_CLASS, a chat's hash)
KEEP = 120.0  # seconds a call's row is kept (longer than any window)


class SharedBudget:
    """The outbox's ``SharedBudget`` on a PostgreSQL database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def take(self, chat_id: int, limit: int, period: float) -> tuple[int | None, float]:
        async def take(conn: Conn) -> tuple[int | None, float]:
            await conn.execute("SELECT pg_advisory_xact_lock(?, hashtext(?::text))",
                               (LOCK_CLASS, str(chat_id)))
            rows = await conn.fetch(
                f"SELECT at, {NOW} AS now FROM chat_calls WHERE chat_id = ?"
                f" AND at > {NOW} - ? ORDER BY at", (chat_id, period))
            if len(rows) >= limit:
                oldest = rows[len(rows) - limit]
                if oldest["at"] > oldest["now"]:  # not answered yet: look again soon
                    return None, IN_FLIGHT_POLL
                return None, max(0.01, oldest["at"] + period - oldest["now"] + 0.01)
            token = await conn.insert(
                f"INSERT INTO chat_calls (chat_id, at) VALUES (?, {NOW} + ?)",
                (chat_id, IN_FLIGHT))
            return token, 0.0

        return await self.db.write(take)

    async def answered(self, token: int) -> None:
        async def answered(conn: Conn) -> None:
            await conn.execute(f"UPDATE chat_calls SET at = {NOW} WHERE id = ?", (token,))

        await self.db.write(answered)

    async def prune(self) -> None:
        async def prune(conn: Conn) -> None:
            await conn.execute(f"DELETE FROM chat_calls WHERE at < {NOW} - ?", (KEEP,))

        await self.db.write(prune)
