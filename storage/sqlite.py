"""The SQLite backend: one aiosqlite connection with durable settings and group commit.

Durability: WAL with ``synchronous=FULL``. With NORMAL, WAL commits survive a
killed process but the last ones may vanish on power loss or an OS crash (the
WAL is only synced at checkpoints); FULL syncs the WAL at every commit, so an
acknowledged action is on disk. Group commit pays for that sync once per batch.

Group commit: every write is an operation queued for the one writer task. The
writer takes everything queued, runs the operations in one transaction,
commits once, and only then answers the callers. If one fails, the batch is
rolled back and run again with each operation in its own savepoint, so that
the failing one alone is refused and the others commit (operations only touch
the database, so running one twice is harmless). Nothing waits for a timer:
an idle database commits a lone write at once, and writes that arrive while a
commit is syncing form the next batch.

Reads take the same lock, so they never see a batch that is not committed.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import aiosqlite

from storage.errors import Conflict, StorageError
from storage.metrics import SQLITE_COMMIT
from storage.migrate import migrate
from storage.schema_sqlite import MIGRATIONS
from storage.sql import SQLITE, Conn, Row, Rows

T = TypeVar("T")
Operation = Callable[[Conn], Awaitable[Any]]

BUSY_TIMEOUT_SECONDS = 10.0
MEMORY = ":memory:"  # a database that lives only in this process (the service tests)


class SqliteConn(Rows):
    dialect = SQLITE

    def __init__(self, raw: aiosqlite.Connection) -> None:
        self.raw = raw

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            cursor = await self.raw.execute(sql, tuple(params))
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self.raw.executemany(sql, [tuple(row) for row in rows])
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return list(await self.raw.execute_fetchall(sql, tuple(params)))
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc


class SqliteDatabase:
    """The connection, its lock and the group-commit writer."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.where = path
        self.sql = SqliteConn(conn)
        self._lock = asyncio.Lock()
        self._queue: list[tuple[Operation, asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, path: str) -> SqliteDatabase:
        conn = await aiosqlite.connect(path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            mode = await _pragma(conn, "journal_mode=WAL")
            if str(mode).lower() != "wal" and path != MEMORY:
                raise StorageError(f"database {path}: cannot use WAL journal mode (got {mode})")
            await _pragma(conn, "synchronous=FULL")
            await _pragma(conn, "foreign_keys=ON")
            await conn.execute("BEGIN IMMEDIATE")  # two processes starting cannot both migrate
            try:
                await migrate(SqliteConn(conn), MIGRATIONS, path)
            except BaseException:
                await conn.execute("ROLLBACK")
                raise
            await conn.execute("COMMIT")
        except BaseException:
            await conn.close()
            raise
        return cls(conn, path)

    async def close(self) -> None:
        """Finish the writes already queued, then close."""
        while self._writer is not None:
            await asyncio.shield(self._writer)
        await self.conn.close()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Conn]:
        """The connection for several reads (or a streamed one) with no write in between."""
        async with self._lock:
            yield self.sql

    async def write(self, operation: Callable[[Conn], Awaitable[T]]) -> T:
        """Run ``operation`` in the next committed batch; its result once it is durable."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.append((operation, future))
        if self._writer is None:
            self._writer = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                async with self._lock:
                    await self._commit(batch)
        finally:
            self._writer = None

    async def _commit(self, batch: list[tuple[Operation, asyncio.Future[Any]]]) -> None:
        try:
            try:
                with SQLITE_COMMIT.time():
                    outcomes = await self._transaction(batch, isolated=False)
            except _Redo:  # one operation failed: run the batch again, each one isolated
                outcomes = await self._transaction(batch, isolated=True)
        except BaseException as exc:
            if self.conn.in_transaction:
                await self.conn.execute("ROLLBACK")
            for _, future in batch:
                if not future.done():
                    future.set_exception(exc if isinstance(exc, Exception) else StorageError(
                        "the write was interrupted"))
            if not isinstance(exc, Exception):
                raise
            return
        for future, ok, value in outcomes:
            if future.done():  # the caller was cancelled; the write stands
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    async def _transaction(
        self, batch: list[tuple[Operation, asyncio.Future[Any]]], *, isolated: bool
    ) -> list[tuple[asyncio.Future[Any], bool, Any]]:
        """Run the batch in one transaction and commit it.

        Not isolated (the usual case, nothing fails): no savepoints; the first
        failure rolls everything back and raises _Redo. Isolated: each
        operation in a savepoint, a failure rolls back that operation alone.
        """
        conn = self.conn
        outcomes: list[tuple[asyncio.Future[Any], bool, Any]] = []
        await conn.execute("BEGIN IMMEDIATE")
        for operation, future in batch:
            if isolated:
                await conn.execute("SAVEPOINT op")
            try:
                result = await operation(self.sql)
            except Exception as exc:
                if not isolated:
                    await conn.execute("ROLLBACK")
                    raise _Redo from exc
                await conn.execute("ROLLBACK TO op")
                outcomes.append((future, False, exc))
            else:
                outcomes.append((future, True, result))
            if isolated:
                await conn.execute("RELEASE op")
        await conn.execute("COMMIT")
        return outcomes


class _Redo(Exception):
    """An operation of an unisolated batch failed; the batch was rolled back."""


async def _pragma(conn: aiosqlite.Connection, setting: str) -> Any:
    rows = list(await conn.execute_fetchall(f"PRAGMA {setting}"))
    return rows[0][0] if rows else None
