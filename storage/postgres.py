"""The PostgreSQL backend, through asyncpg: a pool of connections, a transaction per write.

asyncpg rather than psycopg 3: it is asyncio-native with its own binary protocol
(the faster of the two on small statements, which is all this bot makes), its rows
are read by name and by position like ``sqlite3.Row`` (so the SQL modules read rows
one way for both backends), and it has what the workers need (advisory locks are
plain SQL; LISTEN/NOTIFY through ``add_listener``).

PostgreSQL commits are durable as SQLite's with ``synchronous=FULL`` (the WAL is
flushed at each commit) and concurrent commits are flushed together by the
server, so there is no group commit here: every write is its own transaction on
a connection of the pool. A deadlock or serialization failure runs it again; so does a server
out of reach (restarting, a network blip), waited out as an outage (storage/outage.py).

A worker (bot/telegram/worker.py) does one update in one transaction: ``bound`` makes
every write and read of the task that does it run inside that transaction (a write is
then a savepoint), so that the update's writes are committed together, or not at all.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from storage.errors import Conflict
from storage.metrics import POSTGRES_COMMIT
from storage.migrate import migrate
from storage.outage import Outage, unavailable
from storage.schema_pg import MIGRATIONS
from storage.sql import POSTGRES, Conn, Row, Rows

T = TypeVar("T")

MIGRATION_LOCK = 7_118_000  # the advisory lock key that serializes migrations
RETRIES = 5
_PLACEHOLDER = re.compile(r"'[^']*'|\?")


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (never inside a quoted string)."""
    count = 0

    def number(found: re.Match[str]) -> str:
        nonlocal count
        if found.group() != "?":
            return found.group()
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


def _values(params: Sequence[Any]) -> list[Any]:
    """Flags are stored as integers, as in SQLite."""
    return [int(v) if isinstance(v, bool) else v for v in params]


@contextmanager
def _conflicts() -> Iterator[None]:
    try:
        yield
    except asyncpg.UniqueViolationError as exc:
        raise Conflict(str(exc)) from exc


class PgConn(Rows):
    dialect = POSTGRES

    def __init__(self, raw: asyncpg.Connection) -> None:
        self.raw = raw

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        with _conflicts():
            status = await self.raw.execute(numbered(sql), *_values(params))
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with _conflicts():
            await self.raw.executemany(numbered(sql), [_values(row) for row in rows])

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with _conflicts():
            return list(await self.raw.fetch(numbered(sql), *_values(params)))


class _Connection(asyncpg.Connection):  # type: ignore[misc]
    """A pooled connection given back as it is: the bot holds only transaction-level locks,
    sets nothing for a session and unlistens itself, so asyncpg's reset (four statements)
    would be a round trip at each release for nothing."""

    def get_reset_query(self) -> str:
        return ""


@dataclass(eq=False)
class _Bound:
    """A transaction that the writes and reads of one task join (see ``bound``)."""

    raw: asyncpg.Connection
    task: asyncio.Task[Any] | None
    open: bool = True

    def serves(self) -> bool:
        return self.open and asyncio.current_task() is self.task


_bound: ContextVar[_Bound | None] = ContextVar("cardtable_bound_transaction", default=None)


class PostgresDatabase:
    def __init__(self, pool: asyncpg.Pool, where: str) -> None:
        self.pool = pool
        self.where = where
        self.outage = Outage(where)

    @classmethod
    async def open(cls, url: str, *, size: int = 10) -> PostgresDatabase:
        where = shown_url(url)
        # No JIT: the bot's statements are short, and a fresh database's missing statistics
        # made the planner compile start-up's one scan of the open tables (0.3 s of 0.34 s).
        # No floor of open connections: after a restart of the server the pool would try to
        # restore it on its own, logging each refusal with a traceback.
        pool = await asyncpg.create_pool(url, min_size=0, max_size=size,
                                         server_settings={"jit": "off"},
                                         connection_class=_Connection)
        try:
            async with pool.acquire() as raw, raw.transaction():
                await raw.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await migrate(PgConn(raw), MIGRATIONS, where)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, where)

    async def close(self) -> None:
        await self.pool.close()

    @contextmanager
    def bound(self, raw: asyncpg.Connection) -> Iterator[None]:
        """Inside: this task's writes and reads run in ``raw``'s open transaction (the
        caller commits it); other tasks (those it starts too) keep using the pool."""
        bound = _Bound(raw, asyncio.current_task())
        token = _bound.set(bound)
        try:
            yield
        finally:
            bound.open = False
            _bound.reset(token)

    async def write(self, operation: Callable[[Conn], Awaitable[T]]) -> T:
        """In a transaction of its own, done again after a deadlock or a serialization
        failure, and while the server is out of reach (``outage``). In a ``bound`` one, a
        savepoint of it."""
        bound = _bound.get()
        if bound is not None and bound.serves():
            async with bound.raw.transaction():  # a savepoint: kept or undone whole
                return await operation(PgConn(bound.raw))
        conflicts = 0
        while True:
            try:
                async with self.pool.acquire() as raw:
                    with dropping_broken(raw), POSTGRES_COMMIT.time():
                        async with raw.transaction():
                            done = await operation(PgConn(raw))
            except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError):
                conflicts += 1
                if conflicts == RETRIES:
                    raise
            except Exception as exc:
                if not unavailable(exc):
                    raise
                await self.outage.wait(exc)
            else:
                self.outage.ok()
                return done

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Conn]:
        """A read-only transaction (on a connection taken once the server is in reach:
        ``connection``)."""
        bound = _bound.get()
        if bound is not None and bound.serves():
            yield PgConn(bound.raw)  # sees the transaction's own writes
            return
        async with self.connection() as raw, raw.transaction(
                isolation="repeatable_read", readonly=True):
            yield PgConn(raw)

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool, once the server answers (waited for during an
        ``outage``)."""
        while True:
            try:
                raw = await self.pool.acquire()
            except Exception as exc:
                if not unavailable(exc):
                    raise
                await self.outage.wait(exc)
            else:
                break
        self.outage.ok()
        try:
            with dropping_broken(raw):
                yield raw
        finally:
            await self.pool.release(raw)


@contextmanager
def dropping_broken(raw: asyncpg.Connection) -> Iterator[None]:
    """Inside: a connection that the server's outage broke is closed, so that its pool opens
    a new one rather than give it to the next taker as it is."""
    try:
        yield
    except Exception as exc:
        if unavailable(exc):
            raw.terminate()
        raise


def shown_url(url: str) -> str:
    """The URL without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}@{host}"))
