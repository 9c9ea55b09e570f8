from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from storage import Storage


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    """A SQLite file, for the tests of what only SQLite has."""
    return str(tmp_path / "cardtable.db")


@pytest.fixture
async def store(location: str) -> AsyncIterator[Storage]:
    storage = await Storage.open(location)
    yield storage
    await storage.close()


@pytest.fixture
async def sqlite_store(db_path: str) -> AsyncIterator[Storage]:
    """A store on SQLite, for what only its group commit promises."""
    storage = await Storage.open(db_path)
    yield storage
    await storage.close()


async def rows(store: Storage, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """A query of the store's own database (SQL both backends read), rows as tuples."""
    async with store.db.reading() as conn:
        return [tuple(row) for row in await conn.fetch(sql, params)]
