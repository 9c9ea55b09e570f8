"""What the SQL of every store runs on: a connection of either backend, and its dialect.

SQL is written once, with ``?`` placeholders, in the SQL both SQLite and PostgreSQL
read; the PostgreSQL connection numbers the placeholders. What the two spell
differently is the ``Dialect``'s. Rows are read by column name or position
(``sqlite3.Row`` and ``asyncpg.Record`` both allow either).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from storage.outage import Outage

T = TypeVar("T")
Row = Any  # a row by column name or position


@dataclass(frozen=True)
class Dialect:
    """``json_array(expr)``: an aggregate of ``expr`` as JSON array text ('[]' for no row);
    ``json_has(column, key)``: the JSON text in ``column`` is an object with ``key``;
    ``for_update``: what locks the rows a SELECT reads until the transaction ends;
    ``skip_locked``: the same, passing over rows another transaction holds (a claim);
    ``exclusive``: a statement that waits for, and holds till the transaction ends, the lock
    its one parameter names, a number: one such transaction at a time (SQLite has no row
    locks and needs neither: its writes are serialized whole);
    ``now``: the database's clock, in seconds since the epoch (PostgreSQL's is the server's,
    the same for every process; SQLite's the machine's, to the millisecond)."""

    name: str
    json_array: Callable[[str], str]
    json_has: Callable[[str, str], str]
    for_update: str
    skip_locked: str
    exclusive: str
    now: str


SQLITE = Dialect("sqlite", lambda e: f"json_group_array({e})",
                 lambda c, k: f"json_extract({c}, '$.{k}') IS NOT NULL", "", "", "",
                 "((julianday('now') - 2440587.5) * 86400.0)")
POSTGRES = Dialect("postgresql", lambda e: f"COALESCE(json_agg({e}), '[]'::json)::text",
                   lambda c, k: f"({c}::jsonb -> '{k}') IS NOT NULL", " FOR UPDATE",
                   " FOR UPDATE SKIP LOCKED", "SELECT pg_advisory_xact_lock(?)",
                   "extract(epoch FROM clock_timestamp())::float8")


class Conn(Protocol):
    """One connection inside a transaction (or, reading, outside any)."""

    dialect: Dialect

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    async def insert(self, sql: str, params: Sequence[Any]) -> int:
        """Run an INSERT of one row into a table with an ``id`` key; the new id."""


class Rows:
    """``fetchone`` and ``insert`` of a connection, from its ``fetch``."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        raise NotImplementedError

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None

    async def insert(self, sql: str, params: Sequence[Any]) -> int:
        row = await self.fetchone(sql + " RETURNING id", params)
        assert row is not None
        return int(row[0])


Operation = Callable[[Conn], Awaitable[T]]


class Database(Protocol):
    """A backend: writes as operations run in a committed transaction, reads on a
    connection that sees only committed writes. ``where``: the file or server, for messages."""

    where: str
    outage: Outage  # whether the database is out of reach now (storage/outage.py)

    async def write(self, operation: Callable[[Conn], Awaitable[T]]) -> T:
        """Run ``operation`` in a transaction; its result once it is durable. If it raises,
        nothing it did is kept."""

    def reading(self) -> AbstractAsyncContextManager[Conn]:
        """A connection for several reads with no write in between."""

    async def close(self) -> None: ...
