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

The whole batch runs in one hop to aiosqlite's thread (``_batch``): each operation's
coroutine is run there to its end on the plain sqlite3 connection (``ThreadConn``), so a
batch costs the event loop one wait, not one a statement.

A batch that finds the file locked by another process (a backup) or the disk full is rolled
back whole and run again once it can be (``storage.outage``): an action is never half
stored; past the outage's limit its callers get ``DatabaseGone``.

Reads take the same lock, so they never see a batch that is not committed.
"""

from __future__ import annotations

import asyncio
import contextvars
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Any, TypeVar

import aiosqlite

from storage.errors import Conflict, StorageError
from storage.metrics import SQLITE_COMMIT
from storage.migrate import migrate
from storage.outage import Outage, unavailable
from storage.schema_sqlite import MIGRATIONS
from storage.sql import SQLITE, Conn, Row, Rows

T = TypeVar("T")
Operation = Callable[[Conn], Awaitable[Any]]

START_TIMEOUT_SECONDS = 10.0  # another process migrating, at start
BUSY_TIMEOUT_MS = 1000  # then a batch waits as an outage (storage/outage.py)
MEMORY = ":memory:"  # a database that lives only in this process (the service tests)


@contextmanager
def _conflicts() -> Iterator[None]:
    try:
        yield
    except sqlite3.IntegrityError as exc:
        raise Conflict(str(exc)) from exc


class SqliteConn(Rows):
    """The connection for reads, through aiosqlite's thread (one hop a statement)."""

    dialect = SQLITE

    def __init__(self, raw: aiosqlite.Connection) -> None:
        self.raw = raw

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        with _conflicts():
            cursor = await self.raw.execute(sql, tuple(params))
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with _conflicts():
            await self.raw.executemany(sql, [tuple(row) for row in rows])

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with _conflicts():
            return list(await self.raw.execute_fetchall(sql, tuple(params)))


class ThreadConn(Rows):
    """The connection inside the database thread, for a batch of writes: each statement runs
    at once, so an operation's coroutine never suspends (``_run_inline``)."""

    dialect = SQLITE

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        with _conflicts():
            return self.raw.execute(sql, tuple(params)).rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with _conflicts():
            self.raw.executemany(sql, [tuple(row) for row in rows])

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with _conflicts():
            return self.raw.execute(sql, tuple(params)).fetchall()


def _run_inline(operation: Operation, conn: ThreadConn) -> Any:
    """Run an operation's coroutine to its end without an event loop: on ``ThreadConn`` it
    awaits nothing that suspends."""
    coroutine = operation(conn)
    try:
        coroutine.send(None)
    except StopIteration as stop:
        return stop.value
    coroutine.close()
    raise StorageError("a write operation waited for something other than the database")


class SqliteDatabase:
    """The connection, its lock and the group-commit writer."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.where = path
        self.sql = SqliteConn(conn)
        self._lock = asyncio.Lock()
        self._queue: list[tuple[Operation, asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None
        self.outage = Outage(path)

    @classmethod
    async def open(cls, path: str) -> SqliteDatabase:
        conn = await aiosqlite.connect(path, timeout=START_TIMEOUT_SECONDS, isolation_level=None)
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
            await _pragma(conn, f"busy_timeout={BUSY_TIMEOUT_MS}")
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
            # A context of its own: the writes it commits are not its first caller's (who
            # may be ``impatient``).
            self._writer = asyncio.create_task(self._drain(), context=contextvars.Context())
        return await future

    async def _drain(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                await self._commit(batch)
        finally:
            self._writer = None

    async def _commit(self, batch: list[tuple[Operation, asyncio.Future[Any]]]) -> None:
        """Run the batch (again while the file is locked or the disk full: ``outage``; the
        reads go on meanwhile) and answer its callers."""
        operations = [operation for operation, _ in batch]
        try:
            while True:
                try:
                    async with self._lock:
                        with SQLITE_COMMIT.time():
                            outcomes = await _in_thread(self.conn, self._batch, operations)
                except Exception as exc:
                    if not unavailable(exc):
                        raise
                    await self.outage.wait(exc)  # DatabaseGone past its limit
                else:
                    self.outage.ok()
                    break
        except Exception as exc:
            for _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        except BaseException:
            for _, future in batch:
                if not future.done():
                    future.set_exception(StorageError("the write was interrupted"))
            raise
        for (_, future), (ok, value) in zip(batch, outcomes, strict=True):
            if future.done():  # the caller was cancelled; the write stands
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    @staticmethod
    def _batch(raw: sqlite3.Connection, operations: list[Operation]) -> list[tuple[bool, Any]]:
        """In the database thread: the batch in one transaction, committed; if one operation
        fails, run again with each operation isolated. Rolled back if it cannot commit."""
        try:
            try:
                return _transaction(raw, operations, isolated=False)
            except _Redo:
                return _transaction(raw, operations, isolated=True)
        except BaseException:
            if raw.in_transaction:
                raw.execute("ROLLBACK")
            raise


def _transaction(raw: sqlite3.Connection, operations: list[Operation], *,
                 isolated: bool) -> list[tuple[bool, Any]]:
    """Run the operations in one transaction and commit it.

    Not isolated (the usual case, nothing fails): no savepoints; the first failure rolls
    everything back and raises _Redo. Isolated: each operation in a savepoint, a failure
    rolls back that operation alone."""
    conn = ThreadConn(raw)
    outcomes: list[tuple[bool, Any]] = []
    raw.execute("BEGIN IMMEDIATE")
    for operation in operations:
        if isolated:
            raw.execute("SAVEPOINT op")
        try:
            result = _run_inline(operation, conn)
        except Exception as exc:
            if unavailable(exc):  # the disk full: not the operation's fault, the batch waits
                raise  # (SQLite may have rolled it back already: ``_batch``)
            if not isolated:
                raw.execute("ROLLBACK")
                raise _Redo from exc
            raw.execute("ROLLBACK TO op")
            outcomes.append((False, exc))
        else:
            outcomes.append((True, result))
        if isolated:
            raw.execute("RELEASE op")
    raw.execute("COMMIT")
    return outcomes


async def _in_thread(conn: aiosqlite.Connection, work: Callable[..., T], *args: Any) -> T:
    """``work(the sqlite3 connection, *args)`` in aiosqlite's thread, in one hop (aiosqlite
    has no public call for it; its ``execute`` is one hop a statement)."""
    return await conn._execute(lambda: work(conn._conn, *args))


class _Redo(Exception):
    """An operation of an unisolated batch failed; the batch was rolled back."""


async def _pragma(conn: aiosqlite.Connection, setting: str) -> Any:
    rows = list(await conn.execute_fetchall(f"PRAGMA {setting}"))
    return rows[0][0] if rows else None
