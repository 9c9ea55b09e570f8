"""The one-off calls of the workers kept until Telegram answered them, in PostgreSQL.

A worker writes each one-off call a unit of work sends (a message, a picture, a press's
answer: the call as JSON, an upload's bytes) as a row of ``sends`` in the unit's
transaction, naming itself; after the commit it makes the calls in order and marks each
done once Telegram answered. The rows a dead worker left (no heartbeat: ``workers``) are
claimed by a live one (``FOR UPDATE SKIP LOCKED``, so two never take the same row), which
makes them in order (an answer only while Telegram takes it: hence each row's age).
Done rows are forgotten after ``KEEP_DONE`` seconds.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass

from storage.budgets import ANSWERED
from storage.inbox import LIVE, NOW
from storage.postgres import PostgresDatabase
from storage.sql import Conn

KEEP_DONE = 3_600.0
CLAIM = 200  # rows claimed at once


@dataclass(frozen=True)
class Kept:
    id: int
    chat_id: int
    call: str
    file: bytes | None
    age: float  # seconds since it was kept


class SendQueue:
    """The outbox's ``SendQueue`` of one worker."""

    def __init__(self, db: PostgresDatabase, worker: str) -> None:
        self.db = db
        self.worker = worker
        self.owed: set[int] = set()  # calls made whose marks are not written yet
        self.answered: list[int] = []  # the shared budget's answered calls told with them

    async def keep(self, chat_id: int, thread_id: int, call: str, file: bytes | None) -> int:
        return await self.db.write(lambda conn: conn.insert(
            "INSERT INTO sends (chat_id, thread_id, call, file, worker, created_at)"
            f" VALUES (?, ?, ?, ?, ?, {NOW})", (chat_id, thread_id, call, file, self.worker)))

    async def done(self, token: int, answered: Sequence[int] = ()) -> None:
        """Mark the call made, and the shared budget's ``answered`` calls with it: owed while
        the database is out of reach (``settle``)."""
        self.owed.add(token)
        self.answered += answered
        await self.settle()

    async def settle(self) -> None:
        """Write the marks owed (waiting while the database is out of reach; the process
        stops past its limit, and another makes the calls left unmarked again)."""
        while self.owed:
            tokens, answered = sorted(self.owed), list(self.answered)
            await self.db.write(lambda conn, marked=tokens, told=answered: conn.execute(
                f"WITH answered AS ({ANSWERED})"
                f" UPDATE sends SET done_at = {NOW}, file = NULL WHERE id = ANY(?::bigint[])",
                (told, marked)))
            self.owed.difference_update(tokens)
            del self.answered[:len(answered)]

    async def mine(self, tokens: list[int]) -> list[Kept]:
        """Those of ``tokens`` that this worker kept and did not make, in order: those of a
        unit of work whose COMMIT went unanswered, if it went through."""
        async with self.db.reading() as conn:
            rows = await conn.fetch(
                f"SELECT id, chat_id, call, file, {NOW} - created_at FROM sends"
                " WHERE id = ANY(?::bigint[]) AND worker = ? AND done_at IS NULL ORDER BY id",
                (tokens, self.worker))
        return [Kept(*row) for row in rows]

    @asynccontextmanager
    async def together(self) -> AsyncIterator[None]:
        async with self.db.connection() as raw, raw.transaction():
            with self.db.bound(raw):
                yield

    async def claim(self, *, dead_after: float) -> list[Kept]:
        """The calls dead workers left, now this worker's, in order."""
        async def claim(conn: Conn) -> list[Kept]:
            rows = await conn.fetch(
                f"UPDATE sends SET worker = ? WHERE id IN (SELECT id FROM sends"
                f" WHERE done_at IS NULL AND worker NOT IN ({LIVE}) ORDER BY id LIMIT ?"
                f" FOR UPDATE SKIP LOCKED) RETURNING id, chat_id, call, file, {NOW} - created_at",
                (self.worker, dead_after, CLAIM))
            return sorted((Kept(*r) for r in rows), key=lambda kept: kept.id)

        return await self.db.write(claim)

    async def prune(self) -> None:
        await self.db.write(lambda conn: conn.execute(
            f"DELETE FROM sends WHERE done_at < {NOW} - ?", (KEEP_DONE,)))
